# make demo   set up .venv and solve the bundled 6x10 pentomino example
# make test   set up .venv and run the tests
# make fuzz   the fuzz suite's long profile (10,000 inputs per parser family, 50 Ctrl-C trials)
# make bench  compare polytile with xcover on the benchmark cases
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test fuzz bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/polytile solve examples/pentomino-6x10.txt
	$(BIN)/polytile count examples/pentomino-6x10.txt --unique

test: $(STAMP)
	$(BIN)/python -m pytest -q

fuzz: $(STAMP)
	POLYTILE_FUZZ=long $(BIN)/python -m pytest -q -p no:cacheprovider --hypothesis-show-statistics tests/test_fuzz.py tests/test_interrupt_trials.py

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python bench/bench_peers.py

clean:
	rm -rf $(VENV) build *.egg-info
