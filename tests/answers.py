"""Answering in tests as a player would, through the answering core, for every kind of question."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from quiz import answering, live, play
from quiz.extensions import db
from quiz.kinds import ChoiceData, Submission
from quiz.models import Attempt, LivePlayer, LiveSession, Player
from quiz.revisions import RevisionData


def turn_of(attempt: Attempt, position: int) -> play.Turn:
    """The attempt at ``position``, as its player's question page reads it."""
    token = db.session.get(Player, attempt.player_id).token
    db.session.flush()
    return play.turn(db.session, attempt.public_id, token, position)


def right_answer(revision: RevisionData, order: Sequence[ChoiceData]) -> Submission:
    """The answer of a player who knows (a poll's first choice)."""
    kind = revision.behaviour
    key = revision.answer_key or {}
    if kind.picks:
        return Submission(choices=tuple(n for n, choice in enumerate(order, 1) if choice.is_correct) or (1,))
    if kind.name == "ordering":
        return Submission(order=tuple(sorted(range(1, len(order) + 1), key=lambda n: order[n - 1].position)))
    if kind.name == "number":
        return Submission(number=str(key["answer"]))
    return Submission(text=key["accept"][0])


def wrong_answer(revision: RevisionData, order: Sequence[ChoiceData]) -> Submission:
    """An answer that earns nothing (a poll's last choice)."""
    kind = revision.behaviour
    key = revision.answer_key or {}
    if kind.picks:
        wrong = [n for n, choice in enumerate(order, 1) if not choice.is_correct]
        return Submission(choices=(wrong[-1] if not kind.scored else wrong[0],))
    if kind.name == "ordering":
        right = right_answer(revision, order).order
        return Submission(order=right[1:] + right[:1])  # every item one place off
    if kind.name == "number":
        return Submission(number=str(key["answer"] + (key.get("tolerance") or 0) + 1000))
    return Submission(text="certainly not this")


def picks(numbers: Sequence[int]) -> Submission:
    return Submission(choices=tuple(numbers))


def answer_solo(
    attempt: Attempt, position: int, submission: Submission | Sequence[int] | None = None, *, right: bool = True,
    now: datetime | None = None, shown: bool = True,
) -> bool:
    """Show the question (unless not ``shown``) and answer it: with ``submission`` (choice
    numbers will do), or else rightly or wrongly. True when the answer was recorded."""
    turn = turn_of(attempt, position)
    if shown:
        play.show(db.session, turn, now)
    if submission is None:
        submission = (right_answer if right else wrong_answer)(turn.revision, turn.order)
    elif not isinstance(submission, Submission):
        submission = picks(submission)
    recorded = answering.answer_solo(db.session, turn, submission, now).recorded
    db.session.expire(attempt)
    return recorded


def play_through(attempt: Attempt, *, right: int, now: datetime | None = None) -> None:
    """Answer every question of ``attempt``, the first ``right`` of them correctly."""
    for position in range(1, attempt.question_count + 1):
        assert answer_solo(attempt, position, right=position <= right, now=now)


def live_order(member: LivePlayer, session: LiveSession) -> tuple[ChoiceData, ...]:
    """The current question's choices in the order this student's phone shows them."""
    return live.current_question(db.session, session).order


def live_right(member: LivePlayer, session: LiveSession) -> Submission:
    question = live.current_question(db.session, session)
    return right_answer(question.revision, question.order)


def live_wrong(member: LivePlayer, session: LiveSession) -> Submission:
    question = live.current_question(db.session, session)
    return wrong_answer(question.revision, question.order)


def answer_live(
    session: LiveSession, member: LivePlayer, submission: Submission | Sequence[int], *,
    now: datetime | None = None, position: int | None = None,
) -> bool:
    """A student's answer to the open question (or to ``position``), as their phone sends it."""
    db.session.flush()
    token = db.session.get(Player, member.player_id).token
    state, seated = live.seat(db.session, session.id, token)
    if not isinstance(submission, Submission):
        submission = picks(submission)
    recorded = answering.answer_live(
        db.session, state, seated, state.position if position is None else position, submission, now
    ).recorded
    db.session.expire(member)
    db.session.expire(session)
    return recorded


def form_fields(submission: Submission) -> dict[str, list[str]]:
    """A submission as a question page's form sends it, whatever its kind."""
    if submission.choices:
        return {"choice": [str(number) for number in submission.choices]}
    if submission.order:
        return {f"place-{number}": [str(place)] for place, number in enumerate(submission.order, 1)}
    if submission.number is not None:
        return {"number": [str(submission.number)]}
    return {"text": [submission.text or ""]}


def api_fields(submission: Submission) -> dict:
    """A submission as the API's answer body carries it."""
    if submission.choices:
        return {"choices": list(submission.choices)}
    if submission.order:
        return {"order": list(submission.order)}
    if submission.number is not None:
        return {"number": float(submission.number)}
    return {"text": submission.text}
