"""Security defaults: no inline script or style, cookies, request size, and no tracebacks for
anyone. The headers of every page and the CSRF check of every form are in tests/hardening."""

from __future__ import annotations

from quiz import create_app
from quiz.extensions import db
from tests.web.helpers import QUIZ, start_attempt


def test_pages_hold_no_inline_script_or_style(bundled, client):
    url = start_attempt(client)
    for path in ("/", QUIZ, url, "/articles/kiss-and-cry", "/player"):
        page = client.get(path).get_data(as_text=True)
        assert "<script>" not in page and "<style" not in page and " style=" not in page
        assert " on" + "click=" not in page


def test_the_session_cookie_is_http_only_and_same_site(bundled, client):
    start_attempt(client)
    cookie = client.get_cookie("quiz_session")
    assert cookie.http_only and cookie.same_site == "Lax"


def test_production_cookies_are_secure(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZ_SECRET_KEY", "k" * 48)
    app = create_app({"ENV": "production", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite3"})
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_an_oversized_request_gets_a_clear_page(bundled, client):
    response = client.post("/player", data={"nickname": "x" * (2 * 1024 * 1024)})
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


def test_an_unexpected_error_shows_a_page_without_a_traceback(bundled, app, client):
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/test-only/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = client.get("/test-only/boom")
    page = response.get_data(as_text=True)
    assert response.status_code == 500
    assert "Something went wrong" in page and "secret internals" not in page and "Traceback" not in page
    assert "<h1>Internal Server Error</h1>" in page and "property object" not in page


def test_a_server_out_of_database_connections_answers_busy_pages_and_api_calls_alike(make_app):
    # One connection, held here: a request waits a fifth of a second for it, then gives up.
    app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 1, "max_overflow": 0, "pool_timeout": 0.2})
    client = app.test_client()
    with app.app_context():
        held = db.engine.connect()
        try:
            page = client.get("/", headers={"Accept-Language": "fr-CA"})
            api = client.get("/api/v1/quizzes")
        finally:
            held.close()
    assert page.status_code == 503 and page.headers["Retry-After"] == "2"
    assert "Le serveur est occupé" in page.get_data(as_text=True)
    assert api.status_code == 503 and api.headers["Retry-After"] == "2"
    assert api.get_json()["error"]["code"] == "unavailable"
    assert client.get("/").status_code == 200  # the connection is back: so is the site


def test_a_wrong_method_gets_a_page(bundled, client):
    assert client.delete(QUIZ).status_code == 405
