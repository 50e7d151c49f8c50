# Entry points, each doing all set-up on a fresh machine:
#   make run    # the main job on the default config: the whole 512-spot sweep and its release
#               # (snakemake --cores all --keep-going --rerun-incomplete all; rerun to resume)
#   make quick  # the same chain on the eight small spots of config/spots-quick.tsv
#               # (config/presets/quick.yaml), a few minutes
#   make test   # the test suite (it also builds the documentation site with mkdocs build --strict)
#   make docs   # serve the documentation site on http://127.0.0.1:8000/
# The virtualenv is (re)built whenever pyproject.toml changes.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= all
# SCHEDULING: Snakemake arms a timer after every scheduling round and each timer starts another
# round, so they pile up while hundreds of solves wait (py-spy, full sweep on one core: 30% of the
# main process's samples starting their threads). A 10 s timespan instead of the default 1 s fires
# them a tenth as often and delays the end of a run by at most 10 s.
SCHEDULING ?= --max-jobs-per-timespan 1000/10s
PYTEST_ARGS ?=

.PHONY: run quick test docs clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,slurm,docs]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) $(SCHEDULING) --keep-going --rerun-incomplete all

quick: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) $(SCHEDULING) --keep-going --rerun-incomplete release --configfile config/presets/quick.yaml

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

docs: $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

clean-venv:
	rm -rf $(VENV)
