"""The answering core's rules, and the two answer-integrity bugs it ended: a running attempt's
choice order changing with a re-import, and a stale page answering a question it never showed."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from quiz import answering, live, play, revisions
from quiz.bank import parse_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Answer, Attempt, Player, User, utcnow
from quiz.paths import bundled_bank
from tests.answers import answer_live, answer_solo, live_right, turn_of
from tests.conftest import csrf_token
from tests.web.live_helpers import create_session, join_code, joined, log_in, phone_page, press, submit


@pytest.fixture
def quiz(bundled, app_ctx):
    return play.quiz_by_slug(db.session, "kiss-and-cry")


def reimport_with_shuffle(shuffle: bool) -> None:
    """Import the bundled bank again with the quiz's shuffle_choices set to ``shuffle``."""
    text = bundled_bank().read_text(encoding="utf-8")
    text, count = re.subn(r"shuffle_choices: (true|false)", f"shuffle_choices: {str(shuffle).lower()}", text)
    assert count == 1
    import_bank(db.session, parse_bank(text.encode(), str(bundled_bank()), base_dir=bundled_bank().parent))
    db.session.flush()


def forget_caches() -> None:
    """What a freshly started worker knows: nothing."""
    revisions._REVISIONS.clear()
    live._QUESTION_CACHE.clear()
    live._ONCE_PER_VERSION.clear()


def count_answers() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(Answer))


# The order shown is fixed when play starts ---------------------------------------------------------


def test_a_reimport_that_stops_shuffling_changes_no_running_attempt(quiz):
    assert quiz.shuffle_choices
    attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL,
                                 rng=random.Random(3))
    before = [[choice.text for choice in turn_of(attempt, n).order] for n in range(1, attempt.question_count + 1)]
    reimport_with_shuffle(False)
    forget_caches()
    after = [[choice.text for choice in turn_of(attempt, n).order] for n in range(1, attempt.question_count + 1)]
    assert after == before
    # A new attempt follows the quiz as it now is: choices in the bank's order, but for ordering
    # questions, whose items are always shuffled (their order is the answer).
    fresh = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL)
    assert not fresh.shuffle_choices
    turns = [turn_of(fresh, n) for n in range(1, fresh.question_count + 1)]
    in_bank_order = [turn for turn in turns if turn.revision.kind != "ordering"]
    assert in_bank_order
    for turn in in_bank_order:
        assert [choice.position for choice in turn.order] == sorted(choice.position for choice in turn.order)


def test_workers_with_and_without_a_cache_grade_a_live_answer_alike_across_a_reimport(quiz):
    host = User(username="teacher", password_hash="x", role="teacher")
    db.session.add(host)
    session = live.create_session(db.session, host, quiz, live.Settings(scoring="plain"), rng=random.Random(8))
    ana = live.join(db.session, session, play.create_player(db.session), "Ana")
    live.start(db.session, session)
    cached = live.current_question(db.session, session)  # a worker that showed the question
    reimport_with_shuffle(False)
    forget_caches()  # a worker started since
    fresh = live.current_question(db.session, session)
    assert [choice.position for choice in fresh.order] == [choice.position for choice in cached.order]
    assert [choice.position for choice in cached.order] != sorted(choice.position for choice in cached.order)
    # The phone picks the projected number of the right choice; whichever worker grades it agrees.
    number = next(n for n, choice in enumerate(cached.order, 1) if choice.is_correct)
    assert answer_live(session, ana, [number])
    assert db.session.scalar(sa.select(Answer.is_correct)) is True


# Every answer names its question ---------------------------------------------------------------------


def test_a_live_answer_naming_another_question_is_refused_and_stores_nothing(quiz):
    host = User(username="teacher", password_hash="x", role="teacher")
    db.session.add(host)
    session = live.create_session(db.session, host, quiz, live.Settings(scoring="plain"))
    ana, _ben = (live.join(db.session, session, play.create_player(db.session), name) for name in ("Ana", "Ben"))
    now = utcnow()
    live.start(db.session, session, now)
    live.close_question(db.session, session, now + timedelta(seconds=5))
    live.reveal(db.session, session, now + timedelta(seconds=6))
    live.advance(db.session, session, now + timedelta(seconds=7))
    live.advance(db.session, session, now + timedelta(seconds=8))
    assert (session.state, session.position) == (live.QUESTION_OPEN, 2)
    with pytest.raises(answering.NotCurrentQuestion, match="That question has closed."):
        answer_live(session, ana, live_right(ana, session), position=1)
    token = db.session.get(Player, ana.player_id).token
    with pytest.raises(answering.NotCurrentQuestion):  # a form that names no question at all
        answering.answer_live(db.session, *live.seat(db.session, session.id, token), None, live_right(ana, session))
    assert count_answers() == 0
    assert answer_live(session, ana, live_right(ana, session), position=2)


def test_solo_questions_are_answered_in_order_and_not_after_the_end(quiz):
    attempt = play.start_attempt(db.session, play.create_player(db.session), quiz)
    with pytest.raises(answering.NotCurrentQuestion, match="answer question 1 first"):
        answer_solo(attempt, 2)
    for position in range(1, attempt.question_count + 1):
        answer_solo(attempt, position)
    assert not answer_solo(attempt, 1)  # answered already: the first answer stands
    assert count_answers() == attempt.question_count


def test_a_host_paced_attempt_is_answered_on_the_live_screen_only(quiz):
    host = User(username="teacher", password_hash="x", role="teacher")
    db.session.add(host)
    session = live.create_session(db.session, host, quiz, live.Settings())
    ana = live.join(db.session, session, play.create_player(db.session), "Ana")
    live.start(db.session, session)
    with pytest.raises(answering.AnswerElsewhere):
        answer_solo(ana.attempt, 1)
    assert count_answers() == 0


def test_a_stale_page_without_javascript_cannot_answer_a_later_question(bundled):
    """A phone left on question 1 through its reveal submits that form at question 2."""
    host = log_in(bundled, "teacher")
    session_id = create_session(host, question_count=3, show_leaderboard=False)
    code = join_code(host, session_id)
    ana, ben = joined(bundled, code, "Ana", session_id), joined(bundled, code, "Ben", session_id)
    press(host, session_id, "start")
    stale = phone_page(ben, session_id)
    assert 'name="position" value="1"' in stale
    press(host, session_id, "close")
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    assert 'name="position" value="2"' in phone_page(ana, session_id)
    response = submit(ben, session_id, 1, stale)
    assert response.status_code == 409
    assert "That question has closed." in response.get_data(as_text=True)
    with bundled.app_context():
        assert count_answers() == 0
    # The page he is sent back to asks question 2, and answers it.
    assert submit(ben, session_id, 1).status_code == 303


def test_an_open_question_refreshes_itself_without_javascript_when_its_time_is_up(bundled):
    host = log_in(bundled, "teacher")
    session_id = create_session(host, question_count=1, time_limit=20)
    ana = joined(bundled, join_code(host, session_id), "Ana", session_id)
    press(host, session_id, "start")
    page = phone_page(ana, session_id)
    refresh = re.search(r'<noscript><meta http-equiv="refresh" content="(\d+)"></noscript>', page)
    assert refresh and 20 <= int(refresh.group(1)) <= 21
    answered = submit(ana, session_id, 1, page)
    assert answered.status_code == 303
    # Once answered, the waiting page reloads itself every few seconds, as before.
    assert '<meta http-equiv="refresh" content="3">' in phone_page(ana, session_id)


def test_a_second_tab_that_answers_again_is_told_it_had_answered(bundled, client):
    from tests.web.helpers import one_answer_question, start_attempt

    url = one_answer_question(client, start_attempt(client))
    position = int(url.rsplit("/", 1)[1])
    page = client.get(url).get_data(as_text=True)
    first = client.post(url, data={"csrf_token": csrf_token(page), "choice": "1"})
    assert first.status_code == 303
    again = client.post(url, data={"csrf_token": csrf_token(page), "choice": "2"}, follow_redirects=True)
    assert "You had answered this question already: here is your first answer." in again.get_data(as_text=True)
    with bundled.app_context():
        assert count_answers() == position
        assert db.session.scalar(sa.select(Attempt.answered_count)) == position
