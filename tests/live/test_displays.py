"""What phones and the host's screen say at the edges of a session: a student's results after
it, a code whose session has ended, a student's own pick at the reveal, why a question closed."""

from __future__ import annotations

import re

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
