"""Classroom sessions through the test client: a teacher's browser and the students' phones,
each its own client, reading the pages and pressing their buttons as people would."""

from __future__ import annotations

import csv
import html as html_lib
import io
import json
import re
import threading
import time
from datetime import timedelta
from urllib.parse import urlsplit

import markupsafe
import pytest
import sqlalchemy as sa

from quiz import accounts, live
from quiz.extensions import db
from quiz.models import Answer, Attempt, LivePlayer, LiveQuestion, LiveSession, QuestionRevision, utcnow
from tests.conftest import csrf_token
from tests.web import helpers as solo
from tests.web.live_helpers import (
    EventReader,
    answered_on_host,
    correct_number,
    create_session,
    distribution,
    host_page,
    join,
    join_code,
    joined,
    labels,
    log_in,
    phone_page,
    press,
    session_state,
    submit,
)

NO_SESSION = "No open session has this code."
TAKEN = "Someone in this session already has that nickname."


@pytest.fixture(autouse=True)
def _cheap_password_hashes(monkeypatch):
    """The same algorithm at a fraction of werkzeug's cost: these tests log in a lot."""
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", "scrypt:1024:8:1")


@pytest.fixture
def host(bundled):
    return log_in(bundled, "teacher")


def other_code(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def answers_of(app, nickname: str) -> int:
    with app.app_context():
        return db.session.scalar(
            sa.select(sa.func.count())
            .select_from(Answer)
            .join(LivePlayer, LivePlayer.attempt_id == Answer.attempt_id)
            .where(LivePlayer.nickname == nickname)
        )


def is_login_redirect(response) -> bool:
    return response.status_code in (302, 303) and urlsplit(response.location).path == "/login"


def assert_no_correctness(page: str) -> None:
    assert "Correct answer" not in page
    assert 'class="correct"' not in page and "tag-correct" not in page
    assert "Right!" not in page and "verdict-right" not in page


def parse_csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.data.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(response.data.decode("utf-8")[1:])))


# Access ----------------------------------------------------------------------------------------


def test_who_may_open_a_session_and_post_to_it(bundled, host):
    session_id = create_session(host)
    code = join_code(host, session_id)
    pages = [
        f"/host/sessions/{session_id}",
        f"/host/sessions/{session_id}/results",
        f"/host/sessions/{session_id}/answers.csv",
        f"/host/sessions/{session_id}/summary.csv",
        f"/host/sessions/{session_id}/qr.svg",
        f"/host/sessions/{session_id}/events",
    ]

    anonymous = bundled.test_client()
    for path in ["/host", "/host/new/kiss-and-cry", *pages]:
        assert is_login_redirect(anonymous.get(path)), path

    # A student has no account: before joining the session is not there for them at all.
    phone = bundled.test_client()
    assert phone.get(f"/live/{session_id}").status_code == 404
    assert phone.get(f"/live/{session_id}/events").status_code == 404
    join(bundled, code, "Ana", phone)
    assert phone.get(f"/live/{session_id}").status_code == 200
    for path in pages:
        assert is_login_redirect(phone.get(path)), path

    stranger = log_in(bundled, "other-teacher")
    for path in pages:
        assert stranger.get(path).status_code == 404, path
    token = csrf_token(stranger.get("/host/new/kiss-and-cry").get_data(as_text=True))
    response = stranger.post(f"/host/sessions/{session_id}/action", data={"csrf_token": token, "action": "start"})
    assert response.status_code == 404
    assert session_state(bundled, session_id) == "lobby"
    assert code not in stranger.get("/host").get_data(as_text=True)

    admin = log_in(bundled, "head", role="admin")
    assert code in host_page(admin, session_id)
    assert "Ana" in admin.get(f"/host/sessions/{session_id}/results").get_data(as_text=True)
    assert parse_csv(admin.get(f"/host/sessions/{session_id}/summary.csv"))[1][1] == "Ana"
    press(admin, session_id, "start")
    assert session_state(bundled, session_id) == "question_open"
    assert code in host.get("/host").get_data(as_text=True)

    # The join, host action and answer forms refuse a POST without its CSRF token.
    assert bundled.test_client().post("/join", data={"code": code, "nickname": "Eve"}).status_code == 400
    assert host.post(f"/host/sessions/{session_id}/action", data={"action": "finish"}).status_code == 400
    assert phone.post(f"/live/{session_id}/answer", data={"choice": "1"}).status_code == 400
    assert session_state(bundled, session_id) == "question_open"
    with bundled.app_context():
        assert db.session.scalars(sa.select(LivePlayer.nickname)).all() == ["Ana"]
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Answer)) == 0


# Joining ---------------------------------------------------------------------------------------


def test_the_join_page_checks_the_code_and_the_nickname(bundled, host):
    session_id = create_session(host)
    code = join_code(host, session_id)

    prefilled = bundled.test_client().get("/join?code=123456").get_data(as_text=True)
    assert re.search(r'<input[^>]*name="code"[^>]*value="123456"', prefilled)

    _, wrong = join(bundled, other_code(code), "Ana")
    assert wrong.status_code == 404
    page = wrong.get_data(as_text=True)
    assert NO_SESSION in page and re.search(r'<input[^>]*name="nickname"[^>]*value="Ana"', page)
    for malformed in ("12345", "abcdef", "1234567"):
        _, response = join(bundled, malformed, "Ana")
        assert response.status_code == 422, malformed
        assert "The code has 6 digits." in response.get_data(as_text=True)
    joined(bundled, code, "Zoé", session_id)
    for same in ("ZOE", "zoe", "Zoè"):
        _, response = join(bundled, code, same)
        assert response.status_code == 422, same
        assert TAKEN in response.get_data(as_text=True)
    # Spaces typed inside the code are ignored.
    joined(bundled, f"{code[:3]} {code[3:]}", "Zoey", session_id)
    with bundled.app_context():
        assert db.session.scalars(sa.select(LivePlayer.nickname).order_by(LivePlayer.id)).all() == ["Zoé", "Zoey"]
    # Spaces alone are no nickname either (the form's filter folds them to nothing).
    for blank in ("", "   "):
        _, response = join(bundled, code, blank)
        assert response.status_code == 422, repr(blank)
        assert "Choose a nickname." in response.get_data(as_text=True)


def test_a_student_who_joins_again_keeps_their_place_and_points(bundled, host):
    session_id = create_session(host, question_count=2)
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    joined(bundled, code, "Ben", session_id)
    press(host, session_id, "start")
    page = phone_page(ana, session_id)
    submit(ana, session_id, correct_number(bundled, session_id, page), page)
    # The point shows with the reveal: a score that jumped sooner would tell the answer right.
    assert "You are <strong>Ana</strong> · 0 points" in phone_page(ana, session_id)

    _, again = join(bundled, code, "Someone else", ana)
    assert again.status_code == 303 and again.location == f"/live/{session_id}"
    page = phone_page(ana, session_id)
    assert "You are <strong>Ana</strong> · 0 points" in page and "<h1>Answer received</h1>" in page
    press(host, session_id, "close")
    press(host, session_id, "reveal")
    page = phone_page(ana, session_id)
    assert "You are <strong>Ana</strong> · 1 point<" in page and "Right!" in page
    with bundled.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(LivePlayer)) == 2


def test_a_removed_student_is_out_for_good(bundled, host):
    session_id = create_session(host)
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    joined(bundled, code, "Ben", session_id)
    lobby = host_page(host, session_id)
    live_player_id = re.search(
        rf'<li><span>Ana</span>\s*<form method="post" action="/host/sessions/{session_id}/players/(\d+)/remove"', lobby
    ).group(1)

    response = host.post(
        f"/host/sessions/{session_id}/players/{live_player_id}/remove", data={"csrf_token": csrf_token(lobby)}
    )
    assert response.status_code == 303
    lobby = host_page(host, session_id)
    assert "<span>Ana</span>" not in lobby and "<span>Ben</span>" in lobby and "1 student joined" in lobby

    assert ana.get(f"/live/{session_id}").status_code == 404
    assert ana.get(f"/live/{session_id}/events").status_code == 404
    _, rejoin = join(bundled, code, "Ana again", ana)
    assert rejoin.status_code == 422 and "removed" in rejoin.get_data(as_text=True)
    assert ana.get(f"/live/{session_id}").status_code == 404


def test_wrong_codes_are_limited_per_client(bundled, host):
    session_id = create_session(host)
    code = join_code(host, session_id)
    guesser = bundled.test_client()
    for _ in range(10):
        assert join(bundled, other_code(code), "Guess", guesser)[1].status_code == 404
    assert join(bundled, other_code(code), "Guess", guesser)[1].status_code == 429
    assert join(bundled, code, "Guess", guesser)[1].status_code == 429
    # A phone elsewhere is not affected.
    elsewhere = bundled.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert join(bundled, code, "Ana", elsewhere)[1].status_code == 303
    # Good codes never count.
    for number in range(12):
        assert join(bundled, code, f"Ana {number}", elsewhere)[1].status_code == 303
    # A class's phones reach the server from the school's one address: one student's typos
    # must not lock out the others.
    _, classmate = join(bundled, code, "Ben")
    assert classmate.status_code == 303, "a classmate behind the same address was refused"


# Nicknames -------------------------------------------------------------------------------------

PAYLOADS = ["x'); DROP TABLE", "<b>x</b>"]


def assert_shown_literally(page: str) -> None:
    for nickname in PAYLOADS:
        assert str(markupsafe.escape(nickname)) in page
        assert nickname not in page


def test_markup_and_sql_in_nicknames_are_shown_literally(bundled, host):
    session_id = create_session(host, question_count=1)
    code = join_code(host, session_id)
    phones = [joined(bundled, code, nickname, session_id) for nickname in PAYLOADS]
    assert_shown_literally(host_page(host, session_id))

    press(host, session_id, "start")
    for phone in phones:
        page = phone_page(phone, session_id)
        submit(phone, session_id, correct_number(bundled, session_id, page), page)
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    assert_shown_literally(host_page(host, session_id))  # the leaderboard
    press(host, session_id, "next")
    podium = host_page(host, session_id)
    assert '<ol class="podium">' in podium
    assert_shown_literally(podium)
    assert_shown_literally(phone_page(phones[0], session_id))
    assert_shown_literally(host.get(f"/host/sessions/{session_id}/results").get_data(as_text=True))
    summary = parse_csv(host.get(f"/host/sessions/{session_id}/summary.csv"))
    assert sorted(row[1] for row in summary[1:]) == sorted(PAYLOADS)
    with bundled.app_context():
        assert sorted(db.session.scalars(sa.select(LivePlayer.nickname))) == sorted(PAYLOADS)


# A whole host-paced game -----------------------------------------------------------------------


def test_a_whole_host_paced_game(bundled, host):
    session_id = create_session(host, question_count=2, scoring="plain", show_leaderboard=True)
    code = join_code(host, session_id)
    nicknames = ["Ana", "Zoé", "=2+3"]
    ana, zoe, calc = phones = [joined(bundled, code, nickname, session_id) for nickname in nicknames]
    lobby = host_page(host, session_id)
    assert "3 students joined" in lobby
    for nickname in nicknames:
        assert f"<li><span>{markupsafe.escape(nickname)}</span>" in lobby
    assert "You're in!" in phone_page(ana, session_id)

    # Question 1: Ana right, Zoé wrong, and "=2+3" too late.
    press(host, session_id, "start")
    pages = [phone_page(phone, session_id) for phone in phones]
    projector = host_page(host, session_id)
    for page in pages:
        assert f'<form method="post" action="/live/{session_id}/answer"' in page
        assert page.count('type="radio" name="choice"') == 4
        assert labels(page) == labels(pages[0])
        assert_no_correctness(page)
    assert answered_on_host(projector) == (0, 3)
    assert_no_correctness(projector)
    right = correct_number(bundled, session_id, pages[0])
    wrong = 1 if right != 1 else 2
    texts = labels(pages[0])

    assert submit(ana, session_id, right, pages[0]).location == f"/live/{session_id}"
    assert submit(zoe, session_id, wrong, pages[1]).location == f"/live/{session_id}"
    assert answered_on_host(host_page(host, session_id)) == (2, 3)
    assert submit(ana, session_id, wrong, pages[0]).status_code == 303  # a second try changes nothing
    assert answered_on_host(host_page(host, session_id)) == (2, 3)
    assert answers_of(bundled, "Ana") == 1
    waiting = phone_page(ana, session_id)
    assert "<h1>Answer received</h1>" in waiting and 'name="choice"' not in waiting
    assert_no_correctness(waiting)

    press(host, session_id, "close")
    closed = host_page(host, session_id)
    # Closed by the host's hand, not by the clock; the choices stay on the screen.
    assert "Closed: 2 of 3 answered." in closed and "Time is up" not in closed
    shown = re.findall(r'<span class="number" aria-hidden="true">\d+</span> ([^<]*)</li>', closed)
    assert [html_lib.unescape(text) for text in shown] == texts
    assert_no_correctness(closed)
    late = submit(calc, session_id, right, pages[2])
    assert late.status_code == 409
    late_page = late.get_data(as_text=True)
    assert "That question has closed." in late_page and "The question is closed" in late_page
    assert_no_correctness(late_page)
    assert answers_of(bundled, "=2+3") == 0

    press(host, session_id, "reveal")
    with bundled.app_context():
        explanation = db.session.scalar(
            sa.select(QuestionRevision.explanation)
            .join(LiveQuestion, LiveQuestion.revision_id == QuestionRevision.id)
            .where(LiveQuestion.session_id == session_id, LiveQuestion.position == 1)
        )
    expected = {
        number: (text, int(number in (right, wrong)), number == right) for number, text in enumerate(texts, 1)
    }
    for screen in [host_page(host, session_id), *(phone_page(phone, session_id) for phone in phones)]:
        assert distribution(screen) == expected
        assert "Correct answer" in screen
        assert str(markupsafe.escape(explanation)) in screen
        assert re.search(r'<figure class="source">\s*<blockquote>.*?<mark>.+?</mark>.*?</blockquote>', screen, re.S)
    assert "<strong>Right!</strong> +1 point<" in phone_page(ana, session_id)
    assert "Not quite." in phone_page(zoe, session_id)
    assert "No answer." in phone_page(calc, session_id)

    press(host, session_id, "next")
    board = host_page(host, session_id)
    standings = re.findall(r'<tr><td>(\d+)</td><th scope="row">(.*?)</th><td>(\d+)</td></tr>', board)
    assert [(int(rank), html_lib.unescape(name), int(score)) for rank, name, score in standings][0] == (1, "Ana", 1)
    assert sorted(html_lib.unescape(name) for _, name, _ in standings) == sorted(nicknames)
    for phone, nickname in zip(phones, nicknames):
        rank = next(rank for rank, name, _ in standings if html_lib.unescape(name) == nickname)
        assert f"You are <strong>number {rank}</strong>" in phone_page(phone, session_id)

    # Question 2: everyone answers, so it closes without the host.
    press(host, session_id, "next")
    pages = [phone_page(phone, session_id) for phone in phones]
    assert all("Question 2 of 2" in page for page in pages)
    right2 = correct_number(bundled, session_id, pages[0])
    wrong2 = 1 if right2 != 1 else 2
    texts2 = labels(pages[0])
    for phone, page, number in zip(phones, pages, (right2, right2, wrong2)):
        assert submit(phone, session_id, number, page).status_code == 303
    assert session_state(bundled, session_id) == "question_closed"
    assert "Everyone answered: 3 of 3." in host_page(host, session_id)
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    press(host, session_id, "next")

    podium = host_page(host, session_id)
    assert re.findall(r'<li><span class="place">(\d)</span> (.*?) <span class="points">(\d+) points?</span></li>', podium) == [
        ("1", "Ana", "2"), ("2", "Zoé", "1"), ("3", "=2+3", "0"),
    ]
    for phone, (rank, points) in zip(phones, ((1, 2), (2, 1), (3, 0))):
        assert f"You finished <strong>number {rank}</strong> with {points} point{'' if points == 1 else 's'}." in phone_page(phone, session_id)

    results = host.get(f"/host/sessions/{session_id}/results").get_data(as_text=True)
    rows = re.findall(r'<th scope="row">(.*?)</th>\s*<td>(\d+)</td>\s*<td>(\d) / 2</td>', results)
    assert rows == [("Ana", "2", "2"), ("Zoé", "1", "1"), ("=2+3", "0", "0")]

    download = host.get(f"/host/sessions/{session_id}/summary.csv")
    assert download.headers["Content-Disposition"] == f'attachment; filename="session-{session_id}-summary.csv"'
    summary = parse_csv(download)
    assert summary[0] == ["rank", "student", "score", "correct", "answered", "questions", "total_seconds", "removed"]
    assert [row[:6] + row[7:] for row in summary[1:]] == [
        ["1", "Ana", "2", "2", "2", "2", "no"],
        ["2", "Zoé", "1", "1", "2", "2", "no"],
        ["3", "'=2+3", "0", "0", "1", "2", "no"],
    ]
    answers = parse_csv(host.get(f"/host/sessions/{session_id}/answers.csv"))
    assert answers[0] == ["student", "question_number", "question_id", "question", "answer", "correct", "points", "seconds"]
    assert [row[2] for row in answers[1:3]] == ["streaming-service", "star-role"]
    graded = [row for row in answers[1:] if row[5] in ("yes", "no")]
    assert len(graded) == 5 and all(re.fullmatch(r"\d+\.\d", row[7]) for row in graded)
    picked = [(row[0], row[1], row[4], row[5], row[6]) for row in answers[1:]]
    assert picked[:4] + picked[5:] == [
        ("Ana", "1", texts[right - 1], "yes", "1"),
        ("Ana", "2", texts2[right2 - 1], "yes", "1"),
        ("Zoé", "1", texts[wrong - 1], "no", "0"),
        ("Zoé", "2", texts2[right2 - 1], "yes", "1"),
        ("'=2+3", "2", texts2[wrong2 - 1], "no", "0"),
    ]
    # The question "=2+3" missed: empty cells, not a lone apostrophe.
    assert answers[5] == ["'=2+3", "1", "streaming-service", answers[1][3], "", "", "0", ""]


def test_a_student_who_missed_a_question_can_still_review_their_answers(bundled, host):
    """The podium's link to the student's answers and sources must lead to them, not back."""
    session_id = create_session(host, question_count=2, show_leaderboard=False)
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    press(host, session_id, "start")
    press(host, session_id, "close")  # Ana misses question 1
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    page = phone_page(ana, session_id)
    submit(ana, session_id, correct_number(bundled, session_id, page), page)
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    final = phone_page(ana, session_id)
    link = re.search(r'<a class="button" href="(/attempts/[^"]+/results)">Your answers with their sources</a>', final).group(1)
    response = ana.get(link)
    assert response.status_code == 200, f"the link sends the student to {response.location}"
    assert "Your results" in response.get_data(as_text=True)


def test_summary_ranks_agree_with_the_podium_on_a_tie(bundled, host):
    """Equal points go to the faster student on the podium; the spreadsheet must agree."""
    session_id = create_session(host, question_count=1)
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    ben = joined(bundled, code, "Ben", session_id)
    press(host, session_id, "start")
    page = phone_page(ben, session_id)
    right = correct_number(bundled, session_id, page)
    submit(ben, session_id, right, page)
    time.sleep(0.05)
    submit(ana, session_id, right, phone_page(ana, session_id))
    press(host, session_id, "reveal")
    press(host, session_id, "next")
    press(host, session_id, "next")
    podium = re.findall(r'<span class="place">(\d)</span> (\w+)', host_page(host, session_id))
    assert podium == [("1", "Ben"), ("2", "Ana")]
    summary = parse_csv(host.get(f"/host/sessions/{session_id}/summary.csv"))
    assert [row[:2] for row in summary[1:]] == [["1", "Ben"], ["2", "Ana"]]


# Closing by itself ---------------------------------------------------------------------------


def test_a_question_is_answered_on_the_live_page_only_and_closes_when_its_time_is_up(bundled, host):
    session_id = create_session(host, question_count=2, time_limit=60)
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    joined(bundled, code, "Ben", session_id)
    press(host, session_id, "start")

    # The attempt behind a host-paced session is not answered through the solo pages.
    with bundled.app_context():
        public_id = db.session.scalar(sa.select(LivePlayer).where(LivePlayer.nickname == "Ana")).attempt.public_id
    url = f"/attempts/{public_id}/questions/1"
    assert ana.get(url).location == f"/live/{session_id}"
    page = phone_page(ana, session_id)
    response = ana.post(url, data={"csrf_token": csrf_token(page), "choice": "1"})
    assert response.status_code == 303 and response.location == f"/live/{session_id}"
    assert answers_of(bundled, "Ana") == 0
    assert answered_on_host(host_page(host, session_id)) == (0, 2)

    assert submit(ana, session_id, 1, page).status_code == 303
    assert answers_of(bundled, "Ana") == 1
    assert session_state(bundled, session_id) == "question_open"
    assert re.search(r'data-seconds-left="(5\d|60)\.\d"', host_page(host, session_id))
    with bundled.app_context():
        db.session.execute(
            # As if the question had opened a minute ago: its 60 s are up.
            sa.update(LiveSession).where(LiveSession.id == session_id).values(
                question_opened_at=utcnow() - timedelta(seconds=61), question_closes_at=utcnow() - timedelta(seconds=1),
            )
        )
        db.session.commit()
    assert "Time is up: 1 of 2 answered." in host_page(host, session_id)
    assert session_state(bundled, session_id) == "question_closed"


def _statements_of(app, request) -> tuple[object, list[tuple[str, bool]]]:
    """The response to ``request()`` and the statements it sent: each one's first word, and
    whether it ran in a transaction of its own (PostgreSQL's autocommit)."""
    sent: list[tuple[str, bool]] = []

    def record(connection, cursor, statement, parameters, context, executemany):
        sent.append((statement.split()[0], bool(getattr(connection.connection.dbapi_connection, "autocommit", False))))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        response = request()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return response, sent


def test_a_live_answer_is_stored_counted_and_closes_the_question_in_one_statement_on_postgresql(bundled, host):
    session_id = create_session(host, question_count=2, time_limit=60, scoring="speed")
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    ben = joined(bundled, code, "Ben", session_id)
    press(host, session_id, "start")
    page = phone_page(ana, session_id)
    right = correct_number(bundled, session_id, page)
    with bundled.app_context():
        postgresql = db.engine.dialect.name == "postgresql"

    response, sent = _statements_of(bundled, lambda: submit(ana, session_id, right, page))
    assert response.status_code == 303
    if postgresql:
        # The student's seat, then the answer, its counts, the streak and the search for a
        # student yet to answer: no BEGIN or COMMIT around them.
        assert sent == [("SELECT", True), ("WITH", True)]
    else:
        assert [word for word, _alone in sent] == ["SELECT", "INSERT", "UPDATE", "UPDATE", "SELECT"]
    with bundled.app_context():
        ana_seat = db.session.scalar(sa.select(LivePlayer).where(LivePlayer.nickname == "Ana"))
        assert (ana_seat.streak, ana_seat.attempt.answered_count, ana_seat.attempt.correct_count) == (1, 1, 1)
        assert ana_seat.attempt.score > 0
    assert session_state(bundled, session_id) == "question_open"  # Ben has not answered

    response, sent = _statements_of(bundled, lambda: submit(ben, session_id, 2 if right == 1 else 1))
    assert response.status_code == 303
    assert session_state(bundled, session_id) == "question_closed"  # everyone has
    with bundled.app_context():
        ben_seat = db.session.scalar(sa.select(LivePlayer).where(LivePlayer.nickname == "Ben"))
        assert (ben_seat.streak, ben_seat.attempt.answered_count, ben_seat.attempt.score) == (0, 1, 0)
    # The question is closed: a second answer is refused and changes nothing.
    assert submit(ana, session_id, right, page).status_code == 409
    assert answers_of(bundled, "Ana") == 1


# The projector ---------------------------------------------------------------------------------
# The host's screen is made for a projector; tests/browser/test_projector.py checks how it
# looks and behaves in a browser, these what the server draws.


_KEYED_BUTTON = re.compile(r'<button type="submit"[^>]*\baria-keyshortcuts="([^"]+)"[^>]*>([^<]+)</button>')


def shortcuts(page: str) -> dict[str, str]:
    """The host's buttons that keys press: label -> the keys, as aria-keyshortcuts names them."""
    return {html_lib.unescape(label): keys for keys, label in _KEYED_BUTTON.findall(page)}


def corner(page: str) -> str | None:
    """The small join panel of a running session's screen, if the page has one."""
    match = re.search(r'<div class="join-corner">(.*?)</div>', page, re.S)
    return match.group(1) if match else None


def test_the_projector_shows_every_state_with_the_join_code_in_a_corner(bundled, host):
    session_id = create_session(host, question_count=2, time_limit=60, scoring="plain", show_leaderboard=True)
    code = join_code(host, session_id)
    ana, ben = (joined(bundled, code, nickname, session_id) for nickname in ("Ana", "Ben"))
    lobby = host_page(host, session_id)
    assert '<link rel="stylesheet" href="/static/css/projector.css">' in lobby
    assert corner(lobby) is None  # the lobby shows the code and the QR code large
    assert shortcuts(lobby) == {"Start the first question": "N ArrowRight"}
    assert '<span class="shortcut"><kbd>N</kbd> or <kbd>→</kbd> start</span>' in lobby
    assert 'data-shortcuts hidden' in lobby  # shown by live.js: the keys need JavaScript
    # Students see none of it.
    assert "projector.css" not in phone_page(ana, session_id)

    press(host, session_id, "start")
    page = host_page(host, session_id)
    # Answer tiles, numbered as on the phones.
    texts = labels(phone_page(ana, session_id))
    assert '<ol class="tiles tiles-4">' in page
    tiles = re.findall(r'<li><span class="number" aria-hidden="true">(\d+)</span> ([^<]*)</li>', page)
    assert [(int(number), html_lib.unescape(text)) for number, text in tiles] == list(enumerate(texts, 1))
    # The countdown: the seconds, right without JavaScript, and a bar for live.js to fill (the
    # time left is in data-seconds-left alone); the page reloads itself once the time is up.
    assert '<progress class="countdown-bar" max="60" aria-hidden="true" data-countdown-bar></progress>' in page
    assert re.search(r'data-seconds-left="(5\d|60)\.\d"', page)
    assert re.search(r'<span data-countdown-value>(5\d|60)</span> s left', page)
    assert re.search(r'<noscript><meta http-equiv="refresh" content="(5\d|6[01])"></noscript>', page)
    assert answered_on_host(page) == (0, 2)
    joining = corner(page)
    assert f'<span class="corner-code">{code}</span>' in joining
    assert f'src="/host/sessions/{session_id}/qr.svg"' in joining
    assert shortcuts(page) == {"Reveal the answer": "N ArrowRight R", "Close the question": "C"}
    assert_no_correctness(page)

    right = correct_number(bundled, session_id, phone_page(ana, session_id))
    wrong = 1 if right != 1 else 2
    submit(ana, session_id, right)
    submit(ben, session_id, wrong)
    closed = host_page(host, session_id)
    assert "Everyone answered: 2 of 2." in closed and corner(closed)
    assert shortcuts(closed) == {"Reveal the answer": "N ArrowRight R"}
    assert_no_correctness(closed)

    press(host, session_id, "reveal")
    revealed = host_page(host, session_id)
    assert re.search(r'<table class="distribution projector-chart rows-4[^"]*\bshapes\b', revealed)
    assert distribution(revealed) == {
        number: (text, int(number in (right, wrong)), number == right) for number, text in enumerate(texts, 1)
    }
    percents = re.findall(r'<tr class="(correct|)">.*?<span class="percent">(\d+)%</span>', revealed, re.S)
    assert sorted(percents) == sorted([("correct", "50"), ("", "50"), ("", "0"), ("", "0")])
    assert '<section aria-labelledby="why-heading" class="why" tabindex="0">' in revealed
    assert "Everyone answered: 2 of 2." in revealed and corner(revealed)
    assert shortcuts(revealed) == {"Show the leaderboard": "N ArrowRight L"}

    press(host, session_id, "next")
    board = host_page(host, session_id)
    assert "Leaderboard after question 1" in board and corner(board)
    assert shortcuts(board) == {"Next question": "N ArrowRight"}

    press(host, session_id, "next")
    press(host, session_id, "reveal")
    assert shortcuts(host_page(host, session_id)) == {"Show the leaderboard": "N ArrowRight L"}
    press(host, session_id, "next")
    assert shortcuts(host_page(host, session_id)) == {"Finish and show the podium": "N ArrowRight"}
    press(host, session_id, "next")
    podium = host_page(host, session_id)
    assert '<ol class="podium">' in podium
    assert corner(podium) is None and shortcuts(podium) == {} and "End the session" not in podium


def test_only_a_question_that_closed_by_itself_reveals_itself(bundled, host):
    """Time up or everyone answered: the projector's script presses "Reveal" (data-auto-reveal).
    A question the host closed waits for the host, and the server reveals nothing by itself."""
    session_id = create_session(host, question_count=3, time_limit=60, show_leaderboard=False)
    code = join_code(host, session_id)
    ana, ben = (joined(bundled, code, nickname, session_id) for nickname in ("Ana", "Ben"))

    press(host, session_id, "start")
    assert "data-auto-reveal" not in host_page(host, session_id)
    submit(ana, session_id, 1)
    press(host, session_id, "close")
    by_hand = host_page(host, session_id)
    assert "Closed: 1 of 2 answered." in by_hand and "data-auto-reveal" not in by_hand
    assert "The answer shows in a moment." not in by_hand
    press(host, session_id, "reveal")
    assert "data-auto-reveal" not in host_page(host, session_id)
    press(host, session_id, "next")

    submit(ana, session_id, 1)
    submit(ben, session_id, 1)
    everyone = host_page(host, session_id)
    assert "Everyone answered: 2 of 2." in everyone and "data-auto-reveal" in everyone
    assert "<p class=\"auto-reveal-note\" data-auto-reveal-note hidden>The answer shows in a moment.</p>" in everyone
    assert session_state(bundled, session_id) == "question_closed"
    press(host, session_id, "reveal")
    press(host, session_id, "next")

    with bundled.app_context():
        db.session.execute(
            # As if the question had opened a minute ago: its 60 s are up.
            sa.update(LiveSession).where(LiveSession.id == session_id).values(
                question_opened_at=utcnow() - timedelta(seconds=61), question_closes_at=utcnow() - timedelta(seconds=1),
            )
        )
        db.session.commit()
    timed_out = host_page(host, session_id)
    assert "Time is up: 0 of 2 answered." in timed_out and "data-auto-reveal" in timed_out
    press(host, session_id, "reveal")
    assert session_state(bundled, session_id) == "reveal"


# Self-paced ------------------------------------------------------------------------------------


def test_a_self_paced_session_runs_on_the_solo_pages_until_its_deadline(bundled, host):
    deadline = (utcnow() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    session_id = create_session(host, pacing="self", question_count=2, deadline=deadline)
    page = host_page(host, session_id)
    assert "Self-paced until" in page and deadline.replace("T", " ") in page
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    joined(bundled, code, "Ben", session_id)

    resume = ana.get(f"/live/{session_id}")
    assert resume.status_code == 303 and re.fullmatch(r"/attempts/[\w-]+", resume.location)
    first = ana.get(resume.location).location
    assert first == resume.location + "/questions/1"
    assert solo.answer(ana, first, 1).status_code == 303
    progress = host_page(host, session_id)
    assert re.search(r'<th scope="row">Ana</th><td>1 / 2</td>', progress)
    assert re.search(r'<th scope="row">Ben</th><td>0 / 2</td>', progress)

    with bundled.app_context():
        db.session.execute(
            sa.update(LiveSession).where(LiveSession.id == session_id).values(deadline=utcnow() - timedelta(minutes=1))
        )
        db.session.commit()
    second = first.replace("/questions/1", "/questions/2")
    refused = solo.answer(ana, second, 1)
    assert refused.status_code == 303 and refused.location == resume.location + "/results"
    with bundled.app_context():
        attempt = db.session.scalar(sa.select(Attempt).join(LivePlayer).where(LivePlayer.nickname == "Ana"))
        assert attempt.answered_count == 1
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Answer)) == 1
    _, late = join(bundled, code, "Cleo")
    assert late.status_code == 422 and "deadline" in late.get_data(as_text=True)

    assert session_state(bundled, session_id) == "open"
    assert "<h1>Podium</h1>" in host_page(host, session_id)
    assert session_state(bundled, session_id) == "finished"


# Event streams ---------------------------------------------------------------------------------


def wait_for(reader: EventReader, predicate, seconds: float = 3.0) -> dict:
    """The first event that ``predicate`` accepts, within ``seconds``."""
    until = time.monotonic() + seconds
    while True:
        left = until - time.monotonic()
        assert left > 0, "no such event in time"
        event = reader.next_event(timeout=left)
        assert event is not None, "the stream ended first"
        if predicate(event):
            return event


def is_change(state: str):
    return lambda event: event.get("event") == "change" and json.loads(event["data"])["state"] == state


def test_event_streams_tell_phones_and_the_host_what_changed(bundled, host):
    bundled.config["LIVE_POLL_INTERVAL"] = 0.05
    session_id = create_session(host, question_count=1)
    code = join_code(host, session_id)
    ana = joined(bundled, code, "Ana", session_id)
    ben = joined(bundled, code, "Ben", session_id)

    response = ana.get(f"/live/{session_id}/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    readers = [EventReader(response)]
    try:
        phone = readers[0]
        assert phone.next_event(timeout=3) == {"retry": "1000"}
        lobby = phone.next_event(timeout=3)
        assert lobby["event"] == "change" and json.loads(lobby["data"])["state"] == "lobby"
        assert phone.raw[0].startswith("retry: 1000\n\nid: ")

        press(host, session_id, "start")
        opened = wait_for(phone, is_change("question_open"))
        assert json.loads(opened["data"])["position"] == 1

        host_stream = EventReader(host.get(f"/host/sessions/{session_id}/events", buffered=False))
        readers.append(host_stream)
        wait_for(host_stream, is_change("question_open"))
        assert wait_for(host_stream, lambda event: event.get("event") == "answers")["data"] == "0"
        page = phone_page(ben, session_id)
        submit(ben, session_id, correct_number(bundled, session_id, page), page)
        assert wait_for(host_stream, lambda event: event.get("event") == "answers")["data"] == "1"

        press(host, session_id, "finish")
        wait_for(phone, is_change("finished"))
        wait_for(host_stream, is_change("finished"))
        assert phone.next_event(timeout=3) is None and host_stream.next_event(timeout=3) is None
    finally:
        # Streams end when their session does; never leave one reading after the test.
        with bundled.app_context():
            live.finish(db.session, db.session.get(LiveSession, session_id))
            db.session.commit()
        for reader in readers:
            reader.close()


def test_one_student_submitting_twice_at_the_same_instant_records_one_answer(bundled, host):
    """Four requests with the same cookie, released together, against the real database file."""
    session_id = create_session(host, question_count=1)
    phone = joined(bundled, join_code(host, session_id), "Ana", session_id)
    press(host, session_id, "start")
    token = csrf_token(phone_page(phone, session_id))
    cookie = phone.get_cookie("quiz_session").value
    barrier = threading.Barrier(4)
    statuses = []

    def submit_once():
        client = bundled.test_client()
        client.set_cookie("quiz_session", cookie)
        barrier.wait()
        data = {"csrf_token": token, "choice": "1", "position": "1"}
        statuses.append(client.post(f"/live/{session_id}/answer", data=data).status_code)

    threads = [threading.Thread(target=submit_once) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # The first answer closes the question (everyone answered); the others find it answered
    # already or closed. Either way exactly one answer and one score count.
    assert sorted(statuses)[0] == 303 and set(statuses) <= {303, 409}
    assert answers_of(bundled, "Ana") == 1
    with bundled.app_context():
        attempt = db.session.scalar(sa.select(Attempt).where(Attempt.live_session_id == session_id))
        assert attempt.answered_count == 1 and attempt.score in (0, 1)
