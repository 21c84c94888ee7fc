# make run   - install into .venv, migrate, import questions.yaml, serve on http://127.0.0.1:5000
# make test  - install with the test extras into .venv and gift-pegjs into tests/js, run the whole suite (SQLite)
# make test-postgresql - the whole suite again, each test on a PostgreSQL database of its own
# make serve - the production server (needs QUIZ_SECRET_KEY)
# make messages - extract the pages' messages, update the catalogs, compile them (see README: Translations)
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

.PHONY: run serve test test-postgresql check clean messages

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

# gift-pegjs, the GIFT parser the suite reads the app's GIFT exports with (needs Node.js and npm).
tests/js/node_modules/.installed: tests/js/package.json tests/js/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "the tests need Node.js and npm (to read GIFT exports with gift-pegjs)"; exit 1; }
	npm ci --prefix tests/js --no-audit --no-fund
	@touch $@

run: $(VENV)/.installed
	$(BIN)/quiz init
	$(BIN)/quiz run --host $(HOST) --port $(PORT)

# The production server: gunicorn as configured in quiz/gunicorn_config.py.
serve: $(VENV)/.installed
	@test -n "$$QUIZ_SECRET_KEY" || { echo "Set QUIZ_SECRET_KEY first (see README: Running in production)"; exit 1; }
	$(BIN)/quiz init
	$(BIN)/quiz serve

test: $(VENV)/.installed-test tests/js/node_modules/.installed
	$(PYTEST)

test-postgresql: $(VENV)/.installed-test tests/js/node_modules/.installed
	TEST_DATABASE_URL=$(TEST_POSTGRESQL) $(PYTEST)

#: Where the catalogs live: $(TRANSLATIONS)/<locale>/LC_MESSAGES/messages.po, compiled to .mo.
TRANSLATIONS := quiz/translations

# Extract every message of the code and templates, add new ones to each catalog (to be
# translated there), and compile the catalogs the app reads.
messages: $(VENV)/.installed
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k lazy_gettext --sort-by-file --project quiz --version 0.1.0 -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel -q update --no-fuzzy-matching --ignore-obsolete -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS)
	$(BIN)/pybabel compile --statistics -d $(TRANSLATIONS)

check: $(VENV)/.installed
	$(BIN)/quiz check --require-sources questions.yaml
	$(BIN)/quiz lint questions.yaml

clean:
	rm -rf $(VENV) .pytest_cache tests/js/node_modules
