"""Storing answers and what they add up to: an attempt's counts, its end, the answers that
count in statistics, and each player's best score.

Solo and classroom answers alike are written here, by :mod:`quiz.answering`; classroom
sessions end their students' attempts here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from quiz.kinds import Graded
from quiz.models import Answer, Attempt, BestScore, utcnow

#: The largest value of the INTEGER columns that hold milliseconds: nearly 25 days.
_MAX_MILLISECONDS = 2**31 - 1


def milliseconds_between(start: datetime, end: datetime) -> int:
    """Milliseconds from ``start`` to ``end``, within what an INTEGER column holds: never
    negative (clocks of two servers may disagree), and capped for an attempt resumed weeks
    later."""
    return min(max(int((end - start).total_seconds() * 1000), 0), _MAX_MILLISECONDS)


@dataclass(frozen=True)
class Counts:
    """An attempt's counts right after an answer was stored."""

    answered_count: int
    correct_count: int
    score: int
    question_count: int
    scored_count: int
    started_at: datetime
    retry_of_id: int | None
    live_session_id: int | None

    @property
    def finished(self) -> bool:
        return self.answered_count >= self.question_count


def store_answer(
    session: so.Session,
    attempt_id: int,
    question_id: int,
    revision_id: int,
    graded: Graded,
    *,
    points: int,
    now: datetime,
    elapsed_ms: int | None,
) -> Counts | None:
    """Store an answer and count it on its attempt, finishing the attempt after its last
    question: the attempt's counts afterwards, or None, changing nothing, when the question
    was answered already (a reload, a double click, a second tab).

    The database's unique constraint decides, so that two simultaneous submissions still
    record one answer and count one score. Statements built once; one round trip on
    PostgreSQL.
    """
    session.flush()  # as session.execute() would: pending changes go first
    connection = session.connection()
    params = answer_values(attempt_id, question_id, revision_id, graded, points=points, now=now, elapsed_ms=elapsed_ms)
    if connection.dialect.name == "postgresql":
        row = connection.execute(STORE_ANSWER_POSTGRESQL, params).first()
    # RETURNING, not rowcount, tells whether the row went in.
    elif connection.execute(_INSERT_ANSWER, params).first() is None:
        row = None
    else:
        row = connection.execute(_COUNT_ANSWER, params).one()
    return None if row is None else counted(session, attempt_id, row, now)


def answer_values(
    attempt_id: int, question_id: int, revision_id: int, graded: Graded, *, points: int, now: datetime, elapsed_ms: int | None
) -> dict:
    """The parameters of the statements that store an answer and count it."""
    return {
        "b_attempt_id": attempt_id, "b_question_id": question_id, "b_revision_id": revision_id,
        "b_selected_mask": graded.selected_mask, "b_response": graded.response, "b_credit": graded.credit,
        "b_is_correct": graded.is_correct, "b_points": points, "b_answered_at": now, "b_elapsed_ms": elapsed_ms,
        "b_correct": int(graded.is_correct),
    }


def counted(session: so.Session, attempt_id: int, row: sa.Row, now: datetime) -> Counts:
    """An attempt's counts from a row that counting an answer returned (the fields of
    :class:`Counts`, first), finishing the attempt if that was its last answer."""
    counts = Counts(*row[: len(COUNTED_COLUMNS)])
    # A loaded attempt shows what the statements wrote.
    attempt = session.identity_map.get(session.identity_key(Attempt, attempt_id))
    if attempt is not None:
        for name in ("answered_count", "correct_count", "score"):
            so.attributes.set_committed_value(attempt, name, getattr(counts, name))
    if counts.finished:
        _finish(session, attempt_id, counts, now)
    return counts


_answer = Answer.__table__
_attempt = Attempt.__table__
_ANSWER_VALUES = {
    name: sa.bindparam(f"b_{name}", type_=_answer.c[name].type)
    for name in ("attempt_id", "question_id", "revision_id", "selected_mask", "response", "credit", "is_correct",
                 "points", "answered_at", "elapsed_ms")
}
#: The unique constraint on (attempt, question) decides between two simultaneous submissions:
#: the second inserts nothing, and returns nothing.
_INSERT_ANSWER = sqlite.insert(_answer).values(_ANSWER_VALUES).on_conflict_do_nothing().returning(_answer.c.id)
#: What counting an answer returns, in the order of the fields of :class:`Counts`: what
#: finishing the attempt needs too, should this be its last answer.
COUNTED_COLUMNS = (
    _attempt.c.answered_count, _attempt.c.correct_count, _attempt.c.score, _attempt.c.question_count,
    _attempt.c.scored_count, _attempt.c.started_at, _attempt.c.retry_of_id, _attempt.c.live_session_id,
)
# Counted in SQL, not in Python, so that concurrent answers to an attempt's questions cannot
# overwrite each other's increments.
_COUNT_ANSWER = (
    sa.update(_attempt)
    .where(_attempt.c.id == sa.bindparam("b_attempt_id"))
    .values(
        answered_count=_attempt.c.answered_count + 1,
        correct_count=_attempt.c.correct_count + sa.bindparam("b_correct"),
        score=_attempt.c.score + sa.bindparam("b_points"),
    )
    .returning(*COUNTED_COLUMNS)
)
#: The answer stored (on conflict, nothing), as a common table expression: statements that
#: must change something only when the answer went in test that it returned a row.
INSERTED_ANSWER = (
    postgresql.insert(_answer).values(_ANSWER_VALUES).on_conflict_do_nothing().returning(_answer.c.id).cte("inserted")
)
# Both in one statement where the database allows it, which spares a round trip per answer:
# the attempt is counted only if the answer went in.
STORE_ANSWER_POSTGRESQL = _COUNT_ANSWER.where(sa.exists(sa.select(INSERTED_ANSWER.c.id)))
_FINISH = (
    sa.update(_attempt)
    .where(_attempt.c.id == sa.bindparam("b_attempt_id"))
    .values(finished_at=sa.bindparam("b_now"), duration_ms=sa.bindparam("b_duration_ms"))
)
# count_for_statistics() for one attempt whose final counts are known.
_COUNT_FOR_STATISTICS = (
    sa.update(_answer)
    .where(_answer.c.attempt_id == sa.bindparam("b_attempt_id"))
    .values(attempt_correct_count=sa.bindparam("b_correct"), attempt_question_count=sa.bindparam("b_questions"))
)


def _finish(session: so.Session, attempt_id: int, counts: Counts, now: datetime) -> None:
    """Finish the attempt its last answer just counted, from the counts that answer returned:
    its time, its answers made to count in statistics (never a retry's), and the player's best."""
    connection = session.connection()
    duration_ms = milliseconds_between(counts.started_at, now)
    connection.execute(_FINISH, {"b_attempt_id": attempt_id, "b_now": now, "b_duration_ms": duration_ms})
    attempt = session.identity_map.get(session.identity_key(Attempt, attempt_id))
    if attempt is not None:
        so.attributes.set_committed_value(attempt, "finished_at", now)
        so.attributes.set_committed_value(attempt, "duration_ms", duration_ms)
    if counts.retry_of_id is None:
        connection.execute(
            _COUNT_FOR_STATISTICS,
            {"b_attempt_id": attempt_id, "b_correct": counts.correct_count, "b_questions": counts.scored_count},
        )
        if counts.live_session_id is None:
            _record_best(session, session.get(Attempt, attempt_id))


def count_for_statistics(session: so.Session, attempts: sa.ColumnElement[bool]) -> None:
    """Copy the final counts of the finished attempts matching ``attempts`` onto their answers,
    which makes those answers count in statistics. Retries never count."""
    of_attempt = sa.select(Attempt).where(Attempt.id == Answer.attempt_id)
    session.execute(
        sa.update(Answer)
        .where(
            Answer.attempt_id.in_(
                sa.select(Attempt.id).where(attempts, Attempt.finished_at.is_not(None), Attempt.retry_of_id.is_(None))
            )
        )
        .values(
            attempt_correct_count=of_attempt.with_only_columns(Attempt.correct_count).scalar_subquery(),
            attempt_question_count=of_attempt.with_only_columns(Attempt.scored_count).scalar_subquery(),
        )
        .execution_options(synchronize_session=False)
    )


def _record_best(session: so.Session, attempt: Attempt) -> None:
    """Keep the player's best attempt on the quiz: higher score, then shorter time, then earlier."""
    best = session.get(BestScore, (attempt.quiz_id, attempt.player_id))
    candidate = (-attempt.score, attempt.duration_ms, attempt.finished_at)
    if best is not None and (-best.score, best.duration_ms, best.finished_at) <= candidate:
        return
    if best is None:
        best = BestScore(quiz_id=attempt.quiz_id, player_id=attempt.player_id)
        session.add(best)
    best.attempt_id = attempt.id
    best.score = attempt.score
    best.question_count = attempt.scored_count
    best.duration_ms = attempt.duration_ms or 0
    best.finished_at = attempt.finished_at or utcnow()
    session.flush()
