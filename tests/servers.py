"""The production server, for the tests and benchmarks that need real processes.

:func:`prepare_database` sets a database up as ``quiz init`` does, with a teacher and an admin
account; :func:`production_server` runs ``quiz serve`` (gunicorn with
``quiz/gunicorn_config.py``) on a free port of 127.0.0.1 and stops it with SIGTERM, as a
process supervisor would.
"""

from __future__ import annotations

import json
import os
import secrets
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
from dataclasses import dataclass
from pathlib import Path

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

    def worker_pids(self) -> list[int]:
        """The process ids of gunicorn's workers (the master's children)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_until_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.base_url + "/healthz", timeout=2) as response:
                    if json.load(response)["status"] == "ok":
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not become healthy within {timeout} s:\n{self.log()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
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
    folder = folder or Path(tempfile.mkdtemp(prefix="quiz-server-"))
    port = free_port()
    log_path = folder / f"gunicorn-{port}.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [QUIZ, "serve", "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", *gunicorn_args],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
        )
    server = Server(f"http://127.0.0.1:{port}", process, log_path)
    try:
        server.wait_until_healthy()
        yield server
    finally:
        server.stop()
