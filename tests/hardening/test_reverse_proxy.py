"""Behind a reverse proxy: X-Forwarded-* headers are believed only when configured
(QUIZ_PROXY_FIX_*), and then give the client's scheme (HSTS, https links) and address (rate
limits per address)."""

from __future__ import annotations

import re

import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

from quiz import create_app
from quiz.bank.importer import import_bank
from quiz.config import ConfigError
from quiz.extensions import db
from tests.conftest import TEST_CONFIG, csrf_token
from tests.web.live_helpers import create_session, log_in

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "quiz.example", "X-Forwarded-For": "203.0.113.9"}
BEHIND_ONE_PROXY = {"PROXY_FIX_X_FOR": 1, "PROXY_FIX_X_PROTO": 1, "PROXY_FIX_X_HOST": 1}
#: Login attempts per address, made small; per username, out of the way.
LOGIN_LIMITS = {"LOGIN_LIMIT_PER_ADDRESS": "3 per minute", "LOGIN_LIMIT_PER_USERNAME": "1000 per minute"}


@pytest.fixture
def make_app_with_bank(make_app, bundled_bank_entries):
    def make(**settings):
        app = make_app(**settings)
        with app.app_context():
            import_bank(db.session, bundled_bank_entries)
            db.session.commit()
        return app

    return make


def join_link(app, headers: dict[str, str]) -> str:
    """The join link the host's screen shows (and its QR code holds), as built for a request
    that came with ``headers``."""
    host = log_in(app, "teacher")
    session_id = create_session(host)
    page = host.get(f"/host/sessions/{session_id}", headers=headers).get_data(as_text=True)
    return re.search(r'href="([^"]*/join\?code=\d{6})"', page).group(1)


def failed_logins_until_refused(app, addresses: list[str], headers: dict[str, str]) -> list[int]:
    """Statuses of one wrong login from each of ``addresses`` in turn (as X-Forwarded-For)."""
    statuses = []
    for address in addresses:
        client = app.test_client()
        forwarded = {**headers, "X-Forwarded-For": address}
        token = csrf_token(client.get("/login", headers=forwarded).get_data(as_text=True))
        response = client.post(
            "/login", headers={**forwarded, "Referer": "https://quiz.example/login"},
            data={"csrf_token": token, "username": "nobody", "password": "wrong password"},
        )
        statuses.append(response.status_code)
    return statuses


def test_without_the_setting_forwarded_headers_are_ignored(make_app_with_bank):
    app = make_app_with_bank(**LOGIN_LIMITS)
    assert not isinstance(app.wsgi_app, ProxyFix)
    client = app.test_client()
    response = client.get("/", headers=FORWARDED)
    assert "Strict-Transport-Security" not in response.headers
    assert join_link(app, FORWARDED).startswith("http://localhost/join?code=")
    # Every "client" is the one address the requests came from, the teacher's login above
    # included: a header that a client sets itself buys no budget.
    statuses = failed_logins_until_refused(app, ["198.51.100.1", "198.51.100.2", "198.51.100.3"], {})
    assert statuses == [200, 200, 429]


def test_behind_a_proxy_the_clients_scheme_host_and_address_are_used(make_app_with_bank):
    app = make_app_with_bank(**BEHIND_ONE_PROXY, **LOGIN_LIMITS)
    assert isinstance(app.wsgi_app, ProxyFix)
    client = app.test_client()
    response = client.get("/", headers=FORWARDED)
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    plain = client.get("/", headers={**FORWARDED, "X-Forwarded-Proto": "http"})
    assert "Strict-Transport-Security" not in plain.headers
    assert join_link(app, FORWARDED).startswith("https://quiz.example/join?code=")
    # Each address behind the proxy has its own budget; one address still runs out of it.
    statuses = failed_logins_until_refused(app, [f"198.51.100.{n}" for n in range(1, 7)], FORWARDED)
    assert statuses == [200] * 6
    statuses = failed_logins_until_refused(app, ["198.51.100.1"] * 3, FORWARDED)
    assert statuses == [200, 200, 429]


def test_forms_sent_over_https_through_the_proxy_need_a_same_site_referrer(make_app):
    """Flask-WTF's strict check over HTTPS: the proxy must pass the Host (or X-Forwarded-Host)
    the browser used, or every form would be refused."""
    app = make_app(**BEHIND_ONE_PROXY)
    client = app.test_client()
    token = csrf_token(client.get("/player", headers=FORWARDED).get_data(as_text=True))
    data = {"csrf_token": token, "nickname": "Ana"}
    assert client.post("/player", headers=FORWARDED, data=data).status_code == 400
    for referrer, status in (("https://elsewhere.example/", 400), ("https://quiz.example/player", 303)):
        assert client.post("/player", headers={**FORWARDED, "Referer": referrer}, data=data).status_code == status


def test_the_setting_comes_from_the_environment(monkeypatch, database_url):
    monkeypatch.setenv("QUIZ_PROXY_FIX_X_PROTO", "1")
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url()})
    assert app.config["PROXY_FIX_X_PROTO"] == 1
    assert app.wsgi_app.x_proto == 1 and app.wsgi_app.x_for == 0


@pytest.mark.parametrize("value", ["true", "-1", "yes", "1.5"])
def test_a_setting_that_is_not_a_count_of_proxies_is_refused(monkeypatch, tmp_path, value):
    monkeypatch.setenv("QUIZ_PROXY_FIX_X_FOR", value)
    with pytest.raises(ConfigError, match="QUIZ_PROXY_FIX_X_FOR must be the number of proxies"):
        create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/unused.sqlite3"})
