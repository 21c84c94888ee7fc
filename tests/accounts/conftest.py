"""Fixtures for accounts: users made through the domain, logging in as a person would."""

from __future__ import annotations

import pytest

from quiz import accounts
from quiz.extensions import db
from tests.conftest import csrf_token

PASSWORD = "correct horse battery"
#: What the app hashes with, kept before the fixture below replaces it.
PRODUCTION_HASH_METHOD = accounts.PASSWORD_HASH_METHOD


@pytest.fixture(autouse=True)
def _cheap_password_hashes(monkeypatch):
    """scrypt with werkzeug's cost takes ~0.2 s a hash; these tests make hundreds. The same
    algorithm at 1/32 of the work keeps them fast; one test checks the real setting."""
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", "scrypt:1024:8:1")


@pytest.fixture
def make_user(app):
    """Create an account and commit it; return its stored username."""

    def make(username: str = "ana", password: str = PASSWORD, role: str = "teacher") -> str:
        with app.app_context():
            user = accounts.create_user(db.session, username, password, role)
            db.session.commit()
            return user.username

    return make


def login(client, username: str, password: str = PASSWORD, next: str | None = None, **kwargs):
    """Open the login page and submit it; return the response to the POST."""
    query = {} if next is None else {"next": next}
    page = client.get("/login", query_string=query, **kwargs).get_data(as_text=True)
    data = {"csrf_token": csrf_token(page), "username": username, "password": password}
    return client.post("/login", query_string=query, data=data, **kwargs)
