# Everything runs from .venv, which the first target you call creates with python3 (3.11+).
# It is (re)installed only when requirements.lock or pyproject.toml changes: the exact versions of
# requirements.lock, each checked against its hash, then the project itself.

PYTHON3 ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test format vectors bench messages build lock

# Migrates, makes the demo account and the bot players (printing the demo login), then starts the
# site and a Celery worker together (Procfile). Ctrl-C stops both.
run: $(INSTALLED)
	$(PY) manage.py migrate
	$(PY) manage.py setup_demo
	$(VENV)/bin/honcho -f Procfile.dev start

# The tests run on every core (pytest-xdist), a test file to a worker.
test: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest -n auto

format: $(INSTALLED)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Replays the rules vectors through the engine.
vectors: $(INSTALLED)
	$(PY) -m games.engine.vectors tests/rules_vectors

bench: $(INSTALLED)
	$(PY) benchmarks/engine_rounds.py

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

# Brings requirements.lock in line with pyproject.toml (dependencies and the dev extra, with their
# hashes) after a change there; versions already pinned stay where they still fit. For Python 3.11
# on Linux, as CI runs.
lock: | $(PY)
	$(PY) -m pip install pip-tools
	$(VENV)/bin/pip-compile --quiet --extra dev --generate-hashes --strip-extras \
		--no-emit-index-url --no-emit-find-links --output-file requirements.lock pyproject.toml

$(INSTALLED): requirements.lock pyproject.toml | $(PY)
	$(PY) -m pip install -r requirements.lock
	$(PY) -m pip install -e . --no-deps
	touch $@
