"""Solo play: starting an attempt, asking its questions, recording answers, results, leaderboards.

Every function takes the database session it works in and only flushes; the caller commits.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from quiz import articles
from quiz.kinds import KINDS
from quiz.models import (
    Answer,
    Article,
    Attempt,
    AttemptQuestion,
    BestScore,
    Choice,
    Player,
    Question,
    QuestionRevision,
    Quiz,
    SourceQuote,
    utcnow,
)

if TYPE_CHECKING:
    from quiz.live import AttemptCounts

_C = TypeVar("_C")

#: The lengths a player can pick when starting an attempt.
LENGTH_STANDARD = "standard"
LENGTH_ALL = "all"


class NoQuestions(Exception):
    """The quiz has no active question matching the player's choice."""


# Players -------------------------------------------------------------------------------------


def player_by_token(session: so.Session, token: str | None) -> Player | None:
    if not token:
        return None
    return session.scalar(sa.select(Player).where(Player.token == token))


def create_player(session: so.Session) -> Player:
    player = Player(token=secrets.token_urlsafe(32))
    session.add(player)
    session.flush()
    return player


def set_nickname(session: so.Session, player: Player, nickname: str | None) -> None:
    """Set or clear (None) the name shown on leaderboards; validated by the form beforehand."""
    player.nickname = nickname
    session.flush()


# Quizzes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuizSummary:
    quiz: Quiz
    question_count: int


def _active_questions():
    return sa.select(Question).where(Question.retired_at.is_(None), Question.current_revision_id.is_not(None))


def list_quizzes(session: so.Session) -> list[QuizSummary]:
    """Quizzes open for play, in bank order, with how many questions each has."""
    counts = (
        sa.select(Question.quiz_id, sa.func.count().label("n"))
        .where(Question.retired_at.is_(None), Question.current_revision_id.is_not(None))
        .group_by(Question.quiz_id)
        .subquery()
    )
    rows = session.execute(
        sa.select(Quiz, counts.c.n)
        .join(counts, counts.c.quiz_id == Quiz.id)
        .where(Quiz.retired_at.is_(None))
        .options(so.joinedload(Quiz.article))
        .order_by(Quiz.position, Quiz.id)
    )
    return [QuizSummary(quiz, count) for quiz, count in rows]


def quiz_by_slug(session: so.Session, slug: str) -> Quiz | None:
    return session.scalar(
        sa.select(Quiz).where(Quiz.slug == slug, Quiz.retired_at.is_(None)).options(so.joinedload(Quiz.article))
    )


def difficulty_counts(session: so.Session, quiz: Quiz) -> dict[str, int]:
    """How many active questions the quiz has at each difficulty."""
    rows = session.execute(
        sa.select(QuestionRevision.difficulty, sa.func.count())
        .join(Question, Question.current_revision_id == QuestionRevision.id)
        .where(Question.quiz_id == quiz.id, Question.retired_at.is_(None))
        .group_by(QuestionRevision.difficulty)
    )
    return dict(rows.all())


# Attempts ------------------------------------------------------------------------------------


def start_attempt(
    session: so.Session,
    player: Player,
    quiz: Quiz,
    *,
    length: str = LENGTH_STANDARD,
    difficulty: str | None = None,
    rng: random.Random | None = None,
) -> Attempt:
    """A new attempt on a random selection of the quiz's active questions, in random order."""
    rng = rng or random.SystemRandom()
    query = (
        sa.select(Question.id, Question.current_revision_id)
        .join(QuestionRevision, QuestionRevision.id == Question.current_revision_id)
        .where(Question.quiz_id == quiz.id, Question.retired_at.is_(None))
        .order_by(Question.position)
    )
    if difficulty:
        query = query.where(QuestionRevision.difficulty == difficulty)
    candidates = session.execute(query).all()
    if not candidates:
        raise NoQuestions(quiz.slug)
    count = len(candidates) if length == LENGTH_ALL else min(quiz.questions_per_attempt, len(candidates))
    return _new_attempt(session, player, quiz, rng.sample(candidates, count), rng, difficulty=difficulty)


def retry_missed(session: so.Session, attempt: Attempt, rng: random.Random | None = None) -> Attempt | None:
    """A new attempt asking again, at their current revision, the questions ``attempt`` got wrong.

    None when nothing was missed or every missed question has since been retired.
    """
    rng = rng or random.SystemRandom()
    missed = session.execute(
        sa.select(Question.id, Question.current_revision_id)
        .join(AttemptQuestion, AttemptQuestion.question_id == Question.id)
        .outerjoin(
            Answer, sa.and_(Answer.attempt_id == attempt.id, Answer.question_id == Question.id)
        )
        .where(
            AttemptQuestion.attempt_id == attempt.id,
            sa.or_(Answer.id.is_(None), Answer.is_correct.is_(False)),
            Question.retired_at.is_(None),
            Question.current_revision_id.is_not(None),
        )
        .order_by(AttemptQuestion.position)
    ).all()
    if not missed:
        return None
    rng.shuffle(missed)
    return _new_attempt(session, attempt.player, attempt.quiz, missed, rng, retry_of=attempt)


def _new_attempt(
    session: so.Session,
    player: Player,
    quiz: Quiz,
    questions: list[sa.Row],
    rng: random.Random,
    *,
    difficulty: str | None = None,
    retry_of: Attempt | None = None,
) -> Attempt:
    attempt = Attempt(
        public_id=secrets.token_urlsafe(16),
        player=player,
        quiz=quiz,
        shuffle_seed=rng.getrandbits(62),
        difficulty=difficulty,
        retry_of_id=retry_of.id if retry_of else None,
        question_count=len(questions),
        answered_count=0,
        correct_count=0,
        score=0,
        started_at=utcnow(),
    )
    session.add(attempt)
    session.flush()
    session.add_all(
        AttemptQuestion(attempt_id=attempt.id, position=position, question_id=question_id, revision_id=revision_id)
        for position, (question_id, revision_id) in enumerate(questions, start=1)
    )
    session.flush()
    return attempt


def attempt_for_player(session: so.Session, public_id: str, player: Player | None) -> Attempt | None:
    """The attempt, if it belongs to ``player``; anyone else gets None, as if it did not exist."""
    if player is None:
        return None
    return session.scalar(
        sa.select(Attempt)
        .where(Attempt.public_id == public_id, Attempt.player_id == player.id)
        .options(so.joinedload(Attempt.quiz))
    )


def unfinished_attempt(session: so.Session, player: Player | None, quiz: Quiz) -> Attempt | None:
    """The player's most recent attempt on ``quiz`` that still has questions to answer."""
    if player is None:
        return None
    return session.scalar(
        sa.select(Attempt)
        .where(
            Attempt.player_id == player.id,
            Attempt.quiz_id == quiz.id,
            Attempt.finished_at.is_(None),
            Attempt.live_session_id.is_(None),
        )
        .order_by(Attempt.started_at.desc(), Attempt.id.desc())
        .limit(1)
    )


def next_position(attempt: Attempt) -> int | None:
    """The question the player is on; questions are answered in order. None when finished."""
    if attempt.answered_count >= attempt.question_count:
        return None
    return attempt.answered_count + 1


# Questions and answers -----------------------------------------------------------------------


@dataclass(frozen=True)
class ShownChoice:
    """A choice as the page shows it: its number on screen and its text, nothing more."""

    number: int
    text: str


@dataclass(frozen=True)
class AskedQuestion:
    """Everything a question page may show before the answer: no correctness anywhere."""

    attempt: Attempt
    slot: AttemptQuestion
    revision: QuestionRevision
    choices: list[ShownChoice]

    @property
    def multiple(self) -> bool:
        return KINDS[self.revision.kind].multiple

    @property
    def instruction(self) -> str:
        return KINDS[self.revision.kind].instruction


def load_slot(session: so.Session, attempt: Attempt, position: int) -> AttemptQuestion | None:
    return session.scalar(
        sa.select(AttemptQuestion)
        .where(AttemptQuestion.attempt_id == attempt.id, AttemptQuestion.position == position)
        .options(
            so.joinedload(AttemptQuestion.revision).selectinload(QuestionRevision.choices),
            so.joinedload(AttemptQuestion.revision).selectinload(QuestionRevision.quotes),
            so.joinedload(AttemptQuestion.question),
        )
    )


def displayed_order(attempt: Attempt, slot: AttemptQuestion) -> list[Choice]:
    """The revision's choices in the order this attempt shows them: shuffled, stable on reload."""
    return shuffled(
        slot.revision.choices, shuffle=attempt.quiz.shuffle_choices, kind=slot.revision.kind,
        seed=attempt.shuffle_seed, question_id=slot.question_id,
    )


def shuffled(choices: Sequence[_C], *, shuffle: bool, kind: str, seed: int, question_id: int) -> list[_C]:
    """``choices`` in the order shown for a question of an attempt or session seeded ``seed``:
    the same on every reload and every screen. True and False keep their order."""
    order = list(choices)
    if shuffle and kind != "true_false":
        random.Random(f"{seed}:{question_id}").shuffle(order)
    return order


def ask(session: so.Session, attempt: Attempt, slot: AttemptQuestion, now: datetime | None = None) -> AskedQuestion:
    """The question as the player sees it; the first showing starts its answer clock."""
    if slot.shown_at is None:
        slot.shown_at = now or utcnow()
        session.flush()
    choices = [ShownChoice(number, choice.text) for number, choice in enumerate(displayed_order(attempt, slot), 1)]
    return AskedQuestion(attempt, slot, slot.revision, choices)


@dataclass(frozen=True)
class Graded:
    #: Bit ``1 << Choice.position`` set for each choice picked.
    selected_mask: int
    is_correct: bool


def grade(attempt: Attempt, slot: AttemptQuestion, picked: list[int]) -> Graded:
    """Grade the choices picked, given by their numbers on screen; ValueError for a bad number."""
    return grade_choices(displayed_order(attempt, slot), slot.revision.kind, picked)


def grade_choices(order: Sequence[Choice | ChoiceData], kind: str, picked: list[int]) -> Graded:
    """Grade ``picked``, numbers into ``order`` (the choices as shown)."""
    selected_mask = 0
    for number in picked:
        if not 1 <= number <= len(order):
            raise ValueError(f"no choice number {number}")
        selected_mask |= 1 << order[number - 1].position
    correct_mask = sum(1 << choice.position for choice in order if choice.is_correct)
    return Graded(selected_mask, KINDS[kind].is_correct(selected_mask, correct_mask))


def submit_answer(
    session: so.Session,
    attempt: Attempt,
    slot: AttemptQuestion,
    picked: list[int],
    now: datetime | None = None,
) -> bool:
    """Record the choices picked (their numbers on screen) as the answer to ``slot``; a right
    answer scores one point. False, changing nothing, when the question was already answered."""
    now = now or utcnow()
    graded = grade(attempt, slot, picked)
    elapsed_ms = milliseconds_between(slot.shown_at, now) if slot.shown_at else None
    return record_answer(
        session, attempt, slot.question_id, slot.revision_id, graded,
        points=int(graded.is_correct), now=now, elapsed_ms=elapsed_ms,
    )


def record_answer(
    session: so.Session,
    attempt: Attempt | AttemptCounts,
    question_id: int,
    revision_id: int,
    graded: Graded,
    *,
    points: int,
    now: datetime,
    elapsed_ms: int | None,
) -> bool:
    """Store an answer and add its points to the attempt, finishing it after the last question.

    Returns False, changing nothing, when the question was already answered (a reload, a
    double click, a second tab): the database's unique constraint decides, so that two
    simultaneous submissions still record one answer and count one score. ``attempt`` may be,
    rather than a loaded attempt, a classroom answer's :class:`quiz.live.AttemptCounts`.
    """
    session.flush()  # as session.execute() would: pending changes go first
    counts = _store_answer(
        session, attempt.id, question_id, revision_id, graded, points=points, now=now, elapsed_ms=elapsed_ms
    )
    if counts is None:
        return False
    finished = counts.answered_count >= counts.question_count
    if isinstance(attempt, Attempt):  # a loaded attempt shows what the statements wrote
        values = {name: getattr(counts, name) for name in ("answered_count", "correct_count", "score")}
        if finished:
            values.update(finished_at=now, duration_ms=milliseconds_between(counts.started_at, now))
        for name, value in values.items():
            so.attributes.set_committed_value(attempt, name, value)
    if finished:
        _finish(session, attempt.id, counts, now)
    return True


def _store_answer(
    session: so.Session,
    attempt_id: int,
    question_id: int,
    revision_id: int,
    graded: Graded,
    *,
    points: int,
    now: datetime,
    elapsed_ms: int | None,
) -> sa.Row | None:
    """Insert the answer and count it on its attempt: the attempt's counts afterwards (the
    columns :data:`_COUNT_ANSWER` returns), or None when the question was answered already.

    Every answer comes through here: statements built once, one round trip on PostgreSQL.
    """
    connection = session.connection()
    params = {
        "attempt_id": attempt_id, "question_id": question_id, "revision_id": revision_id,
        "selected_mask": graded.selected_mask, "is_correct": graded.is_correct, "points": points,
        "answered_at": now, "elapsed_ms": elapsed_ms, "b_correct": int(graded.is_correct),
    }
    if connection.dialect.name == "postgresql":
        return connection.execute(_STORE_ANSWER_POSTGRESQL, params).first()
    # RETURNING, not rowcount, tells whether the row went in.
    if connection.execute(_INSERT_ANSWER, params).first() is None:
        return None
    return connection.execute(_COUNT_ANSWER, params).one()


_answer = Answer.__table__
_attempt = Attempt.__table__
_ANSWER_VALUES = {
    name: sa.bindparam(name, type_=_answer.c[name].type)
    for name in ("attempt_id", "question_id", "revision_id", "selected_mask", "is_correct", "points", "answered_at",
                 "elapsed_ms")
}
#: The unique constraint on (attempt, question) decides between two simultaneous submissions:
#: the second inserts nothing, and returns nothing.
_INSERT_ANSWER = sqlite.insert(_answer).values(_ANSWER_VALUES).on_conflict_do_nothing().returning(_answer.c.id)
# Counted in SQL, not in Python, so that concurrent answers to an attempt's questions cannot
# overwrite each other's increments.
_COUNT_ANSWER = (
    sa.update(_attempt)
    .where(_attempt.c.id == sa.bindparam("attempt_id"))
    .values(
        answered_count=_attempt.c.answered_count + 1,
        correct_count=_attempt.c.correct_count + sa.bindparam("b_correct"),
        score=_attempt.c.score + sa.bindparam("points"),
    )
    # What finishing the attempt needs too, should this be its last answer.
    .returning(
        _attempt.c.answered_count, _attempt.c.correct_count, _attempt.c.score, _attempt.c.question_count,
        _attempt.c.started_at, _attempt.c.retry_of_id, _attempt.c.live_session_id,
    )
)
# Both in one statement where the database allows it, which spares a round trip per answer:
# the attempt is counted only if the answer went in.
_inserted = (
    postgresql.insert(_answer).values(_ANSWER_VALUES).on_conflict_do_nothing().returning(_answer.c.id).cte("inserted")
)
_STORE_ANSWER_POSTGRESQL = _COUNT_ANSWER.where(sa.exists(sa.select(_inserted.c.id)))
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


#: The largest value of the INTEGER columns that hold milliseconds: nearly 25 days.
_MAX_MILLISECONDS = 2**31 - 1


def milliseconds_between(start: datetime, end: datetime) -> int:
    """Milliseconds from ``start`` to ``end``, within what an INTEGER column holds: never
    negative (clocks of two servers may disagree), and capped for an attempt resumed weeks
    later."""
    return min(max(int((end - start).total_seconds() * 1000), 0), _MAX_MILLISECONDS)


def _finish(session: so.Session, attempt_id: int, counts: sa.Row, now: datetime) -> None:
    """Finish the attempt its last answer just counted, from the counts that answer returned:
    its time, its answers made to count in statistics (never a retry's), and the player's best."""
    connection = session.connection()
    connection.execute(
        _FINISH,
        {"b_attempt_id": attempt_id, "b_now": now, "b_duration_ms": milliseconds_between(counts.started_at, now)},
    )
    if counts.retry_of_id is None:
        connection.execute(
            _COUNT_FOR_STATISTICS,
            {"b_attempt_id": attempt_id, "b_correct": counts.correct_count, "b_questions": counts.question_count},
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
            attempt_question_count=of_attempt.with_only_columns(Attempt.question_count).scalar_subquery(),
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
    best.question_count = attempt.question_count
    best.duration_ms = attempt.duration_ms or 0
    best.finished_at = attempt.finished_at or utcnow()
    session.flush()


# Feedback and results ------------------------------------------------------------------------


@dataclass(frozen=True)
class RevealedChoice:
    number: int
    text: str
    is_correct: bool
    picked: bool


@dataclass(frozen=True)
class Source:
    """A quote as shown after the answer: in its paragraph when possible, and its reader anchor."""

    excerpt: str
    paragraph: articles.Paragraph | None
    anchor: str


@dataclass(frozen=True)
class Feedback:
    """What the player learns after answering; made from loaded objects or from a :class:`Turn`."""

    slot: AttemptQuestion | Turn
    revision: QuestionRevision | RevisionData
    answer: Answer | AnswerData
    choices: list[RevealedChoice]
    sources: list[Source]

    @property
    def correct_choices(self) -> list[RevealedChoice]:
        return [choice for choice in self.choices if choice.is_correct]

    @property
    def picked_choices(self) -> list[RevealedChoice]:
        return [choice for choice in self.choices if choice.picked]


def answer_for(session: so.Session, attempt: Attempt, slot: AttemptQuestion) -> Answer | None:
    return session.scalar(
        sa.select(Answer).where(Answer.attempt_id == attempt.id, Answer.question_id == slot.question_id)
    )


def feedback(attempt: Attempt, slot: AttemptQuestion, answer: Answer) -> Feedback:
    """What the player learns once they have answered: correctness, explanation, sources."""
    choices = [
        RevealedChoice(number, choice.text, choice.is_correct, bool(answer.selected_mask & (1 << choice.position)))
        for number, choice in enumerate(displayed_order(attempt, slot), 1)
    ]
    text = attempt.quiz.article.text
    sources = [
        Source(
            quote.excerpt,
            articles.passage(text, quote.span_start, quote.span_end, quote.excerpt),
            articles.quote_anchor(slot.question.slug, quote.position),
        )
        for quote in slot.revision.quotes
    ]
    return Feedback(slot, slot.revision, answer, choices, sources)


@dataclass(frozen=True)
class Results:
    attempt: Attempt
    items: list[Feedback]
    best: BestScore | None
    rank: int | None

    @property
    def missed(self) -> int:
        return sum(1 for item in self.items if not item.answer.is_correct)


def results(session: so.Session, attempt: Attempt) -> Results:
    """The review of a finished attempt, with the player's best on the quiz and its rank."""
    slots = session.scalars(
        sa.select(AttemptQuestion)
        .where(AttemptQuestion.attempt_id == attempt.id)
        .order_by(AttemptQuestion.position)
        .options(
            so.joinedload(AttemptQuestion.revision).selectinload(QuestionRevision.choices),
            so.joinedload(AttemptQuestion.revision).selectinload(QuestionRevision.quotes),
            so.joinedload(AttemptQuestion.question),
        )
    ).all()
    answers = {
        answer.question_id: answer
        for answer in session.scalars(sa.select(Answer).where(Answer.attempt_id == attempt.id))
    }
    items = [feedback(attempt, slot, answers[slot.question_id]) for slot in slots if slot.question_id in answers]
    best = session.get(BestScore, (attempt.quiz_id, attempt.player_id))
    return Results(attempt, items, best, rank_of(session, best) if best else None)


# The hot path: question pages and answers --------------------------------------------------------
#
# Showing a question and taking its answer are most of what the server does, a thousand times
# at once in a classroom. The pages do it with these functions rather than the ORM ones above:
# one Core query reads the attempt, its question slot and any answer through the player's
# token; the revision's wording and choices come from a cache in each process, since a
# revision never changes; prepared Core statements write the answer.


@dataclass(frozen=True)
class ChoiceData:
    position: int
    text: str
    is_correct: bool


@dataclass(frozen=True)
class QuoteData:
    position: int
    span_start: int
    span_end: int
    excerpt: str


@dataclass(frozen=True)
class RevisionData:
    """What a revision says, detached from the database: it never changes once written."""

    id: int
    kind: str
    prompt: str
    explanation: str
    choices: tuple[ChoiceData, ...]
    quotes: tuple[QuoteData, ...]

    @property
    def multiple(self) -> bool:
        return KINDS[self.kind].multiple

    @property
    def instruction(self) -> str:
        return KINDS[self.kind].instruction


_REVISIONS: dict[tuple[int, datetime], RevisionData] = {}
_REVISIONS_CACHED = 20_000
_revision = QuestionRevision.__table__
_choice = Choice.__table__
_quote = SourceQuote.__table__
_REVISION_QUERY = sa.select(_revision.c.kind, _revision.c.prompt, _revision.c.explanation).where(
    _revision.c.id == sa.bindparam("revision_id")
)
_CHOICES_QUERY = (
    sa.select(_choice.c.position, _choice.c.text, _choice.c.is_correct)
    .where(_choice.c.revision_id == sa.bindparam("revision_id"))
    .order_by(_choice.c.position)
)
_QUOTES_QUERY = (
    sa.select(_quote.c.position, _quote.c.span_start, _quote.c.span_end, _quote.c.excerpt)
    .where(_quote.c.revision_id == sa.bindparam("revision_id"))
    .order_by(_quote.c.position)
)


def revision_data(session: so.Session, revision_id: int, created_at: datetime) -> RevisionData:
    """The revision's content, read from the database once per process.

    ``created_at`` (the revision's) is part of the key: ids repeat between databases (a
    recreated one, or the tests' many), the time of creation with them does not.
    """
    key = (revision_id, created_at)
    data = _REVISIONS.get(key)
    if data is None:
        connection = session.connection()
        params = {"revision_id": revision_id}
        kind, prompt, explanation = connection.execute(_REVISION_QUERY, params).one()
        data = RevisionData(
            revision_id, kind, prompt, explanation,
            tuple(ChoiceData(*row) for row in connection.execute(_CHOICES_QUERY, params)),
            tuple(QuoteData(*row) for row in connection.execute(_QUOTES_QUERY, params)),
        )
        if len(_REVISIONS) >= _REVISIONS_CACHED:
            _REVISIONS.clear()
        _REVISIONS[key] = data
    return data


@dataclass(frozen=True)
class AnswerData:
    selected_mask: int
    is_correct: bool


@dataclass
class Turn:
    """A player's attempt at one of its questions: what the question page, the answer and the
    feedback need, read in one query (:func:`turn`)."""

    attempt_id: int
    public_id: str
    quiz_id: int
    quiz_slug: str
    article_id: int
    #: Set for an attempt that belongs to a classroom session.
    live_session_id: int | None
    question_count: int
    answered_count: int
    position: int
    #: The rest is None when the attempt has no question at ``position``.
    question_id: int | None
    question_slug: str | None
    revision: RevisionData | None
    shown_at: datetime | None
    #: The revision's choices in the order this attempt shows them.
    order: list[ChoiceData]
    #: The player's answer to this question, if any.
    answer: AnswerData | None

    @property
    def id(self) -> int:
        return self.attempt_id

    @property
    def next_position(self) -> int | None:
        """The question the player is on (see :func:`next_position`)."""
        return self.answered_count + 1 if self.answered_count < self.question_count else None

    @property
    def choices(self) -> list[ShownChoice]:
        return [ShownChoice(number, choice.text) for number, choice in enumerate(self.order, 1)]


_player = Player.__table__
_quiz = Quiz.__table__
_slot = AttemptQuestion.__table__
_question = Question.__table__
_TURN_QUERY = (
    sa.select(
        _attempt.c.id, _attempt.c.quiz_id, _quiz.c.slug, _quiz.c.article_id, _quiz.c.shuffle_choices,
        _attempt.c.shuffle_seed, _attempt.c.live_session_id, _attempt.c.question_count, _attempt.c.answered_count,
        _slot.c.question_id, _question.c.slug, _slot.c.revision_id, _revision.c.created_at, _slot.c.shown_at,
        _answer.c.selected_mask, _answer.c.is_correct,
    )
    .select_from(_attempt)
    .join(_player, _player.c.id == _attempt.c.player_id)
    .join(_quiz, _quiz.c.id == _attempt.c.quiz_id)
    .outerjoin(_slot, sa.and_(_slot.c.attempt_id == _attempt.c.id, _slot.c.position == sa.bindparam("position")))
    .outerjoin(_question, _question.c.id == _slot.c.question_id)
    .outerjoin(_revision, _revision.c.id == _slot.c.revision_id)
    .outerjoin(_answer, sa.and_(_answer.c.attempt_id == _attempt.c.id, _answer.c.question_id == _slot.c.question_id))
    .where(_attempt.c.public_id == sa.bindparam("public_id"), _player.c.token == sa.bindparam("token"))
)


def turn(session: so.Session, public_id: str, token: str | None, position: int) -> Turn | None:
    """The attempt ``public_id`` at ``position``, if it belongs to the player with ``token``;
    anyone else gets None, as if it did not exist."""
    if not token:
        return None
    row = session.connection().execute(
        _TURN_QUERY, {"public_id": public_id, "token": token, "position": position}
    ).first()
    if row is None:
        return None
    (attempt_id, quiz_id, quiz_slug, article_id, shuffle, seed, live_session_id, question_count, answered_count,
     question_id, question_slug, revision_id, created_at, shown_at, selected_mask, is_correct) = row
    revision = revision_data(session, revision_id, created_at) if revision_id is not None else None
    order = (
        shuffled(revision.choices, shuffle=shuffle, kind=revision.kind, seed=seed, question_id=question_id)
        if revision else []
    )
    return Turn(
        attempt_id, public_id, quiz_id, quiz_slug, article_id, live_session_id, question_count, answered_count,
        position, question_id, question_slug, revision, shown_at, order,
        AnswerData(selected_mask, is_correct) if selected_mask is not None else None,
    )


_SHOW = (
    sa.update(_slot)
    .where(_slot.c.attempt_id == sa.bindparam("b_attempt_id"), _slot.c.position == sa.bindparam("b_position"),
           _slot.c.shown_at.is_(None))
    .values(shown_at=sa.bindparam("b_now"))
)


def show(session: so.Session, turn: Turn, now: datetime | None = None) -> bool:
    """The question is on the player's screen: its first showing starts its answer clock.
    True when that was now, and there is a change to commit."""
    if turn.shown_at is not None:
        return False
    turn.shown_at = now or utcnow()
    session.connection().execute(
        _SHOW, {"b_attempt_id": turn.attempt_id, "b_position": turn.position, "b_now": turn.shown_at}
    )
    return True


def answer(session: so.Session, turn: Turn, picked: list[int], now: datetime | None = None) -> bool:
    """:func:`submit_answer` for a :class:`Turn`: record the choices picked (their numbers on
    screen), one point if right. False, changing nothing, when the question was already
    answered; ValueError for a number that names no choice."""
    now = now or utcnow()
    graded = grade_choices(turn.order, turn.revision.kind, picked)
    # An answer sent without its page ever shown took no time anyone could measure.
    elapsed_ms = milliseconds_between(turn.shown_at, now) if turn.shown_at else None
    counts = _store_answer(
        session, turn.attempt_id, turn.question_id, turn.revision.id, graded,
        points=int(graded.is_correct), now=now, elapsed_ms=elapsed_ms,
    )
    if counts is None:
        return False
    turn.answered_count = counts.answered_count
    turn.answer = AnswerData(graded.selected_mask, graded.is_correct)
    if counts.answered_count >= counts.question_count:
        _finish(session, turn.attempt_id, counts, now)
    return True


@dataclass(frozen=True)
class ArticleData:
    slug: str
    title: str
    text: str


_article = Article.__table__
_ARTICLE_QUERY = sa.select(_article.c.slug, _article.c.title, _article.c.text).where(
    _article.c.id == sa.bindparam("article_id")
)


def turn_feedback(session: so.Session, turn: Turn) -> tuple[Feedback, ArticleData]:
    """:func:`feedback` for an answered :class:`Turn`, with the article its sources come from."""
    article = ArticleData(*session.connection().execute(_ARTICLE_QUERY, {"article_id": turn.article_id}).one())
    mask = turn.answer.selected_mask
    choices = [
        RevealedChoice(number, choice.text, choice.is_correct, bool(mask & (1 << choice.position)))
        for number, choice in enumerate(turn.order, 1)
    ]
    sources = [
        Source(
            quote.excerpt,
            articles.passage(article.text, quote.span_start, quote.span_end, quote.excerpt),
            articles.quote_anchor(turn.question_slug, quote.position),
        )
        for quote in turn.revision.quotes
    ]
    return Feedback(turn, turn.revision, turn.answer, choices, sources), article


# Leaderboards --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    nickname: str
    score: int
    question_count: int
    duration_ms: int
    finished_at: datetime
    player_id: int


def leaderboard(session: so.Session, quiz: Quiz, limit: int = 50) -> list[LeaderboardRow]:
    """Each named player's best attempt, best first.

    Ties on score go to the shorter time, then to whoever finished first. Retries of missed
    questions never count, and players without a nickname are not listed.
    """
    rows = session.execute(
        sa.select(BestScore, Player.nickname)
        .join(Player, Player.id == BestScore.player_id)
        .where(BestScore.quiz_id == quiz.id, Player.nickname.is_not(None))
        .order_by(BestScore.score.desc(), BestScore.duration_ms, BestScore.finished_at)
        .limit(limit)
    )
    return [
        LeaderboardRow(rank, nickname, best.score, best.question_count, best.duration_ms, best.finished_at, best.player_id)
        for rank, (best, nickname) in enumerate(rows, start=1)
    ]


#: Places counted when working out a player's rank; beyond them the rank is not worth the work.
RANKED_PLACES = 1000


def rank_of(session: so.Session, best: BestScore) -> int | None:
    """``best``'s place on its quiz's leaderboard, counting only named players ahead of it;
    None beyond the first :data:`RANKED_PLACES`, so the cost stays bounded however many play."""
    ahead = (
        sa.select(BestScore.player_id)
        .join(Player, Player.id == BestScore.player_id)
        .where(
            BestScore.quiz_id == best.quiz_id,
            Player.nickname.is_not(None),
            BestScore.player_id != best.player_id,
            sa.or_(
                BestScore.score > best.score,
                sa.and_(BestScore.score == best.score, BestScore.duration_ms < best.duration_ms),
                sa.and_(
                    BestScore.score == best.score,
                    BestScore.duration_ms == best.duration_ms,
                    BestScore.finished_at < best.finished_at,
                ),
            ),
        )
        .limit(RANKED_PLACES)
        .subquery()
    )
    count = session.scalar(sa.select(sa.func.count()).select_from(ahead)) or 0
    return count + 1 if count < RANKED_PLACES else None


def personal_best(session: so.Session, quiz: Quiz, player: Player | None) -> BestScore | None:
    """The player's best finished attempt on ``quiz`` (retries excluded), if any."""
    if player is None:
        return None
    return session.get(BestScore, (quiz.id, player.id))
