"""Solo play: starting an attempt, asking its questions, recording answers, results, leaderboards.

Every function takes the database session it works in and only flushes; the caller commits.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from quiz import articles
from quiz.kinds import KINDS
from quiz.models import (
    Answer,
    Attempt,
    AttemptQuestion,
    BestScore,
    Choice,
    Player,
    Question,
    QuestionRevision,
    Quiz,
    utcnow,
)

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
    choices = list(slot.revision.choices)
    if attempt.quiz.shuffle_choices and slot.revision.kind != "true_false":
        random.Random(f"{attempt.shuffle_seed}:{slot.question_id}").shuffle(choices)
    return choices


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


def grade_choices(order: list[Choice], kind: str, picked: list[int]) -> Graded:
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
    attempt: Attempt,
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
    simultaneous submissions still record one answer and count one score.
    """
    # RETURNING, not rowcount, tells whether the row went in: psycopg reports no rowcount
    # (-1) for an INSERT that SQLAlchemy runs with RETURNING of its own.
    inserted = session.execute(
        _insert_ignoring_duplicates(session, Answer)
        .values(
            attempt_id=attempt.id,
            question_id=question_id,
            revision_id=revision_id,
            selected_mask=graded.selected_mask,
            is_correct=graded.is_correct,
            points=points,
            answered_at=now,
            elapsed_ms=elapsed_ms,
        )
        .returning(Answer.id)
    ).first()
    if inserted is None:
        return False
    # Counted in SQL, not in Python, so that concurrent answers to an attempt's questions
    # cannot overwrite each other's increments.
    answered_count, correct_count, score = session.execute(
        sa.update(Attempt)
        .where(Attempt.id == attempt.id)
        .values(
            answered_count=Attempt.answered_count + 1,
            correct_count=Attempt.correct_count + int(graded.is_correct),
            score=Attempt.score + points,
        )
        .returning(Attempt.answered_count, Attempt.correct_count, Attempt.score)
    ).one()
    so.attributes.set_committed_value(attempt, "answered_count", answered_count)
    so.attributes.set_committed_value(attempt, "correct_count", correct_count)
    so.attributes.set_committed_value(attempt, "score", score)
    if answered_count >= attempt.question_count:
        _finish(session, attempt, now)
    return True


#: The largest value of the INTEGER columns that hold milliseconds: nearly 25 days.
_MAX_MILLISECONDS = 2**31 - 1


def milliseconds_between(start: datetime, end: datetime) -> int:
    """Milliseconds from ``start`` to ``end``, within what an INTEGER column holds: never
    negative (clocks of two servers may disagree), and capped for an attempt resumed weeks
    later."""
    return min(max(int((end - start).total_seconds() * 1000), 0), _MAX_MILLISECONDS)


def _insert_ignoring_duplicates(session: so.Session, model: type) -> sa.Insert:
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(model).on_conflict_do_nothing()
    if dialect == "sqlite":
        return sqlite.insert(model).on_conflict_do_nothing()
    raise NotImplementedError(f"unsupported database: {dialect}")


def _finish(session: so.Session, attempt: Attempt, now: datetime) -> None:
    attempt.finished_at = now
    attempt.duration_ms = milliseconds_between(attempt.started_at, now)
    session.flush()
    count_for_statistics(session, Attempt.id == attempt.id)
    if attempt.retry_of_id is None and attempt.live_session_id is None:
        _record_best(session, attempt)


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
    slot: AttemptQuestion
    revision: QuestionRevision
    answer: Answer
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
