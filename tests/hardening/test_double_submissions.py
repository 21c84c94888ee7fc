"""One answer submitted many times at the same instant (a double tap, a reload, two tabs)
against the production server: one answer and one score are recorded, whatever worker takes
each copy. On SQLite, and on PostgreSQL when TEST_DATABASE_URL names it; CI runs both."""

from __future__ import annotations

import re
import threading

import pytest
import sqlalchemy as sa

from quiz.models import Answer, Attempt, LivePlayer
from tests.web.helpers import blind_fields
from tests.servers import (
    browser,
    database_session,
    form_token,
    log_in,
)

pytestmark = pytest.mark.slow

COPIES = 12
QUIZ = "/quizzes/kiss-and-cry"


def submit_together(server, cookie: str, path: str, data: dict[str, str]) -> list[int]:
    """POST ``data`` to ``path`` from :data:`COPIES` connections with the same cookie, released
    at the same instant; the statuses."""
    clients = [browser(server) for _ in range(COPIES)]
    barrier = threading.Barrier(COPIES)
    statuses: list[int] = []

    def send(client) -> None:
        client.cookies.set("quiz_session", cookie)
        client.get("/healthz")  # connected before the race starts
        barrier.wait()
        statuses.append(client.post(path, data=data).status_code)

    threads = [threading.Thread(target=send, args=(client,)) for client in clients]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        for client in clients:
            client.close()
    assert len(statuses) == COPIES
    return statuses


def assert_counted_once(database_url: str, attempt_filter) -> None:
    with database_session(database_url) as session:
        attempt = session.scalar(sa.select(Attempt).where(attempt_filter))
        answers = session.scalars(sa.select(Answer).where(Answer.attempt_id == attempt.id)).all()
        assert len(answers) == 1
        assert (attempt.answered_count, attempt.correct_count, attempt.score) == (
            1, int(answers[0].is_correct), answers[0].points
        )


def test_simultaneous_copies_of_an_answer_record_one_answer_and_one_score(served):
    server, url = served

    # Solo play: the question page's form, sent twelve times at once.
    with browser(server) as player:
        token = form_token(player, QUIZ)
        question = player.post(f"{QUIZ}/attempts", data={"csrf_token": token, "length": "standard"}).headers["location"]
        shown = player.get(question)  # the question is shown: its clock runs
        assert shown.status_code == 200
        answer = {"csrf_token": token, **blind_fields(shown.text)}
        statuses = submit_together(server, player.cookies["quiz_session"], question, answer)
        # Each copy is told the answer is in: the first stored it, the others found it there.
        assert statuses == [303] * COPIES
        assert "Question 1 of 10" in player.get(question).text
        public_id = question.split("/")[2]
    assert_counted_once(url, Attempt.public_id == public_id)

    # A classroom session: two students, so that the first answer does not close the question.
    with browser(server) as host, browser(server) as ana, browser(server) as ben:
        assert log_in(host).status_code == 303
        token = form_token(host, "/host/new/kiss-and-cry")
        response = host.post("/host/new/kiss-and-cry", data={
            "csrf_token": token, "pacing": "host", "question_count": "1", "time_limit": "60", "scoring": "speed",
        })
        host_screen = response.headers["location"]
        code = re.search(r'<p class="code"[^>]*>(\d{6})</p>', host.get(host_screen).text).group(1)
        for phone, nickname in ((ana, "Ana"), (ben, "Ben")):
            join_token = form_token(phone, "/join")
            response = phone.post("/join", data={"csrf_token": join_token, "code": code, "nickname": nickname})
            assert response.status_code == 303
        live_page = response.headers["location"]
        assert host.post(f"{host_screen}/action", data={"csrf_token": token, "action": "start"}).status_code == 303
        ana_token = form_token(ana, live_page)
        statuses = submit_together(server, ana.cookies["quiz_session"], f"{live_page}/answer",
                                   {"csrf_token": ana_token, "choice": "1", "position": "1"})
        assert statuses == [303] * COPIES
        assert "Answer received" in ana.get(live_page).text
        session_id = int(live_page.rsplit("/", 1)[1])
    assert_counted_once(url, Attempt.id == sa.select(LivePlayer.attempt_id).where(
        LivePlayer.session_id == session_id, LivePlayer.nickname == "Ana").scalar_subquery())
