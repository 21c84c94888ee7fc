"""Answering: the one path from a submitted answer to a stored answer.

Every face (solo pages, live pages, the JSON API for both) reads its input into a
:class:`quiz.kinds.Submission` and calls :func:`answer_solo` or :func:`answer_live`, which
apply the rules of play, let the question's kind grade the answer, and store it. A refusal is
a typed error of :mod:`quiz.refusals` (re-exported here), raised before anything is stored;
each face turns it into its own response.

An answer always names the question it answers (its position in the attempt or session), so
that a page left open on a question that has since closed can never answer another.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy.orm as so
from flask_babel import gettext as _

from quiz import live, play, scores, scoring
from quiz.kinds import Submission
from quiz.models import utcnow
from quiz.refusals import (
    AnswerElsewhere,
    AnswerRefused,
    AttemptFinished,
    InvalidAnswer,
    NotCurrentQuestion,
    QuestionClosed,
)

__all__ = [
    "AnswerElsewhere", "AnswerRefused", "AttemptFinished", "InvalidAnswer", "NotCurrentQuestion", "Outcome",
    "QuestionClosed", "Submission", "answer_live", "answer_solo",
]

#: Solo play scores one point per right answer.
SOLO_SCORING = "plain"


@dataclass(frozen=True)
class Outcome:
    #: False when the question had been answered already: nothing changed, the first answer stands.
    recorded: bool


def answer_solo(session: so.Session, turn: play.Turn, submission: Submission, now: datetime | None = None) -> Outcome:
    """Answer the question of ``turn`` (an attempt at one of its positions, read by
    :func:`quiz.play.turn`), and update ``turn`` with the answer.

    Answering is idempotent: a question answered already keeps its first answer. Questions
    are answered in order; a classroom attempt only while its self-paced session is open.
    """
    now = now or utcnow()
    if turn.session_pacing == live.HOST_PACED:
        raise AnswerElsewhere(_("This attempt follows a classroom session: answer on its live screen."))
    if turn.answer is not None:
        return Outcome(recorded=False)
    if turn.finished_at is not None:
        raise AttemptFinished(_("This attempt is finished."))
    if turn.session_pacing == live.SELF_PACED and (
        turn.session_state == live.FINISHED or (turn.session_deadline is not None and now >= turn.session_deadline)
    ):
        raise AttemptFinished(_("This assignment has closed."))
    if turn.position != turn.next_position:
        raise NotCurrentQuestion(
            _("Questions are answered in order: answer question %(number)s first.", number=turn.next_position)
        )
    revision = turn.revision
    graded = revision.behaviour.grade(turn.order, revision.answer_key, submission)
    # An answer sent without its page ever shown took no time anyone could measure.
    elapsed_ms = scores.milliseconds_between(turn.shown_at, now) if turn.shown_at else None
    points = scoring.points(SOLO_SCORING, graded.credit, elapsed_ms or 0, 0, 0)
    counts = scores.store_answer(
        session, turn.attempt_id, turn.question_id, revision.id, graded, points=points, now=now, elapsed_ms=elapsed_ms,
    )
    if counts is None:  # another tab's answer went in first
        return Outcome(recorded=False)
    turn.answered_count = counts.answered_count
    turn.finished_at = now if counts.finished else None
    turn.answer = play.AnswerData(
        graded.selected_mask, graded.response, graded.credit, graded.is_correct, points, now, elapsed_ms
    )
    return Outcome(recorded=True)


def answer_live(
    session: so.Session,
    state: live.SessionState,
    member: live.Member,
    position: int | None,
    submission: Submission,
    now: datetime | None = None,
) -> Outcome:
    """A student's answer to the open question of a host-paced session, which ``position``
    must name. Each student answers each question once: a second answer changes nothing.

    ``state`` and ``member`` are read by :func:`quiz.live.seat`.
    """
    now = now or utcnow()
    if state.pacing != live.HOST_PACED:
        raise AnswerElsewhere(_("Answer through the quiz pages of a self-paced session."))
    if state.state != live.QUESTION_OPEN or (state.question_closes_at and now > state.question_closes_at):
        raise QuestionClosed(_("That question has closed."))
    if position != state.position:
        raise NotCurrentQuestion(_("That question has closed."))
    question = live.current_question(session, state)
    revision = question.revision
    graded = revision.behaviour.grade(question.order, revision.answer_key, submission)
    elapsed_ms = scores.milliseconds_between(state.question_opened_at or now, now)
    attempt = member.attempt
    # Only the open question can be answered, so a student who answered every earlier
    # question has answered exactly position - 1; one they let pass breaks the streak.
    streak = member.streak if attempt.answered_count == state.position - 1 else 0
    points = scoring.points(state.scoring, graded.credit, elapsed_ms, question.time_limit, streak)
    counts = live.store_answer(
        session, state, member, question, graded,
        points=points, streak=scoring.next_streak(graded.credit, streak), now=now, elapsed_ms=elapsed_ms,
    )
    if counts is None:
        return Outcome(recorded=False)
    attempt.answered_count = counts.answered_count
    return Outcome(recorded=True)
