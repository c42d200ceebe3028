# make demo   set up .venv and solve the bundled 6x10 pentomino example
# make test   set up .venv and run the tests, on two processes (pytest-xdist; TEST_JOBS=1 for one)
# make test-fast  the tests without the slow, browser and fuzz markers, on two processes
#                 (pytest-xdist; TEST_JOBS=1 for one): under 2 minutes on an idle 2-core machine
# make fuzz   long profiles of the modules marked fuzz (FUZZ_MODULES in tests/conftest.py): the
#             parser fuzz suite and its resource profile (10,000 inputs per family each, 1 GB of
#             address space and 5 s per input), the random differential tests (100,000 tiling
#             puzzles, 20,000 Shikaku grids; hours), 50 Ctrl-C trials
# make lint   ruff format --check, ruff check, mypy, import-linter (layers, no cycles), ESLint on
#             the page's JavaScript (npm's eslint in $(ESLINT_DIR), outside the repository)
# make bench  compare polytile with xcover on the benchmark cases
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast fuzz lint bench clean
LINT   := $(VENV)/.lint

# pip shows its progress: the first install downloads numpy, numba and the rest, then builds
# polytile, which compiles its search kernels ahead of time (a few minutes with no output of
# its own: pip prints "Building editable for polytile" and waits; see docs/startup.md)
$(STAMP): pyproject.toml
	@echo "== make: setting up $(VENV) (the first time takes a few minutes; later runs skip this)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --progress-bar on --upgrade pip
	@echo "== make: installing polytile and its test tools into $(VENV); compiling the kernels comes last"
	$(BIN)/python -m pip install --progress-bar on -e '.[test]'
	touch $(STAMP)
	@echo "== make: $(VENV) is ready: run .venv/bin/polytile, or 'source .venv/bin/activate' and then polytile"

demo: $(STAMP)
	$(BIN)/polytile solve examples/pentomino-6x10.txt
	$(BIN)/polytile count examples/pentomino-6x10.txt --unique

# both run on TEST_JOBS processes (pytest-xdist, whole files per process; TEST_JOBS=1 for one)
TEST_JOBS ?= 2
test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadfile --durations=15

# the tests that take seconds, not minutes (markers applied by module in tests/conftest.py)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist loadfile -m "not slow and not browser and not fuzz" --durations=10

fuzz: $(STAMP)
	POLYTILE_FUZZ=long $(BIN)/python -m pytest -q -s -p no:cacheprovider --hypothesis-show-statistics -m fuzz

# the lint extra's tools only, read from pyproject.toml: polytile itself is already installed,
# and reinstalling it would compile the kernels again for nothing
$(LINT): $(STAMP) pyproject.toml
	$(BIN)/python -c "import tomllib; print('\\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['lint']))" > $(VENV)/lint-requirements.txt
	$(BIN)/python -m pip install --progress-bar on -r $(VENV)/lint-requirements.txt
	touch $(LINT)

ESLINT_DIR ?= /tmp/polytile-eslint
ESLINT     := $(ESLINT_DIR)/node_modules/.bin/eslint

$(ESLINT):
	npm install --prefix $(ESLINT_DIR) --no-audit --no-fund eslint@9 @eslint/js@9 globals@17

lint: $(LINT) $(ESLINT)
	$(BIN)/ruff format --check src tests bench
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports
	POLYTILE_ESLINT=$(ESLINT_DIR) $(ESLINT) src/polytile/web/static

bench: $(STAMP)
	$(BIN)/python -m pip install --progress-bar on -e '.[bench]'
	$(BIN)/python bench/bench_peers.py

clean:
	rm -rf $(VENV) build *.egg-info
