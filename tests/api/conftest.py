"""Fixtures for the JSON API: a small bank with one question of each kind, players made through
the API as a phone app would, accounts with API tokens, and classroom sessions driven through
the domain as a host's screen would."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from quiz import accounts, live, tokens
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Attempt, LiveSession, Quiz, utcnow
from tests.answers import turn_of

API = "/api/v1"
PASSWORD = "correct horse battery"

BANK = """\
version: 1
articles:
  - id: rink
    title: Rink notes
    text: |
      The rink opened in 1990. It holds 400 skaters.

      The coach is called Ann. Skates there are red and blue.
quizzes:
  - id: rink
    title: The rink
    description: What the notes say about the rink.
    article: rink
questions:
  - id: opened
    difficulty: easy
    prompt: When did the rink open?
    choices: ["1990", "1980", "2000", "2010"]
    correct: "1990"
    explanation: The notes open with the year of the opening.
    source: The rink opened in 1990.
  - id: colours
    kind: multi
    difficulty: medium
    prompt: Which colours are the skates?
    choices: [Red, Blue, Green]
    correct: [Red, Blue]
    explanation: Two colours are named in the second paragraph.
    source: Skates there are red and blue.
  - id: coach
    kind: true_false
    difficulty: hard
    prompt: "True or false: the coach is called Ann."
    correct: true
    explanation: The coach is named right after the opening.
    source: The coach is called Ann.
"""

#: Every explanation of the bank: none may appear in what a player reads before answering.
EXPLANATIONS = [
    "The notes open with the year of the opening.",
    "Two colours are named in the second paragraph.",
    "The coach is named right after the opening.",
]


@pytest.fixture(autouse=True)
def _cheap_password_hashes(monkeypatch):
    """The same algorithm at a fraction of werkzeug's cost: these tests make many accounts."""
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", "scrypt:1024:8:1")


@pytest.fixture
def rink(app, write_bank):
    """The app with the small bank imported."""
    with app.app_context():
        import_bank(db.session, load_bank(write_bank(BANK)))
        db.session.commit()
    return app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def new_player(client):
    """A new player made through the API; returns the headers that carry its token."""

    def make(nickname: str | None = None) -> dict[str, str]:
        response = client.post(f"{API}/players", json={"nickname": nickname} if nickname else None)
        assert response.status_code == 201, response.get_json()
        return bearer(response.get_json()["token"])

    return make


@pytest.fixture
def make_token(app):
    """An account of ``role`` (made if needed) and a new API token for it; returns the headers."""

    def make(role: str = "admin", username: str | None = None) -> dict[str, str]:
        with app.app_context():
            name = username or role
            user = accounts.user_by_username(db.session, name) or accounts.create_user(db.session, name, PASSWORD, role)
            _record, token = tokens.create_token(db.session, user, f"{name}'s script")
            db.session.commit()
        return bearer(token)

    return make


def correct_numbers(app, attempt_id: str, position: int) -> list[int]:
    """The numbers, as the attempt shows them, of a question's correct choices; read from the
    database, as a test's answer key."""
    with app.app_context():
        attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == attempt_id))
        return [number for number, choice in enumerate(turn_of(attempt, position).order, 1) if choice.is_correct]


def wrong_number(app, attempt_id: str, position: int) -> int:
    right = correct_numbers(app, attempt_id, position)
    return next(number for number in range(1, 7) if number not in right)


@pytest.fixture
def host_session(app):
    """A classroom session on the rink quiz hosted by ``username``; returns its id and code.
    ``act(session_id, action)`` then presses the host's buttons."""

    def create(username: str = "host", *, pacing: str = live.HOST_PACED, **settings) -> tuple[int, str]:
        with app.app_context():
            host = accounts.user_by_username(db.session, username) or accounts.create_user(
                db.session, username, PASSWORD, "teacher"
            )
            quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "rink"))
            options = {"time_limit": 60, "scoring": "plain", **settings}
            if pacing == live.SELF_PACED:
                options.setdefault("deadline", utcnow() + timedelta(days=30))
            session = live.create_session(db.session, host, quiz, live.Settings(pacing=pacing, **options))
            db.session.commit()
            return session.id, session.code

    return create


def act(app, session_id: int, action: str) -> None:
    """The host presses ``action`` (start, close, reveal, next, finish)."""
    with app.app_context():
        session = db.session.get(LiveSession, session_id)
        live.host_action(db.session, session, action)
        db.session.commit()


def walk(value, path=()):
    """Every (path, key, value) of a JSON document, depth first."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key, item
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, index))
