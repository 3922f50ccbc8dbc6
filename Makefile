# Kumiki — every target installs what it needs into .venv first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
WEB    := src/kumiki/web
CLIENT := $(WEB)/dist/index.html
CLIENT_SOURCES := $(wildcard $(WEB)/package.json $(WEB)/package-lock.json $(WEB)/index.html $(WEB)/vite.config.ts \
	$(WEB)/tsconfig.json) $(shell find $(WEB)/src $(WEB)/public -type f 2>/dev/null)
HOST   ?= 127.0.0.1
PORT   ?= 8000

.DEFAULT_GOAL := help
.PHONY: help run play test lint bench load strength clean client system-deps

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-9s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	@touch $(STAMP)

# The browser client, rebuilt only when a source is newer than the bundle (needs Node 20 and npm).
$(CLIENT): $(CLIENT_SOURCES)
	cd $(WEB) && npm ci --no-audit --no-fund && npm run build
	@touch $(CLIENT)

client: $(CLIENT)  ## build the browser client (src/kumiki/web -> dist/)

# What the browser and database tests need from the system: installed with apt when missing (root only).
system-deps:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		missing=""; \
		command -v chromium >/dev/null || missing="$$missing chromium"; \
		ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
		if [ -n "$$missing" ]; then \
			echo "installing$$missing with apt-get"; \
			DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		fi; \
	fi

run: $(STAMP) $(CLIENT)  ## the web app: build the client if needed, then serve it (HOST=, PORT=)
	$(BIN)/kumiki serve --host $(HOST) --port $(PORT)

play: $(STAMP)  ## play Kuzushi in the terminal against the computer
	$(BIN)/kumiki play kuzushi

test: $(STAMP) system-deps $(CLIENT)  ## ruff, tsc + the whole pytest suite (unit, server, PostgreSQL, browser)
	cd $(WEB) && npm run check
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)  ## ruff only
	$(BIN)/ruff check src tests bench

bench: $(STAMP)  ## run the benchmarks and print the figures
	$(BIN)/python -m bench

load: $(STAMP)  ## the web server under load: 200 WebSocket clients in 100 Kuzushi games
	$(BIN)/python -m bench.server_load

strength: $(STAMP)  ## the agents' strength matches: Kuzushi, Blokus 3D and Kozo (several minutes)
	$(BIN)/python -m bench.strength --games 100
	$(BIN)/python -m bench.blokus3d_strength --games 40
	$(BIN)/python -m bench.kozo_strength --games 40

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build src/*.egg-info $(WEB)/dist $(WEB)/node_modules
