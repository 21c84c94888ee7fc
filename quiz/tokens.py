"""API tokens: how teachers' and admins' programs (an LMS, a script) use the JSON API.

A token is ``quiz_`` followed by 43 random URL-safe characters (256 bits). Only its SHA-256 is
stored: a random secret that long needs no slow hash, and the hash can be looked up directly.
The token is shown once, when it is made. A token works while it is not revoked and its
user is active: disabling an account stops all of its tokens at once.

Every function takes the SQLAlchemy session and only flushes; the caller commits.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz.models import ApiToken, User, utcnow

TOKEN_PREFIX = "quiz_"
#: Characters of the random part kept in clear, to tell tokens apart in lists.
SHOWN_CHARACTERS = 8
LABEL_MAX_LENGTH = 100
#: Longer strings cannot be tokens; refused before hashing them.
TOKEN_MAX_LENGTH = 200
#: How stale :attr:`ApiToken.last_used_at` may get before a use refreshes it.
LAST_USED_PRECISION = timedelta(minutes=1)


class TokenError(ValueError):
    """A token cannot be made as asked; ``str(error)`` is a message for a person."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(session: so.Session, user: User, label: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: the stored record, and the token itself, to show once."""
    label = " ".join(label.split())
    if not 1 <= len(label) <= LABEL_MAX_LENGTH:
        raise TokenError(f"A token's label has 1 to {LABEL_MAX_LENGTH} characters.")
    if not user.active:
        raise TokenError(f"The account {user.username!r} is disabled.")
    secret = secrets.token_urlsafe(32)
    token = TOKEN_PREFIX + secret
    record = ApiToken(
        user=user, label=label, prefix=TOKEN_PREFIX + secret[:SHOWN_CHARACTERS], token_hash=hash_token(token),
        created_at=utcnow(),
    )
    session.add(record)
    session.flush()
    return record, token


def tokens_of(session: so.Session, user: User) -> list[ApiToken]:
    """The user's tokens, revoked ones included, oldest first."""
    return list(session.scalars(sa.select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)))


def revoke_token(session: so.Session, token_id: int, now: datetime | None = None) -> ApiToken | None:
    """Revoke a token by id (revoking twice keeps the first time); None if there is no such token."""
    record = session.get(ApiToken, token_id)
    if record is not None and record.revoked_at is None:
        record.revoked_at = now or utcnow()
        session.flush()
    return record


def authenticate(session: so.Session, token: str, now: datetime | None = None) -> ApiToken | None:
    """The live token record for ``token``, with its user loaded; None for an unknown or revoked
    token, or one whose user is disabled."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > TOKEN_MAX_LENGTH:
        return None
    record = session.scalar(
        sa.select(ApiToken)
        .join(User, User.id == ApiToken.user_id)
        .where(ApiToken.token_hash == hash_token(token), ApiToken.revoked_at.is_(None), User.active.is_(True))
        .options(so.contains_eager(ApiToken.user))
    )
    if record is None:
        return None
    now = now or utcnow()
    if record.last_used_at is None or now - record.last_used_at >= LAST_USED_PRECISION:
        record.last_used_at = now
        session.flush()
    return record
