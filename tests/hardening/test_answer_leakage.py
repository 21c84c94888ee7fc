"""No correct answer can be read before answering: not from any page, event-stream payload or
cookie, and not from the order or the markup of the choices.

The check is concrete: before each answer everything a player's browser (or the projector)
receives is collected, the question's correct flag is then moved to another choice in the
database, and everything is collected again. If the two differ, something derived from the
correct flag was sent. After answering the same move does change the page, which shows that
the move reaches what the pages are drawn from.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import sqlalchemy as sa

from quiz import live, revisions
from quiz.extensions import db
from quiz.models import Attempt, AttemptQuestion, Choice, LiveQuestion, LiveSession, QuestionRevision
from tests.web.helpers import answer_blindly, next_link, start_attempt
from tests.web.live_helpers import correct_number, create_session, join_code, joined, log_in, phone_page, press, submit

#: All a player's cookie may hold: their random token, the CSRF secret, and flashed messages.
PLAYER_COOKIE_KEYS = {"player", "csrf_token", "_permanent", "_flashes"}


@contextmanager
def correct_flag_moved(app, revision_id: int):
    """The revision's answer moved, restored afterwards: its correct choice to the next choice
    (a question with several correct choices gets the others instead); a number question's
    number, a text question's accepted answers."""
    with app.app_context():
        revision = db.session.get(QuestionRevision, revision_id)
        key = revision.answer_key
    if key is not None:
        moved = {**key, "answer": key["answer"] + 7} if "answer" in key else {**key, "accept": ["something else"]}
        _set_answer_key(app, revision_id, moved)
        try:
            yield
        finally:
            _set_answer_key(app, revision_id, key)
        return
    choices = sa.select(Choice).where(Choice.revision_id == revision_id).order_by(Choice.position)
    with app.app_context():
        flags = [choice.is_correct for choice in db.session.scalars(choices)]
        moved = flags[-1:] + flags[:-1] if sum(flags) == 1 else [not flag for flag in flags]
        assert moved != flags
        _set_flags(db.session.scalars(choices).all(), moved)
    try:
        yield
    finally:
        with app.app_context():
            _set_flags(db.session.scalars(choices).all(), flags)


def _set_answer_key(app, revision_id: int, key: dict) -> None:
    with app.app_context():
        db.session.get(QuestionRevision, revision_id).answer_key = key
        db.session.commit()
    revisions._REVISIONS.clear()
    live._QUESTION_CACHE.clear()
    live._ONCE_PER_VERSION.clear()


def _set_flags(choices, flags) -> None:
    for choice, flag in zip(choices, flags):
        choice.is_correct = flag
    db.session.commit()
    # Each process keeps the questions it has asked in memory, since a revision never changes
    # (quiz.revisions for every revision, quiz.live for classroom sessions): forget them, so
    # that the next page is drawn from the flags as they now are.
    revisions._REVISIONS.clear()
    live._QUESTION_CACHE.clear()
    live._ONCE_PER_VERSION.clear()


def page_without_tokens(page: str) -> str:
    """The page less what differs from one request to the next: CSRF tokens (signed with the
    time) and the seconds left on a countdown, and so before the page without JavaScript refreshes."""
    page = re.sub(r'(name="csrf_token" value=")[^"]*', r"\1-", page)
    page = re.sub(r'(<meta name="csrf-token" content=")[^"]*', r"\1-", page)
    page = re.sub(r'data-seconds-left="[^"]*"', 'data-seconds-left="-"', page)
    page = re.sub(r'(<meta http-equiv="refresh" content=")\d+', r"\1-", page)
    return re.sub(r"<span data-countdown-value>\d+</span>", "<span data-countdown-value>-</span>", page)


def cookie_of(app, client) -> dict:
    """The signed session cookie, decoded: it is signed, not encrypted, so the player can read it."""
    return app.session_interface.get_signing_serializer(app).loads(client.get_cookie("quiz_session").value)


def first_event(client, url: str) -> dict:
    """The state a new event stream starts with (it comes in the first chunk), without waiting
    for more."""
    response = client.get(url, buffered=False)
    try:
        assert response.status_code == 200
        chunk = next(iter(response.response))
    finally:
        response.close()
    text = chunk.decode() if isinstance(chunk, bytes) else chunk
    data = json.loads(re.search(r"^data: (.*)$", text, re.M).group(1))
    data.get("question", {}).pop("seconds_left", None)  # time passes between two reads
    return data


def test_solo_pages_and_cookie_do_not_depend_on_the_correct_choice(bundled, client):
    # An attempt asks one question of each group, so it takes a few to meet every kind.
    kinds_seen: set[str] = set()
    for _attempt in range(12):
        kinds_seen |= play_checking_pages(bundled, client)
        if kinds_seen == {"single", "multi", "true_false", "ordering", "number", "text"}:
            break
    assert kinds_seen == {"single", "multi", "true_false", "ordering", "number", "text"}


def play_checking_pages(bundled, client) -> set[str]:
    """Plays an attempt on all questions, checking that moving a question's correct flag changes
    nothing its question page and the cookie show, but does change its feedback; the kinds met."""
    url = start_attempt(client, length="all")
    with bundled.app_context():
        attempt_id = db.session.scalar(sa.select(sa.func.max(Attempt.id)))
    kinds_seen = set()
    while "/questions/" in url:
        position = int(url.rsplit("/", 1)[1])
        with bundled.app_context():
            slot = db.session.scalar(sa.select(AttemptQuestion).where(
                AttemptQuestion.attempt_id == attempt_id, AttemptQuestion.position == position
            ))
            revision_id, kinds_seen = slot.revision_id, kinds_seen | {slot.revision.kind}
        page, cookie = client.get(url).get_data(as_text=True), cookie_of(bundled, client)
        # An ordering's items are its answer in another order, shuffled with the attempt's
        # secret seed, so moving its answer moves what is shown; a poll has none to move.
        if slot.revision.kind not in ("ordering", "poll"):
            with correct_flag_moved(bundled, revision_id):
                moved_page, moved_cookie = client.get(url).get_data(as_text=True), cookie_of(bundled, client)
            assert page_without_tokens(moved_page) == page_without_tokens(page), f"question {position} shows its answer"
            assert moved_cookie == cookie
        assert set(cookie) <= PLAYER_COOKIE_KEYS

        answer_blindly(client, url)
        feedback = client.get(url).get_data(as_text=True)
        if position == 1 and slot.revision.kind not in ("ordering", "poll"):
            with correct_flag_moved(bundled, revision_id):
                moved_feedback = client.get(url).get_data(as_text=True)
            assert moved_feedback != feedback, "moving the flag changes nothing the pages show"
        url = next_link(feedback)
    return kinds_seen


def test_live_pages_streams_and_cookies_do_not_depend_on_the_correct_choice(bundled):
    host = log_in(bundled, "teacher")
    session_id = create_session(host, question_count=2, scoring="speed")
    code = join_code(host, session_id)
    phones = [joined(bundled, code, nickname, session_id) for nickname in ("Ana", "Ben")]

    def everything_sent(waiting) -> dict:
        """What the projector and the phones still to answer receive."""
        sent = {
            "projector": page_without_tokens(host.get(f"/host/sessions/{session_id}").get_data(as_text=True)),
            "projector stream": first_event(host, f"/host/sessions/{session_id}/events"),
        }
        for number, phone in enumerate(waiting):
            sent[f"phone {number}"] = page_without_tokens(phone_page(phone, session_id))
            sent[f"phone {number} stream"] = first_event(phone, f"/live/{session_id}/events")
            sent[f"phone {number} cookie"] = cookie_of(bundled, phone)
            assert set(sent[f"phone {number} cookie"]) <= PLAYER_COOKIE_KEYS
        return sent

    def revision_now() -> int:
        with bundled.app_context():
            live_session = db.session.get(LiveSession, session_id)
            return db.session.scalar(
                sa.select(LiveQuestion.revision_id)
                .where(LiveQuestion.session_id == session_id, LiveQuestion.position == live_session.position)
            )

    def assert_nothing_depends_on_the_flag(waiting) -> None:
        sent = everything_sent(waiting)
        assert sent["phone 0 stream"]["state"] == "question_open" and sent["phone 0 stream"]["question"]["choices"]
        with correct_flag_moved(bundled, revision_now()):
            moved = everything_sent(waiting)
        for name in sent:
            assert moved[name] == sent[name], f"{name} shows the answer"

    press(host, session_id, "start")
    for position in (1, 2):
        assert_nothing_depends_on_the_flag(phones)
        page = phone_page(phones[0], session_id)
        right = correct_number(bundled, session_id, page)
        assert submit(phones[0], session_id, right, page).status_code == 303
        # One student has answered: nothing the other receives tells them how it went.
        assert_nothing_depends_on_the_flag(phones[1:])
        page = phone_page(phones[1], session_id)
        wrong = 1 if right != 1 else 2
        assert submit(phones[1], session_id, wrong, page).status_code == 303
        press(host, session_id, "reveal")
        reveal = host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
        assert "Correct answer" in reveal
        with correct_flag_moved(bundled, revision_now()):
            assert host.get(f"/host/sessions/{session_id}").get_data(as_text=True) != reveal, (
                "moving the flag changes nothing the pages show"
            )
        press(host, session_id, "next")  # the leaderboard
        press(host, session_id, "next")  # the next question, or the podium
    with bundled.app_context():
        assert db.session.get(LiveSession, session_id).state == live.FINISHED
