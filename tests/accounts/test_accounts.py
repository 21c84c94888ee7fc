"""Accounts without HTTP: creating, authenticating, ending sessions."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from quiz import accounts
from quiz.accounts import AccountError
from quiz.extensions import db
from quiz.models import User
from tests.accounts.conftest import PASSWORD, PRODUCTION_HASH_METHOD

pytestmark = pytest.mark.usefixtures("app_ctx")


def create(username: str = "ana", password: str = PASSWORD, role: str = "teacher") -> User:
    return accounts.create_user(db.session, username, password, role)


def test_a_new_user_is_stored_case_folded_with_a_scrypt_hash():
    user = create("  Ana.Smith_2-b ", role="admin")
    db.session.commit()
    stored = db.session.scalar(sa.select(User))
    assert stored.username == "ana.smith_2-b"
    assert stored.role == "admin" and stored.active and stored.session_version == 1
    assert stored.password_hash.startswith("scrypt:") and PASSWORD not in stored.password_hash
    assert stored.last_login_at is None
    assert user is stored


def test_production_hashes_use_werkzeugs_scrypt_cost(monkeypatch):
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", PRODUCTION_HASH_METHOD)
    user = create()
    assert user.password_hash.startswith("scrypt:32768:8:1$")
    assert accounts.authenticate(db.session, "ana", PASSWORD) is user
    assert accounts._dummy_hash(PRODUCTION_HASH_METHOD).startswith("scrypt:32768:8:1$")


def test_authenticate_accepts_the_right_password_in_any_case_of_the_username():
    user = create("ana")
    assert accounts.authenticate(db.session, " ANA ", PASSWORD) is user
    assert user.last_login_at is not None


@pytest.mark.parametrize(
    "username, password",
    [("ana", PASSWORD + "!"), ("ana", PASSWORD.upper()), ("bob", PASSWORD), ("", PASSWORD), ("ana", "")],
)
def test_authenticate_refuses_wrong_passwords_and_unknown_users(username, password):
    create("ana")
    assert accounts.authenticate(db.session, username, password) is None


def test_a_disabled_user_cannot_authenticate_even_with_the_right_password():
    user = create("ana")
    accounts.disable_user(db.session, user)
    assert accounts.authenticate(db.session, "ana", PASSWORD) is None
    assert user.last_login_at is None


@pytest.mark.parametrize("username", ["bob", "ana", "disabled"])
def test_every_refusal_costs_one_password_check(monkeypatch, username):
    """Unknown, wrong and disabled take the same work, so timing does not reveal which it was."""
    create("ana")
    accounts.disable_user(db.session, create("disabled"))
    checked = []
    real_check = accounts.check_password_hash

    def counting_check(hash_, password):
        checked.append(hash_)
        return real_check(hash_, password)

    monkeypatch.setattr(accounts, "check_password_hash", counting_check)
    password = "not the password" if username == "ana" else PASSWORD
    assert accounts.authenticate(db.session, username, password) is None
    assert len(checked) == 1 and checked[0].startswith("scrypt:")


@pytest.mark.parametrize(
    "username, message",
    [
        ("ab", "3 to 64 characters"),
        ("a" * 65, "3 to 64 characters"),
        ("   ", "3 to 64 characters"),
        ("ana smith", "only letters, digits and . _ -"),
        ("ana@school", "only letters, digits and . _ -"),
        ("zoé", "only letters, digits and . _ -"),
        ("<script>", "only letters, digits and . _ -"),
    ],
)
def test_bad_usernames_are_refused_with_a_message(username, message):
    with pytest.raises(AccountError, match=message):
        create(username)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(User)) == 0


def test_usernames_differing_only_in_case_are_duplicates():
    create("Ana")
    with pytest.raises(AccountError, match="'ana' is already taken"):
        create("ANA")


def test_a_duplicate_inserted_by_another_transaction_still_gives_a_clear_error(monkeypatch):
    create("ana")
    monkeypatch.setattr(accounts, "user_by_username", lambda session, username: None)
    with pytest.raises(AccountError, match="already taken"):
        create("ana")
    db.session.rollback()


@pytest.mark.parametrize("password", ["", "short", "123456789"])
def test_weak_passwords_are_refused(password):
    with pytest.raises(AccountError, match="at least 10 characters"):
        create(password=password)


def test_an_unknown_role_is_refused():
    with pytest.raises(AccountError, match="Unknown role 'owner'"):
        create(role="owner")


def test_session_id_finds_the_user_until_the_sessions_are_ended():
    user = create()
    db.session.commit()
    old = accounts.session_id(user)
    assert old == f"{user.id}:1"
    assert accounts.user_by_session_id(db.session, old) is user
    accounts.end_sessions(db.session, user)
    assert user.session_version == 2
    assert accounts.user_by_session_id(db.session, old) is None
    assert accounts.user_by_session_id(db.session, accounts.session_id(user)) is user


@pytest.mark.parametrize("session_id", [None, "", "1", "1:", ":1", "x:1", "1:x", "1:1:1", " 1:1", "²:1", "1:²", "99:1"])
def test_malformed_or_unknown_session_ids_find_nobody(session_id):
    create()
    db.session.commit()
    assert accounts.user_by_session_id(db.session, session_id) is None


def test_disabling_ends_the_sessions():
    user = create()
    old = accounts.session_id(user)
    accounts.disable_user(db.session, user)
    assert not user.active
    assert accounts.user_by_session_id(db.session, old) is None
    # Even the current version is refused: a disabled user has no valid session at all.
    assert accounts.user_by_session_id(db.session, accounts.session_id(user)) is None


def test_a_new_password_replaces_the_old_one_and_ends_the_sessions():
    user = create()
    old = accounts.session_id(user)
    accounts.set_password(db.session, user, "a new passphrase")
    assert accounts.authenticate(db.session, "ana", PASSWORD) is None
    assert accounts.authenticate(db.session, "ana", "a new passphrase") is user
    assert accounts.user_by_session_id(db.session, old) is None


def test_a_weak_new_password_changes_nothing():
    user = create()
    with pytest.raises(AccountError):
        accounts.set_password(db.session, user, "short")
    assert user.session_version == 1
    assert accounts.authenticate(db.session, "ana", PASSWORD) is user


def test_concurrent_session_endings_both_count(app):
    """The bump is computed by the database, so a stale copy of the user cannot undo one."""
    user = create()
    db.session.commit()
    assert user.session_version == 1
    with app.app_context():  # another request, with its own session
        accounts.end_sessions(db.session, db.session.get(User, user.id))
        db.session.commit()
    accounts.end_sessions(db.session, user)  # this copy still believes the version is 1
    db.session.commit()
    assert user.session_version == 3


def test_users_are_listed_by_username():
    for name in ("carla", "ana", "Bob"):
        create(name)
    assert [user.username for user in accounts.list_users(db.session)] == ["ana", "bob", "carla"]


def test_the_domain_only_flushes(app):
    """Nothing is committed until the caller commits: a rollback undoes a new user."""
    create()
    db.session.rollback()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(User)) == 0
