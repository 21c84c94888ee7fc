"""``quiz serve``: gunicorn with the repository's configuration, on a database set up by ``quiz init``."""

from __future__ import annotations

import json
import signal
import urllib.request

import pytest

from tests.servers import prepare_database, production_server, server_environment

pytestmark = pytest.mark.slow


@pytest.fixture
def server_env(database_url):
    url = database_url(empty=True)
    prepare_database(url)
    return server_environment(url, WORKERS="1")


def test_quiz_serve_answers_with_json_access_logs_and_stops_gracefully(server_env, tmp_path):
    with production_server(server_env, folder=tmp_path, gunicorn_args=("--access-logfile", "-")) as server:
        with urllib.request.urlopen(server.base_url + "/quizzes/kiss-and-cry") as response:
            assert response.status == 200
            assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        with urllib.request.urlopen(server.base_url + "/healthz") as response:
            assert json.load(response) == {"status": "ok", "database": "ok", "rate_limits": "memory"}
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
    entries = [json.loads(line) for line in server.log().splitlines() if line.startswith("{")]
    assert {"method": "GET", "path": "/quizzes/kiss-and-cry", "status": 200} in [
        {key: entry[key] for key in ("method", "path", "status")} for entry in entries
    ]
    assert all(entry["duration_us"] >= 0 for entry in entries)
    assert "count rate limits each on its own" not in server.log()  # one worker


def test_quiz_serve_warns_that_workers_without_redis_count_limits_apart(database_url, tmp_path):
    url = database_url(empty=True)
    prepare_database(url)
    env = server_environment(url, WORKERS="2")
    env.pop("REDIS_URL", None)
    with production_server(env, folder=tmp_path) as server:
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
    assert "2 workers count rate limits each on its own" in server.log()
