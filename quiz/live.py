"""Classroom sessions: hosting, joining, the host-paced state machine, answers and results.

A host-paced session moves through these states, only ever forward::

    lobby -> question_open -> question_closed -> reveal -> [leaderboard] -> question_open ...
                                                                          \\-> finished

A question closes when its time is up, when every student has answered, or when the host
closes it. A self-paced session is ``open`` from its creation until its deadline or until the
host finishes it; students play it through the solo flow.

Every change that a screen must show bumps :attr:`LiveSession.version`; event streams watch
that number (see :mod:`quiz.events`). Transitions are conditional updates on the version, so
two servers (or a timer and a host click) racing for the same change apply it once.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from quiz import articles, play, revisions, scores, scoring
from quiz.kinds import KINDS, ChoiceData, Graded, Reveal, Tally
from quiz.models import (
    Answer,
    Attempt,
    AttemptQuestion,
    LivePlayer,
    LiveQuestion,
    LiveSession,
    Player,
    Question,
    QuestionRevision,
    Quiz,
    User,
    insert_unless_taken,
    utcnow,
)

T = TypeVar("T")

LOBBY = "lobby"
QUESTION_OPEN = "question_open"
QUESTION_CLOSED = "question_closed"
REVEAL = "reveal"
LEADERBOARD = "leaderboard"
FINISHED = "finished"
#: Self-paced sessions are open until their deadline.
OPEN = "open"
STATES = (LOBBY, QUESTION_OPEN, QUESTION_CLOSED, REVEAL, LEADERBOARD, FINISHED, OPEN)

HOST_PACED = "host"
SELF_PACED = "self"

#: The PostgreSQL channel a session's state changes are announced on, to wake the event
#: streams' watchers in every process at once (quiz.events).
CHANNEL = "quiz_live"

MIN_TIME_LIMIT = 5
MAX_TIME_LIMIT = 240
CODE_DIGITS = 6


class LiveError(Exception):
    """A request the session's state refuses; the message is meant for the person asking."""


@dataclass(frozen=True)
class Settings:
    pacing: str = HOST_PACED
    #: How many of the quiz's questions to ask; None for all.
    question_count: int | None = None
    #: Seconds per question for every question; None keeps each question's or the quiz's.
    time_limit: int | None = None
    shuffle: bool = False
    show_leaderboard: bool = True
    scoring: str = "speed"
    #: Self-paced only.
    deadline: datetime | None = None


# Hosting ----------------------------------------------------------------------------------------


def create_session(
    session: so.Session, host: User, quiz: Quiz, settings: Settings, rng: random.Random | None = None
) -> LiveSession:
    """A new session in its lobby (or open, when self-paced), with a fresh join code."""
    rng = rng or random.SystemRandom()
    if settings.scoring not in scoring.RULES:
        raise LiveError(_("unknown scoring rule %(rule)r", rule=settings.scoring))
    if settings.pacing not in (HOST_PACED, SELF_PACED):
        raise LiveError(_("unknown pacing %(pacing)r", pacing=settings.pacing))
    if settings.question_count is not None and settings.question_count < 1:
        raise LiveError(_("ask at least one question"))
    if settings.time_limit is not None and not MIN_TIME_LIMIT <= settings.time_limit <= MAX_TIME_LIMIT:
        raise LiveError(_("time per question must be %(min)s to %(max)s seconds", min=MIN_TIME_LIMIT, max=MAX_TIME_LIMIT))
    rows = session.execute(
        sa.select(Question.id, QuestionRevision.id, QuestionRevision.time_limit, QuestionRevision.kind, Question.group_name)
        .join(QuestionRevision, QuestionRevision.id == Question.current_revision_id)
        .where(Question.quiz_id == quiz.id, Question.retired_at.is_(None))
        .order_by(Question.position)
    ).all()
    if not rows:
        raise LiveError(_("this quiz has no questions to ask"))
    if settings.shuffle:
        rng.shuffle(rows)
    rows = [row[:4] for row in play.one_per_group(rows)]
    rows = rows[: settings.question_count or len(rows)]
    self_paced = settings.pacing == SELF_PACED
    if self_paced and settings.deadline is None:
        raise LiveError(_("a self-paced session needs a deadline"))
    live = LiveSession(
        code=_free_code(session),
        host=host,
        quiz=quiz,
        pacing=settings.pacing,
        # Self-paced students answer on their own clock, so speed cannot be compared.
        scoring="plain" if self_paced else settings.scoring,
        show_leaderboard=settings.show_leaderboard,
        time_limit=settings.time_limit,
        deadline=settings.deadline if self_paced else None,
        shuffle_seed=rng.getrandbits(62),
        shuffle_choices=quiz.shuffle_choices,
        state=OPEN if self_paced else LOBBY,
        position=0,
        question_count=len(rows),
        version=1,
        created_at=utcnow(),
    )
    session.add(live)
    session.flush()
    session.add_all(
        LiveQuestion(
            session_id=live.id,
            position=position,
            question_id=question_id,
            revision_id=revision_id,
            time_limit=settings.time_limit or own_limit or quiz.time_limit,
        )
        for position, (question_id, revision_id, own_limit, _kind) in enumerate(rows, start=1)
    )
    session.flush()
    return live


def _free_code(session: so.Session) -> str:
    """Six random digits that no open session uses (the database's partial index agrees)."""
    for _try in range(100):
        code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
        taken = session.scalar(
            sa.select(LiveSession.id).where(LiveSession.code == code, LiveSession.finished_at.is_(None))
        )
        if taken is None:
            return code
    raise LiveError(_("no free join code; finish some open sessions"))


def sessions_of(session: so.Session, host: User) -> list[LiveSession]:
    """The host's sessions, newest first."""
    return list(
        session.scalars(
            sa.select(LiveSession)
            .where(LiveSession.host_id == host.id)
            .order_by(LiveSession.created_at.desc(), LiveSession.id.desc())
            .options(so.joinedload(LiveSession.quiz))
        )
    )


def session_for_host(session: so.Session, session_id: int, host: User) -> LiveSession | None:
    """The session if ``host`` runs it (admins may open any)."""
    live = session.get(LiveSession, session_id)
    if live is None or (live.host_id != host.id and host.role != "admin"):
        return None
    return live


def ended_session_by_code(session: so.Session, code: str) -> LiveSession | None:
    """The last session that had this join code and has ended (codes are reused once free)."""
    return session.scalar(
        sa.select(LiveSession)
        .where(LiveSession.code == code.strip(), LiveSession.finished_at.is_not(None))
        .order_by(LiveSession.finished_at.desc())
        .limit(1)
    )


def open_session_by_code(session: so.Session, code: str) -> LiveSession | None:
    return session.scalar(
        sa.select(LiveSession).where(LiveSession.code == code.strip(), LiveSession.finished_at.is_(None))
    )


# Joining ----------------------------------------------------------------------------------------


NICKNAME_TAKEN = _l("Someone in this session already has that nickname. Choose another.")


def nickname_key(nickname: str) -> str:
    """Case and accents folded: "Zoé", "ZOE" and "zoe" are one nickname in a session."""
    decomposed = unicodedata.normalize("NFKD", nickname.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def join(session: so.Session, live: LiveSession, player: Player, nickname: str, now: datetime | None = None) -> LivePlayer:
    """Put ``player`` in the session under ``nickname``; a returning player keeps their place."""
    now = now or utcnow()
    existing = session.scalar(
        sa.select(LivePlayer).where(LivePlayer.session_id == live.id, LivePlayer.player_id == player.id)
    )
    if existing is not None:
        return _kept(existing)
    if live.state == FINISHED or live.finished_at is not None:
        raise LiveError(_("This session has ended."))
    if live.deadline is not None and now >= live.deadline:
        raise LiveError(_("The deadline for this session has passed."))
    key = nickname_key(nickname)
    taken = session.scalar(
        sa.select(LivePlayer).where(LivePlayer.session_id == live.id, LivePlayer.nickname_key == key)
    )
    if taken is not None:
        if taken.player_id == player.id:  # this phone's other join, committed since the check above
            return _kept(taken)
        raise LiveError(NICKNAME_TAKEN)
    attempt = Attempt(
        public_id=secrets.token_urlsafe(16),
        player=player,
        quiz_id=live.quiz_id,
        live_session_id=live.id,
        shuffle_seed=live.shuffle_seed,
        shuffle_choices=live.shuffle_choices,
        question_count=live.question_count,
        scored_count=scored_count(session, live),
        answered_count=0,
        correct_count=0,
        score=0,
        started_at=now,
    )
    session.add(attempt)
    session.flush()
    session.execute(
        sa.insert(AttemptQuestion).from_select(
            ["attempt_id", "position", "question_id", "revision_id"],
            sa.select(sa.literal(attempt.id), LiveQuestion.position, LiveQuestion.question_id, LiveQuestion.revision_id)
            .where(LiveQuestion.session_id == live.id),
        )
    )
    # Two joins at once (a phone that sends its form twice, two phones with one nickname) both
    # get past the checks above; the unique constraints let one in, and the other inserts nothing.
    inserted = session.scalar(
        insert_unless_taken(session, LivePlayer)
        .values(session_id=live.id, player_id=player.id, attempt_id=attempt.id, nickname=nickname,
                nickname_key=key, streak=0, joined_at=now)
        .returning(LivePlayer.id)
    )
    if inserted is None:
        session.execute(sa.delete(AttemptQuestion).where(AttemptQuestion.attempt_id == attempt.id))
        session.delete(attempt)
        session.flush()
        # The other join is committed now: this phone's own keeps its place, another phone's
        # took the nickname.
        existing = session.scalar(
            sa.select(LivePlayer).where(LivePlayer.session_id == live.id, LivePlayer.player_id == player.id)
        )
        if existing is None:
            raise LiveError(NICKNAME_TAKEN)
        return _kept(existing)
    _bump(session, live)
    return session.get_one(LivePlayer, inserted)


def _kept(seat: LivePlayer) -> LivePlayer:
    """A returning player's seat, unless the host removed them."""
    if seat.removed_at is not None:
        raise LiveError(_("The host removed you from this session."))
    return seat


def scored_count(session: so.Session, live: LiveSession) -> int:
    """How many of the session's questions can be right or wrong (all but polls)."""
    kinds = session.scalars(
        sa.select(QuestionRevision.kind)
        .join(LiveQuestion, LiveQuestion.revision_id == QuestionRevision.id)
        .where(LiveQuestion.session_id == live.id)
    )
    return sum(KINDS[kind].scored for kind in kinds)


def membership(session: so.Session, live: LiveSession, player: Player | None) -> LivePlayer | None:
    """The player's place in the session, or None if they never joined or were removed."""
    if player is None:
        return None
    return session.scalar(
        sa.select(LivePlayer)
        .where(LivePlayer.session_id == live.id, LivePlayer.player_id == player.id, LivePlayer.removed_at.is_(None))
        .options(so.joinedload(LivePlayer.attempt))
    )


def membership_by_token(session: so.Session, session_id: int, token: str | None) -> tuple[LiveSession, LivePlayer] | None:
    """The session and the place in it of the player with ``token``, in one query: every
    phone asks for this on every request."""
    if not token:
        return None
    row = session.execute(
        sa.select(LiveSession, LivePlayer)
        .join(LivePlayer, LivePlayer.session_id == LiveSession.id)
        .join(Player, Player.id == LivePlayer.player_id)
        .where(LiveSession.id == session_id, Player.token == token, LivePlayer.removed_at.is_(None))
        .options(so.joinedload(LivePlayer.attempt), so.joinedload(LiveSession.quiz))
    ).one_or_none()
    return (row[0], row[1]) if row else None


def remove_player(session: so.Session, live: LiveSession, live_player_id: int, now: datetime | None = None) -> None:
    live_player = session.get(LivePlayer, live_player_id)
    if live_player is None or live_player.session_id != live.id:
        raise LiveError(_("No such player in this session."))
    if live_player.removed_at is None:
        live_player.removed_at = now or utcnow()
        session.flush()
        _bump(session, live)
        close_if_everyone_answered(session, live, now)


def players(session: so.Session, live: LiveSession) -> list[LivePlayer]:
    """Students still in the session, in order of arrival."""
    return list(
        session.scalars(
            sa.select(LivePlayer)
            .where(LivePlayer.session_id == live.id, LivePlayer.removed_at.is_(None))
            .order_by(LivePlayer.joined_at, LivePlayer.id)
        )
    )


# The state machine ------------------------------------------------------------------------------


def _bump(session: so.Session, live: LiveSession, **values) -> None:
    """Apply ``values`` and bump the version, whatever the version is now (joins, removals)."""
    session.execute(
        sa.update(LiveSession).where(LiveSession.id == live.id).values(version=LiveSession.version + 1, **values)
    )
    session.refresh(live)


def _transition(session: so.Session, live: LiveSession, allowed_from: tuple[str, ...], **values) -> bool:
    """Move the session if it is still in one of ``allowed_from`` at the version we saw.

    False when somebody else moved it first (another server's timer, a second host click):
    the caller then simply shows the state as it now is.
    """
    if live.state not in allowed_from:
        return False
    changed = session.execute(
        sa.update(LiveSession)
        .where(LiveSession.id == live.id, LiveSession.version == live.version, LiveSession.state.in_(allowed_from))
        .values(version=LiveSession.version + 1, **values)
        .returning(_announcement(session))
    ).all()
    session.refresh(live)
    return bool(changed)


def _announcement(session: so.Session) -> sa.ColumnElement:
    """What a transition returns: on PostgreSQL, a notification on :data:`CHANNEL`, which the
    database delivers when the transaction commits; elsewhere watchers only poll. In the
    statement itself, so that it costs no round trip. Joins do not announce themselves: a
    class joining at once would queue a thousand notifications, and the lobby can wait for
    the next poll."""
    if session.get_bind().dialect.name == "postgresql":
        return sa.func.pg_notify(CHANNEL, sa.cast(LiveSession.id, sa.Text))
    return LiveSession.id


@dataclass(frozen=True)
class QuestionData:
    """A session's question as every screen uses it, with its choices in the session's order.

    A session's questions and their revisions never change, so each process keeps these
    in memory: every phone asks for its page when a question opens, and none of them then
    costs a query for it.
    """

    session_id: int
    position: int
    question_id: int
    question_slug: str
    revision_id: int
    time_limit: int
    revision: revisions.RevisionData
    #: The choices in the order the session shows them.
    order: tuple[ChoiceData, ...]
    #: What would give away the answers of the session's later questions: its reveal leaves it out.
    hide: articles.Hide = articles.Hide()

    @property
    def multiple(self) -> bool:
        return self.revision.multiple

    @property
    def choices(self) -> list[revisions.ShownChoice]:
        return revisions.shown_choices(self.order)

    @property
    def public(self) -> dict:
        return self.revision.public

    @property
    def expected(self) -> str:
        """The right answer in words, for the reveal."""
        return self.revision.behaviour.expected(self.order, self.revision.answer_key)


_QUESTION_CACHE: dict[tuple[int, datetime, int], QuestionData] = {}
_QUESTION_CACHE_SIZE = 10_000


def current_question(session: so.Session, live: LiveSession | SessionState) -> QuestionData | None:
    if live.position < 1:
        return None
    # The creation time tells sessions apart even where ids repeat (a recreated database).
    key = (live.id, live.created_at, live.position)
    cached = _QUESTION_CACHE.get(key)
    if cached is None:
        cached = _load_question(session, live)
        if len(_QUESTION_CACHE) >= _QUESTION_CACHE_SIZE:
            _QUESTION_CACHE.clear()
        _QUESTION_CACHE[key] = cached
    return cached


_live_question = LiveQuestion.__table__
_QUESTION_QUERY = (
    sa.select(
        _live_question.c.question_id, Question.__table__.c.slug, _live_question.c.revision_id,
        QuestionRevision.__table__.c.created_at, _live_question.c.time_limit,
    )
    .join(Question.__table__, Question.__table__.c.id == _live_question.c.question_id)
    .join(QuestionRevision.__table__, QuestionRevision.__table__.c.id == _live_question.c.revision_id)
    .where(_live_question.c.session_id == sa.bindparam("session_id"), _live_question.c.position == sa.bindparam("position"))
)


def _load_question(session: so.Session, live: LiveSession | SessionState) -> QuestionData:
    question_id, slug, revision_id, created_at, time_limit = session.connection().execute(
        _QUESTION_QUERY, {"session_id": live.id, "position": live.position}
    ).one()
    data = revisions.revision_data(session, revision_id, created_at)
    # The order follows from what the session stored when it was created, so that every
    # process, with its cache or without, shows and grades the same order.
    order = revisions.shown_order(data, seed=live.shuffle_seed, question_id=question_id, shuffle=live.shuffle_choices)
    later = session.connection().execute(_LATER_QUERY, {"session_id": live.id, "position": live.position})
    hide = revisions.hide_answers(
        [revisions.revision_data(session, revision_id, created_at) for revision_id, created_at in later]
    )
    return QuestionData(live.id, live.position, question_id, slug, revision_id, time_limit, data, order, hide)


_LATER_QUERY = (
    sa.select(_live_question.c.revision_id, QuestionRevision.__table__.c.created_at)
    .join(QuestionRevision.__table__, QuestionRevision.__table__.c.id == _live_question.c.revision_id)
    .where(_live_question.c.session_id == sa.bindparam("session_id"), _live_question.c.position > sa.bindparam("position"))
)


def _open_question(session: so.Session, live: LiveSession, position: int, now: datetime, allowed_from: tuple[str, ...]) -> bool:
    limit = session.scalar(
        sa.select(LiveQuestion.time_limit).where(LiveQuestion.session_id == live.id, LiveQuestion.position == position)
    )
    return _transition(
        session, live, allowed_from, state=QUESTION_OPEN, position=position,
        question_opened_at=now, question_closes_at=now + timedelta(seconds=limit),
    )


def start(session: so.Session, live: LiveSession, now: datetime | None = None) -> bool:
    """Open the first question for everyone in the lobby."""
    if live.pacing != HOST_PACED:
        raise LiveError(_("A self-paced session has no questions to open."))
    return _open_question(session, live, 1, now or utcnow(), (LOBBY,))


def close_question(session: so.Session, live: LiveSession, now: datetime | None = None) -> bool:
    return _transition(session, live, (QUESTION_OPEN,), state=QUESTION_CLOSED, question_closes_at=now or utcnow())


def reveal(session: so.Session, live: LiveSession, now: datetime | None = None) -> bool:
    """Show the correct answer, the class's answers and the source (closing the question first)."""
    if live.state == QUESTION_OPEN:
        close_question(session, live, now)
    return _transition(session, live, (QUESTION_CLOSED,), state=REVEAL)


def advance(session: so.Session, live: LiveSession, now: datetime | None = None) -> bool:
    """After a reveal: the leaderboard if shown, else the next question, or the end."""
    now = now or utcnow()
    if live.state == REVEAL and live.show_leaderboard:
        return _transition(session, live, (REVEAL,), state=LEADERBOARD)
    if live.state not in (REVEAL, LEADERBOARD):
        return False
    if live.position >= live.question_count:
        return finish(session, live, now)
    return _open_question(session, live, live.position + 1, now, (REVEAL, LEADERBOARD))


def finish(session: so.Session, live: LiveSession, now: datetime | None = None) -> bool:
    """End the session from any state; its join code becomes free again, and every student's
    attempt ends, so that those who missed questions can still review their answers."""
    now = now or utcnow()
    allowed = tuple(state for state in STATES if state != FINISHED)
    if not _transition(session, live, allowed, state=FINISHED, finished_at=now, question_closes_at=None):
        return False
    session.execute(
        sa.update(Attempt)
        .where(Attempt.live_session_id == live.id, Attempt.finished_at.is_(None))
        .values(finished_at=now)
        .execution_options(synchronize_session=False)
    )
    scores.count_for_statistics(session, Attempt.live_session_id == live.id)
    return True


def host_action(session: so.Session, live: LiveSession, action: str, now: datetime | None = None) -> bool:
    """Apply a host's button press by name; unknown names are refused."""
    actions = {"start": start, "close": close_question, "reveal": reveal, "next": advance, "finish": finish}
    if action not in actions:
        raise LiveError(_("unknown action %(action)r", action=action))
    return actions[action](session, live, now)


def _current_question_id(live: LiveSession):
    return (
        sa.select(LiveQuestion.question_id)
        .where(LiveQuestion.session_id == live.id, LiveQuestion.position == live.position)
        .scalar_subquery()
    )


def answered_count(session: so.Session, live: LiveSession) -> int:
    """How many students still in the session have answered the current question."""
    if live.position < 1:
        return 0
    question_id = _current_question_id(live)
    return session.scalar(
        sa.select(sa.func.count())
        .select_from(LivePlayer)
        .join(Answer, sa.and_(Answer.attempt_id == LivePlayer.attempt_id, Answer.question_id == question_id))
        .where(LivePlayer.session_id == live.id, LivePlayer.removed_at.is_(None))
    ) or 0


def player_count(session: so.Session, live: LiveSession) -> int:
    return session.scalar(
        sa.select(sa.func.count())
        .select_from(LivePlayer)
        .where(LivePlayer.session_id == live.id, LivePlayer.removed_at.is_(None))
    ) or 0


def tick(session: so.Session, live: LiveSession, now: datetime | None = None) -> bool:
    """Apply the changes that time makes due: close a question whose time is up, finish a
    self-paced session past its deadline. Cheap when nothing is due: no query at all."""
    now = now or utcnow()
    if live.state == QUESTION_OPEN and live.question_closes_at is not None and now >= live.question_closes_at:
        return close_question(session, live, live.question_closes_at)
    if live.state == OPEN and live.deadline is not None and now >= live.deadline:
        return finish(session, live, now)
    return False


def close_if_everyone_answered(
    session: so.Session, live: LiveSession | SessionState, now: datetime | None = None, *, question_id: int | None = None
) -> bool:
    """Close the open question once every student still in the session has answered it.

    This runs after every answer, so it must not count the class each time (a thousand
    answers would make a million rows to visit): see :class:`_UnansweredSearch`.
    ``question_id``, the open question's, spares a query when the caller knows it.
    """
    if live.state != QUESTION_OPEN:
        return False
    if question_id is None:
        question_id = session.scalar(
            sa.select(LiveQuestion.question_id).where(LiveQuestion.session_id == live.id, LiveQuestion.position == live.position)
        )
    search = _UnansweredSearch.of(live, question_id)
    unanswered = session.connection().execute(_FIRST_UNANSWERED, search.params).scalar()
    return search.found(session, live, unanswered, now)


@dataclass
class _UnansweredSearch:
    """A search for the first student still in the session who has not answered the open
    question, and what its result means.

    Students are looked at in the order of an index, and the search stops at the first one
    without an answer. Each process remembers where that was: every student before it has
    answered for good, or left, so the next search starts there, and a class costs each
    process about one pass over its students per question. A student joining moves the
    session's version on, which makes the search start from the beginning again (checked in
    the same statement, so that a join committed meanwhile is seen).
    """

    # The creation time tells sessions apart where ids repeat (a recreated database).
    key: tuple[int, datetime, int]
    version: int
    from_player: int
    params: dict

    @classmethod
    def of(cls, live: LiveSession | SessionState, question_id: int) -> _UnansweredSearch:
        key = (live.id, live.created_at, question_id)
        version, from_player = _ANSWERED_BELOW.get(key, (live.version, 0))
        # Named apart from every column, since an UPDATE would take a parameter named after
        # one of its table's columns for a value to set.
        params = {
            "b_session_id": live.id, "b_question_id": question_id, "b_version": live.version,
            "b_from_player": from_player if version == live.version else 0,
        }
        return cls(key, version, from_player, params)

    def found(self, session: so.Session, live: LiveSession | SessionState, unanswered: int | None, now: datetime | None) -> bool:
        """Remember where the search stopped, or close the question if it found nobody."""
        if unanswered is None:
            _ANSWERED_BELOW.pop(self.key, None)
            return close_question(session, _loaded(session, live), now)
        if len(_ANSWERED_BELOW) >= _ANSWERED_BELOW_KEPT:
            _ANSWERED_BELOW.clear()
        if self.version != live.version or unanswered > self.from_player:
            _ANSWERED_BELOW[self.key] = (live.version, unanswered)
        return False


#: (session id, its creation time, question id) -> (the session's version, a player id): at
#: that version, every student of the session with a smaller player id had answered the
#: question, or left.
_ANSWERED_BELOW: dict[tuple[int, datetime, int], tuple[int, int]] = {}
_ANSWERED_BELOW_KEPT = 10_000
_live_player = LivePlayer.__table__
_live_session = LiveSession.__table__
_answer = Answer.__table__
# The search of _UnansweredSearch, in the order of the unique index on (session_id,
# player_id): from the remembered player on, unless the session's version has moved since
# (someone joined or left).
_FIRST_UNANSWERED = (
    sa.select(_live_player.c.player_id)
    .where(
        _live_player.c.session_id == sa.bindparam("b_session_id"),
        _live_player.c.player_id >= sa.case(
            (
                sa.select(_live_session.c.version).where(_live_session.c.id == sa.bindparam("b_session_id"))
                .scalar_subquery() == sa.bindparam("b_version"),
                sa.bindparam("b_from_player"),
            ),
            else_=0,
        ),
        _live_player.c.removed_at.is_(None),
        ~sa.exists().where(
            _answer.c.attempt_id == _live_player.c.attempt_id, _answer.c.question_id == sa.bindparam("b_question_id")
        ),
    )
    .order_by(_live_player.c.player_id)
    .limit(1)
)


def store_answer(
    session: so.Session,
    state: SessionState,
    member: Member,
    question: QuestionData,
    graded: Graded,
    *,
    points: int,
    streak: int,
    now: datetime,
    elapsed_ms: int,
) -> scores.Counts | None:
    """Store a student's answer to the open question and count it (see
    :func:`quiz.scores.store_answer`), keep their run of right answers (``streak``, for the
    streak bonus), and close the question if they were the last to answer it.

    A classroom's answers arrive all at once, so on PostgreSQL this is one statement: one
    round trip for all of it.
    """
    session.flush()
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        counts = scores.store_answer(
            session, member.attempt.id, question.question_id, question.revision_id, graded,
            points=points, now=now, elapsed_ms=elapsed_ms,
        )
        if counts is not None:
            set_streak(session, member, streak)
            close_if_everyone_answered(session, state, now, question_id=question.question_id)
        return counts
    search = _UnansweredSearch.of(state, question.question_id)
    row = connection.execute(
        _STORE_ANSWER_POSTGRESQL,
        scores.answer_values(
            member.attempt.id, question.question_id, question.revision_id, graded,
            points=points, now=now, elapsed_ms=elapsed_ms,
        ) | search.params | {"b_live_player_id": member.id, "b_streak": streak},
    ).first()
    if row is None:
        return None
    counts = scores.counted(session, member.attempt.id, row, now)
    member.streak = streak
    search.found(session, state, row.first_unanswered, now)
    return counts


_kept_streak = (
    sa.update(_live_player)
    .where(
        _live_player.c.id == sa.bindparam("b_live_player_id"),
        _live_player.c.streak != sa.bindparam("b_streak"),
        sa.exists(sa.select(scores.INSERTED_ANSWER.c.id)),
    )
    .values(streak=sa.bindparam("b_streak"))
    .returning(_live_player.c.id)
    .cte("kept_streak")
)
_counted = scores.STORE_ANSWER_POSTGRESQL.cte("counted")
# The statements of a common table expression all see the database as it was before it, so
# the search leaves out the student answering, who has answered by the time it matters.
_STORE_ANSWER_POSTGRESQL = sa.select(
    *_counted.c,
    _FIRST_UNANSWERED.where(_live_player.c.attempt_id != sa.bindparam("b_attempt_id"))
    .scalar_subquery()
    .label("first_unanswered"),
).add_cte(_kept_streak)


def _loaded(session: so.Session, live: LiveSession | SessionState) -> LiveSession:
    return live if isinstance(live, LiveSession) else session.get(LiveSession, live.id)


# Seats: what answering reads --------------------------------------------------------------------
#
# A classroom's answers arrive all at once when a question opens, so the answer path
# (:func:`quiz.answering.answer_live`) reads what it needs in one Core query (:func:`seat`)
# into the plain objects below, which carry the same attribute names as the models.


@dataclass
class SessionState:
    """The columns of a :class:`LiveSession` that answering reads."""

    id: int
    created_at: datetime
    quiz_id: int
    pacing: str
    scoring: str
    state: str
    position: int
    shuffle_seed: int
    shuffle_choices: bool
    question_opened_at: datetime | None
    question_closes_at: datetime | None
    version: int


@dataclass
class AttemptCounts:
    id: int
    question_count: int
    answered_count: int


@dataclass
class Member:
    """A student still in a session (a :class:`LivePlayer`), with their attempt's counts."""

    id: int
    streak: int
    attempt: AttemptCounts


_attempt = Attempt.__table__
_player = Player.__table__
_SEAT_QUERY = (
    sa.select(
        _live_session.c.id, _live_session.c.created_at, _live_session.c.quiz_id, _live_session.c.pacing,
        _live_session.c.scoring, _live_session.c.state, _live_session.c.position, _live_session.c.shuffle_seed,
        _live_session.c.shuffle_choices, _live_session.c.question_opened_at, _live_session.c.question_closes_at,
        _live_session.c.version,
        _live_player.c.id, _live_player.c.streak, _attempt.c.id, _attempt.c.question_count, _attempt.c.answered_count,
    )
    .join(_live_player, _live_player.c.session_id == _live_session.c.id)
    .join(_player, _player.c.id == _live_player.c.player_id)
    .join(_attempt, _attempt.c.id == _live_player.c.attempt_id)
    .where(
        _live_session.c.id == sa.bindparam("session_id"),
        _player.c.token == sa.bindparam("token"),
        _live_player.c.removed_at.is_(None),
    )
)


def seat(session: so.Session, session_id: int, token: str | None) -> tuple[SessionState, Member] | None:
    """:func:`membership_by_token` for answering: the session and the student with ``token``
    in it, as plain objects, in one query; None if they are not (or no longer) in it."""
    if not token:
        return None
    row = session.connection().execute(_SEAT_QUERY, {"session_id": session_id, "token": token}).first()
    if row is None:
        return None
    return SessionState(*row[:12]), Member(row[12], row[13], AttemptCounts(*row[14:]))


_SET_STREAK = (
    sa.update(_live_player).where(_live_player.c.id == sa.bindparam("b_id")).values(streak=sa.bindparam("b_streak"))
)


def set_streak(session: so.Session, live_player: LivePlayer | Member, streak: int) -> None:
    """Keep the student's run of right answers, for the streak bonus."""
    if streak == live_player.streak:
        return
    live_player.streak = streak
    if isinstance(live_player, LivePlayer):
        session.flush()
    else:
        session.connection().execute(_SET_STREAK, {"b_id": live_player.id, "b_streak": streak})


# What the screens show --------------------------------------------------------------------------


def public_state(session: so.Session, live: LiveSession, now: datetime | None = None) -> dict:
    """What the event stream tells every screen: the state and, while a question is open,
    the question as the phones show it, so that a phone with JavaScript can show it without
    asking for its page. Nothing in it says which choice is right."""
    data = {"version": live.version, "state": live.state, "position": live.position}
    if live.state == QUESTION_OPEN and live.pacing == HOST_PACED:
        question = current_question(session, live)
        kind = question.revision.behaviour
        closes_at = live.question_closes_at or now or utcnow()
        data["question"] = {
            "count": live.question_count,
            "kind": kind.name,
            # Phones build a form of choices themselves; other kinds' forms come from the server.
            "picks": kind.picks,
            "prompt": question.revision.prompt,
            "instruction": kind.instruction,
            "multiple": kind.multiple,
            "choices": [choice.text for choice in question.order],
            "seconds_left": round(max((closes_at - (now or utcnow())).total_seconds(), 0.0), 1),
        }
    return data


@dataclass(frozen=True)
class Standing:
    rank: int
    nickname: str
    score: int
    live_player_id: int
    attempt_id: int


def place_of(session: so.Session, attempt: Attempt) -> tuple[Standing, int] | None:
    """The standing of a session's attempt among the session's students, and how many there
    are; None for a solo attempt, or a student the host removed."""
    if attempt.live_session_id is None:
        return None
    live = session.get_one(LiveSession, attempt.live_session_id)
    board = standings(session, live)
    mine = next((standing for standing in board if standing.attempt_id == attempt.id), None)
    return (mine, len(board)) if mine is not None else None


@dataclass
class Screen:
    """Everything a host or student screen shows at the session's current state.

    Correct answers appear only from the reveal on: ``choices`` hold text alone before it.
    """

    live: LiveSession
    question: QuestionData | None = None
    choices: list[revisions.ShownChoice] = field(default_factory=list)
    #: How the class answered, from the reveal on.
    tally: Tally | None = None
    sources: list[revisions.Source] = field(default_factory=list)
    answered: int = 0
    players: int = 0
    standings: list[Standing] = field(default_factory=list)
    seconds_left: float | None = None
    #: Whether showing it applied a change that time made due (see :func:`tick`).
    ticked: bool = False

    @property
    def timed_out(self) -> bool:
        """Whether the question closed because its time was up, not by the host's hand or
        because everyone had answered."""
        live = self.live
        if self.question is None or live.question_opened_at is None or live.question_closes_at is None:
            return False
        return live.question_closes_at >= live.question_opened_at + timedelta(seconds=self.question.time_limit)

    @property
    def revealed(self) -> bool:
        return self.live.state in (REVEAL, LEADERBOARD, FINISHED) and self.question is not None


def screen(session: so.Session, live: LiveSession, now: datetime | None = None, *, counts: bool = True) -> Screen:
    """The session's shared screen (the projector), after applying any change now due.

    Without ``counts`` (a phone during a question), the answer and player counts are left
    out: every phone asks for its page when a question opens, and only the projector shows them.
    """
    now = now or utcnow()
    ticked = tick(session, live, now)
    question = current_question(session, live)
    counts = counts or live.state != QUESTION_OPEN
    players = _once_per_version("players", live, lambda: player_count(session, live)) if counts else 0
    view = Screen(live, players=players, ticked=ticked)
    if question is None or live.pacing != HOST_PACED:
        view.standings = standings(session, live) if live.state != LOBBY else []
        return view
    view.question = question
    view.choices = question.choices
    view.answered = _once_per_version("answered", live, lambda: answered_count(session, live)) if counts else 0
    if live.state == QUESTION_OPEN and live.question_closes_at:
        view.seconds_left = max((live.question_closes_at - now).total_seconds(), 0.0)
    if view.revealed:
        view.tally = tally(session, live, question)
        view.sources = _once_per_version("sources", live, lambda: _sources(live, question))
    if live.state in (LEADERBOARD, FINISHED):
        view.standings = standings(session, live)
    return view


#: The states of a host-paced session in which no answer is taken: what the class answered
#: changes only with the version (a student removed).
_ANSWERS_SETTLED = (REVEAL, LEADERBOARD, FINISHED)

_ONCE_PER_VERSION: dict[tuple[str, int, datetime, int], object] = {}
_ONCE_PER_VERSION_KEPT = 1_000


def _once_per_version(name: str, live: LiveSession, compute: Callable[[], T]) -> T:
    """``compute()``, kept for the session's version while its answers are settled.

    After a reveal every phone of a class asks for its page at once, and each page shows the
    class's counts, tally, sources and standings: computed once per process rather than once
    per phone (a thousand phones made the last of them wait seconds for a database
    connection). The creation time tells sessions apart where ids repeat (a recreated
    database).
    """
    if live.pacing != HOST_PACED or live.state not in _ANSWERS_SETTLED:
        return compute()
    key = (name, live.id, live.created_at, live.version)
    if key not in _ONCE_PER_VERSION:
        value = compute()
        if len(_ONCE_PER_VERSION) >= _ONCE_PER_VERSION_KEPT:
            _ONCE_PER_VERSION.clear()
        _ONCE_PER_VERSION[key] = value
    return _ONCE_PER_VERSION[key]


def _sources(live: LiveSession, question: QuestionData) -> list[revisions.Source]:
    article = live.quiz.article
    return revisions.sources(
        question.revision, question.question_slug, articles.Quotable.of(article.title, article.text), question.hide
    )


def tally(session: so.Session, live: LiveSession, question: QuestionData) -> Tally:
    """How the students still in the session answered ``question``."""
    return _once_per_version("tally", live, lambda: _tally(session, live, question))


def _tally(session: so.Session, live: LiveSession, question: QuestionData) -> Tally:
    groups = session.execute(
        sa.select(Answer.selected_mask, Answer.response, sa.func.count())
        .join(LivePlayer, LivePlayer.attempt_id == Answer.attempt_id)
        .where(LivePlayer.session_id == live.id, LivePlayer.removed_at.is_(None), Answer.question_id == question.question_id)
        .group_by(Answer.selected_mask, Answer.response)
    ).all()
    revision = question.revision
    return revision.behaviour.tally(question.order, revision.answer_key, groups)


def _total_answer_time():
    return (
        sa.select(sa.func.coalesce(sa.func.sum(Answer.elapsed_ms), 0))
        .where(Answer.attempt_id == LivePlayer.attempt_id)
        .correlate(LivePlayer)
        .scalar_subquery()
    )


#: The order of standings, podium and results alike.
_RANKING = (Attempt.score.desc(), _total_answer_time(), LivePlayer.joined_at, LivePlayer.id)


def standings(session: so.Session, live: LiveSession, limit: int | None = None) -> list[Standing]:
    """Students by points; ties go to the shorter total answering time, then to who joined first."""
    if limit is None:
        return _once_per_version("standings", live, lambda: _standings(session, live, None))
    return _standings(session, live, limit)


def _standings(session: so.Session, live: LiveSession, limit: int | None) -> list[Standing]:
    rows = session.execute(
        sa.select(LivePlayer.id, LivePlayer.nickname, Attempt.score, Attempt.id)
        .join(Attempt, Attempt.id == LivePlayer.attempt_id)
        .where(LivePlayer.session_id == live.id, LivePlayer.removed_at.is_(None))
        .order_by(*_RANKING)
        .limit(limit)
    ).all()
    return [
        Standing(rank, nickname, score, player_id, attempt_id)
        for rank, (player_id, nickname, score, attempt_id) in enumerate(rows, 1)
    ]


@dataclass
class StudentScreen:
    screen: Screen
    live_player: LivePlayer
    #: The student's answer to the current question, if any.
    answer: Answer | None = None
    #: The student's place, shown from the leaderboard on.
    standing: Standing | None = None
    #: What the student learns of their own answer, from the reveal on.
    reveal: Reveal | None = None

    @property
    def shown_score(self) -> int:
        """The student's points as their screen may show them: an answer's points count only
        once the answer is revealed, since a score that jumped would tell right from wrong."""
        score = self.live_player.attempt.score
        if self.answer is not None and not self.screen.revealed:
            score -= self.answer.points
        return score


def student_screen(session: so.Session, live: LiveSession, live_player: LivePlayer, now: datetime | None = None) -> StudentScreen:
    shared = screen(session, live, now, counts=False)
    view = StudentScreen(shared, live_player)
    if shared.question is not None:
        view.answer = session.scalar(
            sa.select(Answer).where(
                Answer.attempt_id == live_player.attempt_id, Answer.question_id == shared.question.question_id
            )
        )
        if view.answer is not None and shared.revealed:
            revision = shared.question.revision
            view.reveal = revision.behaviour.reveal(
                shared.question.order, revision.answer_key, view.answer.selected_mask, view.answer.response,
                view.answer.credit,
            )
    if live.state in (LEADERBOARD, FINISHED):
        everyone = shared.standings or standings(session, live)
        view.standing = next((row for row in everyone if row.live_player_id == live_player.id), None)
    return view


# Results ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnswerCell:
    answered: bool
    is_correct: bool
    points: int
    elapsed_ms: int | None
    #: The answer in words: the choices picked, the order given, the number or text typed.
    given: str


@dataclass(frozen=True)
class StudentResult:
    nickname: str
    score: int
    correct: int
    answered: int
    total_ms: int
    cells: list[AnswerCell]
    removed: bool


@dataclass(frozen=True)
class ResultQuestion:
    """A session's question as its results show it."""

    position: int
    question_slug: str
    revision: revisions.RevisionData
    order: tuple[ChoiceData, ...]

    @property
    def scored(self) -> bool:
        return self.revision.behaviour.scored

    @property
    def expected(self) -> str:
        return self.revision.behaviour.expected(self.order, self.revision.answer_key)


@dataclass(frozen=True)
class SessionResults:
    live: LiveSession
    questions: list[ResultQuestion]
    students: list[StudentResult]

    @property
    def scored_count(self) -> int:
        """Questions that can be right or wrong, all but polls."""
        return sum(question.scored for question in self.questions)


def results(session: so.Session, live: LiveSession) -> SessionResults:
    """Per student and question: right or wrong, points, time and the choices picked."""
    rows = session.execute(
        sa.select(LiveQuestion.position, LiveQuestion.question_id, Question.slug, LiveQuestion.revision_id,
                  QuestionRevision.created_at)
        .join(Question, Question.id == LiveQuestion.question_id)
        .join(QuestionRevision, QuestionRevision.id == LiveQuestion.revision_id)
        .where(LiveQuestion.session_id == live.id)
        .order_by(LiveQuestion.position)
    ).all()
    questions, question_ids = [], []
    for position, question_id, slug, revision_id, created_at in rows:
        revision = revisions.revision_data(session, revision_id, created_at)
        order = revisions.shown_order(revision, seed=live.shuffle_seed, question_id=question_id, shuffle=live.shuffle_choices)
        questions.append(ResultQuestion(position, slug, revision, order))
        question_ids.append(question_id)
    members = session.execute(
        sa.select(LivePlayer, Attempt)
        .join(Attempt, Attempt.id == LivePlayer.attempt_id)
        .where(LivePlayer.session_id == live.id)
        .order_by(LivePlayer.removed_at.is_not(None), *_RANKING)
    ).all()
    answers: dict[tuple[int, int], Answer] = {
        (answer.attempt_id, answer.question_id): answer
        for answer in session.scalars(
            sa.select(Answer).join(Attempt, Attempt.id == Answer.attempt_id).where(Attempt.live_session_id == live.id)
        )
    }
    students = []
    for live_player, attempt in members:
        cells = []
        for question, question_id in zip(questions, question_ids):
            answer = answers.get((attempt.id, question_id))
            picked = (
                question.revision.behaviour.answer_text(question.order, answer.selected_mask, answer.response)
                if answer else ""
            )
            cells.append(
                AnswerCell(answer is not None, bool(answer and answer.is_correct), answer.points if answer else 0,
                           answer.elapsed_ms if answer else None, picked)
            )
        students.append(
            StudentResult(
                live_player.nickname, attempt.score, sum(cell.is_correct for cell in cells),
                sum(cell.answered for cell in cells), sum(cell.elapsed_ms or 0 for cell in cells), cells,
                live_player.removed_at is not None,
            )
        )
    return SessionResults(live, questions, students)
