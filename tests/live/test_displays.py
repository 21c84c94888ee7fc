"""What phones and the host's screen say at the edges of a session: a student's results after
it, a code whose session has ended, a student's own pick at the reveal, the hosting form's
defaults and its deadline's time zone."""

from __future__ import annotations

import re
from datetime import datetime

from quiz import play
from quiz.extensions import db
from quiz.models import LiveSession
from tests.conftest import csrf_token
from tests.web.live_helpers import (
    correct_number,
    create_session,
    join,
    join_code,
    joined,
    log_in,
    phone_page,
    press,
    submit,
)


def test_a_students_results_after_a_session_give_points_and_place_without_solo_offers(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host, question_count=2, scoring="speed", show_leaderboard=False)
    code = join_code(host, session_id)
    ana, ben = joined(bundled, code, "Ana", session_id), joined(bundled, code, "Ben", session_id)
    press(host, session_id, "start")
    for position in (1, 2):
        page = phone_page(ana, session_id)
        right = correct_number(bundled, session_id, page)
        submit(ana, session_id, right, page)
        submit(ben, session_id, 1 if right != 1 else 2)
        if position == 1:
            press(host, session_id, "reveal")
            press(host, session_id, "next")
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    results = {}
    for phone, nickname in ((ana, "Ana"), (ben, "Ben")):
        end = phone_page(phone, session_id)
        link = re.search(r'href="(/attempts/[^"]+/results)"', end).group(1)
        results[nickname] = phone.get(link).get_data(as_text=True)
    assert re.search(r"<strong>2</strong> of 2 correct,\s*<strong>[1-9][\d,]*</strong> points:\s*number 1 of 2 in the session",
                     results["Ana"]), results["Ana"]
    assert re.search(r"<strong>0</strong> of 2 correct,\s*<strong>0</strong> points:\s*number 2 of 2 in the session",
                     results["Ben"])
    for page in results.values():
        assert "Retry the" not in page and "Put your name on the leaderboard" not in page and "Leaderboard</a>" not in page
        assert f'href="/live/{session_id}">Back to the session</a>' in page


def test_a_code_whose_session_ended_says_so(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host)
    code = join_code(host, session_id)
    press(host, session_id, "finish")
    _, response = join(bundled, code, "Late")
    assert response.status_code == 404
    assert "The session with this code has ended." in response.get_data(as_text=True)
    _, response = join(bundled, "999999" if code != "999999" else "888888", "Lost")
    assert "No open session has this code." in response.get_data(as_text=True)


def test_a_wrong_answer_at_the_reveal_names_the_students_own_pick(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host, question_count=1)
    ben = joined(bundled, join_code(host, session_id), "Ben", session_id)
    press(host, session_id, "start")
    page = phone_page(ben, session_id)
    wrong = 1 if correct_number(bundled, session_id, page) != 1 else 2
    picked = re.search(rf'<span class="number" aria-hidden="true">{wrong}</span>(.*?)</label>', page, re.S).group(1).strip()
    submit(ben, session_id, wrong, page)
    press(host, session_id, "reveal")
    reveal = phone_page(ben, session_id)
    assert re.search(rf"Not quite\.</strong>\s*You answered\s*<strong>{re.escape(picked)}</strong>\.", reveal), reveal


def test_the_hosting_form_offers_the_quizs_length_and_takes_a_deadline_in_a_time_zone(bundled):
    host = log_in(bundled, "host")
    page = host.get("/host/new/kiss-and-cry").get_data(as_text=True)
    assert re.search(r'<input[^>]*id="question_count"[^>]*value="10"', page)
    assert re.search(r"The quiz&#39;s standard is 10\. Leave empty to ask all \d+\.", page)
    # Offered at first: the app's zone, which the browser's replaces when it has JavaScript.
    assert re.search(r'<option selected value="UTC">UTC</option>', page)
    assert 'data-browser-time-zone' in page

    token = csrf_token(page)
    response = host.post("/host/new/kiss-and-cry", data={
        "csrf_token": token, "pacing": "self", "question_count": "", "time_limit": "", "scoring": "plain",
        "deadline": "2030-01-15T09:00", "time_zone": "America/Toronto",
    })
    assert response.status_code == 303
    session_id = int(response.location.rsplit("/", 1)[1])
    with bundled.app_context():
        stored = db.session.get(LiveSession, session_id)
        # 9:00 in Toronto in January (UTC-5) is 14:00 UTC; every question is asked when the count is empty.
        assert stored.deadline == datetime(2030, 1, 15, 14, 0)
        assert stored.question_count == play.question_counts(db.session, stored.quiz).total
    screen = host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
    assert '<time datetime="2030-01-15T14:00:00Z" data-local-time>2030-01-15 14:00 UTC</time>' in screen

    response = host.post("/host/new/kiss-and-cry", data={
        "csrf_token": token, "pacing": "self", "scoring": "plain", "deadline": "2030-01-15T09:00", "time_zone": "Mars/Olympus",
    })
    assert response.status_code == 422 and "Not a valid choice" in response.get_data(as_text=True)
