"""``quiz users create|list|set-password|disable`` through Flask's CLI runner."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from quiz import accounts
from quiz.extensions import db
from quiz.models import User
from tests.accounts.conftest import PASSWORD


@pytest.fixture
def users(app):
    """Run ``quiz users ...`` with the given arguments and standard input."""
    runner = app.test_cli_runner()

    def run(*args: str, input: str | None = None):
        return runner.invoke(args=["users", *args], input=input)

    return run


def stored(app, username: str) -> User | None:
    with app.app_context():
        user = accounts.user_by_username(db.session, username)
        if user is not None:
            db.session.expunge(user)
        return user


def test_create_asks_for_the_password_twice_without_echoing_it(app, users):
    result = users("create", "Ana", "--role", "admin", input=f"{PASSWORD}\n{PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert "Created admin 'ana'." in result.output
    assert PASSWORD not in result.output
    user = stored(app, "ana")
    assert user.role == "admin" and user.active
    with app.app_context():
        assert accounts.authenticate(db.session, "ana", PASSWORD) is not None


def test_create_reads_the_password_from_stdin_and_defaults_to_teacher(app, users):
    result = users("create", "bob", "--password-stdin", input=f"{PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert "Password" not in result.output
    assert stored(app, "bob").role == "teacher"


def test_create_refuses_a_duplicate_before_asking_for_a_password(app, users, make_user):
    make_user("ana")
    result = users("create", "ANA")
    assert result.exit_code == 1
    assert "The username 'ana' is already taken." in result.output
    assert "Password" not in result.output


@pytest.mark.parametrize(
    "args, input, message",
    [
        (["create", "ana", "--password-stdin"], "short\n", "at least 10 characters"),
        (["create", "a b c", "--password-stdin"], f"{PASSWORD}\n", "only letters, digits"),
        (["create", "ab", "--password-stdin"], f"{PASSWORD}\n", "3 to 64 characters"),
    ],
)
def test_create_refuses_bad_input_and_stores_nothing(app, users, args, input, message):
    result = users(*args, input=input)
    assert result.exit_code == 1
    assert message in result.output
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(User)) == 0


def test_create_refuses_an_unknown_role(users):
    result = users("create", "ana", "--role", "owner", "--password-stdin", input=f"{PASSWORD}\n")
    assert result.exit_code == 2
    assert "'owner' is not one of 'teacher', 'admin'" in result.output


def test_list_shows_role_state_and_last_login(app, users, make_user):
    assert "No users yet" in users("list").output
    make_user("carla")
    make_user("ana", role="admin")
    with app.app_context():
        accounts.authenticate(db.session, "ana", PASSWORD)
        accounts.disable_user(db.session, accounts.user_by_username(db.session, "carla"))
        db.session.commit()
    result = users("list")
    assert result.exit_code == 0
    header, first, second = result.output.splitlines()
    assert header.split() == ["username", "role", "active", "last", "login", "(UTC)"]
    assert first.split()[:3] == ["ana", "admin", "yes"] and first.split()[3].startswith("20")
    assert second.split() == ["carla", "teacher", "no", "never"]


def test_set_password_replaces_the_password_and_ends_the_sessions(app, users, make_user):
    make_user("ana")
    before = stored(app, "ana").session_version
    result = users("set-password", "Ana", input="a new passphrase\na new passphrase\n")
    assert result.exit_code == 0, result.output
    assert "sessions are ended" in result.output
    assert stored(app, "ana").session_version == before + 1
    with app.app_context():
        assert accounts.authenticate(db.session, "ana", PASSWORD) is None
        assert accounts.authenticate(db.session, "ana", "a new passphrase") is not None


def test_set_password_refuses_a_weak_password_and_keeps_the_old_one(app, users, make_user):
    make_user("ana")
    result = users("set-password", "ana", "--password-stdin", input="short\n")
    assert result.exit_code == 1 and "at least 10 characters" in result.output
    assert stored(app, "ana").session_version == 1
    with app.app_context():
        assert accounts.authenticate(db.session, "ana", PASSWORD) is not None


def test_disable_refuses_logins_and_ends_the_sessions(app, users, make_user):
    make_user("ana")
    result = users("disable", "ana")
    assert result.exit_code == 0, result.output
    user = stored(app, "ana")
    assert not user.active and user.session_version == 2
    with app.app_context():
        assert accounts.authenticate(db.session, "ana", PASSWORD) is None


@pytest.mark.parametrize("args", [["set-password", "nobody", "--password-stdin"], ["disable", "nobody"]])
def test_unknown_users_are_an_error(users, args):
    result = users(*args, input=f"{PASSWORD}\n")
    assert result.exit_code == 1
    assert "No user named 'nobody'." in result.output

