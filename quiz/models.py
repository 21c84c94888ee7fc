"""Storage: articles, quizzes, questions with immutable revisions, players and their answers.

A question's wording lives in :class:`QuestionRevision`; editing a question in the bank adds a
revision and moves :attr:`Question.current_revision_id`, so an answer keeps pointing at exactly
what its player saw.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql, sqlite

from quiz.extensions import db


def utcnow() -> datetime:
    """Naive UTC, the one time zone stored everywhere (SQLite keeps no offsets)."""
    return datetime.now(UTC).replace(tzinfo=None)


def insert_unless_taken(session: so.Session, model: type[db.Model]) -> sa.Insert:
    """An INSERT of ``model`` rows that inserts nothing where a unique constraint would refuse
    the row, instead of failing: two requests racing to insert one row both succeed."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model).on_conflict_do_nothing()


class Article(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: The article's id in the bank file; stable across imports.
    slug: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    title: so.Mapped[str] = so.mapped_column(sa.String(300))
    url: so.Mapped[str | None] = so.mapped_column(sa.String(2000))
    published_on: so.Mapped[date | None]
    #: Full text; source quotes store character offsets into it.
    text: so.Mapped[str] = so.mapped_column(sa.Text)
    #: Set when the article left the bank; kept so that old answers keep their sources.
    retired_at: so.Mapped[datetime | None]

    quizzes: so.WriteOnlyMapped[Quiz] = so.relationship(back_populates="article")


class Quiz(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    slug: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    title: so.Mapped[str] = so.mapped_column(sa.String(200))
    description: so.Mapped[str] = so.mapped_column(sa.Text, default="")
    article_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("article.id"), index=True)
    #: Order on the home page: the quiz's place in the bank file.
    position: so.Mapped[int] = so.mapped_column(default=0)
    #: Length of a standard attempt; players may also choose "all questions".
    questions_per_attempt: so.Mapped[int] = so.mapped_column(default=10)
    shuffle_choices: so.Mapped[bool] = so.mapped_column(default=True)
    #: Default seconds per question in timed play (live sessions).
    time_limit: so.Mapped[int] = so.mapped_column(default=30)
    #: The language of its texts, a BCP 47 tag such as "fr" (see quiz.web.language).
    language: so.Mapped[str] = so.mapped_column(sa.String(35), default="en", server_default="en")
    retired_at: so.Mapped[datetime | None]

    article: so.Mapped[Article] = so.relationship(back_populates="quizzes")
    questions: so.Mapped[list[Question]] = so.relationship(
        back_populates="quiz", order_by="Question.position"
    )


class Question(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: The question's id in the bank file; stable across edits.
    slug: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    quiz_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("quiz.id"), index=True)
    #: Order within the quiz, as in the bank file.
    position: so.Mapped[int] = so.mapped_column(default=0)
    #: The revision new attempts get. Circular with QuestionRevision.question_id, hence use_alter.
    current_revision_id: so.Mapped[int | None] = so.mapped_column(
        sa.ForeignKey("question_revision.id", use_alter=True)
    )
    #: Set when the question left the bank: hidden from new play, never deleted.
    retired_at: so.Mapped[datetime | None]
    #: The bank's ``group``: questions of one group tell each other's answers, and are never
    #: asked in the same attempt or session.
    group_name: so.Mapped[str | None] = so.mapped_column(sa.String(64))

    quiz: so.Mapped[Quiz] = so.relationship(back_populates="questions")
    current_revision: so.Mapped[QuestionRevision | None] = so.relationship(
        foreign_keys=[current_revision_id], post_update=True
    )
    revisions: so.Mapped[list[QuestionRevision]] = so.relationship(
        foreign_keys="QuestionRevision.question_id",
        back_populates="question",
        order_by="QuestionRevision.number",
    )


class QuestionRevision(db.Model):
    """One immutable version of a question's wording, choices and sources."""

    __tablename__ = "question_revision"
    __table_args__ = (sa.UniqueConstraint("question_id", "number"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    question_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question.id"))
    #: 1 for the first version, then 2, 3, ...
    number: so.Mapped[int]
    #: A key of :data:`quiz.kinds.KINDS`.
    kind: so.Mapped[str] = so.mapped_column(sa.String(16))
    prompt: so.Mapped[str] = so.mapped_column(sa.Text)
    explanation: so.Mapped[str] = so.mapped_column(sa.Text)
    difficulty: so.Mapped[str] = so.mapped_column(sa.String(8))
    #: Seconds; None falls back to the quiz's time limit.
    time_limit: so.Mapped[int | None]
    tags: so.Mapped[list[str]] = so.mapped_column(sa.JSON, default=list)
    #: What grading needs beyond the choices, for the kinds that need it: a number question's
    #: answer, tolerance and unit, a text question's accepted answers (see :mod:`quiz.kinds`).
    answer_key: so.Mapped[dict | None] = so.mapped_column(sa.JSON)
    #: SHA-256 of the revision's content; an import compares it to tell "changed" from "unchanged".
    fingerprint: so.Mapped[str] = so.mapped_column(sa.String(64))
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)

    question: so.Mapped[Question] = so.relationship(
        foreign_keys=[question_id], back_populates="revisions"
    )
    choices: so.Mapped[list[Choice]] = so.relationship(
        back_populates="revision", order_by="Choice.position"
    )
    quotes: so.Mapped[list[SourceQuote]] = so.relationship(
        back_populates="revision", order_by="SourceQuote.position"
    )


class Choice(db.Model):
    __table_args__ = (sa.UniqueConstraint("revision_id", "position"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    revision_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question_revision.id"))
    #: 0-based place in the bank file; bit ``1 << position`` in :attr:`Answer.selected_mask`.
    #: An ordering question's items are listed in the right order: this is also their right place.
    position: so.Mapped[int]
    text: so.Mapped[str] = so.mapped_column(sa.Text)
    is_correct: so.Mapped[bool]

    revision: so.Mapped[QuestionRevision] = so.relationship(back_populates="choices")


class SourceQuote(db.Model):
    """A verbatim passage of the article that supports a revision's answer."""

    __tablename__ = "source_quote"
    __table_args__ = (sa.UniqueConstraint("revision_id", "position"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    revision_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question_revision.id"))
    #: 0-based place among the revision's quotes; part of the stable reader anchor.
    position: so.Mapped[int]
    #: Character offsets of the passage in :attr:`Article.text` when the revision was made.
    span_start: so.Mapped[int]
    span_end: so.Mapped[int]
    #: The article's own characters at that span, kept in case the article text changes later.
    excerpt: so.Mapped[str] = so.mapped_column(sa.Text)

    revision: so.Mapped[QuestionRevision] = so.relationship(back_populates="quotes")


class Player(db.Model):
    """Someone playing without an account, recognised by a random token in their session."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    token: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    #: Shown on leaderboards; players without one are left off them.
    nickname: so.Mapped[str | None] = so.mapped_column(sa.String(20))
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)


class Attempt(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: Random id used in URLs, so attempts cannot be enumerated.
    public_id: so.Mapped[str] = so.mapped_column(sa.String(32), unique=True)
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("player.id"), index=True)
    quiz_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("quiz.id"), index=True)
    #: Seeds the per-attempt choice order, which must not change across reloads.
    shuffle_seed: so.Mapped[int] = so.mapped_column(sa.BigInteger)
    #: Whether choices are shown shuffled, fixed when the attempt starts: a re-import that
    #: changes the quiz's setting must not renumber the choices of an attempt under way.
    shuffle_choices: so.Mapped[bool] = so.mapped_column(default=True)
    #: The difficulty filter the player chose, or None for all.
    difficulty: so.Mapped[str | None] = so.mapped_column(sa.String(8))
    #: The attempt whose missed questions this one retries; retries stay off leaderboards.
    retry_of_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("attempt.id"))
    #: The classroom session this attempt belongs to; such attempts stay off quiz leaderboards.
    live_session_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("live_session.id"), index=True)
    question_count: so.Mapped[int]
    #: Questions that can be right or wrong: all but polls. "7 of 9 correct" counts these.
    scored_count: so.Mapped[int]
    #: Kept up to date by each answer so results and leaderboards need no aggregate.
    answered_count: so.Mapped[int] = so.mapped_column(default=0)
    #: Right answers so far; statistics rank attempts by it (``score`` may include speed bonuses).
    correct_count: so.Mapped[int] = so.mapped_column(default=0)
    score: so.Mapped[int] = so.mapped_column(default=0)
    started_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    finished_at: so.Mapped[datetime | None]
    #: Milliseconds from start to the last answer, set when finished.
    duration_ms: so.Mapped[int | None]

    player: so.Mapped[Player] = so.relationship()
    quiz: so.Mapped[Quiz] = so.relationship()
    slots: so.Mapped[list[AttemptQuestion]] = so.relationship(
        back_populates="attempt", order_by="AttemptQuestion.position"
    )


class AttemptQuestion(db.Model):
    """The questions an attempt asks, in order, each pinned to the revision it started with."""

    __tablename__ = "attempt_question"
    __table_args__ = (sa.UniqueConstraint("attempt_id", "question_id"),)

    attempt_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("attempt.id"), primary_key=True)
    #: 1-based, as in "Question 3 of 10".
    position: so.Mapped[int] = so.mapped_column(primary_key=True)
    question_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question.id"))
    revision_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question_revision.id"))
    #: First time the question page was shown; the answer's time is measured from here.
    shown_at: so.Mapped[datetime | None]

    attempt: so.Mapped[Attempt] = so.relationship(back_populates="slots")
    question: so.Mapped[Question] = so.relationship()
    revision: so.Mapped[QuestionRevision] = so.relationship()


class Answer(db.Model):
    # One answer per attempt and question, whatever the number of tabs or clicks.
    __table_args__ = (sa.UniqueConstraint("attempt_id", "question_id"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    attempt_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("attempt.id"))
    question_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question.id"))
    #: The exact revision answered; statistics group by it.
    revision_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question_revision.id"), index=True)
    #: Bit ``1 << Choice.position`` set for every choice picked; 0 for kinds without picks.
    selected_mask: so.Mapped[int]
    #: The answer itself as JSON, for kinds whose answer is not a set of picks: an ordering's
    #: item positions in the order given, the number typed, the text typed.
    response: so.Mapped[str | None] = so.mapped_column(sa.Text)
    #: From 0 to 1 (an ordering half right earns 0.5); None for a poll, never right or wrong.
    credit: so.Mapped[float | None] = so.mapped_column(sa.Float)
    #: Whether the answer earned full credit.
    is_correct: so.Mapped[bool]
    points: so.Mapped[int]
    answered_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    #: Milliseconds from the question first shown to the answer; None if never measured.
    elapsed_ms: so.Mapped[int | None]
    #: The attempt's final right answers and length, copied here when it finishes, unless it is
    #: a retry. Statistics count only such answers, and read them without visiting attempts.
    attempt_correct_count: so.Mapped[int | None]
    attempt_question_count: so.Mapped[int | None]


_COUNTED_ANSWER = Answer.attempt_question_count.is_not(None)
# Item statistics: one pass over this index, without visiting the table, gives every
# per-choice and per-score count.
sa.Index(
    "ix_answer_statistics",
    Answer.revision_id, Answer.selected_mask, Answer.is_correct,
    Answer.attempt_correct_count, Answer.attempt_question_count, Answer.elapsed_ms,
    sqlite_where=_COUNTED_ANSWER, postgresql_where=_COUNTED_ANSWER,
)
# Median time to answer: a walk along this index to the middle.
sa.Index(
    "ix_answer_time", Answer.revision_id, Answer.elapsed_ms,
    sqlite_where=_COUNTED_ANSWER, postgresql_where=_COUNTED_ANSWER,
)


class BestScore(db.Model):
    """Each player's best finished attempt per quiz, maintained as attempts finish.

    Reading a leaderboard is then an index scan whose cost does not grow with the number of
    answers stored.
    """

    __tablename__ = "best_score"

    quiz_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("quiz.id"), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("player.id"), primary_key=True)
    attempt_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("attempt.id"))
    score: so.Mapped[int]
    question_count: so.Mapped[int]
    duration_ms: so.Mapped[int]
    finished_at: so.Mapped[datetime]

    player: so.Mapped[Player] = so.relationship()


# Ranking order: highest score, then time taken, then who finished first. The index holds that
# order, so a leaderboard reads its first rows and stops however many players there are.
sa.Index(
    "ix_best_score_ranking",
    BestScore.quiz_id, BestScore.score.desc(), BestScore.duration_ms, BestScore.finished_at,
)


class User(db.Model):
    """A teacher or admin account. Players never need one."""

    __tablename__ = "user_account"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: Stored case-folded; logging in ignores case.
    username: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    password_hash: so.Mapped[str] = so.mapped_column(sa.String(255))
    #: A key of :data:`quiz.accounts.ROLES`.
    role: so.Mapped[str] = so.mapped_column(sa.String(16))
    #: False for a disabled account, which can no longer log in.
    active: so.Mapped[bool] = so.mapped_column(default=True)
    #: Part of every login session's id; bumping it ends every session of the user at once
    #: (logout, password change, disabling), including copies of old cookies.
    session_version: so.Mapped[int] = so.mapped_column(default=1)
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    last_login_at: so.Mapped[datetime | None]


class LiveSession(db.Model):
    """A classroom session on one quiz: host-paced with a shared clock, or self-paced."""

    __tablename__ = "live_session"
    __table_args__ = (
        # A join code is unique among the sessions still open; finished ones free theirs.
        sa.Index(
            "uq_live_session_open_code", "code", unique=True,
            sqlite_where=sa.text("finished_at IS NULL"), postgresql_where=sa.text("finished_at IS NULL"),
        ),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: Six random digits that students type to join.
    code: so.Mapped[str] = so.mapped_column(sa.String(6))
    host_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("user_account.id"), index=True)
    quiz_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("quiz.id"))
    #: "host": the host opens each question for everyone; "self": each student plays alone.
    pacing: so.Mapped[str] = so.mapped_column(sa.String(8))
    #: A key of :data:`quiz.scoring.RULES`.
    scoring: so.Mapped[str] = so.mapped_column(sa.String(8))
    show_leaderboard: so.Mapped[bool] = so.mapped_column(default=True)
    #: Seconds for every question, overriding the questions' and quiz's own limits.
    time_limit: so.Mapped[int | None]
    #: Seeds the choice order, the same for every student so the projector matches the phones.
    shuffle_seed: so.Mapped[int] = so.mapped_column(sa.BigInteger)
    #: Whether choices are shown shuffled, the quiz's setting when the session was created.
    shuffle_choices: so.Mapped[bool] = so.mapped_column(default=True)
    #: Self-paced sessions only: answers are refused after this time.
    deadline: so.Mapped[datetime | None]
    #: A key of :data:`quiz.live.STATES`.
    state: so.Mapped[str] = so.mapped_column(sa.String(16))
    #: The current question, 1-based; 0 before the first.
    position: so.Mapped[int] = so.mapped_column(default=0)
    question_count: so.Mapped[int]
    question_opened_at: so.Mapped[datetime | None]
    question_closes_at: so.Mapped[datetime | None]
    #: Bumped by every change that screens must show; event streams watch it.
    version: so.Mapped[int] = so.mapped_column(default=1)
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    finished_at: so.Mapped[datetime | None]

    quiz: so.Mapped[Quiz] = so.relationship()
    host: so.Mapped[User] = so.relationship()
    questions: so.Mapped[list[LiveQuestion]] = so.relationship(
        back_populates="live_session", order_by="LiveQuestion.position"
    )


class LiveQuestion(db.Model):
    """A session's questions in order, each pinned to a revision and given its time limit."""

    __tablename__ = "live_question"

    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("live_session.id"), primary_key=True)
    position: so.Mapped[int] = so.mapped_column(primary_key=True)
    question_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question.id"))
    revision_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("question_revision.id"))
    #: Seconds allowed, resolved when the session was created.
    time_limit: so.Mapped[int]

    live_session: so.Mapped[LiveSession] = so.relationship(back_populates="questions")
    question: so.Mapped[Question] = so.relationship()
    revision: so.Mapped[QuestionRevision] = so.relationship()


class LivePlayer(db.Model):
    """A student in a session, under a nickname unique in that session."""

    __tablename__ = "live_player"
    __table_args__ = (
        sa.UniqueConstraint("session_id", "nickname_key"),
        sa.UniqueConstraint("session_id", "player_id"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("live_session.id"))
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("player.id"))
    #: The student's answers and score in this session.
    attempt_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("attempt.id"))
    nickname: so.Mapped[str] = so.mapped_column(sa.String(20))
    #: The nickname case-folded and without accents, so "Zoé" and "zoe" cannot both join.
    nickname_key: so.Mapped[str] = so.mapped_column(sa.String(80))
    #: Consecutive right answers so far, for the streak bonus.
    streak: so.Mapped[int] = so.mapped_column(default=0)
    joined_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    #: Set when the host removed the student; their token cannot rejoin the session.
    removed_at: so.Mapped[datetime | None]

    attempt: so.Mapped[Attempt] = so.relationship()


class ApiToken(db.Model):
    """A secret with which a teacher's or admin's program uses the JSON API in their name.

    Only a hash is stored: the token is shown once, when it is made, and cannot be recovered.
    """

    __tablename__ = "api_token"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    user_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("user_account.id"), index=True)
    #: What the token is for, in its owner's words ("LMS sync").
    label: so.Mapped[str] = so.mapped_column(sa.String(100))
    #: The token's first characters, shown in lists to tell tokens apart; too short to use.
    prefix: so.Mapped[str] = so.mapped_column(sa.String(16))
    #: SHA-256 of the whole token, hex. The token is random and long, so a plain hash suffices
    #: and can be looked up directly.
    token_hash: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    #: Refreshed at most once a minute, so that using a token rarely costs a write.
    last_used_at: so.Mapped[datetime | None]
    #: Set when revoked; the token is refused from then on, and the row kept for the record.
    revoked_at: so.Mapped[datetime | None]

    user: so.Mapped[User] = so.relationship()


class BankLock(db.Model):
    """The one row every change to the bank writes first (see :func:`quiz.bank.importer.lock_bank`).

    The database lets one transaction at a time write it, until that transaction ends, so that
    changes to the bank follow one another: each sees the bank as the one before it left it.
    """

    __tablename__ = "bank_lock"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    #: How many changes took the lock. Nothing reads it: writing it is what takes the lock.
    changes: so.Mapped[int] = so.mapped_column(default=0)
