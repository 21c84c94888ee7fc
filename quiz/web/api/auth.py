"""Who is calling the API: a player by their player token, or an account by an API token.

Both come as ``Authorization: Bearer <token>``, and nothing else is looked at: the session
cookie that the web pages use is ignored here, so a page on another site cannot make a
browser act through the API with its cookie, and the API needs no CSRF token.
"""

from __future__ import annotations

from flask import request

from quiz import play, tokens
from quiz.extensions import db
from quiz.models import ApiToken, Player
from quiz.web.api.errors import ApiError

_PLAYER_TOKEN_MAX_LENGTH = 64


def bearer_token() -> str | None:
    """The token of the request's ``Authorization: Bearer`` header, if it has one."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def authenticated_player() -> Player:
    """The player whose token the request carries; 401 without one."""
    token = bearer_token()
    player = play.player_by_token(db.session, token) if token and len(token) <= _PLAYER_TOKEN_MAX_LENGTH else None
    if player is None:
        raise ApiError(401, "unauthorized", "Send a player token (from POST /players) as Authorization: Bearer <token>.")
    return player


def authenticated_token(roles: tuple[str, ...]) -> ApiToken:
    """The live API token the request carries; 401 without one, 403 when its account's role is
    not among ``roles`` (any role when empty)."""
    token = bearer_token()
    record = tokens.authenticate(db.session, token) if token else None
    if record is None:
        raise ApiError(401, "unauthorized", "Send an API token as Authorization: Bearer <token>.")
    if roles and record.user.role not in roles:
        raise ApiError(403, "forbidden", f"Only {' and '.join(f'{role}s' for role in roles)} may use this endpoint.")
    return record
