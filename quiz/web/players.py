"""The player behind a request, recognised by a random token in the signed session cookie.

The cookie holds that token and Flask-WTF's CSRF secret, nothing else: no answers, no scores.
"""

from __future__ import annotations

from flask import g, session

from quiz import play
from quiz.extensions import db
from quiz.models import Player

_SESSION_KEY = "player"


def player_token() -> str | None:
    """The token from the session cookie, unchecked: for queries that join on it themselves."""
    return session.get(_SESSION_KEY)


def current_player(*, create: bool = False) -> Player | None:
    """The request's player; with ``create``, a new one is made for a first-time visitor."""
    if "player" not in g:
        g.player = play.player_by_token(db.session, session.get(_SESSION_KEY))
    if g.player is None and create:
        g.player = play.create_player(db.session)
        session[_SESSION_KEY] = g.player.token
        session.permanent = True
    return g.player
