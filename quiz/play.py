"""Solo play: starting an attempt, showing its questions and their feedback, results, leaderboards.

Answers are taken by :mod:`quiz.answering`. Every function takes the database session it works
in and only flushes; the caller commits.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz import articles, revisions
from quiz.kinds import KINDS, ChoiceData, Reveal, Tally
from quiz.models import (
    Answer,
    Article,
    Attempt,
    AttemptQuestion,
    BestScore,
    LiveSession,
    Player,
    Question,
    QuestionRevision,
    Quiz,
    utcnow,
)
from quiz.revisions import RevisionData, ShownChoice, Source

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


#: How many questions an attempt on all of them asks: one of each group, and every question
#: without one ("#" cannot begin a group's name, so no question's id passes for a group).
_ASKED_TOGETHER = sa.func.count(
    sa.distinct(sa.func.coalesce(Question.group_name, sa.literal("#").concat(sa.cast(Question.id, sa.String))))
)


def list_quizzes(session: so.Session) -> list[QuizSummary]:
    """Quizzes open for play, in bank order, with how many questions an attempt on all of them
    asks."""
    counts = (
        sa.select(Question.quiz_id, _ASKED_TOGETHER.label("n"))
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


@dataclass(frozen=True)
class QuestionCounts:
    """How many questions an attempt on all of a quiz's questions asks, and how many one of a
    single difficulty asks, by difficulty."""

    total: int
    by_difficulty: dict[str, int]


def question_counts(session: so.Session, quiz: Quiz) -> QuestionCounts:
    active = (
        sa.select(_ASKED_TOGETHER)
        .join(QuestionRevision, Question.current_revision_id == QuestionRevision.id)
        .where(Question.quiz_id == quiz.id, Question.retired_at.is_(None))
    )
    total = session.scalar(active)
    by_difficulty = session.execute(
        active.add_columns(QuestionRevision.difficulty).group_by(QuestionRevision.difficulty)
    ).all()
    return QuestionCounts(total, {difficulty: count for count, difficulty in by_difficulty})


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
        sa.select(Question.id, Question.current_revision_id, QuestionRevision.kind, Question.group_name)
        .join(QuestionRevision, QuestionRevision.id == Question.current_revision_id)
        .where(Question.quiz_id == quiz.id, Question.retired_at.is_(None))
        .order_by(Question.position)
    )
    if difficulty:
        query = query.where(QuestionRevision.difficulty == difficulty)
    candidates = session.execute(query).all()
    if not candidates:
        raise NoQuestions(quiz.slug)
    drawn = one_per_group(rng.sample(candidates, len(candidates)))
    count = len(drawn) if length == LENGTH_ALL else min(quiz.questions_per_attempt, len(drawn))
    return _new_attempt(session, player, quiz, [row[:3] for row in drawn[:count]], rng, difficulty=difficulty)


def one_per_group(rows: Sequence[sa.Row]) -> list[sa.Row]:
    """``rows`` (questions, their group last) less every question whose group an earlier one
    has: questions of a group tell each other's answers, so they are never asked together."""
    taken: set[str] = set()
    kept = []
    for row in rows:
        group = row[-1]
        if group is None or group not in taken:
            kept.append(row)
            if group is not None:
                taken.add(group)
    return kept


def retry_missed(session: so.Session, attempt: Attempt, rng: random.Random | None = None) -> Attempt | None:
    """A new attempt asking again, at their current revision, the questions ``attempt`` got wrong.

    None when nothing was missed or every missed question has since been retired.
    """
    rng = rng or random.SystemRandom()
    missed = session.execute(
        sa.select(Question.id, Question.current_revision_id, QuestionRevision.kind)
        .join(QuestionRevision, QuestionRevision.id == Question.current_revision_id)
        .join(AttemptQuestion, AttemptQuestion.question_id == Question.id)
        .outerjoin(
            Answer, sa.and_(Answer.attempt_id == attempt.id, Answer.question_id == Question.id)
        )
        .where(
            AttemptQuestion.attempt_id == attempt.id,
            sa.or_(Answer.id.is_(None), Answer.is_correct.is_(False)),
            Question.retired_at.is_(None),
            Question.current_revision_id.is_not(None),
            # A poll is never right, and never missed.
            QuestionRevision.kind.in_([name for name, kind in KINDS.items() if kind.scored]),
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
        shuffle_choices=quiz.shuffle_choices,
        difficulty=difficulty,
        retry_of_id=retry_of.id if retry_of else None,
        question_count=len(questions),
        scored_count=sum(KINDS[kind].scored for _, _, kind in questions),
        answered_count=0,
        correct_count=0,
        score=0,
        started_at=utcnow(),
    )
    session.add(attempt)
    session.flush()
    session.add_all(
        AttemptQuestion(attempt_id=attempt.id, position=position, question_id=question_id, revision_id=revision_id)
        for position, (question_id, revision_id, _kind) in enumerate(questions, start=1)
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


# Questions and feedback ----------------------------------------------------------------------
#
# Showing a question and its feedback is most of what the server does, a thousand times at
# once in a classroom. One Core query reads the attempt, its question slot and any answer
# through the player's token; the revision's wording and choices come from the cache of
# :mod:`quiz.revisions`.


@dataclass(frozen=True)
class AnswerData:
    """A stored answer, detached from the database."""

    selected_mask: int
    response: str | None
    credit: float | None
    is_correct: bool
    points: int
    answered_at: datetime
    elapsed_ms: int | None


@dataclass
class Turn:
    """A player's attempt at one of its questions: what the question page, the answer and the
    feedback need, read in one query (:func:`turn`)."""

    attempt_id: int
    public_id: str
    quiz_id: int
    quiz_slug: str
    #: The language of the quiz's texts (see quiz.web.language).
    quiz_language: str
    article_id: int
    #: Set for an attempt that belongs to a classroom session, with that session's pacing,
    #: state and deadline.
    live_session_id: int | None
    session_pacing: str | None
    session_state: str | None
    session_deadline: datetime | None
    question_count: int
    scored_count: int
    answered_count: int
    finished_at: datetime | None
    position: int
    #: The rest is None when the attempt has no question at ``position``.
    question_id: int | None
    question_slug: str | None
    revision: RevisionData | None
    shown_at: datetime | None
    #: The revision's choices in the order this attempt shows them.
    order: tuple[ChoiceData, ...]
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
        return revisions.shown_choices(self.order)

    @property
    def multiple(self) -> bool:
        return self.revision.multiple

    @property
    def public(self) -> dict:
        return self.revision.public


_player = Player.__table__
_quiz = Quiz.__table__
_attempt = Attempt.__table__
_slot = AttemptQuestion.__table__
_question = Question.__table__
_revision = QuestionRevision.__table__
_answer = Answer.__table__
_live_session = LiveSession.__table__
_TURN_QUERY = (
    sa.select(
        _attempt.c.id, _attempt.c.quiz_id, _quiz.c.slug, _quiz.c.language, _quiz.c.article_id,
        _attempt.c.live_session_id, _live_session.c.pacing, _live_session.c.state, _live_session.c.deadline,
        _attempt.c.question_count, _attempt.c.scored_count, _attempt.c.answered_count, _attempt.c.finished_at,
        _attempt.c.shuffle_seed, _attempt.c.shuffle_choices,
        _slot.c.question_id, _question.c.slug, _slot.c.revision_id, _revision.c.created_at, _slot.c.shown_at,
        _answer.c.selected_mask, _answer.c.response, _answer.c.credit, _answer.c.is_correct, _answer.c.points,
        _answer.c.answered_at, _answer.c.elapsed_ms,
    )
    .select_from(_attempt)
    .join(_player, _player.c.id == _attempt.c.player_id)
    .join(_quiz, _quiz.c.id == _attempt.c.quiz_id)
    .outerjoin(_live_session, _live_session.c.id == _attempt.c.live_session_id)
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
    (attempt_id, quiz_id, quiz_slug, quiz_language, article_id, live_session_id, pacing, state, deadline,
     question_count, scored_count, answered_count, finished_at, seed, shuffle, question_id, question_slug, revision_id,
     created_at, shown_at, *answer) = row
    revision = revisions.revision_data(session, revision_id, created_at) if revision_id is not None else None
    order = (
        revisions.shown_order(revision, seed=seed, question_id=question_id, shuffle=shuffle) if revision else ()
    )
    return Turn(
        attempt_id, public_id, quiz_id, quiz_slug, quiz_language, article_id, live_session_id, pacing, state,
        deadline, question_count, scored_count, answered_count, finished_at, position, question_id, question_slug,
        revision, shown_at, order, AnswerData(*answer) if answer[0] is not None else None,
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


@dataclass(frozen=True)
class Feedback:
    """What the player learns once they have answered: how right, the explanation, sources."""

    position: int
    question_slug: str
    revision: RevisionData
    answer: AnswerData
    reveal: Reveal
    sources: list[Source]
    #: The answer given and the right answer, in words.
    given: str
    expected: str
    #: How everyone has voted so far, for a poll, whose answers are never right or wrong.
    tally: Tally | None = None

    @property
    def choices(self):
        return self.reveal.choices

    @property
    def correct_choices(self):
        return self.reveal.correct_choices

    @property
    def picked_choices(self):
        return self.reveal.picked_choices


def feedback(
    session: so.Session,
    revision: RevisionData,
    order: Sequence[ChoiceData],
    answer: AnswerData,
    *,
    position: int,
    question_slug: str,
    quotable: articles.Quotable,
    hide: articles.Hide = articles.Hide(),
) -> Feedback:
    """The feedback on ``answer``, given to ``revision`` shown in ``order``; what would tell an
    answer in ``hide`` (those still to be asked) is left out of the passages around its quotes."""
    kind = revision.behaviour
    reveal = kind.reveal(order, revision.answer_key, answer.selected_mask, answer.response, answer.credit)
    tally = None if kind.scored else kind.tally(order, revision.answer_key, answer_groups(session, revision.id))
    return Feedback(
        position, question_slug, revision, answer, reveal, revisions.sources(revision, question_slug, quotable, hide),
        kind.answer_text(order, answer.selected_mask, answer.response), kind.expected(order, revision.answer_key), tally,
    )


def answer_groups(session: so.Session, revision_id: int) -> list[tuple[int, str | None, int]]:
    """Every distinct answer given to a revision, with how many gave it."""
    return [
        tuple(row)
        for row in session.execute(
            sa.select(Answer.selected_mask, Answer.response, sa.func.count())
            .where(Answer.revision_id == revision_id)
            .group_by(Answer.selected_mask, Answer.response)
        )
    ]


@dataclass(frozen=True)
class ArticleData:
    slug: str
    title: str
    text: str

    @property
    def quotable(self) -> articles.Quotable:
        return articles.Quotable.of(self.title, self.text)


_article = Article.__table__
_ARTICLE_QUERY = sa.select(_article.c.slug, _article.c.title, _article.c.text).where(
    _article.c.id == sa.bindparam("article_id")
)


def article_data(session: so.Session, article_id: int) -> ArticleData:
    return ArticleData(*session.connection().execute(_ARTICLE_QUERY, {"article_id": article_id}).one())


def turn_feedback(session: so.Session, turn: Turn) -> tuple[Feedback, ArticleData]:
    """:func:`feedback` for an answered :class:`Turn`, with the article its sources come from;
    nothing in it tells the answer of a question the attempt asks later."""
    article = article_data(session, turn.article_id)
    given = feedback(
        session, turn.revision, turn.order, turn.answer, position=turn.position, question_slug=turn.question_slug,
        quotable=article.quotable, hide=later_answers(session, turn.attempt_id, turn.position),
    )
    return given, article


_LATER_QUERY = (
    sa.select(_slot.c.revision_id, _revision.c.created_at)
    .join(_revision, _revision.c.id == _slot.c.revision_id)
    .where(_slot.c.attempt_id == sa.bindparam("attempt_id"), _slot.c.position > sa.bindparam("position"))
)


def later_answers(session: so.Session, attempt_id: int, position: int) -> articles.Hide:
    """What would give away the answers of the attempt's questions after ``position``."""
    rows = session.connection().execute(_LATER_QUERY, {"attempt_id": attempt_id, "position": position})
    return revisions.hide_answers([revisions.revision_data(session, revision_id, created_at) for revision_id, created_at in rows])


# Results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Results:
    attempt: Attempt
    items: list[Feedback]
    best: BestScore | None
    rank: int | None

    @property
    def missed(self) -> int:
        return sum(1 for item in self.items if item.revision.behaviour.scored and not item.answer.is_correct)


def results(session: so.Session, attempt: Attempt) -> Results:
    """The review of a finished attempt, with the player's best on the quiz and its rank."""
    rows = session.execute(
        sa.select(
            AttemptQuestion.position, AttemptQuestion.question_id, Question.slug, AttemptQuestion.revision_id,
            QuestionRevision.created_at, Answer.selected_mask, Answer.response, Answer.credit, Answer.is_correct,
            Answer.points, Answer.answered_at, Answer.elapsed_ms,
        )
        .join(Question, Question.id == AttemptQuestion.question_id)
        .join(QuestionRevision, QuestionRevision.id == AttemptQuestion.revision_id)
        .join(Answer, sa.and_(Answer.attempt_id == AttemptQuestion.attempt_id,
                              Answer.question_id == AttemptQuestion.question_id))
        .where(AttemptQuestion.attempt_id == attempt.id)
        .order_by(AttemptQuestion.position)
    ).all()
    article = attempt.quiz.article
    quotable = articles.Quotable.of(article.title, article.text)
    items = []
    for position, question_id, slug, revision_id, created_at, *answer in rows:
        revision = revisions.revision_data(session, revision_id, created_at)
        order = revisions.shown_order(
            revision, seed=attempt.shuffle_seed, question_id=question_id, shuffle=attempt.shuffle_choices
        )
        items.append(feedback(
            session, revision, order, AnswerData(*answer), position=position, question_slug=slug, quotable=quotable,
        ))
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
