# Kumiki — every target installs what it needs into .venv first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help run test lint bench strength clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-9s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	@touch $(STAMP)

run: $(STAMP)  ## play Kuzushi in the terminal against the computer
	$(BIN)/kumiki play kuzushi

test: $(STAMP)  ## ruff + the whole pytest suite
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)  ## ruff only
	$(BIN)/ruff check src tests bench

bench: $(STAMP)  ## run the benchmarks and print the figures
	$(BIN)/python -m bench

strength: $(STAMP)  ## the agents' strength matches: Kuzushi, Blokus 3D and Kozo (several minutes)
	$(BIN)/python -m bench.strength --games 100
	$(BIN)/python -m bench.blokus3d_strength --games 40
	$(BIN)/python -m bench.kozo_strength --games 40

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build src/*.egg-info
