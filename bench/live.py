"""Classroom benchmark: one host-paced session with N simulated students on the production server.

Starts gunicorn exactly as ``quiz serve`` does (quiz/gunicorn_config.py) on a fresh database,
logs a teacher in, and lets N students (each its own HTTP client and cookie jar) join, keep
an event stream open, and do what static/js/live.js does on a phone: when the stream says a
question opened, answer it from the event's data at a random moment within the answer
window; when it says anything else changed, fetch the page again.

Prints, per run: answers sent, recorded, lost and duplicated; answer POST latency p50/p95/p99;
and the delay from the host's "next" to each student's stream receiving it (p50/p95/max).

    .venv/bin/python bench/live.py --students 300
    .venv/bin/python bench/live.py --students 1000 --database postgresql
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import httpx

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PASSWORD = "benchmark-password-123"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
CODE = re.compile(r'<p class="code"[^>]*>(\d{6})</p>')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def server(database_url: str, workers: int):
    """A fresh database with the bundled bank and a teacher, served by gunicorn."""
    port = free_port()
    instance = Path(tempfile.mkdtemp(prefix="quiz-bench-"))
    env = {
        **os.environ,
        "QUIZ_ENV": "production",
        "QUIZ_SECRET_KEY": secrets.token_urlsafe(48),
        "QUIZ_SESSION_COOKIE_SECURE": "false",  # plain HTTP on loopback
        "QUIZ_SQLALCHEMY_DATABASE_URI": database_url,
        "QUIZ_WORKERS": str(workers),
        # Joins from one benchmark process share an address; wrong codes are not at stake here.
        "QUIZ_JOIN_LIMIT_WRONG_CODES": "100000 per minute",
    }
    quiz = [str(Path(PYTHON).parent / "quiz")]
    subprocess.run([*quiz, "init"], env=env, check=True, capture_output=True, cwd=instance)
    subprocess.run(
        [*quiz, "users", "create", "host", "--role", "teacher", "--password-stdin"],
        env=env, check=True, capture_output=True, input=PASSWORD, text=True, cwd=instance,
    )
    log = open(instance / "gunicorn.log", "w")
    process = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "-c", "python:quiz.gunicorn_config", "--bind", f"127.0.0.1:{port}",
         "--access-logfile", "/dev/null", "quiz:create_app()"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=instance,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise RuntimeError("gunicorn did not start; see " + str(instance / "gunicorn.log"))
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def progress(message: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Phone:
    """A minimal HTTP/1.1 client over one kept-alive connection, with the session cookie.

    The benchmark runs on the same two cores as the server; httpx's per-request overhead made
    the load generator use more CPU than the server it measured. This does only what a
    phone's page does here: small form POSTs, page GETs and one event stream.
    """

    def __init__(self, host: str, port: int, cookie: str):
        self.host, self.port, self.cookie = host, port, cookie
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()  # one request at a time on the kept-alive connection

    def _head(self, method: str, path: str, extra: str = "") -> bytes:
        return (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Cookie: quiz_session={self.cookie}\r\n{extra}\r\n"
        ).encode()

    async def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, bytes]:
        async with self._lock:
            return await self._request(method, path, form)

    async def _request(self, method: str, path: str, form: dict | None) -> tuple[int, bytes]:
        for attempt in (1, 2):  # once more on a fresh connection if the kept-alive one was closed
            if self._writer is None:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            body = urlencode(form or {}).encode()
            extra = f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n" if form else ""
            try:
                self._writer.write(self._head(method, path, extra) + body)
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                self._writer.close()
                self._writer = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, bytes]:
        status_line = await self._reader.readline()
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        length, close = 0, False
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and "close" in value.lower():
                close = True
        body = await self._reader.readexactly(length)
        if close:
            self._writer.close()
            self._writer = None
        return status, body

    async def events(self, path: str):
        """The data of each server-sent event of ``path`` (chunked transfer), as dicts."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self._head("GET", path))
            while (line := await reader.readline()) not in (b"\r\n", b""):
                pass
            buffer = b""
            while size_line := await reader.readline():
                size = int(size_line.strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size + 2)
                *lines, buffer = buffer.replace(b"\r\n", b"\n").split(b"\n")
                for line in lines:
                    if line.startswith(b"data:"):
                        yield json.loads(line[5:])
        finally:
            writer.close()


class Student:
    def __init__(self, base: str, index: int):
        self.base = base
        self.name = f"student {index}"
        self.phone: Phone | None = None
        self.token = ""
        self.live_url = ""
        self.opened: dict[int, float] = {}  # position -> when the stream said it opened
        self.answered: list[int] = []
        self.latencies: list[float] = []
        self.errors: list[str] = []

    async def join(self, code: str) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=60) as client:
            page = (await client.get(f"/join?code={code}")).text
            self.token = CSRF.search(page).group(1)
            response = await client.post("/join", data={"csrf_token": self.token, "code": code, "nickname": self.name})
            if response.status_code != 303:
                raise RuntimeError(f"{self.name} could not join: {response.status_code}")
            self.live_url = response.headers["location"]
            address = urlsplit(self.base)
            self.phone = Phone(address.hostname, address.port, client.cookies["quiz_session"])

    async def follow(self, window: float, stop: asyncio.Event) -> None:
        """Keep the event stream open; answer each question that opens, within ``window`` s."""
        tasks = []
        while not stop.is_set():
            try:
                async for event in self.phone.events(self.live_url + "/events"):
                    if event["state"] == "question_open" and event["position"] not in self.opened:
                        self.opened[event["position"]] = time.monotonic()
                        choices = len(event["question"]["choices"])
                        tasks.append(asyncio.create_task(self.answer(event["position"], choices, window)))
                    elif event["state"] in ("reveal", "leaderboard", "finished"):
                        tasks.append(asyncio.create_task(self.redraw()))
                    if event["state"] == "finished":
                        stop.set()
                        break
            except (OSError, asyncio.IncompleteReadError) as error:
                self.errors.append(f"stream: {error!r}")
                await asyncio.sleep(0.5)
        await asyncio.gather(*tasks)

    async def redraw(self) -> None:
        await asyncio.sleep(random.uniform(0, 0.5))
        status, _body = await self.phone.request("GET", self.live_url)
        if status != 200:
            self.errors.append(f"redraw got {status}")

    async def answer(self, position: int, choices: int, window: float) -> None:
        await asyncio.sleep(random.uniform(0, window))
        started = time.perf_counter()
        status, _body = await self.phone.request(
            "POST", self.live_url + "/answer", {"csrf_token": self.token, "choice": str(random.randint(1, choices))}
        )
        self.latencies.append(time.perf_counter() - started)
        if status == 303:  # recorded; the script shows "Answer received" itself
            self.answered.append(position)
        else:
            self.errors.append(f"question {position}: answer got {status}")


async def run(base: str, students: int, questions: int, window: float) -> dict:
    host = httpx.AsyncClient(base_url=base, timeout=60)
    page = (await host.get("/login")).text
    await host.post("/login", data={"csrf_token": CSRF.search(page).group(1), "username": "host", "password": PASSWORD})
    page = (await host.get("/host/new/kiss-and-cry")).text
    response = await host.post(
        "/host/new/kiss-and-cry",
        data={"csrf_token": CSRF.search(page).group(1), "pacing": "host", "question_count": str(questions),
              "time_limit": str(int(window) + 10), "scoring": "speed"},
    )
    host_url = response.headers["location"]
    page = (await host.get(host_url)).text
    code = CODE.search(page).group(1)
    token = CSRF.search(page).group(1)

    crowd = [Student(base, index) for index in range(students)]
    for batch in range(0, students, 50):
        await asyncio.gather(*(student.join(code) for student in crowd[batch : batch + 50]))
    progress(f"{students} students joined")
    stop = asyncio.Event()
    followers = [asyncio.create_task(student.follow(window, stop)) for student in crowd]
    await asyncio.sleep(2)  # let every stream connect

    nexts: dict[int, float] = {}
    for position in range(1, questions + 1):
        nexts[position] = time.monotonic()
        await host.post(host_url + "/action", data={"csrf_token": token, "action": "start" if position == 1 else "next"})
        # Wait for the question to close (everyone answered) or the window to pass.
        until = time.monotonic() + window + 15
        while time.monotonic() < until:
            page = (await host.get(host_url)).text
            if 'data-state="question_open"' not in page:
                break
            await asyncio.sleep(0.5)
        progress(f"question {position} closed")
        await host.post(host_url + "/action", data={"csrf_token": token, "action": "reveal"})
        await host.post(host_url + "/action", data={"csrf_token": token, "action": "next"})  # leaderboard
    await host.post(host_url + "/action", data={"csrf_token": token, "action": "finish"})
    progress("finished; waiting for the streams to end")
    try:
        await asyncio.wait_for(asyncio.gather(*followers), timeout=60)
    except TimeoutError:
        progress("some streams did not see the end")
    delays = [student.opened[p] - nexts[p] for student in crowd for p in student.opened]
    latencies = [value for student in crowd for value in student.latencies]
    sent = sum(len(student.answered) for student in crowd)
    errors = [error for student in crowd for error in student.errors]
    await host.aclose()
    return {
        "sent": sent, "latencies": latencies, "delays": delays, "errors": errors,
        "missing_events": students * questions - len(delays), "session": int(host_url.rsplit("/", 1)[1]),
    }


def recorded_answers(database_url: str, session_id: int) -> tuple[int, int]:
    """(answers stored, distinct student-question pairs) for the session."""
    query = (
        "SELECT count(*), count(DISTINCT answer.attempt_id || '-' || answer.question_id) FROM answer "
        "JOIN attempt ON attempt.id = answer.attempt_id WHERE attempt.live_session_id = %s"
    )
    if database_url.startswith("sqlite"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as connection:
            return connection.execute(query.replace("%s", "?"), (session_id,)).fetchone()
    import psycopg

    with psycopg.connect(database_url.replace("postgresql+psycopg://", "postgresql://")) as connection:
        return connection.execute(query.replace("answer.attempt_id || '-' || answer.question_id",
                                                "(answer.attempt_id, answer.question_id)"), (session_id,)).fetchone()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="+", default=[300])
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--window", type=float, default=5.0, help="seconds within which each student answers")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores; gunicorn gevent x {args.workers} workers; database {args.database}")
    print(f"{'students':>8} {'sent':>6} {'stored':>6} {'lost':>5} {'dup':>4} {'POST p50':>9} {'p95':>7} {'p99':>7}"
          f" {'next->stream p50':>17} {'p95':>7} {'max':>7} {'errors':>6}")
    for count in args.students:
        if args.database == "sqlite":
            database_url = f"sqlite:///{tempfile.mkdtemp(prefix='quiz-bench-db-')}/bench.sqlite3"
        else:
            name = f"quiz_bench_{secrets.token_hex(4)}"
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
            database_url = f"postgresql+psycopg://postgres@127.0.0.1/{name}"
        with server(database_url, args.workers) as base:
            result = asyncio.run(run(base, count, args.questions, args.window))
        stored, distinct = recorded_answers(database_url, result["session"])
        ms = [value * 1000 for value in result["latencies"]]
        delays = [value * 1000 for value in result["delays"]]
        print(
            f"{count:>8} {result['sent']:>6} {stored:>6} {max(result['sent'] - stored, 0):>5} {stored - distinct:>4}"
            f" {percentile(ms, 0.5):>7.1f}ms {percentile(ms, 0.95):>5.1f}ms {percentile(ms, 0.99):>5.1f}ms"
            f" {percentile(delays, 0.5):>15.1f}ms {percentile(delays, 0.95):>5.1f}ms {max(delays or [0]):>5.1f}ms"
            f" {len(result['errors']) + result['missing_events']:>6}"
        )
        for error in result["errors"][:5]:
            print("   ", error)
        if args.database == "postgresql":
            subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE {name} WITH (FORCE)"], check=True)


if __name__ == "__main__":
    main()
