"""Classroom sessions' domain functions (quiz.live), called directly with a database session.

Clocks are controlled by passing ``now=``: every time below is ``at(seconds)`` after a fixed
base, never the wall clock.

Importing the bundled bank takes most of a test's setup, so ``app`` and ``bundled`` are
overridden here: every test gets a fresh copy of a database holding the imported bank.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import secrets
from datetime import timedelta

import pytest
import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.exc import IntegrityError

from quiz import answering, create_app, live, play, revisions
from quiz.bank.importer import import_bank
from quiz.extensions import db
from tests.answers import answer_live, answer_solo, turn_of
from tests.conftest import BUNDLED_ASKED, TEST_CONFIG, create_schema
from quiz.models import (
    Answer,
    Attempt,
    AttemptQuestion,
    LivePlayer,
    LiveQuestion,
    LiveSession,
    Question,
    User,
    utcnow,
)

T0 = utcnow().replace(microsecond=0)


def at(seconds: float):
    return T0 + timedelta(seconds=seconds)


# Fixtures and helpers ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bundled_template(test_databases, tmp_path_factory, bundled_bank_entries):
    """A database with the bundled bank imported, which every test of the module copies."""
    url = test_databases.new(tmp_path_factory.mktemp("live"), schema=create_schema)
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        import_bank(db.session, bundled_bank_entries)
        db.session.commit()
        db.engine.dispose()
    yield url
    test_databases.drop(url)


@pytest.fixture
def app(bundled_template, make_app, database_url):
    """Replaces conftest's ``app``: a fresh copy of the template database for every test."""
    return make_app(SQLALCHEMY_DATABASE_URI=database_url(copy_of=bundled_template))


@pytest.fixture
def bundled(app):
    """The app with the bundled bank imported (already in the copied database)."""
    return app


@pytest.fixture
def quiz(bundled, app_ctx):
    return play.quiz_by_slug(db.session, "kiss-and-cry")


@pytest.fixture
def host(app_ctx):
    user = User(username="teacher", password_hash="x", role="teacher")
    db.session.add(user)
    db.session.flush()
    return user


@pytest.fixture
def new_session(quiz, host):
    def create(seed: int = 1, **settings) -> LiveSession:
        return live.create_session(db.session, host, quiz, live.Settings(**settings), rng=random.Random(seed))

    return create


def student(session: LiveSession, nickname: str, now=None) -> LivePlayer:
    return live.join(db.session, session, play.create_player(db.session), nickname, now=now)


def order_of(member: LivePlayer, session: LiveSession):
    """The current question's choices in the order this student's phone shows them."""
    return turn_of(member.attempt, session.position).order


def right(member: LivePlayer, session: LiveSession) -> list[int]:
    return [number for number, choice in enumerate(order_of(member, session), 1) if choice.is_correct]


def wrong(member: LivePlayer, session: LiveSession) -> list[int]:
    return [next(number for number, choice in enumerate(order_of(member, session), 1) if not choice.is_correct)]


def answer_of(member: LivePlayer, session: LiveSession) -> Answer | None:
    question = live.current_question(db.session, session)
    return db.session.scalar(
        sa.select(Answer).where(Answer.attempt_id == member.attempt_id, Answer.question_id == question.question_id)
    )


def live_questions(session: LiveSession) -> list[LiveQuestion]:
    return list(
        db.session.scalars(
            sa.select(LiveQuestion).where(LiveQuestion.session_id == session.id).order_by(LiveQuestion.position)
        )
    )


def active_questions(quiz) -> list[Question]:
    return list(
        db.session.scalars(
            sa.select(Question)
            .where(Question.quiz_id == quiz.id, Question.retired_at.is_(None), Question.current_revision_id.is_not(None))
            .order_by(Question.position)
        )
    )


def asked_questions(quiz) -> list[Question]:
    """The active questions a session in bank order asks: the first of each group."""
    seen: set[str] = set()
    asked = []
    for question in active_questions(quiz):
        if question.group_name is None or question.group_name not in seen:
            asked.append(question)
            seen.add(question.group_name)
    return asked


def snapshot(session: LiveSession) -> tuple:
    db.session.refresh(session)
    return (
        session.state, session.position, session.version, session.question_opened_at,
        session.question_closes_at, session.finished_at,
    )


def next_question(session: LiveSession, now) -> None:
    """From a closed question, through the reveal (and leaderboard), to the next one."""
    assert live.reveal(db.session, session, now)
    if session.show_leaderboard:
        assert live.advance(db.session, session, now)
    assert live.advance(db.session, session, now)
    assert session.state == live.QUESTION_OPEN


#: Host actions that bring a fresh host-paced session to each state.
ROUTES = {
    live.LOBBY: [],
    live.QUESTION_OPEN: ["start"],
    live.QUESTION_CLOSED: ["start", "close"],
    live.REVEAL: ["start", "reveal"],
    live.LEADERBOARD: ["start", "reveal", "next"],
    live.FINISHED: ["finish"],
}


def drive(session: LiveSession, state: str) -> None:
    for second, action in enumerate(ROUTES[state]):
        assert live.host_action(db.session, session, action, now=at(second))
    assert session.state == state


# Creating a session -----------------------------------------------------------------------------


def test_a_host_paced_session_starts_in_its_lobby_with_every_active_question(new_session, quiz):
    questions = asked_questions(quiz)
    session = new_session()
    assert (session.state, session.position, session.pacing, session.scoring) == (live.LOBBY, 0, live.HOST_PACED, "speed")
    assert session.question_count == len(questions) == BUNDLED_ASKED
    assert (session.deadline, session.finished_at, session.question_opened_at) == (None, None, None)
    assert re.fullmatch(r"\d{6}", session.code)
    assert [(q.position, q.question_id, q.revision_id) for q in live_questions(session)] == [
        (position, question.id, question.current_revision_id) for position, question in enumerate(questions, 1)
    ]


def test_a_session_asks_the_requested_number_of_questions(new_session, quiz):
    session = new_session(question_count=5)
    assert session.question_count == 5
    assert [q.question_id for q in live_questions(session)] == [q.id for q in asked_questions(quiz)[:5]]


def test_retired_questions_are_not_asked(new_session, quiz):
    retired = next(question for question in asked_questions(quiz) if question.group_name is None)
    retired.retired_at = at(-60)
    db.session.flush()
    session = new_session()
    assert session.question_count == BUNDLED_ASKED - 1
    assert retired.id not in {q.question_id for q in live_questions(session)}


def test_time_limits_come_from_the_session_else_the_question_else_the_quiz(new_session, quiz):
    own = asked_questions(quiz)[3]
    own.current_revision.time_limit = 12
    db.session.flush()

    default = {q.question_id: q.time_limit for q in live_questions(new_session())}
    assert default[own.id] == 12
    assert {limit for question_id, limit in default.items() if question_id != own.id} == {quiz.time_limit} == {30}

    overridden = live_questions(new_session(time_limit=45))
    assert {q.time_limit for q in overridden} == {45}
    assert new_session(time_limit=45).time_limit == 45


@pytest.mark.parametrize("seconds", [live.MIN_TIME_LIMIT, live.MAX_TIME_LIMIT])
def test_time_limits_at_the_bounds_are_accepted(new_session, seconds):
    assert {q.time_limit for q in live_questions(new_session(time_limit=seconds))} == {seconds}


@pytest.mark.parametrize(
    "settings",
    [{"time_limit": 4}, {"time_limit": 241}, {"time_limit": 0}, {"scoring": "golf"}, {"pacing": "self"}],
    ids=["4s", "241s", "0s", "unknown-scoring", "self-paced-without-deadline"],
)
def test_invalid_settings_are_refused_and_create_nothing(new_session, settings):
    with pytest.raises(live.LiveError):
        new_session(**settings)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(LiveSession)) == 0
    assert db.session.scalar(sa.select(sa.func.count()).select_from(LiveQuestion)) == 0


def test_join_codes_are_unique_among_open_sessions(new_session):
    sessions = [new_session(seed=n, question_count=1) for n in range(200)]
    codes = [session.code for session in sessions]
    assert all(re.fullmatch(r"\d{6}", code) for code in codes)
    assert len(set(codes)) == len(codes)


def test_the_database_refuses_two_open_sessions_with_one_code_but_not_a_finished_one(new_session, host, quiz):
    existing = new_session(question_count=1)
    row = dict(
        code=existing.code, host_id=host.id, quiz_id=quiz.id, pacing=live.HOST_PACED, scoring="plain",
        shuffle_seed=1, question_count=1, version=1, created_at=at(0),
    )
    db.session.execute(sa.insert(LiveSession).values(**row, state=live.FINISHED, finished_at=at(0)))
    with pytest.raises(IntegrityError), db.session.begin_nested():
        db.session.execute(sa.insert(LiveSession).values(**row, state=live.LOBBY, finished_at=None))
    same_code = db.session.scalars(sa.select(LiveSession).where(LiveSession.code == existing.code)).all()
    assert sorted(s.state for s in same_code) == [live.FINISHED, live.LOBBY]


def test_a_finished_session_frees_its_code(new_session, monkeypatch):
    """With the random source pinned to one code, only finishing its session frees it."""
    monkeypatch.setattr(secrets, "randbelow", lambda _n: 4242)
    first = new_session(question_count=1)
    assert first.code == "004242"
    with pytest.raises(live.LiveError):
        new_session(question_count=1)
    assert live.finish(db.session, first, now=at(0))
    second = new_session(question_count=1)
    assert second.code == "004242"
    assert live.open_session_by_code(db.session, "004242").id == second.id


def test_a_self_paced_session_is_open_until_its_deadline_with_plain_scoring(new_session):
    session = new_session(pacing=live.SELF_PACED, deadline=at(3600), scoring="speed")
    assert (session.state, session.position, session.scoring, session.deadline) == (live.OPEN, 0, "plain", at(3600))


def test_a_host_paced_session_ignores_a_deadline(new_session):
    assert new_session(deadline=at(3600)).deadline is None


def test_shuffle_changes_the_question_order(new_session, quiz):
    plain = [q.question_id for q in live_questions(new_session(seed=3, shuffle=False))]
    shuffled = [q.question_id for q in live_questions(new_session(seed=3, shuffle=True))]
    assert shuffled != plain
    # Shuffled, a group may be asked through another of its questions, but each group once.
    group = {question.id: question.group_name or question.slug for question in active_questions(quiz)}
    assert sorted(group[id_] for id_ in shuffled) == sorted(group[id_] for id_ in plain)
    again = [q.question_id for q in live_questions(new_session(seed=3, shuffle=True))]
    assert again == shuffled


def test_shuffle_with_a_count_picks_a_random_subset(new_session, quiz):
    picked = [q.question_id for q in live_questions(new_session(seed=5, shuffle=True, question_count=5))]
    assert len(set(picked)) == 5
    assert picked != [q.id for q in active_questions(quiz)[:5]]


# Joining ----------------------------------------------------------------------------------------


def test_nicknames_are_unique_ignoring_case_and_accents(new_session):
    session = new_session()
    student(session, "Zoé")
    version = session.version
    for taken in ("zoe", "ZOE", "ZOÉ", "Zoé"):
        with pytest.raises(live.LiveError):
            student(session, taken)
    assert session.version == version
    assert [member.nickname for member in live.players(db.session, session)] == ["Zoé"]
    assert student(session, "Zoey").nickname == "Zoey"


def test_a_returning_player_keeps_their_place_and_points(new_session):
    session = new_session(scoring="plain")
    player = play.create_player(db.session)
    first = live.join(db.session, session, player, "Ana", now=at(-10))
    student(session, "Ben", now=at(-5))
    live.start(db.session, session, now=at(0))
    assert answer_live(session, first, right(first, session), now=at(2))

    again = live.join(db.session, session, player, "Someone else", now=at(5))
    assert again.id == first.id
    assert (again.nickname, again.joined_at, again.attempt_id) == ("Ana", at(-10), first.attempt_id)
    assert again.attempt.score == 1
    assert [member.nickname for member in live.players(db.session, session)] == ["Ana", "Ben"]


def test_a_removed_player_cannot_rejoin(new_session):
    session = new_session()
    player = play.create_player(db.session)
    member = live.join(db.session, session, player, "Ana")
    live.remove_player(db.session, session, member.id, now=at(0))
    with pytest.raises(live.LiveError):
        live.join(db.session, session, player, "Ana")
    with pytest.raises(live.LiveError):
        live.join(db.session, session, player, "Another name")
    assert live.membership(db.session, session, player) is None
    assert live.players(db.session, session) == []


def test_nobody_joins_a_finished_session(new_session):
    session = new_session()
    live.finish(db.session, session, now=at(0))
    with pytest.raises(live.LiveError):
        student(session, "Ana", now=at(1))
    assert db.session.scalar(sa.select(sa.func.count()).select_from(LivePlayer)) == 0


def test_nobody_joins_a_self_paced_session_past_its_deadline(new_session):
    session = new_session(pacing=live.SELF_PACED, deadline=at(60))
    assert student(session, "Ana", now=at(59)).nickname == "Ana"
    for late in (at(60), at(61)):
        with pytest.raises(live.LiveError):
            student(session, "Ben", now=late)
    assert [member.nickname for member in live.players(db.session, session)] == ["Ana"]


def test_each_join_bumps_the_version(new_session):
    session = new_session()
    versions = [session.version]
    for nickname in ("Ana", "Ben", "Cleo"):
        student(session, nickname)
        versions.append(session.version)
    assert versions == [versions[0] + n for n in range(4)]
    assert db.session.scalar(sa.select(LiveSession.version).where(LiveSession.id == session.id)) == versions[-1]


def test_joining_creates_an_attempt_mirroring_the_session_questions(new_session):
    session = new_session(seed=9, shuffle=True, question_count=6)
    member = student(session, "Ana")
    attempt = db.session.get(Attempt, member.attempt_id)
    assert (attempt.live_session_id, attempt.quiz_id, attempt.player_id) == (session.id, session.quiz_id, member.player_id)
    assert (attempt.shuffle_seed, attempt.question_count, attempt.score, attempt.answered_count) == (
        session.shuffle_seed, 6, 0, 0
    )
    slots = db.session.execute(
        sa.select(AttemptQuestion.position, AttemptQuestion.question_id, AttemptQuestion.revision_id)
        .where(AttemptQuestion.attempt_id == attempt.id)
        .order_by(AttemptQuestion.position)
    ).all()
    assert [tuple(slot) for slot in slots] == [(q.position, q.question_id, q.revision_id) for q in live_questions(session)]


# The state machine ------------------------------------------------------------------------------


def test_start_opens_the_first_question_on_its_clock(new_session):
    session = new_session(time_limit=20)
    version = session.version
    assert live.start(db.session, session, now=at(0))
    assert (session.state, session.position, session.version) == (live.QUESTION_OPEN, 1, version + 1)
    assert (session.question_opened_at, session.question_closes_at) == (at(0), at(20))


def test_close_reveal_leaderboard_and_next_question(new_session):
    session = new_session(question_count=3)
    live.start(db.session, session, now=at(0))

    version = session.version
    assert live.close_question(db.session, session, now=at(7))
    assert (session.state, session.question_closes_at, session.version) == (live.QUESTION_CLOSED, at(7), version + 1)

    assert live.reveal(db.session, session, now=at(8))
    assert (session.state, session.position, session.version) == (live.REVEAL, 1, version + 2)

    assert live.advance(db.session, session, now=at(9))
    assert (session.state, session.position, session.version) == (live.LEADERBOARD, 1, version + 3)

    assert live.advance(db.session, session, now=at(10))
    assert (session.state, session.position, session.version) == (live.QUESTION_OPEN, 2, version + 4)
    assert (session.question_opened_at, session.question_closes_at) == (at(10), at(40))


def test_reveal_of_an_open_question_closes_it_first(new_session):
    session = new_session()
    live.start(db.session, session, now=at(0))
    version = session.version
    assert live.reveal(db.session, session, now=at(5))
    assert (session.state, session.question_closes_at, session.version) == (live.REVEAL, at(5), version + 2)


def test_without_leaderboard_the_reveal_leads_to_the_next_question(new_session):
    session = new_session(show_leaderboard=False, question_count=3)
    drive(session, live.REVEAL)
    assert live.advance(db.session, session, now=at(10))
    assert (session.state, session.position, session.question_opened_at) == (live.QUESTION_OPEN, 2, at(10))


@pytest.mark.parametrize("show_leaderboard", [True, False])
def test_advancing_past_the_last_question_finishes(new_session, show_leaderboard):
    session = new_session(question_count=2, show_leaderboard=show_leaderboard)
    live.start(db.session, session, now=at(0))
    live.reveal(db.session, session, now=at(1))
    if show_leaderboard:
        live.advance(db.session, session, now=at(2))
    live.advance(db.session, session, now=at(3))
    assert session.position == 2
    live.reveal(db.session, session, now=at(4))
    if show_leaderboard:
        assert live.advance(db.session, session, now=at(5))
        assert session.state == live.LEADERBOARD
    assert live.advance(db.session, session, now=at(6))
    assert (session.state, session.finished_at, session.position) == (live.FINISHED, at(6), 2)
    assert live.open_session_by_code(db.session, session.code) is None


@pytest.mark.parametrize("state", [s for s in ROUTES if s != live.FINISHED] + [live.OPEN])
def test_finish_works_from_any_state(new_session, state):
    if state == live.OPEN:
        session = new_session(pacing=live.SELF_PACED, deadline=at(3600))
    else:
        session = new_session()
        drive(session, state)
    version = session.version
    assert live.host_action(db.session, session, "finish", now=at(30))
    assert (session.state, session.finished_at, session.question_closes_at) == (live.FINISHED, at(30), None)
    assert session.version == version + 1


REFUSALS = [
    (live.LOBBY, "close"),
    (live.LOBBY, "reveal"),
    (live.LOBBY, "next"),
    (live.QUESTION_OPEN, "start"),
    (live.QUESTION_OPEN, "next"),
    (live.QUESTION_CLOSED, "start"),
    (live.QUESTION_CLOSED, "close"),
    (live.QUESTION_CLOSED, "next"),
    (live.REVEAL, "start"),
    (live.REVEAL, "close"),
    (live.REVEAL, "reveal"),
    (live.LEADERBOARD, "start"),
    (live.LEADERBOARD, "close"),
    (live.LEADERBOARD, "reveal"),
    (live.FINISHED, "start"),
    (live.FINISHED, "close"),
    (live.FINISHED, "reveal"),
    (live.FINISHED, "next"),
    (live.FINISHED, "finish"),
]


@pytest.mark.parametrize(("state", "action"), REFUSALS, ids=[f"{action}-in-{state}" for state, action in REFUSALS])
def test_an_action_in_the_wrong_state_changes_nothing(new_session, state, action):
    session = new_session(question_count=3)
    drive(session, state)
    before = snapshot(session)
    assert live.host_action(db.session, session, action, now=at(100)) is False
    assert snapshot(session) == before


def test_an_unknown_action_is_refused(new_session):
    session = new_session()
    before = snapshot(session)
    with pytest.raises(live.LiveError):
        live.host_action(db.session, session, "rewind", now=at(0))
    assert snapshot(session) == before


def test_a_self_paced_session_cannot_be_started(new_session):
    session = new_session(pacing=live.SELF_PACED, deadline=at(3600))
    with pytest.raises(live.LiveError):
        live.host_action(db.session, session, "start", now=at(0))
    assert (session.state, session.position) == (live.OPEN, 0)


def test_a_stale_session_loses_a_race_and_shows_the_winner(bundled, new_session):
    """Two app contexts (two requests, two servers) hold the same session; one moves first."""
    session = new_session()
    student(session, "Ana")
    db.session.commit()
    session_id, version = session.id, session.version
    assert session.state == live.LOBBY  # loaded again after the commit: the first server's copy

    with bundled.app_context():
        other = db.session.get(LiveSession, session_id)
        assert live.host_action(db.session, other, "start", now=at(0))
        db.session.commit()

    assert session.state == live.LOBBY and session.version == version  # stale
    assert live.host_action(db.session, session, "start", now=at(1)) is False
    assert (session.state, session.version, session.question_opened_at) == (live.QUESTION_OPEN, version + 1, at(0))
    db.session.commit()

    # The timer on one server closes the question while the host clicks "close" on another.
    assert session.state == live.QUESTION_OPEN
    with bundled.app_context():
        other = db.session.get(LiveSession, session_id)
        assert live.tick(db.session, other, now=at(30))
        db.session.commit()
    assert live.close_question(db.session, session, now=at(31)) is False
    assert (session.state, session.question_closes_at, session.version) == (live.QUESTION_CLOSED, at(30), version + 2)


def test_a_stale_version_is_refused_even_in_an_allowed_state(new_session):
    session = new_session()
    live.start(db.session, session, now=at(0))
    version = session.version
    so.attributes.set_committed_value(session, "version", version - 1)  # what a slow request saw
    assert live.close_question(db.session, session, now=at(3)) is False
    assert (session.state, session.version) == (live.QUESTION_OPEN, version)
    assert live.close_question(db.session, session, now=at(4))  # now up to date
    assert session.question_closes_at == at(4)


# The clock --------------------------------------------------------------------------------------


def test_a_question_closes_when_its_time_is_up_and_not_before(new_session):
    session = new_session(time_limit=20)
    student(session, "Ana")
    live.start(db.session, session, now=at(0))
    version = session.version
    for early in (at(0), at(10), at(19.999)):
        assert live.tick(db.session, session, now=early) is False
    assert (session.state, session.version) == (live.QUESTION_OPEN, version)
    assert live.tick(db.session, session, now=at(25))
    assert (session.state, session.question_closes_at) == (live.QUESTION_CLOSED, at(20))
    assert live.tick(db.session, session, now=at(26)) is False


def test_a_question_closes_exactly_at_its_time(new_session):
    session = new_session(time_limit=20)
    live.start(db.session, session, now=at(0))
    assert live.tick(db.session, session, now=at(20))
    assert session.state == live.QUESTION_CLOSED


def test_an_open_question_in_an_empty_session_waits_for_the_time(new_session):
    session = new_session(time_limit=20)
    live.start(db.session, session, now=at(0))
    assert live.tick(db.session, session, now=at(1)) is False
    assert session.state == live.QUESTION_OPEN


def test_a_question_closes_when_every_student_has_answered(new_session):
    session = new_session()
    ana, ben = student(session, "Ana"), student(session, "Ben")
    live.start(db.session, session, now=at(0))
    assert answer_live(session, ana, right(ana, session), now=at(3))
    assert session.state == live.QUESTION_OPEN
    assert live.tick(db.session, session, now=at(4)) is False
    assert answer_live(session, ben, wrong(ben, session), now=at(6))
    assert (session.state, session.question_closes_at) == (live.QUESTION_CLOSED, at(6))


def test_removing_the_last_student_who_has_not_answered_closes_the_question(new_session):
    session = new_session()
    ana, ben = student(session, "Ana"), student(session, "Ben")
    live.start(db.session, session, now=at(0))
    answer_live(session, ana, right(ana, session), now=at(3))
    assert session.state == live.QUESTION_OPEN
    live.remove_player(db.session, session, ben.id, now=at(5))
    assert (session.state, session.question_closes_at) == (live.QUESTION_CLOSED, at(5))


def test_a_self_paced_session_finishes_after_its_deadline(new_session):
    session = new_session(pacing=live.SELF_PACED, deadline=at(600))
    ana = student(session, "Ana")
    assert live.tick(db.session, session, now=at(599)) is False
    assert session.state == live.OPEN
    assert answer_solo(ana.attempt, 1, now=at(599))
    assert live.tick(db.session, session, now=at(601))
    assert (session.state, session.finished_at) == (live.FINISHED, at(601))
    with pytest.raises(answering.AttemptFinished):
        answer_solo(ana.attempt, 2, now=at(601))


def test_self_paced_answers_are_refused_past_the_deadline_even_before_a_tick(new_session):
    session = new_session(pacing=live.SELF_PACED, deadline=at(600))
    ana = student(session, "Ana")
    with pytest.raises(answering.AttemptFinished):
        answer_solo(ana.attempt, 1, now=at(600))
    assert session.state == live.OPEN
    assert count_answers() == 0


# Answering --------------------------------------------------------------------------------------


def count_answers() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(Answer))


def test_answers_are_refused_in_the_lobby(new_session):
    session = new_session()
    ana = student(session, "Ana")
    with pytest.raises(answering.AnswerRefused):
        answer_live(session, ana, [1], now=at(0))
    assert count_answers() == 0


def test_answers_are_refused_once_the_question_is_closed(new_session):
    session = new_session()
    ana = student(session, "Ana")
    live.start(db.session, session, now=at(0))
    live.close_question(db.session, session, now=at(5))
    with pytest.raises(answering.AnswerRefused):
        answer_live(session, ana, [1], now=at(6))
    assert count_answers() == 0


def test_answers_are_refused_after_the_time_even_before_the_question_is_closed(new_session):
    session = new_session(time_limit=20)
    ana = student(session, "Ana")
    live.start(db.session, session, now=at(0))
    with pytest.raises(answering.AnswerRefused):
        answer_live(session, ana, right(ana, session), now=at(20.5))
    assert count_answers() == 0
    assert ana.attempt.score == 0


def test_answers_in_a_self_paced_session_go_through_the_solo_flow(new_session):
    session = new_session(pacing=live.SELF_PACED, deadline=at(600))
    ana = student(session, "Ana")
    with pytest.raises(answering.AnswerRefused):
        answer_live(session, ana, [1], now=at(1))


def test_a_second_answer_records_nothing(new_session):
    session = new_session()
    ana, _ben = student(session, "Ana"), student(session, "Ben")
    live.start(db.session, session, now=at(0))
    assert answer_live(session, ana, wrong(ana, session), now=at(2))
    version = session.version
    assert answer_live(session, ana, right(ana, session), now=at(3)) is False
    assert count_answers() == 1
    assert answer_of(ana, session).is_correct is False
    assert (ana.attempt.score, ana.attempt.answered_count, ana.streak) == (0, 1, 0)
    assert session.version == version


def test_plain_scoring_gives_one_point_per_right_answer(new_session):
    session = new_session(scoring="plain")
    ana, ben = student(session, "Ana"), student(session, "Ben")
    live.start(db.session, session, now=at(0))
    answer_live(session, ana, right(ana, session), now=at(1))
    answer_live(session, ben, wrong(ben, session), now=at(1))
    assert (answer_of(ana, session).points, answer_of(ben, session).points) == (1, 0)
    next_question(session, at(10))
    answer_live(session, ana, right(ana, session), now=at(29))
    assert (ana.attempt.score, ben.attempt.score) == (2, 0)


def test_speed_scoring_through_a_session(new_session):
    session = new_session(scoring="speed", time_limit=20, question_count=5, show_leaderboard=False)
    ana = student(session, "Ana")
    plan = [  # (right?, seconds taken, expected points)
        (True, 0, 1000),
        (True, 10, 750 + 100),
        (True, 20, 500 + 200),  # at the buzzer
        (False, 1, 0),  # ends the streak
        (True, 5, 875),
    ]
    earned = []
    for position, (is_right, seconds, _points) in enumerate(plan, 1):
        opened = at(100 * position)
        if position == 1:
            live.start(db.session, session, now=opened)
        else:
            next_question(session, opened)
        picked = right(ana, session) if is_right else wrong(ana, session)
        assert answer_live(session, ana, picked, now=opened + timedelta(seconds=seconds))
        answer = answer_of(ana, session)
        earned.append(answer.points)
        assert answer.elapsed_ms == seconds * 1000
    assert earned == [points for *_, points in plan]
    assert ana.attempt.score == sum(earned) == 3425
    assert ana.streak == 1


def test_the_streak_bonus_is_capped(new_session):
    session = new_session(scoring="speed", question_count=8, show_leaderboard=False)
    ana = student(session, "Ana")
    earned = []
    for position in range(1, 9):
        opened = at(100 * position)
        if position == 1:
            live.start(db.session, session, now=opened)
        else:
            next_question(session, opened)
        answer_live(session, ana, right(ana, session), now=opened)
        earned.append(answer_of(ana, session).points)
    assert earned == [1000, 1100, 1200, 1300, 1400, 1500, 1500, 1500]
    assert ana.streak == 8


def test_a_question_left_unanswered_ends_the_streak(new_session):
    """'Right answers in a row': a question the student let pass breaks the row."""
    session = new_session(scoring="speed", question_count=3, show_leaderboard=False)
    ana, ben = student(session, "Ana"), student(session, "Ben")
    live.start(db.session, session, now=at(0))
    answer_live(session, ana, right(ana, session), now=at(0))
    answer_live(session, ben, right(ben, session), now=at(0))
    next_question(session, at(100))
    answer_live(session, ben, right(ben, session), now=at(100))  # Ana lets it pass
    live.close_question(db.session, session, now=at(130))
    next_question(session, at(200))
    answer_live(session, ana, right(ana, session), now=at(200))
    assert answer_of(ana, session).points == 1000  # no bonus: her previous answer was not the previous question


def test_answered_count_counts_current_answers_of_students_still_in(new_session):
    session = new_session(scoring="plain")
    ana, ben, _cleo = student(session, "Ana"), student(session, "Ben"), student(session, "Cleo")
    live.start(db.session, session, now=at(0))
    assert live.answered_count(db.session, session) == 0
    answer_live(session, ana, right(ana, session), now=at(1))
    answer_live(session, ben, wrong(ben, session), now=at(2))
    assert live.answered_count(db.session, session) == 2
    live.remove_player(db.session, session, ben.id, now=at(3))
    assert live.answered_count(db.session, session) == 1
    assert session.state == live.QUESTION_OPEN  # Cleo has not answered
    live.close_question(db.session, session, now=at(4))
    next_question(session, at(10))
    assert live.answered_count(db.session, session) == 0
    answer_live(session, ana, right(ana, session), now=at(11))
    assert live.answered_count(db.session, session) == 1
    assert live.screen(db.session, session, now=at(12)).answered == 1


def test_every_phone_and_the_projector_show_the_same_choice_order(new_session):
    session = new_session(seed=11, question_count=5, show_leaderboard=False)
    ana, ben = student(session, "Ana"), student(session, "Ben")
    differs_from_the_bank = False
    for position in range(1, 6):
        if position == 1:
            live.start(db.session, session, now=at(0))
        else:
            live.close_question(db.session, session, now=at(100 * position - 1))
            next_question(session, at(100 * position))
        projected = [choice.text for choice in live.screen(db.session, session, now=at(100 * position)).choices]
        assert [choice.text for choice in order_of(ana, session)] == projected
        assert [choice.text for choice in order_of(ben, session)] == projected
        bank = [choice.text for choice in live.current_question(db.session, session).revision.choices]
        differs_from_the_bank |= projected != bank
    assert differs_from_the_bank  # the order really is shuffled, and shared


def test_a_pick_by_projected_number_grades_the_projected_choice(new_session):
    session = new_session(seed=4)
    ana = student(session, "Ana")
    live.start(db.session, session, now=at(0))
    choices = live.screen(db.session, session, now=at(1)).choices
    revision = live.current_question(db.session, session).revision
    correct_texts = {choice.text for choice in revision.choices if choice.is_correct}
    number = next(choice.number for choice in choices if choice.text in correct_texts)
    assert answer_live(session, ana, [number], now=at(2))
    assert answer_of(ana, session).is_correct


# Screens ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", [live.QUESTION_OPEN, live.QUESTION_CLOSED])
def test_the_screen_shows_no_correctness_before_the_reveal(new_session, state):
    session = new_session()
    student(session, "Ana")
    drive(session, state)
    view = live.screen(db.session, session, now=at(1))
    assert not view.revealed
    assert view.tally is None and view.sources == [] and view.standings == []
    assert view.choices and all(type(choice) is revisions.ShownChoice for choice in view.choices)
    assert {tuple(f.name for f in dataclasses.fields(choice)) for choice in view.choices} == {("number", "text")}
    assert [choice.number for choice in view.choices] == list(range(1, len(view.choices) + 1))
    if state == live.QUESTION_OPEN:
        assert view.seconds_left == 29.0
    else:
        assert view.seconds_left is None


def test_the_lobby_screen_shows_who_is_there(new_session):
    session = new_session()
    student(session, "Ana")
    student(session, "Ben")
    view = live.screen(db.session, session, now=at(0))
    assert (view.question, view.choices, view.players, view.answered) == (None, [], 2, 0)


def test_the_reveal_shows_the_class_answers_and_the_sources(new_session, quiz):
    session = new_session(seed=2)
    ana, ben, cleo, _dan = (student(session, name) for name in ("Ana", "Ben", "Cleo", "Dan"))
    live.start(db.session, session, now=at(0))
    answer_live(session, ana, right(ana, session), now=at(1))
    mistake = wrong(ben, session)
    answer_live(session, ben, mistake, now=at(2))
    answer_live(session, cleo, mistake, now=at(3))
    assert live.reveal(db.session, session, now=at(4))

    view = live.screen(db.session, session, now=at(5))
    assert view.revealed and (view.answered, view.players) == (3, 4)
    order = order_of(ana, session)
    expected_counts = {right(ana, session)[0]: 1, mistake[0]: 2}
    rows = view.tally.rows
    assert [(r.number, r.label, r.is_correct) for r in rows] == [
        (number, choice.text, choice.is_correct) for number, choice in enumerate(order, 1)
    ]
    assert [r.count for r in rows] == [expected_counts.get(r.number, 0) for r in rows]
    assert [r.share for r in rows] == pytest.approx([expected_counts.get(r.number, 0) / 3 for r in rows])
    assert [choice.text for choice in view.choices] == [r.label for r in rows]
    assert view.tally.total == 3
    assert view.sources
    assert all(source.excerpt in quiz.article.text and source.anchor for source in view.sources)
    assert view.standings == []  # the leaderboard comes next


def test_after_the_reveal_every_phone_shares_one_set_of_counts_tally_and_ranking_until_the_version_moves(new_session):
    session = new_session(seed=2, scoring="plain")
    ana, ben, cleo = (student(session, name) for name in ("Ana", "Ben", "Cleo"))
    live.start(db.session, session, now=at(0))
    answer_live(session, ana, right(ana, session), now=at(1))
    answer_live(session, ben, wrong(ben, session), now=at(2))
    assert live.reveal(db.session, session, now=at(3))
    queries: list[str] = []

    def record(connection, cursor, statement, parameters, context, executemany):
        queries.append(statement)

    sa.event.listen(db.engine, "before_cursor_execute", record)
    try:
        screens = [live.student_screen(db.session, session, member, now=at(4)) for member in (ana, ben, cleo)]
        grouped = [statement for statement in queries if "GROUP BY" in statement]
        assert len(grouped) == 1  # one tally for the three phones
        counted = [statement for statement in queries if "count(*)" in statement.lower() and statement not in grouped]
        assert len(counted) == 2  # students, and answers among them: once each
        assert {view.screen.players for view in screens} == {3}
        assert {view.screen.answered for view in screens} == {2}
        assert all(view.screen.sources == screens[0].screen.sources != [] for view in screens)
        assert all(view.screen.tally == screens[0].screen.tally for view in screens)
        assert screens[0].screen.tally.total == 2

        live.remove_player(db.session, session, ben.id, now=at(5))  # the version moves on
        assert live.screen(db.session, session, now=at(6)).tally.total == 1
        assert live.advance(db.session, session, now=at(7)) and session.state == live.LEADERBOARD
        queries.clear()
        ranked = [live.student_screen(db.session, session, member, now=at(8)).standing for member in (ana, cleo)]
        assert len([statement for statement in queries if "ORDER BY attempt.score DESC" in statement]) == 1
        assert [(standing.nickname, standing.rank) for standing in ranked] == [("Ana", 1), ("Cleo", 2)]
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", record)


def test_standings_rank_by_score_then_total_time_then_join_order(new_session):
    session = new_session(scoring="plain", question_count=2)
    ana, ben, cleo, dan = (student(session, name, now=at(-10 + n)) for n, name in enumerate(("Ana", "Ben", "Cleo", "Dan")))
    plan = [  # per question: (student, right?, seconds)
        [(ana, True, 5), (ben, True, 2), (cleo, False, 1), (dan, True, 3)],
        [(ana, False, 1), (ben, True, 4), (cleo, True, 1), (dan, True, 3)],
    ]
    live.start(db.session, session, now=at(0))
    for position, answers in enumerate(plan, 1):
        opened = at(100 * (position - 1))
        if position > 1:
            next_question(session, opened)
        for member, is_right, seconds in answers:
            picked = right(member, session) if is_right else wrong(member, session)
            answer_live(session, member, picked, now=opened + timedelta(seconds=seconds))
        assert session.state == live.QUESTION_CLOSED  # everyone answered
    live.reveal(db.session, session, now=at(150))
    live.advance(db.session, session, now=at(151))
    assert session.state == live.LEADERBOARD

    # Ben and Dan: 2 points in 6 s (Ben joined first); Cleo: 1 point in 2 s; Ana: 1 point in 6 s.
    expected = [(1, "Ben", 2, ben.id), (2, "Dan", 2, dan.id), (3, "Cleo", 1, cleo.id), (4, "Ana", 1, ana.id)]
    view = live.screen(db.session, session, now=at(152))
    assert [(s.rank, s.nickname, s.score, s.live_player_id) for s in view.standings] == expected
    assert view.standings == live.standings(db.session, session)
    assert [s.nickname for s in live.standings(db.session, session, limit=2)] == ["Ben", "Dan"]

    live.remove_player(db.session, session, ben.id, now=at(153))
    assert [s.nickname for s in live.standings(db.session, session)] == ["Dan", "Cleo", "Ana"]


def test_the_student_screen_shows_their_own_answer_and_then_their_standing(new_session):
    session = new_session(scoring="plain", question_count=2)
    ana, ben = student(session, "Ana"), student(session, "Ben")
    live.start(db.session, session, now=at(0))
    picked = right(ana, session)
    answer_live(session, ana, picked, now=at(2))

    mine = live.student_screen(db.session, session, ana, now=at(3))
    assert mine.live_player.id == ana.id
    assert mine.answer is not None and mine.answer.attempt_id == ana.attempt_id and mine.answer.is_correct
    order = order_of(ana, session)
    assert mine.answer.selected_mask == sum(1 << order[number - 1].position for number in picked)
    assert mine.standing is None
    assert mine.screen.tally is None and mine.reveal is None  # still no correctness on screen
    assert mine.live_player.attempt.score == 1 and mine.shown_score == 0  # nor in the score
    assert live.student_screen(db.session, session, ben, now=at(3)).answer is None

    live.reveal(db.session, session, now=at(4))
    assert live.student_screen(db.session, session, ana, now=at(5)).shown_score == 1
    assert live.student_screen(db.session, session, ben, now=at(5)).standing is None
    live.advance(db.session, session, now=at(6))
    ana_view = live.student_screen(db.session, session, ana, now=at(7))
    ben_view = live.student_screen(db.session, session, ben, now=at(7))
    assert (ana_view.standing.rank, ana_view.standing.nickname, ana_view.standing.score) == (1, "Ana", 1)
    assert (ben_view.standing.rank, ben_view.standing.nickname, ben_view.standing.score) == (2, "Ben", 0)
    assert ben_view.answer is None


def test_screens_are_up_to_date_with_the_clock(new_session):
    session = new_session(time_limit=20)
    student(session, "Ana")
    live.start(db.session, session, now=at(0))
    assert live.screen(db.session, session, now=at(5)).seconds_left == 15.0
    view = live.screen(db.session, session, now=at(21))
    assert session.state == live.QUESTION_CLOSED and view.seconds_left is None and not view.revealed


# Results ----------------------------------------------------------------------------------------


def test_results_give_each_student_their_answers_and_totals(new_session):
    session = new_session(scoring="speed", question_count=2, show_leaderboard=False)
    ana, ben, cleo = (student(session, name, now=at(-10 + n)) for n, name in enumerate(("Ana", "Ben", "Cleo")))

    def texts(member, numbers):
        order = order_of(member, session)
        picked = {order[number - 1].position for number in numbers}
        return ", ".join(choice.text for choice in sorted(order, key=lambda c: c.position) if choice.position in picked)

    live.start(db.session, session, now=at(0))
    ana_1, ben_1 = right(ana, session), wrong(ben, session)
    answer_live(session, ana, ana_1, now=at(2))
    answer_live(session, ben, ben_1, now=at(4))
    ana_1_text, ben_1_text = texts(ana, ana_1), texts(ben, ben_1)
    live.reveal(db.session, session, now=at(30))  # Cleo never answered
    live.remove_player(db.session, session, ben.id, now=at(31))
    live.advance(db.session, session, now=at(100))
    ana_2, cleo_2 = wrong(ana, session), right(cleo, session)
    answer_live(session, ana, ana_2, now=at(103))
    answer_live(session, cleo, cleo_2, now=at(106))
    ana_2_text, cleo_2_text = texts(ana, ana_2), texts(cleo, cleo_2)
    live.reveal(db.session, session, now=at(110))
    live.advance(db.session, session, now=at(111))
    assert session.state == live.FINISHED

    report = live.results(db.session, session)
    assert [q.position for q in report.questions] == [1, 2]
    by_name = {student.nickname: student for student in report.students}
    assert [student.nickname for student in report.students] == ["Ana", "Cleo", "Ben"]  # by score
    missing = live.AnswerCell(False, False, 0, None, "")
    assert by_name["Ana"].cells == [
        live.AnswerCell(True, True, 967, 2000, ana_1_text),  # round(1000 * (1 - 2/60))
        live.AnswerCell(True, False, 0, 3000, ana_2_text),
    ]
    assert by_name["Cleo"].cells == [missing, live.AnswerCell(True, True, 900, 6000, cleo_2_text)]
    assert by_name["Ben"].cells == [live.AnswerCell(True, False, 0, 4000, ben_1_text), missing]
    assert [(s.score, s.correct, s.answered, s.total_ms, s.removed) for s in report.students] == [
        (967, 1, 2, 5000, False), (900, 1, 1, 6000, False), (0, 0, 1, 4000, True)
    ]
    for result, member in ((by_name["Ana"], ana), (by_name["Ben"], ben), (by_name["Cleo"], cleo)):
        db.session.refresh(member.attempt)
        assert result.score == member.attempt.score == sum(cell.points for cell in result.cells)
        assert result.answered == member.attempt.answered_count


def test_the_stream_state_shows_an_open_question_without_its_answer(new_session):
    session = new_session(question_count=2)
    student(session, "Ana")
    assert live.public_state(db.session, session, now=at(0)) == {
        "version": session.version, "state": "lobby", "position": 0
    }
    live.start(db.session, session, now=at(0))
    data = live.public_state(db.session, session, now=at(10))
    question = live.current_question(db.session, session)
    assert data["question"]["choices"] == [choice.text for choice in question.order]
    assert data["question"]["prompt"] == question.revision.prompt
    assert data["question"]["seconds_left"] == question.time_limit - 10
    assert "correct" not in json.dumps(data).lower().replace("choose every correct answer", "")
    live.reveal(db.session, session, now=at(11))
    assert "question" not in live.public_state(db.session, session, now=at(11))
