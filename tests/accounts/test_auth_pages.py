"""Logging in and out through the test client, and the attacks a login page must withstand."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from quiz import accounts
from quiz.extensions import db
from quiz.models import User
from quiz.web.auth import role_required
from tests.accounts.conftest import PASSWORD, login
from tests.conftest import csrf_token

TEACHER_PAGE = "/test-only/teacher"
ADMIN_PAGE = "/test-only/admin"
COOKIE = "quiz_session"


def add_protected_pages(app) -> None:
    """Pages for the tests alone, guarded as host and admin pages will be."""

    @app.get(TEACHER_PAGE)
    @role_required("teacher")
    def teacher_page():
        return "teacher page"

    @app.get(ADMIN_PAGE)
    @role_required("admin")
    def admin_page():
        return "admin page"


@pytest.fixture
def pages(app):
    add_protected_pages(app)
    return app


def session_data(app, client) -> dict:
    return app.session_interface.get_signing_serializer(app).loads(client.get_cookie(COOKIE).value)


def logout(client):
    page = client.get("/logout").get_data(as_text=True)
    return client.post("/logout", data={"csrf_token": csrf_token(page)})


def is_sent_to_login(response, page: str = TEACHER_PAGE) -> bool:
    return response.status_code == 302 and response.location.startswith("/login?next=") and page.replace(
        "/", "%2F"
    ) in response.location


def test_a_teacher_logs_in_and_reaches_a_teacher_page(pages, client, make_user):
    make_user("ana")
    response = login(client, "Ana", next=TEACHER_PAGE)
    assert response.status_code == 303 and response.location == TEACHER_PAGE
    assert client.get(TEACHER_PAGE).get_data(as_text=True) == "teacher page"


def test_anonymous_visitors_are_sent_to_the_login_page_and_back(pages, client, make_user):
    make_user("ana")
    response = client.get(TEACHER_PAGE)
    assert is_sent_to_login(response)
    login_page = client.get(response.location).get_data(as_text=True)
    assert f'name="next" value="{TEACHER_PAGE}"' in login_page
    assert "Log in to see this page." in login_page
    # The page's own form, with its hidden next field, leads back to the page.
    posted = client.post(
        "/login",
        data={"csrf_token": csrf_token(login_page), "username": "ana", "password": PASSWORD, "next": TEACHER_PAGE},
    )
    assert posted.location == TEACHER_PAGE


def test_the_wrong_role_gets_forbidden(pages, client, make_user):
    make_user("ana", role="teacher")
    login(client, "ana")
    response = client.get(ADMIN_PAGE)
    assert response.status_code == 403
    assert "Forbidden" in response.get_data(as_text=True)


def test_role_required_refuses_unknown_roles():
    with pytest.raises(ValueError):
        role_required("owner")
    with pytest.raises(ValueError):
        role_required()


def _without_csrf(html: str) -> str:
    return re.sub(r'name="csrf_token" value="[^"]+"', "", html)


def test_a_failed_login_does_not_tell_which_part_was_wrong(app, client, make_user):
    make_user("ana")
    make_user("dora")
    with app.app_context():
        accounts.disable_user(db.session, accounts.user_by_username(db.session, "dora"))
        db.session.commit()
    pages = []
    for username, password in [("ana", "wrong password"), ("nobody", PASSWORD), ("dora", PASSWORD)]:
        response = login(client, username, password)
        assert response.status_code == 200
        text = response.get_data(as_text=True)
        assert "Wrong username or password." in text
        pages.append(_without_csrf(text).replace(f'value="{username}"', 'value="USERNAME"'))
    assert pages[0] == pages[1] == pages[2]
    assert "_user_id" not in session_data(app, client)


def test_the_login_page_is_labelled_and_links_its_errors(client, make_user):
    page = client.get("/login").get_data(as_text=True)
    assert '<label for="username">Username</label>' in page
    assert '<label for="password">Password</label>' in page
    assert 'autocomplete="username"' in page and 'autocomplete="current-password"' in page
    assert "novalidate" in page and "aria-invalid" not in page

    wrong = login(client, "ana", "wrong password").get_data(as_text=True)
    assert 'id="login-error" role="alert"' in wrong
    assert wrong.count('aria-describedby="login-error"') == 2
    assert 'type="password"' in wrong and "wrong password" not in wrong

    page = client.get("/login").get_data(as_text=True)
    empty = client.post("/login", data={"csrf_token": csrf_token(page), "username": "", "password": ""})
    assert empty.status_code == 422
    text = empty.get_data(as_text=True)
    assert "Enter your username." in text and "Enter your password." in text
    assert 'aria-describedby="username-errors"' in text and 'id="username-errors"' in text


def test_logout_ends_the_session_and_a_replayed_cookie_is_refused(pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    assert client.get(TEACHER_PAGE).status_code == 200
    stolen = client.get_cookie(COOKIE).value
    response = logout(client)
    assert response.status_code == 303 and response.location == "/login"
    assert "You are logged out." in client.get("/login").get_data(as_text=True)
    assert is_sent_to_login(client.get(TEACHER_PAGE))

    client.set_cookie(COOKIE, stolen)
    assert is_sent_to_login(client.get(TEACHER_PAGE))
    # And from another browser altogether.
    other = pages.test_client()
    other.set_cookie(COOKIE, stolen)
    assert is_sent_to_login(other.get(TEACHER_PAGE))


def test_logout_is_a_post_with_a_csrf_token(pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    assert client.get("/logout").status_code == 200
    assert client.post("/logout").status_code == 400
    assert client.post("/logout", data={"csrf_token": "forged"}).status_code == 400
    assert client.get(TEACHER_PAGE).status_code == 200


def test_logging_out_when_not_logged_in_is_harmless(client):
    page = client.get("/login").get_data(as_text=True)
    response = client.post("/logout", data={"csrf_token": csrf_token(page)})
    assert response.status_code == 303 and response.location == "/login"
    assert client.get("/logout").location == "/login"


def test_login_needs_the_csrf_token(pages, client, make_user):
    make_user("ana")
    client.get("/login")
    for data in ({}, {"csrf_token": "forged"}):
        response = client.post("/login", data={**data, "username": "ana", "password": PASSWORD})
        assert response.status_code == 400
        assert "This form has expired" in response.get_data(as_text=True)
    assert is_sent_to_login(client.get(TEACHER_PAGE))


def test_login_starts_a_new_session_with_a_new_csrf_secret(app, pages, client, make_user):
    make_user("ana")
    page = client.get("/login").get_data(as_text=True)
    old_token = csrf_token(page)
    before_cookie = client.get_cookie(COOKIE).value
    before = session_data(app, client)
    client.post("/login", data={"csrf_token": old_token, "username": "ana", "password": PASSWORD})
    assert client.get_cookie(COOKIE).value != before_cookie

    new_token = csrf_token(client.get("/logout").get_data(as_text=True))
    after = session_data(app, client)
    assert after["csrf_token"] != before["csrf_token"]
    assert after["sid"] and after["_permanent"] is True
    assert set(after) <= {"_user_id", "_fresh", "_id", "sid", "login_at", "_permanent", "csrf_token", "_flashes"}
    with app.app_context():
        user = accounts.user_by_username(db.session, "ana")
        assert after["_user_id"] == accounts.session_id(user)
        assert user.password_hash not in str(after)
    # A token from the page before login no longer counts.
    assert client.post("/logout", data={"csrf_token": old_token}).status_code == 400
    assert new_token != old_token
    assert client.get(TEACHER_PAGE).status_code == 200


def test_no_remember_me_cookie_is_ever_set(app, pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    logout(client)
    assert client.get_cookie(app.config.get("REMEMBER_COOKIE_NAME", "remember_token")) is None


def test_each_login_gets_its_own_session_id(app, make_user):
    make_user("ana")
    first, second = app.test_client(), app.test_client()
    login(first, "ana")
    login(second, "ana")
    assert session_data(app, first)["sid"] != session_data(app, second)["sid"]


def test_a_login_expires_after_the_maximum_age(app, pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    with client.session_transaction() as session:
        session["login_at"] -= app.config["LOGIN_MAX_AGE"] + 1
    assert is_sent_to_login(client.get(TEACHER_PAGE))


def test_a_new_password_ends_existing_sessions(app, pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    with app.app_context():
        accounts.set_password(db.session, accounts.user_by_username(db.session, "ana"), "another passphrase")
        db.session.commit()
    assert is_sent_to_login(client.get(TEACHER_PAGE))
    assert login(client, "ana", "another passphrase").status_code == 303
    assert client.get(TEACHER_PAGE).status_code == 200


def test_disabling_ends_existing_sessions_and_refuses_new_logins(app, pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    stolen = client.get_cookie(COOKIE).value
    with app.app_context():
        accounts.disable_user(db.session, accounts.user_by_username(db.session, "ana"))
        db.session.commit()
    assert is_sent_to_login(client.get(TEACHER_PAGE))
    client.set_cookie(COOKIE, stolen)
    assert is_sent_to_login(client.get(TEACHER_PAGE))
    assert "Wrong username or password." in login(client, "ana").get_data(as_text=True)


def test_a_successful_login_is_committed(app, client, make_user):
    make_user("ana")
    login(client, "ana")
    with app.app_context():
        assert db.session.scalar(sa.select(User.last_login_at)) is not None


def test_an_already_logged_in_user_skips_the_login_form(pages, client, make_user):
    make_user("ana")
    login(client, "ana")
    response = client.get("/login", query_string={"next": TEACHER_PAGE})
    assert response.status_code == 303 and response.location == TEACHER_PAGE


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example", "\\\\evil.example", "javascript:alert(1)", "evil"],
)
def test_the_next_parameter_never_leaves_the_site(pages, client, make_user, target):
    make_user("ana")
    response = login(client, "ana", next=target)
    assert response.status_code == 303 and response.location == "/"


def test_next_keeps_a_local_path_with_its_query(pages, client, make_user):
    make_user("ana")
    response = login(client, "ana", next=f"{TEACHER_PAGE}?tab=2")
    assert response.location == f"{TEACHER_PAGE}?tab=2"


def test_five_wrong_passwords_on_one_username_then_429(client, make_user):
    make_user("ana")
    make_user("bob")
    for _ in range(5):
        assert login(client, "ana", "wrong password").status_code == 200
    # Any spelling of the same account shares its budget, even with the right password.
    assert login(client, "ana", "wrong password").status_code == 429
    limited = login(client, " ANA ", PASSWORD)
    assert limited.status_code == 429
    assert "Too many requests" in limited.get_data(as_text=True)
    # Another account from the same address (a classroom behind one NAT) is not locked out.
    assert login(client, "bob", "wrong password").status_code == 200
    assert login(client, "bob").status_code == 303


def test_one_address_is_limited_across_usernames(make_app):
    app = make_app(LOGIN_LIMIT_PER_ADDRESS="3 per minute")
    client = app.test_client()
    for name in ("u1", "u2", "u3"):
        assert login(client, name, "wrong password").status_code == 200
    assert login(client, "u4", "wrong password").status_code == 429
    elsewhere = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}}
    assert login(app.test_client(), "u4", "wrong password", **elsewhere).status_code == 200


def test_only_login_attempts_are_limited(app, client):
    for _ in range(35):
        assert client.get("/login").status_code == 200
        assert client.get("/").status_code == 200


def test_limits_can_be_turned_off(make_app):
    app = make_app(RATELIMIT_ENABLED=False)
    client = app.test_client()
    for _ in range(7):
        assert login(client, "ana", "wrong password").status_code == 200


def test_each_app_starts_with_empty_counts(make_app):
    """Tests rely on it: the memory storage belongs to the app last set up."""
    for _ in range(2):
        client = make_app().test_client()
        for _ in range(5):
            assert login(client, "ana", "wrong password").status_code == 200



def test_players_sessions_carry_nothing_of_flask_login(app, client):
    """Pages read ``current_user``; that must not write login keys into a player's cookie."""
    page = client.get("/player").get_data(as_text=True)
    client.post("/player", data={"csrf_token": csrf_token(page), "nickname": "Zoe"})
    client.get("/player")
    client.get("/login")
    assert set(session_data(app, client)) <= {"player", "csrf_token", "_permanent", "_flashes"}


def test_overlong_usernames_share_one_budget(client):
    """No account has more than 64 characters, so such names cannot each get their own count."""
    for number in range(5):
        assert login(client, "a" * 65 + str(number), "wrong password").status_code == 422
    assert login(client, "a" * 65 + "x", "wrong password").status_code == 429
