# make demo   set up .venv and solve the bundled 6x10 pentomino example
# make test   set up .venv and run the tests
# make bench  compare polytile with xcover on the benchmark cases
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean

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

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python bench/bench_peers.py

clean:
	rm -rf $(VENV) build *.egg-info
