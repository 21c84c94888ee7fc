"""The production server, for the tests and benchmarks that need real processes.

:func:`prepare_database` sets a database up as ``quiz init`` does, with a teacher and an admin
account; :func:`production_server` runs ``quiz serve`` (gunicorn with
``quiz/gunicorn_config.py``) on a free port of 127.0.0.1 and stops it with SIGTERM, as a
process supervisor would. :func:`browser` and :func:`log_in` use it as people do, and
:func:`database_session` reads what it stored.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import sqlalchemy as sa
import sqlalchemy.orm as so

PYTHON = sys.executable
QUIZ = str(Path(PYTHON).parent / "quiz")
#: The password of the accounts :func:`prepare_database` creates.
PASSWORD = "server-password-123"
TEACHER, ADMIN = "teacher", "admin"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_environment(database_url: str, **settings: str) -> dict[str, str]:
    """The environment of a production server on ``database_url``; ``settings`` are added
    as ``QUIZ_<NAME>`` variables (``WORKERS="1"``, ``REDIS_URL`` as it is)."""
    env = {
        **os.environ,
        "QUIZ_ENV": "production",
        "QUIZ_SECRET_KEY": secrets.token_urlsafe(48),
        "QUIZ_SESSION_COOKIE_SECURE": "false",  # plain HTTP on loopback
        "DATABASE_URL": database_url,
    }
    env.pop("QUIZ_SQLALCHEMY_DATABASE_URI", None)
    for name, value in settings.items():
        env[name if name == "REDIS_URL" else f"QUIZ_{name}"] = value
    return env


def prepare_database(database_url: str) -> None:
    """What ``quiz init`` does (migrations, the bundled bank), then a teacher and an admin
    account; in this process, which is seconds faster than three commands."""
    from flask_migrate import upgrade

    from quiz import accounts, create_app
    from quiz.bank import load_bank
    from quiz.bank.importer import import_bank
    from quiz.extensions import db
    from quiz.paths import bundled_bank, resource

    app = create_app({"SECRET_KEY": secrets.token_urlsafe(48), "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        upgrade(directory=str(resource("migrations")))
        import_bank(db.session, load_bank(bundled_bank()))
        for username, role in ((TEACHER, "teacher"), (ADMIN, "admin")):
            accounts.create_user(db.session, username, PASSWORD, role)
        db.session.commit()
        db.engine.dispose()


@dataclass
class Server:
    base_url: str
    process: subprocess.Popen
    log_path: Path
    #: How many workers gunicorn runs (QUIZ_WORKERS).
    workers: int = 2
    _terminated: bool = field(default=False, init=False, repr=False)

    def worker_pids(self) -> list[int]:
        """The process ids of gunicorn's workers (the master's children)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_until_healthy(self, timeout: float = 60) -> None:
        """Until /healthz answers and every worker has started (see :meth:`wait_for_workers`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.base_url + "/healthz", timeout=2) as response:
                    # "degraded": serving, with rate limits counted per process (no Redis).
                    if json.load(response)["status"] in ("ok", "degraded"):
                        self.wait_for_workers(timeout=max(deadline - time.monotonic(), 1))
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not become healthy within {timeout} s:\n{self.log()}")

    def wait_for_workers(self, timeout: float = 60) -> list[int]:
        """Until all :attr:`workers` run and handle signals themselves; their process ids.

        One worker can answer /healthz while another is still starting. A worker that gets
        SIGTERM before it has set up its own handlers loses it (the master's, inherited, only
        queue the signal for a master that is not there), and the server then takes the whole
        graceful timeout (20 s) to stop.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log()}")
            try:
                pids = self.worker_pids()
                if len(pids) == self.workers and all(_handles_own_signals(pid) for pid in pids):
                    return pids
            except OSError:  # a worker exited between the two reads
                pass
            time.sleep(0.05)
        raise RuntimeError(f"gunicorn did not start {self.workers} workers within {timeout} s:\n{self.log()}")

    def terminate(self) -> None:
        """Ask gunicorn to stop (SIGTERM), once; :meth:`stop` waits for it."""
        if self.process.poll() is None and not self._terminated:
            self.process.send_signal(signal.SIGTERM)
            self._terminated = True

    def stop(self) -> None:
        self.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextmanager
def production_server(
    env: dict[str, str], *, folder: Path | None = None, gunicorn_args: tuple[str, ...] = ()
) -> Iterator[Server]:
    """gunicorn as ``quiz serve`` runs it, on a free port, until the block ends.

    The database in ``env`` must be prepared already (:func:`prepare_database`); several
    servers may share it.
    """
    with production_servers(env, count=1, folder=folder, gunicorn_args=gunicorn_args) as (server,):
        yield server


@contextmanager
def production_servers(
    env: dict[str, str], *, count: int, folder: Path | None = None, gunicorn_args: tuple[str, ...] = ()
) -> Iterator[tuple[Server, ...]]:
    """``count`` servers as :func:`production_server` runs one, each on its own port, started
    together (they boot side by side, which is quicker) and stopped when the block ends."""
    folder = folder or Path(tempfile.mkdtemp(prefix="quiz-server-"))
    servers: list[Server] = []
    try:
        for _ in range(count):
            port = free_port()
            log_path = folder / f"gunicorn-{port}.log"
            with open(log_path, "w") as log:
                process = subprocess.Popen(
                    [QUIZ, "serve", "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", *gunicorn_args],
                    env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
                )
            workers = int(env.get("QUIZ_WORKERS", "2"))
            servers.append(Server(f"http://127.0.0.1:{port}", process, log_path, workers=workers))
        for server in servers:
            server.wait_until_healthy()
        yield tuple(servers)
    finally:
        for server in servers:
            server.terminate()  # all at once: they stop side by side
        for server in servers:
            server.stop()


def _handles_own_signals(pid: int) -> bool:
    """Whether a gunicorn worker has replaced the master's signal handlers with its own: the
    master catches SIGHUP, a worker resets it to the default."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = int(next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1], 16)
    return not caught & (1 << (signal.SIGHUP - 1))


@dataclass
class RedisServer:
    url: str
    process: subprocess.Popen

    def stop(self) -> None:
        """Stop it now, as an outage would (stopping it twice is harmless)."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@contextmanager
def redis_server(folder: Path) -> Iterator[RedisServer]:
    """A throwaway redis-server on a free port of 127.0.0.1, for servers that share rate limits.
    Nothing is kept on disk, and nothing is shared with any other Redis."""
    import redis

    executable = shutil.which("redis-server")
    if executable is None:
        raise FileNotFoundError("redis-server is not installed")
    port = free_port()
    process = subprocess.Popen(
        [executable, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
         "--dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with redis.Redis.from_url(url, socket_timeout=1) as client:
                    client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.02)
        yield RedisServer(url, process)
    finally:
        RedisServer(url, process).stop()


# Using a server as browsers and phones do -------------------------------------------------------

_CSRF_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def browser(server: Server) -> httpx.Client:
    """A client of its own (its own cookies and connections) that does not follow redirects:
    tests look at them."""
    return httpx.Client(base_url=server.base_url, timeout=30)


def form_token(client: httpx.Client, path: str) -> str:
    """The CSRF token of the first form on the page at ``path``."""
    response = client.get(path)
    assert response.status_code == 200, f"GET {path}: {response.status_code}"
    match = _CSRF_TOKEN.search(response.text)
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def log_in(client: httpx.Client, username: str = TEACHER, password: str = PASSWORD) -> httpx.Response:
    """Fill in the login page; the response to the POST (303 when it worked, 429 when limited)."""
    token = form_token(client, "/login")
    return client.post("/login", data={"csrf_token": token, "username": username, "password": password})


@contextmanager
def database_session(database_url: str) -> Iterator[so.Session]:
    """A session on the server's database, to read what it stored; no connection is kept after."""
    engine = sa.create_engine(database_url, poolclass=sa.NullPool)
    try:
        with so.Session(engine) as session:
            yield session
    finally:
        engine.dispose()
