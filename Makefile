# Two entry points, each doing all set-up on a fresh machine:
#   make run    # the main job on the default config (snakemake --cores all all)
#   make test   # the test suite
# The virtualenv is (re)built whenever pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all
PYTEST_ARGS ?=

.PHONY: run test bench clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,slurm]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) all

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean-venv:
	rm -rf $(VENV)
