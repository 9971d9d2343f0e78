# shimgl: every target sets up what it needs, so on a fresh machine
# `make demo` and `make test` are the only two commands a newcomer needs.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Parallel test workers (pytest-xdist); 2 cores is the target machine.
JOBS   ?= auto

.PHONY: all venv test test-all lint-imports bench demo optional-deps clean

all: test

# (Re)create the virtual environment and install the project into it, editable,
# with the test extra. Redone whenever pyproject.toml changes (new dependency,
# new entry point).
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# The layering of DESIGN.md, machine-checked (contracts in pyproject.toml).
lint-imports: $(STAMP)
	$(VENV)/bin/lint-imports

# The fast suite: everything not marked slow.
test: $(STAMP) lint-imports
	$(PY) -m pytest -m "not slow" -n $(JOBS)

# Everything, including tests marked slow.
test-all: $(STAMP) lint-imports
	$(PY) -m pytest -n $(JOBS)

# Benchmarks: every tests/bench/bench_*.py, one table of figures (ms).
bench: $(STAMP)
	$(PY) -m tests.bench

demo: $(STAMP)
	$(VENV)/bin/shimgl demo

# Optional Debian packages used by optional checks (piglit, Mesa's llvmpipe as a
# reference renderer, glvnd's vendor ABI). Installed when we are root and apt
# exists; tests that need them skip with a reason otherwise.
optional-deps:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    piglit libegl-mesa0 libgl1-mesa-dri libglvnd-dev libosmesa6 >/dev/null \
	  || echo "optional-deps: could not install every optional package; dependent tests will skip"; \
	else echo "optional-deps: not root or no apt-get; dependent tests will skip"; fi

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
