# Two commands: `make run` (install + start everything locally) and `make test` (lint + full suite).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP_BASE := $(VENV)/.installed-base
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run test install install-dev browser-deps lint format migrate clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip -c requirements/constraints.txt

$(STAMP_BASE): requirements/base.txt requirements/constraints.txt | $(PY)
	$(PIP) install --quiet -r requirements/base.txt -c requirements/constraints.txt
	touch $@

$(STAMP_DEV): requirements/base.txt requirements/dev.txt requirements/constraints.txt | $(PY)
	$(PIP) install --quiet -r requirements/dev.txt -c requirements/constraints.txt
	touch $(STAMP_BASE) $@

install: $(STAMP_BASE)

install-dev: $(STAMP_DEV) browser-deps

# The browser tests drive Debian's Chromium; install it when we can (root with apt).
browser-deps:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium for the browser tests..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py run_local

# Four workers on two cores: with two, the suite waited on browsers, servers and worker processes
# with both cores under half busy; with four it keeps them busy. Work stealing, not xdist's
# default (load) scheduling: pytest-django orders the browser tests in one run, and load
# scheduling handed nearly all of them to one worker, which ran alone for the last 13 minutes of
# a 21-minute run.
TEST_WORKERS ?= 4

test: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal

lint: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) var
