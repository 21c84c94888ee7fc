"""Fixtures: a fresh database per test (SQLite, or PostgreSQL with ``TEST_DATABASE_URL``), the
bundled bank, factory helpers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiz import create_app
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.paths import bundled_bank
from tests.databases import TestDatabases

REPO = Path(__file__).resolve().parent.parent
#: How many questions the bundled bank (questions.yaml) has, for tests that count them.
BUNDLED_QUESTIONS = len(load_bank(bundled_bank()).questions)
#: How many of them an attempt on all questions asks: one question of each group.
BUNDLED_ASKED = len({question.group or question.slug for question in load_bank(bundled_bank()).questions})


@pytest.fixture(autouse=True)
def _push_request_context():
    """Replace pytest-flask's fixture of this name, which keeps a request context open for the
    whole test. Flask would reuse it for test-client requests, so that the test and every
    request shared one database session and a view that forgot to commit would still pass."""
    yield


@pytest.fixture
def client(app):
    """Replace pytest-flask's client, which is used inside ``with``: that keeps the last
    request's context pushed, and the next request (of any client) would reuse its app
    context, ``g`` and database session."""
    return app.test_client()


TEST_CONFIG = {"TESTING": True, "SECRET_KEY": "test-secret-key-that-is-long-enough-0123456789"}


@pytest.fixture(scope="session")
def test_databases():
    databases = TestDatabases()
    yield databases
    databases.close()


def create_schema(url: str) -> None:
    """The models' tables, as tests build them (migrations have their own test)."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
        db.engine.dispose()


@pytest.fixture
def database_url(test_databases, tmp_path):
    """Make new databases for the test, dropped after it: ``database_url()`` has the tables,
    ``database_url(empty=True)`` none, ``database_url(copy_of=url)`` what ``url`` holds."""
    made = []

    def make(*, empty: bool = False, copy_of: str | None = None) -> str:
        if copy_of is not None:
            url = test_databases.copy(copy_of, tmp_path)
        else:
            url = test_databases.new(tmp_path, schema=create_schema, empty=empty)
        made.append(url)
        return url

    yield make
    for url in made:
        test_databases.release(url)


@pytest.fixture
def make_app(database_url):
    """Make an app on a new database of its own, with the tables, and extra settings."""
    apps = []

    def make(**settings):
        settings.setdefault("SQLALCHEMY_DATABASE_URI", database_url())
        app = create_app({**TEST_CONFIG, **settings})
        apps.append(app)
        return app

    yield make
    for app in apps:
        # A live stream's watcher may be polling still: it hands its connection back first.
        if "quiz_watcher" in app.extensions:
            app.extensions["quiz_watcher"].stop()
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def app_ctx(app):
    """An application context for calling domain functions directly."""
    with app.app_context():
        yield


@pytest.fixture(scope="session")
def bundled_bank_entries():
    """questions.yaml, loaded once: the loaded bank is immutable."""
    return load_bank(bundled_bank())


@pytest.fixture
def bundled(app, bundled_bank_entries):
    """The app with the bundled bank (questions.yaml) imported."""
    with app.app_context():
        import_bank(db.session, bundled_bank_entries)
        db.session.commit()
    return app


@pytest.fixture
def write_bank(tmp_path):
    """Write a bank file from YAML text and return its path."""

    def write(text: str, name: str = "bank.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(html: str) -> str:
    """The CSRF token of the first form in ``html``."""
    match = _CSRF.search(html)
    assert match, "no CSRF token in page"
    return match.group(1)
