"""``/healthz`` tells a load balancer whether the server and its database answer."""

from __future__ import annotations


def test_a_server_with_its_database_is_healthy(app, client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "ok", "rate_limits": "memory"}
    assert response.headers["Cache-Control"] == "no-store"


def test_a_server_without_its_database_is_unavailable(make_app, tmp_path):
    # An SQLite path whose folder does not exist: every connection fails.
    app = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path}/missing/quiz.sqlite3")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["status"] == "unavailable"
