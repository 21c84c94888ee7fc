"""Security defaults: no inline script or style, cookies, request size, and no tracebacks for
anyone. The headers of every page and the CSRF check of every form are in tests/hardening."""

from __future__ import annotations

from quiz import create_app
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


def test_a_wrong_method_gets_a_page(bundled, client):
    assert client.delete(QUIZ).status_code == 405
