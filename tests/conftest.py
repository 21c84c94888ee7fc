"""Fixtures: a fresh SQLite file database per test, the bundled bank, factory helpers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quiz import create_app
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.paths import bundled_bank

REPO = Path(__file__).resolve().parent.parent


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


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key-that-is-long-enough-0123456789",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'quiz.sqlite3'}",
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


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
