"""Pooled connections to a database server: a connection that waited a while in the pool is
pinged before use and replaced if it has gone; one that dies right after it was trusted costs
its request a 503, never a 500, and the next request works."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from quiz import extensions
from quiz.extensions import db
from tests.databases import on_postgresql


@pytest.fixture
def app(make_app):
    if not on_postgresql():
        pytest.skip("an SQLite file has no server to lose: set TEST_DATABASE_URL to run this")
    # One connection, so that every request gets the one these tests kill.
    return make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0})


def pooled_backend(app) -> int:
    """The server process behind the pool's connection, handed back to the pool."""
    with app.app_context():
        with db.engine.connect() as connection:
            return connection.scalar(sa.text("SELECT pg_backend_pid()"))


def kill(app, pid: int) -> None:
    """End a server process as a database restart or an idle timeout would."""
    with app.app_context():
        killer = sa.create_engine(db.engine.url, poolclass=sa.NullPool)
    with killer.connect() as connection:
        assert connection.scalar(sa.select(sa.func.pg_terminate_backend(pid)))
    killer.dispose()


def test_a_connection_that_waited_is_pinged_and_replaced_when_it_has_gone(app, monkeypatch):
    first = pooled_backend(app)
    kill(app, first)
    monkeypatch.setattr(extensions, "TRUSTED_IDLE_SECONDS", 0.0)  # it has waited long enough
    assert app.test_client().get("/").status_code == 200
    assert pooled_backend(app) != first


def test_a_connection_handed_back_moments_ago_is_trusted_and_if_dead_costs_one_503(app, monkeypatch):
    first = pooled_backend(app)
    kill(app, first)
    monkeypatch.setattr(extensions, "TRUSTED_IDLE_SECONDS", 3600.0)  # no ping: the request finds out
    client = app.test_client()
    response = client.get("/")
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert client.get("/").status_code == 200
    assert pooled_backend(app) != first
