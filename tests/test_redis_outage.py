"""A Redis that stops mid-run, or never answers: rate limits fall back to each process's memory
with a warning, /healthz says "degraded", and logging in and joining go on working. Against the
real server, on the suite's database (SQLite, or PostgreSQL in its PostgreSQL run)."""

from __future__ import annotations

import os
import re
import shutil

import httpx
import pytest

from tests.servers import (
    TEACHER,
    browser,
    form_token,
    free_port,
    log_in,
    prepare_database,
    production_server,
    redis_server,
    server_environment,
)

pytestmark = pytest.mark.slow

API = "/api/v1"


@pytest.fixture
def server_env(database_url):
    if shutil.which("redis-server") is None:
        (pytest.fail if os.environ.get("CI") else pytest.skip)("redis-server is not installed")
    url = database_url(empty=True)
    prepare_database(url)

    def env(redis_url: str) -> dict[str, str]:
        return server_environment(url, WORKERS="1", REDIS_URL=redis_url)

    return env


def open_session(host: httpx.Client) -> str:
    """A new classroom session's join code."""
    token = form_token(host, "/host/new/kiss-and-cry")
    response = host.post("/host/new/kiss-and-cry", data={
        "csrf_token": token, "pacing": "host", "question_count": "2", "time_limit": "120", "scoring": "plain",
    })
    assert response.status_code == 303, response.text
    return re.search(r'<p class="code"[^>]*>(\d{6})</p>', host.get(response.headers["location"]).text).group(1)


def join(phone: httpx.Client, code: str, nickname: str) -> httpx.Response:
    token = form_token(phone, "/join")
    return phone.post("/join", data={"csrf_token": token, "code": code, "nickname": nickname})


def wrong_login(client: httpx.Client, username: str) -> int:
    token = form_token(client, "/login")
    return client.post("/login", data={"csrf_token": token, "username": username, "password": "wrong"}).status_code


def test_a_redis_that_stops_mid_run_costs_the_shared_counts_and_nothing_else(server_env, tmp_path):
    with redis_server(tmp_path) as redis, production_server(server_env(redis.url), folder=tmp_path) as server:
        with browser(server) as host:
            assert host.get("/healthz").json() == {"status": "ok", "database": "ok", "rate_limits": "ok"}
            assert log_in(host, TEACHER).status_code == 303
            code = open_session(host)

            redis.stop()
            health = host.get("/healthz")
            assert (health.status_code, health.json()) == (
                200, {"status": "degraded", "database": "ok", "rate_limits": "unreachable"},
            )
            for number in range(3):
                with browser(server) as phone:
                    assert join(phone, code, f"Student {number}").status_code == 303
            with browser(server) as phone:
                assert join(phone, "000000" if code != "000000" else "111111", "Lost").status_code == 404
            with httpx.Client(base_url=server.base_url) as api:
                player = api.post(f"{API}/players", json={}).json()["token"]
                joined = api.post(f"{API}/live/join", json={"code": code, "nickname": "Api student"},
                                  headers={"Authorization": f"Bearer {player}"})
                assert joined.status_code == 201, joined.text
            with browser(server) as other:
                # The limits still hold, counted in the server's memory meanwhile.
                assert [wrong_login(other, "ana") for _ in range(6)] == [200] * 5 + [429]
                assert log_in(other, TEACHER).status_code == 303
    assert "falling back to in-memory storage" in server.log()
    assert " 500 " not in server.log() and '"status":500' not in server.log()


def test_a_redis_that_never_answers_is_warned_about_at_start_up(server_env, tmp_path):
    closed = f"redis://127.0.0.1:{free_port()}/0"
    with production_server(server_env(closed), folder=tmp_path) as server, browser(server) as client:
        assert client.get("/healthz").json()["status"] == "degraded"
        assert log_in(client, TEACHER).status_code == 303
        code = open_session(client)
        with browser(server) as phone:
            assert join(phone, code, "Zoé").status_code == 303
    assert f"the rate limit storage {closed} does not answer" in server.log()
    assert "MonkeyPatchWarning" not in server.log()
