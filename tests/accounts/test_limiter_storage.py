"""Where login attempts are counted: memory by default, Redis when REDIS_URL is set."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest
from limits.storage import MemoryStorage, RedisStorage

from quiz.extensions import limiter
from tests.accounts.conftest import login


def test_the_default_storage_is_memory_named_explicitly(make_app, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    app = make_app()
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert isinstance(limiter.storage, MemoryStorage)


def test_redis_url_selects_redis_and_the_quiz_setting_wins_over_it(make_app, monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert make_app().config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:1/0"
    assert isinstance(limiter.storage, RedisStorage)
    monkeypatch.setenv("QUIZ_RATELIMIT_STORAGE_URI", "memory://")
    assert make_app().config["RATELIMIT_STORAGE_URI"] == "memory://"


@pytest.fixture
def redis_socket(tmp_path):
    """A throwaway redis-server on a Unix socket, stopped after the test."""
    server = shutil.which("redis-server")
    if server is None:
        # CI machines have Redis; there, a missing server is a failure, not a reason to skip.
        (pytest.fail if os.environ.get("CI") else pytest.skip)("redis-server is not installed")
    socket = tmp_path / "redis.sock"
    process = subprocess.Popen(
        [server, "--port", "0", "--unixsocket", str(socket), "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not socket.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("redis-server did not start")
            time.sleep(0.02)
        yield socket
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_with_redis_the_counts_outlive_the_app_as_they_would_across_workers(make_app, monkeypatch, redis_socket):
    monkeypatch.setenv("REDIS_URL", f"redis+unix://{redis_socket}")
    first = make_app().test_client()
    for _ in range(5):
        assert login(first, "ana", "wrong password").status_code == 200
    # A second app (another worker) sees the same counts; memory storage would start from zero.
    second = make_app().test_client()
    assert login(second, "ana", "wrong password").status_code == 429
    assert login(second, "bob", "wrong password").status_code == 200
