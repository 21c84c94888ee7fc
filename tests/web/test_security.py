"""Security defaults: headers, CSRF, cookies, request size, and no tracebacks for anyone."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from quiz import create_app
from quiz.extensions import db
from quiz.models import Attempt, Player
from tests.conftest import csrf_token
from tests.web.helpers import QUIZ, start_attempt


def test_every_page_sends_a_strict_content_security_policy(bundled, client):
    for path in ("/", QUIZ, "/articles/kiss-and-cry", "/quizzes/nope"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        for directive in ("default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"):
            assert directive in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert "Strict-Transport-Security" not in headers


def test_hsts_is_sent_over_https(bundled, client):
    response = client.get("/", base_url="https://quiz.example")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


def test_pages_hold_no_inline_script_or_style(bundled, client):
    url = start_attempt(client)
    for path in ("/", QUIZ, url, "/articles/kiss-and-cry", "/player"):
        page = client.get(path).get_data(as_text=True)
        assert "<script>" not in page and "<style" not in page and " style=" not in page
        assert " on" + "click=" not in page


@pytest.mark.parametrize("path, data", [
    (f"{QUIZ}/attempts", {"length": "standard"}),
    ("/player", {"nickname": "Ana"}),
])
def test_forms_without_a_csrf_token_are_refused_and_change_nothing(bundled, client, path, data):
    response = client.post(path, data=data)
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    with bundled.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Attempt)) == 0
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player).where(Player.nickname.is_not(None))) == 0


def test_an_answer_without_a_csrf_token_is_refused(bundled, client):
    url = start_attempt(client)
    response = client.post(url, data={"choice": "1"})
    assert response.status_code == 400


def test_a_csrf_token_from_another_browser_is_refused(bundled, app, client):
    other = app.test_client()
    foreign_token = csrf_token(other.get(QUIZ).get_data(as_text=True))
    client.get(QUIZ)
    response = client.post(f"{QUIZ}/attempts", data={"csrf_token": foreign_token, "length": "standard"})
    assert response.status_code == 400


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


def test_a_wrong_method_gets_a_page(bundled, client):
    assert client.delete(QUIZ).status_code == 405
