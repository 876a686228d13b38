# Everyday targets. Each installs the project into .venv on first use, so any of
# them works on a fresh machine with Python >= 3.11.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: simulate test lint bench report clean

# uv (from PyPI) resolves and installs in a quarter of pip's time (11 s against 38 s here);
# where it cannot be had, pip does the same install. Then every library module is compiled
# to bytecode once: uv writes none, and with PYTHONDONTWRITEBYTECODE set (as on our VMs)
# every process compiled pandas, numba and numpy from source again, about 2.5 s of CPU a
# start. uv's own --compile-bytecode skips a venv it finds up to date, which left venvs
# made before this rule without bytecode; compileall always looks (2 s when nothing is
# left to do). Bytecode only saves time, so a file it cannot compile fails nothing.
# The stamp depends on this Makefile too: a change to the install recipe reinstalls.
$(STAMP): pyproject.toml Makefile
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	{ $(BIN)/pip install --quiet uv && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'; } \
	  || $(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -qq -j 0 $(VENV)/lib || true
	touch $(STAMP)

simulate: $(STAMP)  ## the main job: one million Pedro deals, summary with 95% CIs
	mkdir -p runs
	$(BIN)/bidlab simulate pedro --deals 1000000 --seed 1 --out runs/pedro-seed1.parquet

test: $(STAMP)  ## the whole test suite, on up to four cores (tests/conftest.py compiles first)
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4

lint: $(STAMP)
	$(BIN)/ruff check analyzer tests benchmarks

report: $(STAMP)  ## the four committed game reports, reports/<game>/ (about ten minutes)
	for game in pedro cinch rook king; do \
	  $(BIN)/bidlab report simulations/$$game.toml --out reports/$$game || exit 1; \
	done

bench: $(STAMP)
	$(BIN)/bidlab bench

clean:
	rm -rf $(VENV) runs .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
