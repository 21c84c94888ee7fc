"""What the benchmarks share: fresh databases, the production server, a lean HTTP/1.1 client
that keeps its cookie, CPU accounting, percentiles and tables.

The load generator runs on the same cores as the server it measures, so the client is kept
small: raw asyncio streams, one kept-alive connection per simulated phone, no HTTP library.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.servers import (  # noqa: E402, F401  (the repository root goes on sys.path first)
    ADMIN,
    PASSWORD,
    PYTHON,
    TEACHER,
    Server,
    free_port,
    prepare_database,
    production_server,
    server_environment,
)

#: The PostgreSQL server benchmarks create their databases on (``--postgresql-url``).
POSTGRESQL_URL = os.environ.get("BENCH_POSTGRESQL_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
COOKIE = "quiz_session"
#: Form fields that answer a question of any kind (a choice, items in their shown order, a
#: number, a word): each kind reads only its own fields, so a player can answer whatever
#: question comes without reading its page first, as the measured loops do.
ANY_ANSWER = {"choice": "1", "number": "1", "text": "a", **{f"place-{place}": str(place) for place in range(1, 9)}}


def progress(message: str) -> None:
    """A line on stderr, so that stdout keeps only the tables."""
    print(f"  {time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


# Databases and servers ---------------------------------------------------------------------------


@contextmanager
def fresh_database(kind: str, postgresql_url: str = POSTGRESQL_URL) -> Iterator[str]:
    """The URL of a new database set up as ``quiz init`` does, with a teacher and an admin;
    dropped afterwards."""
    if kind == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="quiz-bench-db-"))
        url = f"sqlite:///{folder / 'bench.sqlite3'}"
        try:
            prepare_database(url)
            yield url
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    import sqlalchemy as sa

    admin = sa.create_engine(postgresql_url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    name = f"quiz_bench_{secrets.token_hex(4)}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = sa.make_url(postgresql_url).set(database=name).render_as_string(hide_password=False)
    try:
        prepare_database(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def add_worker_arguments(parser, servers: str = "the server") -> None:
    """--workers and --worker-class, to measure other gunicorn choices than the configuration's."""
    parser.add_argument("--workers", help=f"QUIZ_WORKERS for {servers} (default: the configuration's)")
    parser.add_argument("--worker-class", help=f"QUIZ_WORKER_CLASS for {servers} (default: the configuration's)")


def worker_settings(args) -> dict[str, str]:
    """The settings for :func:`quiz_server` from :func:`add_worker_arguments`' arguments."""
    settings = {"WORKERS": args.workers, "WORKER_CLASS": args.worker_class}
    return {name: value for name, value in settings.items() if value}


def quiz_server(database_url: str, **settings: str):
    """``quiz serve`` on a free port (gunicorn with quiz/gunicorn_config.py), as in production."""
    # Every simulated phone joins from this one address; wrong codes are not what is measured.
    settings.setdefault("JOIN_LIMIT_WRONG_CODES", "1000000 per minute")
    return production_server(server_environment(database_url, **settings))


@contextmanager
def hello_server(**settings: str) -> Iterator[Server]:
    """bench/hello.py, the smallest Flask app, under the same gunicorn configuration as
    ``quiz serve``: the ceiling that the app's pages are compared with."""
    folder = Path(tempfile.mkdtemp(prefix="quiz-hello-"))
    port = free_port()
    log_path = folder / "gunicorn.log"
    env = server_environment("sqlite://", **settings)
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "-c", "python:quiz.gunicorn_config", "--bind", f"127.0.0.1:{port}",
             "--access-logfile", "/dev/null", "--pythonpath", str(REPO), "bench.hello:app"],
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
        )
    server = Server(f"http://127.0.0.1:{port}", process, log_path)
    server.workers = configured_workers(env)
    try:
        server.wait_until_healthy()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def configured_workers(env: dict[str, str]) -> int:
    """How many workers quiz/gunicorn_config.py starts in the environment ``env``."""
    import runpy

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        return runpy.run_path(str(REPO / "quiz" / "gunicorn_config.py"))["workers"]
    finally:
        os.environ.clear()
        os.environ.update(saved)


def address(server: Server) -> tuple[str, int]:
    parts = urlsplit(server.base_url)
    return parts.hostname, parts.port


# CPU and memory from /proc -----------------------------------------------------------------------

_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB."""
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE / 2**20


def server_pids(server: Server) -> list[int]:
    return [server.process.pid, *server.worker_pids()]


@dataclass
class CpuMeter:
    """CPU used by the server's processes and by this process between start() and stop()."""

    pids: list[int]
    server: float = 0.0
    client: float = 0.0

    def start(self) -> None:
        self._server0, self._client0 = cpu_seconds(self.pids), time.process_time()

    def stop(self) -> None:
        self.server = cpu_seconds(self.pids) - self._server0
        self.client = time.process_time() - self._client0


# The client --------------------------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()


class Phone:
    """A minimal HTTP/1.1 client over one kept-alive connection, with the session cookie.

    It does what a phone's page does here and nothing else: page GETs, small form POSTs and
    one event stream. Redirects are not followed; ``Set-Cookie`` of the session is kept.
    """

    def __init__(self, host: str, port: int, cookie: str = ""):
        self.host, self.port, self.cookie = host, port, cookie
        self.csrf_token = ""
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()  # one request at a time on the kept-alive connection

    @classmethod
    def of(cls, server: Server) -> Phone:
        return cls(*address(server))

    def _head(self, method: str, path: str, extra: str = "") -> bytes:
        cookie = f"Cookie: {COOKIE}={self.cookie}\r\n" if self.cookie else ""
        return f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{cookie}{extra}\r\n".encode()

    async def connect(self) -> None:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)

    async def get(self, path: str) -> Response:
        return await self.request("GET", path)

    async def post(self, path: str, form: dict) -> Response:
        return await self.request("POST", path, {"csrf_token": self.csrf_token, **form})

    async def page(self, path: str) -> Response:
        """GET a page and keep the CSRF token of its forms."""
        response = await self.get(path)
        if match := CSRF.search(response.text):
            self.csrf_token = match.group(1)
        return response

    async def request(self, method: str, path: str, form: dict | None = None) -> Response:
        body = urlencode(form, doseq=True).encode() if form is not None else b""
        extra = f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n" if form is not None else ""
        async with self._lock:
            for attempt in (1, 2):  # once more on a fresh connection if the kept-alive one was closed
                await self.connect()
                try:
                    self._writer.write(self._head(method, path, extra) + body)
                    return await self._response()
                except (ConnectionError, asyncio.IncompleteReadError):
                    self.close()
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    async def _response(self) -> Response:
        try:
            head = await self._reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as error:
            raise ConnectionError("closed") from error
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:-2]:
            name, _, value = line.partition(":")
            name, value = name.lower(), value.strip()
            if name == "set-cookie" and value.startswith(COOKIE + "="):
                self.cookie = value[len(COOKIE) + 1 :].split(";", 1)[0]
            headers[name] = value
        if "content-length" in headers:
            body = await self._reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            body = b""
            while size := int((await self._reader.readline()).strip(), 16):
                body += (await self._reader.readexactly(size + 2))[:-2]
            await self._reader.readline()
        else:
            body = b""
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Response(status, headers, body)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    async def events(self, path: str):
        """The data of each server-sent event of ``path`` (chunked transfer), as dicts."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self._head("GET", path))
            await reader.readuntil(b"\r\n\r\n")
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


async def log_in(phone: Phone, username: str = TEACHER, password: str = PASSWORD) -> None:
    await phone.page("/login")
    response = await phone.post("/login", {"username": username, "password": password})
    if response.status != 303:
        raise RuntimeError(f"login failed: {response.status}")


async def gather_in_batches(coroutines, size: int = 50) -> list:
    """Run the coroutines ``size`` at a time (setting up a thousand phones at once only
    measures the backlog)."""
    results = []
    coroutines = list(coroutines)
    for start in range(0, len(coroutines), size):
        results += await asyncio.gather(*coroutines[start : start + size])
    return results


# Load and statistics -----------------------------------------------------------------------------


@dataclass
class Load:
    """What a closed-loop load measured: latencies of the counted requests, and failures."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


async def closed_loop(phones: list, step, seconds: float, warmup: float, meter: CpuMeter | None = None) -> Load:
    """Each phone runs ``step(phone, load)`` over and over, one request after another; only
    what steps record after ``warmup`` seconds counts, for ``seconds`` (and ``meter`` measures
    the CPU used meanwhile)."""
    load = Load()
    recording = asyncio.Event()
    stop = asyncio.Event()

    async def run(phone) -> None:
        while not stop.is_set():
            try:
                await step(phone, load if recording.is_set() else None)
            except (OSError, asyncio.IncompleteReadError) as error:
                load.failures.append(repr(error))

    tasks = [asyncio.create_task(run(phone)) for phone in phones]
    await asyncio.sleep(warmup)
    recording.set()
    if meter:
        meter.start()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    load.seconds = time.perf_counter() - started
    if meter:
        meter.stop()
    await asyncio.gather(*tasks)
    return load


async def timed(load: Load | None, request) -> Response:
    """Await ``request``, recording its latency in ``load`` (when recording)."""
    started = time.perf_counter()
    response = await request
    if load is not None:
        load.latencies.append(time.perf_counter() - started)
    return response


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` from 0 to 1); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered) + 0.5)) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds == seconds else "-"


def print_table(headers: list[str], rows: list[list]) -> None:
    """A Markdown table, aligned for reading in a terminal too."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(headers[i]), *(len(row[i]) for row in cells)) for i in range(len(headers))]
    print("| " + " | ".join(header.ljust(width) for header, width in zip(headers, widths)) + " |")
    print("| " + " | ".join("-" * width for width in widths) + " |")
    for row in cells:
        print("| " + " | ".join(cell.rjust(width) for cell, width in zip(row, widths)) + " |")
    sys.stdout.flush()


def machine() -> str:
    """One line naming what the numbers were measured on."""
    import platform

    memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
    model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
        platform.processor(),
    )
    return f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, Python {platform.python_version()}"
