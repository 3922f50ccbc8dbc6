# Kumiki — every target installs what it needs into .venv first.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# A venv whose python runs no pip is made again: `python -m venv` that stopped half-way (Debian's python3.11
# without python3.11-venv leaves .venv/bin/python, then fails at ensurepip) would fail every later run.
VENV_READY = $(BIN)/python -m pip --version >/dev/null 2>&1 || $(PYTHON) -m venv --clear $(VENV) \
	|| python3 -m venv --clear $(VENV)
WEB    := src/kumiki/web
CLIENT := $(WEB)/dist/index.html
CLIENT_SOURCES := $(wildcard $(WEB)/package.json $(WEB)/package-lock.json $(WEB)/index.html $(WEB)/vite.config.ts \
	$(WEB)/tsconfig.json) $(shell find $(WEB)/src $(WEB)/public -type f 2>/dev/null)
HOST   ?= 127.0.0.1
PORT   ?= 8000

.DEFAULT_GOAL := help
LOCK   := requirements.lock
LATEST := .venv-latest
# The lock covers every extra; `all` is only their union, so it is not named here.
EXTRAS := --extra bench --extra sim --extra web --extra e2e --extra arena --extra ray --extra openspiel --extra pettingzoo \
	--extra dev --extra docs
PIP_TOOLS := pip-tools==7.6.2
export NO_MKDOCS_2_WARNING := 1  # MkDocs' banner about its successor: noise in every build log

.PHONY: help run play test test-latest lint types docs dist lock bench load strength pictures screenshots clean client system-deps

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

# Exactly the locked versions (hashes checked), then Kumiki itself, editable, with no dependency resolution at all.
$(STAMP): pyproject.toml $(LOCK)
	@$(VENV_READY)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	@touch $(STAMP)

# The browser client, rebuilt only when a source is newer than the bundle (needs npm and Node 20.19+ or 22.12+).
$(CLIENT): $(CLIENT_SOURCES)
	cd $(WEB) && npm ci --no-audit --no-fund && npm run build
	@touch $(CLIENT)

client: $(CLIENT)  ## build the browser client (src/kumiki/web -> dist/)

# What the browser and database tests need from the system: installed with apt when missing (root only).
system-deps:  ## install chromium and postgresql with apt when missing (as root; make test does it)
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

test: $(STAMP) system-deps $(CLIENT)  ## ruff, tsc, mypy, the docs site + the whole pytest suite (unit, server, wheel, browser)
	cd $(WEB) && npm run check
	$(BIN)/ruff check src tests bench examples scripts
	$(BIN)/ruff format --check src tests bench examples scripts
	$(BIN)/mypy --strict src/kumiki
	$(BIN)/mkdocs build --strict --quiet --site-dir build/site
	$(BIN)/python -m pytest -n 2 --dist loadgroup

# The newest versions pyproject.toml allows, in a venv of their own: upstream drift shows here before users see it.
test-latest: system-deps $(CLIENT)  ## the suite on the newest allowed versions, not the lock (run before `make lock`)
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST) || python3 -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --upgrade pip
	$(LATEST)/bin/python -m pip install --quiet --upgrade -e '.[all,bench,dev,docs]'
	$(LATEST)/bin/python -m pip list --format=freeze > $(LATEST)/versions.txt
	$(LATEST)/bin/mypy --strict src/kumiki
	$(LATEST)/bin/mkdocs build --strict --quiet --site-dir build/site-latest
	KUMIKI_UNLOCKED=1 $(LATEST)/bin/python -m pytest -n 2 --dist loadgroup -p no:cacheprovider

# Refresh the lock to the newest versions pyproject.toml allows (pip-compile reads pip's own index configuration).
lock:  ## refresh requirements.lock (then run make test)
	@$(VENV_READY)
	@test -x $(BIN)/pip-compile || $(BIN)/python -m pip install --quiet $(PIP_TOOLS)
	$(BIN)/pip-compile --quiet --upgrade --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
		--no-emit-trusted-host --no-emit-find-links $(EXTRAS) --output-file $(LOCK) pyproject.toml
	@echo "# pyproject.toml sha256 $$(sha256sum pyproject.toml | cut -d' ' -f1)" >> $(LOCK)

types: $(STAMP)  ## mypy --strict
	$(BIN)/mypy --strict src/kumiki

docs: $(STAMP)  ## the documentation site, offline, in build/site (open build/site/index.html)
	$(BIN)/mkdocs build --strict --site-dir build/site
	@echo "the site: build/site/index.html"

dist: $(STAMP) $(CLIENT)  ## the sdist and the wheel in dist/ (the wheel carries the built browser client)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

lint: $(STAMP)  ## ruff only
	$(BIN)/ruff check src tests bench examples scripts

bench: $(STAMP)  ## run the benchmarks and print the figures
	$(BIN)/python -m bench

pictures: $(STAMP) $(CLIENT)  ## redraw the lobby's game pictures (src/kumiki/web/public/cards) in Chromium
	$(BIN)/python scripts/lobby_pictures.py

screenshots: $(STAMP) $(CLIENT)  ## the README's screenshots (docs/images) in Chromium
	$(BIN)/python scripts/screenshots.py

load: $(STAMP)  ## the web server under load: 200 WebSocket clients in 100 Kuzushi games
	$(BIN)/python -m bench.server_load

strength: $(STAMP)  ## the agents' strength matches: Kuzushi, Blokus 3D and Kozo (several minutes)
	$(BIN)/python -m bench.strength --games 100
	$(BIN)/python -m bench.blokus3d_strength --games 40
	$(BIN)/python -m bench.kozo_strength --games 40

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) $(LATEST) dist .pytest_cache .ruff_cache .hypothesis build src/*.egg-info $(WEB)/dist $(WEB)/node_modules
