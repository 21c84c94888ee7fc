"""A worker killed outright (SIGKILL, as the kernel's out-of-memory killer does) in the middle of
a stream of answers: gunicorn starts another, and every answer that was acknowledged with a
success response is in the database. A request the dead worker held may fail, unacknowledged;
the player's phone sends it again."""

from __future__ import annotations

import os
import signal
import threading
import time

import httpx
import pytest
import sqlalchemy as sa

from quiz.models import Answer, Attempt, AttemptQuestion
from tests.hardening.conftest import SMALL_POOL
from tests.web.helpers import blind_fields
from tests.servers import browser, database_session, form_token, prepare_database, production_server, server_environment

pytestmark = pytest.mark.slow

PLAYERS = 8
QUIZ = "/quizzes/kiss-and-cry"
#: Sends of one answer before a player gives up; a failed one is sent again, as a phone does.
TRIES = 5


def test_answers_acknowledged_before_a_worker_is_killed_are_all_stored(database_url, tmp_path):
    url = database_url(empty=True)
    prepare_database(url)
    env = server_environment(url, WORKERS="2", SQLALCHEMY_ENGINE_OPTIONS=SMALL_POOL)
    with production_server(env, folder=tmp_path) as server:
        players = []
        for _ in range(PLAYERS):
            client = browser(server)
            token = form_token(client, QUIZ)
            first = client.post(f"{QUIZ}/attempts", data={"csrf_token": token, "length": "all"}).headers["location"]
            players.append((client, token, first.rsplit("/", 1)[0]))
        with database_session(url) as session:
            length = session.scalar(sa.select(Attempt.question_count).limit(1))
        acknowledged: list[tuple[str, int]] = []
        refused: list[str] = []
        lost: list[str] = []
        lock = threading.Lock()

        def play(client, token, questions) -> None:
            """Answer every question in turn, as fast as the server allows."""
            for position in range(1, length + 1):
                path = f"{questions}/{position}"
                fields = None
                for _ in range(TRIES):
                    try:
                        # A retry sends the same answer again, as a browser would: the page may
                        # show the feedback by then, if the send whose reply was lost was stored.
                        fields = fields or blind_fields(client.get(path).text)
                        response = client.post(path, data={"csrf_token": token, **fields})
                    except httpx.TransportError as error:  # the connection died with its worker
                        with lock:
                            lost.append(repr(error))
                        continue
                    with lock:
                        # Stored (now or by an earlier send): back to the question, for its
                        # feedback. A redirect elsewhere would mean an earlier answer is missing.
                        if response.status_code == 303 and response.headers["location"] == path:
                            acknowledged.append((questions.split("/")[2], position))
                            break
                        refused.append(f"{path}: {response.status_code} {response.headers.get('location')}")
                else:
                    return

        threads = [threading.Thread(target=play, args=player) for player in players]
        for thread in threads:
            thread.start()
        # Let a quarter of the answers through, then kill a worker while the others come in.
        total = PLAYERS * length
        deadline = time.monotonic() + 60
        while len(acknowledged) < total // 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        victim = server.worker_pids()[0]
        os.kill(victim, signal.SIGKILL)
        acknowledged_before_kill = len(acknowledged)
        for thread in threads:
            thread.join(timeout=120)
        for client, _, _ in players:
            client.close()

        assert acknowledged_before_kill < total, "the load was over before the kill"
        # gunicorn replaced the worker and serves on.
        workers = server.wait_for_workers()
        assert victim not in workers and len(workers) == 2
        assert httpx.get(server.base_url + "/healthz").status_code == 200
        assert refused == [], refused[:5]

    with database_session(url) as session:
        stored = {tuple(row) for row in session.execute(
            sa.select(Attempt.public_id, AttemptQuestion.position)
            .join(Answer, Answer.attempt_id == Attempt.id)
            .join(AttemptQuestion, sa.and_(AttemptQuestion.attempt_id == Attempt.id,
                                           AttemptQuestion.question_id == Answer.question_id))
        )}
        missing = set(acknowledged) - stored
        assert not missing, f"{len(missing)} acknowledged answers were lost, e.g. {sorted(missing)[:3]}"
        # Every player went on to the end, and each attempt's counts match its stored answers.
        unacknowledged = total - len(set(acknowledged))
        assert unacknowledged == 0, f"{unacknowledged} answers were never acknowledged: {lost[:3]}"
        counts = session.execute(
            sa.select(Attempt.answered_count, sa.func.count(Answer.id))
            .join(Answer, Answer.attempt_id == Attempt.id)
            .group_by(Attempt.id, Attempt.answered_count)
        ).all()
        assert len(counts) == PLAYERS and all(answered == rows == length for answered, rows in counts)
