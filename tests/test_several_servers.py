"""Two production servers, on two ports, sharing one PostgreSQL database and one Redis: the host
uses one, the students the other, and the live session works end to end. Rate limits hold
across both, since they count in Redis.

Servers share a database only on PostgreSQL (an SQLite file belongs to one machine): this runs
in the suite's PostgreSQL run (TEST_DATABASE_URL), which CI makes too.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import threading

import httpx
import pytest
import sqlalchemy as sa

from quiz.models import Answer, Choice, LivePlayer, LiveQuestion
from tests.databases import on_postgresql
from tests.hardening.conftest import SMALL_POOL
from tests.servers import (
    ADMIN,
    TEACHER,
    browser,
    database_session,
    form_token,
    log_in,
    prepare_database,
    production_servers,
    redis_server,
    server_environment,
)

pytestmark = pytest.mark.slow

STUDENTS = 6
QUESTIONS = 2
#: Seconds a change may take to reach every phone; servers poll the database every 0.2 s.
WITHIN = 15


class Phone:
    """A student's phone on a server: its own cookies, and its event stream read in a thread."""

    def __init__(self, client: httpx.Client, nickname: str):
        self.client = client
        self.nickname = nickname
        self.path = ""
        #: Every state the stream has sent, as (state, position), and the last one's data.
        self.seen: list[tuple[str, int]] = []
        self.last: dict = {}
        self._events: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None

    def join(self, code: str) -> None:
        token = form_token(self.client, "/join")
        response = self.client.post("/join", data={"csrf_token": token, "code": code, "nickname": self.nickname})
        assert response.status_code == 303, response.text
        self.path = response.headers["location"]

    def follow(self) -> None:
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            with self.client.stream("GET", self.path + "/events", timeout=httpx.Timeout(30, read=60)) as response:
                assert response.status_code == 200
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        self._events.put(json.loads(line[len("data: "):]))
        finally:
            self._events.put(None)  # the stream ended: the session finished

    def wait_for(self, state: str, position: int) -> dict:
        """The stream's data once it says ``state`` at ``position``."""
        while not self.seen or self.seen[-1] != (state, position):
            try:
                data = self._events.get(timeout=WITHIN)
            except queue.Empty:
                raise AssertionError(f"{self.nickname} saw {self.seen}, not {state} {position}") from None
            assert data is not None, f"{self.nickname}'s stream ended after {self.seen}, before {state} {position}"
            self.last = data
            # A stream repeats the state when something else changed (a student joined).
            if not self.seen or self.seen[-1] != (data["state"], data["position"]):
                self.seen.append((data["state"], data["position"]))
        return self.last

    def answer(self, choice_text: str) -> None:
        number = self.last["question"]["choices"].index(choice_text) + 1
        token = form_token(self.client, self.path)
        position = str(self.last["position"])  # the question answered, as the phone's form names it
        data = {"csrf_token": token, "choice": str(number), "position": position}
        response = self.client.post(self.path + "/answer", data=data)
        assert response.status_code == 303, response.text

    def ended(self) -> bool:
        assert self._thread is not None
        self._thread.join(timeout=WITHIN)
        return not self._thread.is_alive()


@pytest.fixture(scope="module")
def servers(test_databases, tmp_path_factory):
    """Servers A and B, on one database and one Redis, and the database's URL. One environment
    for both: one secret key, so that a cookie signed by either is good on both, as behind a
    load balancer."""
    if not on_postgresql():
        pytest.skip("servers share a database only on PostgreSQL: set TEST_DATABASE_URL to run this")
    if shutil.which("redis-server") is None:
        (pytest.fail if os.environ.get("CI") else pytest.skip)("redis-server is not installed")
    folder = tmp_path_factory.mktemp("several-servers")
    url = test_databases.new(folder, empty=True)
    try:
        prepare_database(url)
        with redis_server(folder) as redis:
            env = server_environment(url, WORKERS="2", SQLALCHEMY_ENGINE_OPTIONS=SMALL_POOL, REDIS_URL=redis.url)
            with production_servers(env, count=2, folder=folder) as (server_a, server_b):
                yield url, server_a, server_b
    finally:
        test_databases.release(url)


def everyone(phones: list[Phone], state: str, position: int) -> list[dict]:
    return [phone.wait_for(state, position) for phone in phones]


def test_a_host_on_one_server_runs_a_session_for_students_on_another(servers):
    url, server_a, server_b = servers
    assert server_a.base_url != server_b.base_url
    host = browser(server_a)
    phones = [Phone(browser(server_b), f"Student {number}") for number in range(STUDENTS)]
    session_path = None
    try:
        assert log_in(host, TEACHER).status_code == 303
        token = form_token(host, "/host/new/kiss-and-cry")
        response = host.post("/host/new/kiss-and-cry", data={
            "csrf_token": token, "pacing": "host", "question_count": str(QUESTIONS), "time_limit": "120",
            "scoring": "plain", "show_leaderboard": "y",
        })
        session_path = response.headers["location"]
        session_id = int(session_path.rsplit("/", 1)[1])
        code = re.search(r'<p class="code"[^>]*>(\d{6})</p>', host.get(session_path).text).group(1)

        def press(action: str) -> None:
            response = host.post(f"{session_path}/action", data={"csrf_token": token, "action": action})
            assert response.status_code == 303

        for phone in phones:
            phone.join(code)
        for phone in phones:
            phone.follow()
        everyone(phones, "lobby", 0)
        assert f"{STUDENTS} students joined" in host.get(session_path).text

        for position in range(1, QUESTIONS + 1):
            press("start" if position == 1 else "next")
            everyone(phones, "question_open", position)
            right, wrong = choice_texts(url, session_id, position)
            for number, phone in enumerate(phones):
                # Students with an even number answer right.
                phone.answer(right if number % 2 == 0 else wrong)
            # The last answer closed the question, on server B; A's host screen agrees.
            everyone(phones, "question_closed", position)
            assert 'data-state="question_closed"' in host.get(session_path).text
            press("reveal")
            everyone(phones, "reveal", position)
            press("next")
            everyone(phones, "leaderboard", position)
        press("next")
        everyone(phones, "finished", QUESTIONS)
        assert all(phone.ended() for phone in phones)
    finally:
        if session_path is not None:
            host.post(f"{session_path}/action", data={"csrf_token": token, "action": "finish"})
        for client in [host, *(phone.client for phone in phones)]:
            client.close()

    expected = [("lobby", 0)] + [
        (state, position) for position in range(1, QUESTIONS + 1)
        for state in ("question_open", "question_closed", "reveal", "leaderboard")
    ] + [("finished", QUESTIONS)]
    for phone in phones:
        assert phone.seen == expected, phone.nickname

    with database_session(url) as session:
        answers = session.execute(
            sa.select(LivePlayer.nickname, sa.func.count(Answer.id), sa.func.count(sa.distinct(Answer.question_id)))
            .join(Answer, Answer.attempt_id == LivePlayer.attempt_id)
            .where(LivePlayer.session_id == session_id)
            .group_by(LivePlayer.nickname)
        ).all()
    assert sorted(answers) == sorted((phone.nickname, QUESTIONS, QUESTIONS) for phone in phones)
    with browser(server_a) as teacher:
        assert log_in(teacher, TEACHER).status_code == 303
        summary = teacher.get(f"/host/sessions/{session_id}/summary.csv").text.lstrip("\ufeff").splitlines()
    scores = {row.split(",")[1]: int(row.split(",")[2]) for row in summary[1:]}
    assert scores == {phone.nickname: QUESTIONS if number % 2 == 0 else 0 for number, phone in enumerate(phones)}


def choice_texts(database_url: str, session_id: int, position: int) -> tuple[str, str]:
    """A right and a wrong choice of the session's question at ``position``."""
    with database_session(database_url) as session:
        rows = session.execute(
            sa.select(Choice.text, Choice.is_correct)
            .join(LiveQuestion, LiveQuestion.revision_id == Choice.revision_id)
            .where(LiveQuestion.session_id == session_id, LiveQuestion.position == position)
            .order_by(Choice.position)
        ).all()
    return next(text for text, correct in rows if correct), next(text for text, correct in rows if not correct)


def test_rate_limits_count_across_both_servers(servers):
    _, server_a, server_b = servers
    with browser(server_a) as on_a, browser(server_b) as on_b, browser(server_a) as phone:
        # Five wrong passwords for one account, split between the servers: the sixth attempt
        # is refused by either, though neither server saw five.
        statuses = [log_in(client, ADMIN, "wrong password").status_code for client in (on_a, on_a, on_b, on_a, on_b)]
        assert statuses == [200] * 5
        assert log_in(on_a, ADMIN, "wrong password").status_code == 429
        assert log_in(on_b, ADMIN).status_code == 429  # even the right password, for now
        assert log_in(on_b, TEACHER).status_code == 303  # another account is not affected

        # One phone guessing join codes on both servers in turn (its cookie is good on both):
        # one count, wherever each guess went.
        token = form_token(phone, "/join")
        guesses = []
        for number in range(11):
            phone.base_url = (server_a if number % 2 else server_b).base_url
            response = phone.post("/join", data={"csrf_token": token, "code": "000000", "nickname": "Guesser"})
            guesses.append(response.status_code)
        assert guesses == [404] * 10 + [429]
