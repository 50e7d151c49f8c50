# Two entry points, each doing all set-up on a fresh machine:
#   make run    # the main job on the default config: the whole 512-spot sweep and its release
#               # (snakemake --cores all --keep-going --rerun-incomplete all; rerun to resume)
#   make quick  # the same chain on eight small spots (two per format) (config/quick.yaml), a few minutes
#   make test   # the test suite
# The virtualenv is (re)built whenever pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all
PYTEST_ARGS ?=

.PHONY: run quick test bench clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,slurm]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --keep-going --rerun-incomplete all

quick: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --keep-going --rerun-incomplete release --configfile config/quick.yaml

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean-venv:
	rm -rf $(VENV)
