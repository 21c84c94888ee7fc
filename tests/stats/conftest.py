"""A three-question quiz and a way to play attempts on it with chosen answers."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa

from quiz import play, scores
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.kinds import Graded
from quiz.models import Choice, Quiz

BANK = """\
version: 1
articles:
  - id: skating
    title: Skating notes
    text: "The rink opened in 1990. It holds 400 skaters. The coach is called Ann."
quizzes:
  - id: skating
    title: Skating
    article: skating
questions:
  - id: opened
    prompt: When did the rink open?
    choices: ["1990", "1980", "2000"]
    correct: "1990"
    explanation: The notes say so.
    source: The rink opened in 1990.
  - id: holds
    prompt: How many skaters does it hold?
    choices: ["400", "300", "500"]
    correct: "400"
    explanation: The notes say so.
    source: It holds 400 skaters.
  - id: coach
    prompt: What is the coach called?
    choices: ["Ann", "Bea", "Cat"]
    correct: "Ann"
    explanation: The notes say so.
    source: The coach is called Ann.
"""

START = datetime(2026, 3, 1, 12, 0)


@pytest.fixture
def quiz(app_ctx, write_bank):
    import_bank(db.session, load_bank(write_bank(BANK)))
    db.session.commit()
    return db.session.scalar(sa.select(Quiz))


@pytest.fixture
def play_attempt(quiz):
    """Play one attempt answering every question: ``picks`` maps a question id to the position
    of the choice picked (0 is the correct one), ``seconds`` to the time taken."""
    counter = iter(range(1, 10_000))

    def play_one(picks: dict[str, int], seconds: dict[str, float] | None = None, *, finish: bool = True,
                 started: datetime = START, live_session_id: int | None = None):
        player = play.create_player(db.session)
        attempt = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL, rng=random.Random(next(counter)))
        attempt.started_at = started
        attempt.live_session_id = live_session_id
        db.session.flush()
        now = started
        slots = [slot for slot in attempt.slots if slot.question.slug in picks]
        for index, slot in enumerate(slots):
            if not finish and index == len(attempt.slots) - 1:
                break
            position = picks[slot.question.slug]
            choice = db.session.scalar(
                sa.select(Choice).where(Choice.revision_id == slot.revision_id, Choice.position == position)
            )
            elapsed = int(1000 * (seconds or {}).get(slot.question.slug, 5.0))
            now += timedelta(milliseconds=elapsed)
            scores.store_answer(
                db.session, attempt.id, slot.question_id, slot.revision_id,
                Graded(1 << position, None, float(choice.is_correct)), points=int(choice.is_correct), now=now,
                elapsed_ms=elapsed,
            )
        db.session.commit()
        return attempt

    return play_one
