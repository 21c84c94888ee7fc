# make run   - install into .venv, migrate, import questions.yaml, serve on http://127.0.0.1:5000
# make test  - install with the test extras into .venv and run the whole suite (SQLite)
# make test-postgresql - the whole suite again, each test on a PostgreSQL database of its own
# make serve - the production server (needs QUIZ_SECRET_KEY)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

#: Processes the suite runs in (pytest-xdist): one per core by default. A module's tests stay
#: in one process, so that the fixtures they share are built once.
TEST_WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope

#: The PostgreSQL server `make test-postgresql` creates its test databases on.
TEST_POSTGRESQL ?= postgresql+psycopg://postgres@127.0.0.1:5432/postgres

.PHONY: run serve test test-postgresql check clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "quiz needs Python 3.11 or newer (PYTHON=$(PYTHON))"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/quiz init
	$(BIN)/quiz run --host $(HOST) --port $(PORT)

# The production server: gunicorn as configured in quiz/gunicorn_config.py.
serve: $(VENV)/.installed
	@test -n "$$QUIZ_SECRET_KEY" || { echo "Set QUIZ_SECRET_KEY first (see README: Running in production)"; exit 1; }
	$(BIN)/quiz init
	$(BIN)/quiz serve

test: $(VENV)/.installed-test
	$(PYTEST)

test-postgresql: $(VENV)/.installed-test
	TEST_DATABASE_URL=$(TEST_POSTGRESQL) $(PYTEST)

check: $(VENV)/.installed
	$(BIN)/quiz check --require-sources questions.yaml
	$(BIN)/quiz lint questions.yaml

clean:
	rm -rf $(VENV) .pytest_cache
