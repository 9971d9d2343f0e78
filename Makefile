# shimgl: every target sets up what it needs, so on a fresh machine
# `make demo` and `make test` are the only two commands a newcomer needs.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Parallel test workers (pytest-xdist); 2 cores is the target machine.
JOBS   ?= auto
# The test processes' shader/native code caches, kept between runs (tests/conftest.py).
TEST_CACHE := SHIMGL_TEST_CACHE_DIR=$(CURDIR)/build/test-cache

.PHONY: all venv test test-all lint-imports bench demo optional-deps clean piglit fuzz

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

# The layering of docs/architecture.md, machine-checked (contracts in pyproject.toml).
lint-imports: $(STAMP)
	$(VENV)/bin/lint-imports

# The fast suite: everything not marked slow.
test: $(STAMP) lint-imports
	$(TEST_CACHE) $(PY) -m pytest -m "not slow" -n $(JOBS)

# Everything, including tests marked slow.
test-all: $(STAMP) lint-imports
	$(TEST_CACHE) $(PY) -m pytest -n $(JOBS)

# The long self-fuzzing runs (tests/fuzz, marked slow; short runs are in `make test`).
fuzz: $(STAMP)
	$(PY) -m pytest -m slow -s tests/fuzz

# Benchmarks: every tests/bench/bench_*.py, one table of figures (ms).
bench: $(STAMP)
	$(PY) -m tests.bench
	$(VENV)/bin/shimgl bench --size 512,1024

demo: $(STAMP)
	$(VENV)/bin/shimgl demo

# Optional Debian packages used by optional checks (piglit, Mesa's llvmpipe as a
# reference renderer, glvnd's vendor ABI, Xvfb and the X11/GLX/ES demo programs
# for window-system tests, apitrace, spirv-tools for SPIR-V tests). Installed when we are root and apt
# exists; tests that need them skip with a reason otherwise.
optional-deps:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    piglit libegl-mesa0 libgl1-mesa-dri libglvnd-dev libosmesa6 xvfb x11-utils mesa-utils \
	    glmark2-es2-x11 apitrace spirv-tools \
	    libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
	    libxcb-render-util0 libxcb-xinerama0 godot3 chromium >/dev/null \
	  || echo "optional-deps: could not install every optional package; dependent tests will skip"; \
	else echo "optional-deps: not root or no apt-get; dependent tests will skip"; fi

# Conformance: the installed piglit (Debian's package) on shimgl next to Mesa's
# llvmpipe, per tier: piglit-results/tierN/{summary.md,results.csv,results.json}.
# A reproducible sample of PIGLIT_SAMPLE tests per tier (empty: whole tiers, hours).
PIGLIT_SAMPLE ?= 100
PIGLIT_TIERS  ?= 1 2 3 4
PIGLIT_JOBS   ?= 2
piglit: $(STAMP) optional-deps
	@for t in $(PIGLIT_TIERS); do \
	  $(VENV)/bin/shimgl piglit --tier $$t $(if $(PIGLIT_SAMPLE),--sample $(PIGLIT_SAMPLE)) \
	    --reference --jobs $(PIGLIT_JOBS) --timeout 120 --out piglit-results/tier$$t || exit 1; \
	done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
