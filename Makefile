# Everything runs from .venv, which the first target you call creates with python3 (3.11+).
# The project is (re)installed into it only when pyproject.toml changes.

PYTHON3 ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test format vectors bench messages

# Migrates, makes the demo account and the bot players (printing the demo login), then starts the
# site and a Celery worker together (Procfile). Ctrl-C stops both.
run: $(INSTALLED)
	$(PY) manage.py migrate
	$(PY) manage.py setup_demo
	$(VENV)/bin/honcho -f Procfile.dev start

test: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest

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

$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install -e ".[dev]"
	touch $@
