# Parlour: `make run` serves the site, `make test` runs every test.
# Both create the virtualenv (.venv) with a Python >= 3.12 when missing and
# install exactly the locked set (requirements/dev.txt, hashes checked).
# Override the interpreter with PYTHON=/path/to/python3.12.

VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := requirements/dev.txt
# One resolution for every Python the project supports (>= 3.12, any platform).
UV_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.12 --generate-hashes --quiet
PYTEST_ARGS ?=
# Test worker processes (pytest-xdist); each has its own Redis, database and
# folder (config/test_settings.py). PYTEST_WORKERS=0 runs in this process.
PYTEST_WORKERS ?= 2
export PYTHON

.PHONY: install lock lock-upgrade run cluster test test-js test-long test-stress lint migrate bench-engine bench-bots bench-live bench-live-cluster bench-peer bench-page bench-pairing bench-history bench-replay bench-renders bench-arena bench-people bench-turn-based bench-api messages clean

$(PY):
	@py="$$(scripts/find-python)" && echo "Using $$py" && "$$py" -m venv $(VENV)

$(STAMP): $(PY) $(LOCK)
	@echo "Installing the locked set from $(LOCK) ($$(grep -c '^[a-z0-9]' $(LOCK)) pins, hashes required, no other packages)"
	$(PY) -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(PY) -m pip check
	@touch $(STAMP)

install: $(STAMP)

# After editing pyproject.toml: re-resolve the lockfiles, keeping every pin the
# ranges still allow. lock-upgrade moves every pin to the newest allowed release.
lock lock-upgrade: install
	$(UV_COMPILE) $(if $(filter lock-upgrade,$@),--upgrade) --extra dev -o $(LOCK)
	$(UV_COMPILE) --extra uvicorn --extra supervisor -c $(LOCK) -o requirements/production.txt
	@echo "Locked: $(LOCK) (make install) and requirements/production.txt (deploy/)"

migrate run cluster messages: export DEBUG ?= 1

migrate: install
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) -m config.run

cluster: migrate
	$(PY) -m config.cluster

# The browser code's unit tests (static/js/tests/*.test.mjs, docs/testing.md): Node's own
# runner (Node >= 20, no npm packages), before pytest. TEST_JS=0 leaves them out of
# `make test` (CI's second pass: they run once per CI).
TEST_JS ?= 1
test-js:
	node --test static/js/tests/*.test.mjs

test: install $(if $(filter 0,$(TEST_JS)),,test-js)
	@$(PY) -m config.browser_check || $(PY) -m playwright install chromium || true
	$(PY) -m pytest $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS)) $(PYTEST_ARGS)

# The long tests alone (whole Ludo and Roundabout matches against a bot in a browser:
# minutes each; make test runs them, .ci/run leaves them out).
test-long: install
	@$(PY) -m config.browser_check || $(PY) -m playwright install chromium || true
	$(PY) -m pytest -m long $(PYTEST_ARGS)

# The browser and multi-process tests, three runs under stress-ng's CPU load
# (apt-get install stress-ng): lists every test that failed at least once.
# STRESS_ARGS, e.g. '--repeats 5 -- tests/e2e/test_board_play.py'.
STRESS_ARGS ?=
test-stress: install
	@$(PY) -m config.browser_check || $(PY) -m playwright install chromium || true
	$(PY) -m tests.stress $(STRESS_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

bench-engine: install
	$(PY) -m benchmarks.engine

bench-bots: install
	$(PY) -m benchmarks.bots

bench-live: install
	$(PY) -m benchmarks.live

bench-renders: install
	$(PY) -m benchmarks.renders --games ludo,roundabout,rondo $(RENDERS_ARGS)

bench-live-cluster: install
	$(PY) -m benchmarks.live --database postgres --layouts daphne:1,daphne:2,uvicorn:1,uvicorn:2

# Parlour's bench-live beside boardgame.io (Node, installed into var/peer with npm ci): on
# SQLite beside boardgame.io in memory, then on PostgreSQL beside it in memory and on PostgreSQL.
bench-peer: install
	$(PY) -m benchmarks.live --peer $(PEER_ARGS)
	$(PY) -m benchmarks.live --peer --database postgres --no-ceiling --no-breakdown $(PEER_ARGS)

# The match page on a phone: Lighthouse (npm, installed into var/lighthouse) in Debian's Chromium.
bench-page: install
	$(PY) -m benchmarks.page

bench-pairing: install
	$(PY) -m benchmarks.pairing

bench-history: install
	$(PY) -m benchmarks.history

# The search by name on 100,000 accounts, PostgreSQL (DATABASE_URL, or its own server).
bench-people: install
	$(PY) -m benchmarks.people_search

# A replay step of a 2,000-ply match (SQLite, Django's test client; REPLAY_ARGS e.g. '--repeat 100').
bench-replay: install
	$(PY) -m benchmarks.replay $(REPLAY_ARGS)

bench-arena: install
	$(PY) -m benchmarks.arena_pairing
	$(PY) -m benchmarks.arena_standings

# 10,000 open turn-based matches over 2,000 players: the sweeper, the mail task, "Your turn"
# (PostgreSQL at $$DATABASE_URL, databases of its own there; else SQLite; TURN_BASED_ARGS e.g. '--explain').
bench-turn-based: install
	$(PY) -m benchmarks.turn_based $(TURN_BASED_ARGS)

# 200 bots each streaming one match over the bot and board API (NDJSON, POST per move) on one
# daphne process (API_ARGS e.g. '--beside-live' to run bench-live's WebSocket figures beside it).
bench-api: install
	$(PY) -m benchmarks.api_bots $(API_ARGS)

clean:
	rm -rf $(VENV) var

# The translation catalogues (docs/i18n.md): needs GNU gettext (xgettext, msgfmt).
# Marks every new string in locale/ and games/<game>/locale, then compiles them.
messages: install
	$(PY) manage.py makemessages --all --domain django
	$(PY) manage.py makemessages --all --domain djangojs
	$(PY) manage.py compilemessages --ignore .venv --ignore 'tests/*' --ignore node_modules
