"""Teacher and admin accounts: creating them, checking passwords, ending their login sessions.

Every function takes the SQLAlchemy session and only flushes; the caller (a request or a CLI
command) commits once. Nothing here reads Flask's request, session or ``g``.

A login session is identified by :func:`session_id`, ``"<user id>:<session version>"``. Bumping
:attr:`User.session_version` (logout, new password, disabling) makes every id issued before it
unknown, so a copy of an old session cookie is refused even though its signature is still valid.
"""

from __future__ import annotations

import functools
import re
import secrets

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from quiz.models import User, utcnow

ROLES = ("teacher", "admin")

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 64
PASSWORD_MIN_LENGTH = 10
#: Hashing cost grows with the password's length; nobody types more than this.
PASSWORD_MAX_LENGTH = 1024
#: werkzeug's default; spelled out so that a change of default in werkzeug is a visible change here.
PASSWORD_HASH_METHOD = "scrypt"

# ASCII only, checked after case-folding: what is left is easy to type on any keyboard.
_USERNAME = re.compile(r"[a-z0-9._-]+", re.ASCII)
_SESSION_ID = re.compile(r"(?P<user>[0-9]{1,18}):(?P<version>[0-9]{1,18})")


class AccountError(ValueError):
    """Bad input for an account operation; ``str(error)`` is a message for a person."""


def normalize_username(username: str) -> str:
    """The form a username is stored and looked up in: stripped and case-folded.

    Also the rate limiter's key for login attempts, so every spelling of one account shares
    one budget.
    """
    return username.strip().casefold()


def _valid_username(username: str) -> str:
    name = normalize_username(username)
    if not USERNAME_MIN_LENGTH <= len(name) <= USERNAME_MAX_LENGTH:
        raise AccountError(
            f"A username has {USERNAME_MIN_LENGTH} to {USERNAME_MAX_LENGTH} characters."
        )
    if not _USERNAME.fullmatch(name):
        raise AccountError("A username may contain only letters, digits and . _ -")
    return name


def _password_hash(password: str) -> str:
    if len(password) < PASSWORD_MIN_LENGTH:
        raise AccountError(f"A password needs at least {PASSWORD_MIN_LENGTH} characters.")
    if len(password) > PASSWORD_MAX_LENGTH:
        raise AccountError(f"A password has at most {PASSWORD_MAX_LENGTH} characters.")
    return generate_password_hash(password, method=PASSWORD_HASH_METHOD)


@functools.cache
def _dummy_hash(method: str) -> str:
    """A hash of nothing anyone knows, checked for unknown usernames so that they take as long
    to refuse as a wrong password does."""
    return generate_password_hash(secrets.token_urlsafe(32), method=method)


def _valid_role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"Unknown role {role!r}: choose one of {', '.join(ROLES)}.")
    return role


def user_by_username(session: so.Session, username: str) -> User | None:
    return session.scalar(sa.select(User).where(User.username == normalize_username(username)))


def check_new_username(session: so.Session, username: str) -> str:
    """The normalised ``username`` if an account may be created with it, else :class:`AccountError`."""
    name = _valid_username(username)
    if user_by_username(session, name) is not None:
        raise AccountError(f"The username {name!r} is already taken.")
    return name


def create_user(session: so.Session, username: str, password: str, role: str) -> User:
    """Add an active account.

    Raises :class:`AccountError` for a bad or taken username, a weak password or an unknown
    role. If another transaction took the name meanwhile, the flush fails and the session must
    be rolled back, as after any failed flush.
    """
    role = _valid_role(role)
    name = check_new_username(session, username)
    user = User(username=name, password_hash=_password_hash(password), role=role, active=True, session_version=1)
    session.add(user)
    try:
        session.flush()
    except IntegrityError as error:
        # Taken between our check and the insert, by a concurrent transaction.
        raise AccountError(f"The username {name!r} is already taken.") from error
    return user


def authenticate(session: so.Session, username: str, password: str) -> User | None:
    """The active user with this username and password, with its last login time updated.

    A password hash is checked whatever the outcome, so that an unknown username or a disabled
    account takes as long to refuse as a wrong password: timing does not tell which accounts
    exist.
    """
    user = user_by_username(session, username) if len(password) <= PASSWORD_MAX_LENGTH else None
    matches = check_password_hash(user.password_hash if user else _dummy_hash(PASSWORD_HASH_METHOD), password)
    if user is None or not matches or not user.active:
        return None
    user.last_login_at = utcnow()
    session.flush()
    return user


def set_password(session: so.Session, user: User, password: str) -> None:
    """Replace the password and end every login session of the user."""
    user.password_hash = _password_hash(password)
    end_sessions(session, user)


def disable_user(session: so.Session, user: User) -> None:
    """Refuse further logins and end every login session of the user."""
    user.active = False
    end_sessions(session, user)


def end_sessions(session: so.Session, user: User) -> None:
    """Invalidate every session id issued so far for ``user``, on every device."""
    # An UPDATE computed by the database, so that two concurrent bumps both count.
    user.session_version = User.session_version + 1
    # The attribute is expired by the flush and reloaded on its next use.
    session.flush()


def list_users(session: so.Session) -> list[User]:
    return list(session.scalars(sa.select(User).order_by(User.username)))


def session_id(user: User) -> str:
    """The id stored in a login session: it changes whenever the user's sessions are ended."""
    return f"{user.id}:{user.session_version}"


def user_by_session_id(session: so.Session, session_id: str | None) -> User | None:
    """The active user whose current :func:`session_id` is ``session_id``, else None."""
    match = _SESSION_ID.fullmatch(session_id or "")
    if match is None:
        return None
    user = session.get(User, int(match["user"]))
    if user is None or not user.active or user.session_version != int(match["version"]):
        return None
    return user
