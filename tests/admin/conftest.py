"""Fixtures for the admin pages: an admin (and a teacher) logged in through the login page."""

from __future__ import annotations

import pytest

from quiz import accounts
from quiz.extensions import db
from tests.accounts.conftest import PASSWORD, login


@pytest.fixture(autouse=True)
def _cheap_password_hashes(monkeypatch):
    """The same algorithm at a fraction of werkzeug's cost: these tests log in many times."""
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", "scrypt:1024:8:1")


@pytest.fixture
def log_in_as(app):
    """Create an account with ``role`` and log ``client`` in with it."""

    def log_in(client, role: str = "admin", username: str | None = None):
        username = username or role
        with app.app_context():
            accounts.create_user(db.session, username, PASSWORD, role)
            db.session.commit()
        response = login(client, username)
        assert response.status_code == 303, response.get_data(as_text=True)
        return client

    return log_in


@pytest.fixture
def admin_client(bundled, client, log_in_as):
    """A client logged in as an admin, on a database holding the bundled bank."""
    return log_in_as(client, "admin")
