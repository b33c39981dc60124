# Hexfolk: `make run` and `make test` are the whole quick start (see README.md).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
RUN_STAMP := $(VENV)/.installed-run
PYTEST_WORKERS ?= 2
# a test file's tests run in one worker: its module fixtures (servers, games played for it, the
# browser) are set up once, not once in each worker
PYTEST_DIST ?= loadfile
PORT ?= 8000

.PHONY: run play test lint typecheck layers pytest install clean bench help

help:
	@echo "make run    - install if needed, then start the table server (hexfolk serve, SQLite)"
	@echo "make play   - play the island game in the terminal against bots"
	@echo "make test   - install if needed, then ruff, mypy, import-linter and pytest"
	@echo "make bench  - the benchmarks in benchmarks/ (not part of the tests)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `make run` needs only the package; `make test` adds the dev and scale extras.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

# The test extras: dev (tests, linters, Playwright for Python), scale (Ray), rl (Gymnasium,
# PettingZoo), and the CPU build of torch for the RL training smoke test (this project's machines
# carry that wheel; see docs/rl.md).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,scale,rl]'
	$(BIN)/python -m pip install --quiet torch==2.13.0
	touch $(STAMP) $(RUN_STAMP)

# The browser tests drive Debian's Chromium (Playwright never downloads a browser here), with
# the CJK fonts for the Korean texts, the colour emoji font for the chat (and tmux, for the 80x24
# terminal tests). As root (CI, these machines) it is installed when missing.
CHROMIUM ?= /usr/bin/chromium
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk fonts-noto-color-emoji tmux nginx-light >/dev/null; \
	else echo "Chromium is missing: the browser tests skip (as root: apt-get install -y chromium fonts-noto-cjk fonts-noto-color-emoji tmux nginx-light)"; fi

# nginx on its own too (a machine whose Chromium is already there): tests/server/test_nginx.py
# runs docs/server.md's reverse-proxy configuration in front of two server processes. The test
# starts it itself (in the foreground, its own config, pid and logs); the package's service is
# not needed. As root it is installed when missing.
NGINX ?= /usr/sbin/nginx
$(NGINX):
	@if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; \
	else echo "nginx is missing: tests/server/test_nginx.py fails (as root: apt-get install -y nginx-light)"; fi

# The fonts on their own too: a machine whose Chromium was installed without them still gets
# the CJK fonts (tests/web/test_korean_glyphs.py checks that Hangul is drawn with a CJK font) and
# the colour emoji font (tests/web/test_small_fixes.py, an emoji in the chat).
FONTS_STAMP := $(VENV)/.fonts-cjk-emoji
$(FONTS_STAMP): | $(BIN)/python
	@if fc-list :lang=ko family 2>/dev/null | grep -q . && fc-list 2>/dev/null | grep -qi 'color emoji'; then touch $@; \
	elif [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk fonts-noto-color-emoji >/dev/null && touch $@; \
	else echo "No Korean or colour emoji font: the Hangul and emoji checks fail (as root: apt-get install -y fonts-noto-cjk fonts-noto-color-emoji)"; fi

# axe-core from the npm registry (tests/web/package.json) for the browser tests' accessibility
# scan; node_modules/ and package-lock.json stay out of git. Without npm that scan skips.
AXE := tests/web/node_modules/axe-core/axe.min.js
$(AXE): tests/web/package.json
	@if command -v npm >/dev/null; then \
	  npm install --prefix tests/web --no-audit --no-fund --no-package-lock --silent && touch $@; \
	else echo "npm is missing: the axe-core scan skips (as root: apt-get install -y npm)"; fi

install: $(STAMP)

run: $(RUN_STAMP)
	@echo "Hexfolk table server: open http://127.0.0.1:$(PORT)/ (API docs at /docs; Ctrl-C stops)"
	$(BIN)/hexfolk serve --host 127.0.0.1 --port $(PORT)

play: $(RUN_STAMP)
	$(BIN)/hexfolk play island --players human,random,random,random

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

layers: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP) $(AXE) | $(CHROMIUM) $(FONTS_STAMP) $(NGINX)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist $(PYTEST_DIST)

test: lint typecheck layers pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/island_vs_catanatron.py
	$(BIN)/python benchmarks/scythe_speed.py
	$(BIN)/python benchmarks/server_load.py
	$(BIN)/python benchmarks/web_speed.py
	$(BIN)/python benchmarks/rl_speed.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
