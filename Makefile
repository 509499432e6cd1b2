# Everything runs from .venv, which the first target you call creates with python3 (3.11+).
# It is (re)installed only when its lock or pyproject.toml changes: the exact versions of the lock,
# each checked against its hash and each a wheel (no compiler, no system library), then the
# project itself. The lock is requirements-dev.lock (the site, the tests, the tools), or
# requirements.lock (the site alone) under NYET_ENV=production.

PYTHON3 ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
LOCK := $(if $(filter production,$(NYET_ENV)),requirements.lock,requirements-dev.lock)

.PHONY: run test format vectors bench messages build lock strength

# Migrates, writes a VAPID key pair for Web Push to vapid-keys.json if there is none (the settings
# read it when VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are unset, in development only), makes the
# demo account and the bot players (printing the demo login), then starts the site, a Celery
# worker, beat and the live tick together (Procfile.dev). Ctrl-C stops them all.
# The site listens on PORT (make run PORT=8001, or PORT in the environment; 8000 unless said).
# Honcho gives each process a PORT of its own (the site, first, this one; the others 100, 200,
# 300 above), so the address in emails (SITE_URL, the worker's) is set here, from this one.
PORT ?= 8000
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
run: $(INSTALLED)
	$(PY) manage.py migrate
	$(PY) manage.py vapid_keys --write-dev-file
	$(PY) manage.py setup_demo
	$(VENV)/bin/honcho -f Procfile.dev start --port $(PORT)

# The tests run on every core (pytest-xdist), a test file to a worker. TESTS narrows them
# (.ci/run: make test TESTS='-m "not database or browser"').
TESTS ?=
test: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest -n auto $(TESTS)

format: $(INSTALLED)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Replays the rules vectors through the engine.
vectors: $(INSTALLED)
	$(PY) -m games.engine.vectors tests/rules_vectors

bench: $(INSTALLED)
	$(PY) benchmarks/engine_rounds.py

# Each bot level's strength as the site states it (/bots/, BENCHMARKS.md "Each level's
# strength"): the arena's matches, each kept in benchmarks/arena/MATCH.jsonl and gone on with
# where it stopped (games already there are read, not played), then the figures written from
# them (games/bots/strength.json). Expert's take hours; `make -j2 strength` plays two at once.
# A match is STRONG-WEAK-PLAYERS, its games GAMES.STRONG-WEAK-PLAYERS or GAMES.STRONG-WEAK.
GAMES.medium-easy := 200
GAMES.hard-medium-3 := 40
GAMES.hard-medium-4 := 60
GAMES.hard-medium-5 := 100
GAMES.expert-hard := 100
MATCHES := $(foreach p,3 4 5,medium-easy-$(p) hard-medium-$(p)) expert-hard-5
part = $(word $(1),$(subst -, ,$(2)))
strength: $(MATCHES:%=benchmarks/arena/%.match)
	$(PY) -m games.bots.strength $(MATCHES:%=benchmarks/arena/%.jsonl)
benchmarks/arena/%.match: FORCE $(INSTALLED)
	$(PY) -m games.bots.arena --seed 3 --players $(call part,3,$*) \
		--levels $(call part,2,$*),$(call part,1,$*) \
		--games $(or $(GAMES.$*),$(GAMES.$(call part,1,$*)-$(call part,2,$*))) \
		--record benchmarks/arena/$*.jsonl

# Refreshes locale/fr from the code and templates, then compiles it (needs gettext).
messages: $(INSTALLED)
	$(PY) manage.py makemessages -l fr --no-location
	$(PY) manage.py compilemessages --ignore $(VENV)

$(PY):
	$(PYTHON3) -m venv $(VENV)

# Production's build (README, "Deploying"), run with the production environment: the static files
# gathered under hashed names and compressed, then Django's deployment checks, failing on any
# warning.
build: $(INSTALLED)
	$(PY) manage.py collectstatic --noinput
	$(PY) manage.py check --deploy --fail-level WARNING

# Brings the locks in line with pyproject.toml after a change there, with their hashes:
# requirements-dev.lock (the dependencies and the dev extra), then requirements.lock (the
# dependencies alone, at the same versions). Versions already pinned stay where they still fit.
# For Python 3.11 on Linux: run it with Debian 12's 3.11.2 (PYTHON3=/usr/bin/python3 in a fresh
# clone), as some packages need more before 3.11.3 (redis: async-timeout) and none less after.
PIP_COMPILE = $(VENV)/bin/pip-compile --quiet --generate-hashes --strip-extras \
	--no-emit-index-url --no-emit-find-links
lock: | $(PY)
	$(PY) -m pip install pip-tools
	$(PIP_COMPILE) --extra dev --output-file requirements-dev.lock pyproject.toml
	$(PIP_COMPILE) --constraint requirements-dev.lock --output-file requirements.lock pyproject.toml

# It names the lock it installed: installed again when another one is asked for.
ifneq ($(shell cat $(INSTALLED) 2>/dev/null),$(LOCK))
$(INSTALLED): FORCE
endif
$(INSTALLED): $(LOCK) pyproject.toml | $(PY)
	$(PY) -m pip install --require-hashes --only-binary :all: -r $(LOCK)
	$(PY) -m pip install -e . --no-deps
	echo $(LOCK) > $@

.PHONY: FORCE
FORCE:
