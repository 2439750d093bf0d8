# Parlour: `make run` serves the site, `make test` runs every test.
# Both create the virtualenv (.venv) with a Python >= 3.12 when missing.
# Override the interpreter with PYTHON=/path/to/python3.12.

VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=
export PYTHON

.PHONY: install run cluster test lint migrate bench-engine bench-bots bench-live bench-live-cluster bench-pairing bench-history clean

$(PY):
	@py="$$(scripts/find-python)" && echo "Using $$py" && "$$py" -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

migrate run cluster: export DEBUG ?= 1

migrate: install
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) -m config.run

cluster: migrate
	$(PY) -m config.cluster

test: install
	@$(PY) -m config.browser_check || $(PY) -m playwright install chromium || true
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .

bench-engine: install
	$(PY) -m benchmarks.engine

bench-bots: install
	$(PY) -m benchmarks.bots

bench-live: install
	$(PY) -m benchmarks.live

bench-live-cluster: install
	$(PY) -m benchmarks.live --database postgres --layouts daphne:1,daphne:2,uvicorn:1,uvicorn:2

bench-pairing: install
	$(PY) -m benchmarks.pairing

bench-history: install
	$(PY) -m benchmarks.history

clean:
	rm -rf $(VENV) var
