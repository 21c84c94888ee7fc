"""The hot paths in one process, without a server: SQL statements and cost per request.

Builds the app as production does on a fresh database and calls it directly as a WSGI
application (no network, no gunicorn), so that the figures depend little on what else runs
on the machine. For each request it prints the SQL statements sent to the database, and the
CPU time the app spends on it (this thread's: waiting for a busy core does not count, nor
does PostgreSQL's own work), as the mean of the best batch of 50 requests and of the median
batch. bench/hello.py in the same process gives the floor.

With ``--instructions``, each request is instead run under valgrind's callgrind and counted
in machine instructions, which do not depend on the machine's load at all (slow: a minute
or two per request kind).

    .venv/bin/python bench/hotpath.py
    .venv/bin/python bench/hotpath.py --database postgresql --show-sql
    .venv/bin/python bench/hotpath.py --instructions
"""

from __future__ import annotations

import argparse
import math
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from http.cookies import SimpleCookie

import sqlalchemy as sa
from werkzeug.test import EnvironBuilder

from client import ANY_ANSWER, CSRF, PASSWORD, TEACHER, fresh_database, machine, percentile, print_table, progress

QUIZ = "/quizzes/kiss-and-cry"
QUESTION_COUNT = re.compile(r"Question \d+ of (\d+)")
CODE = re.compile(r'<p class="code"[^>]*>(\d{6})</p>')
#: Requests timed together: the best batch's mean is the figure least disturbed by other work.
BATCH = 50


class Browser:
    """Calls a WSGI app with one cookie jar, as one phone would."""

    def __init__(self, app):
        self.app = app
        self.cookies: dict[str, str] = {}
        self.csrf_token = ""

    def environ(self, method: str, path: str, form: dict | None = None) -> dict:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        data = {"csrf_token": self.csrf_token, **form} if form is not None else None
        builder = EnvironBuilder(path=path, method=method, data=data, headers=headers, base_url="http://127.0.0.1")
        try:
            return builder.get_environ()
        finally:
            builder.close()

    def call(self, environ: dict) -> tuple[int, dict, bytes]:
        status_headers = []

        def start_response(status, headers, exc_info=None):
            status_headers[:] = [status, headers]

        body = self.app(environ, start_response)
        try:
            content = b"".join(body)
        finally:
            getattr(body, "close", lambda: None)()
        status, headers = status_headers
        for name, value in headers:
            if name.lower() == "set-cookie":
                for key, morsel in SimpleCookie(value).items():
                    self.cookies[key] = morsel.value
        return int(status.split()[0]), dict(headers), content

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, dict, bytes]:
        return self.call(self.environ(method, path, form))

    def page(self, path: str) -> bytes:
        _status, _headers, body = self.request("GET", path)
        if match := CSRF.search(body.decode()):
            self.csrf_token = match.group(1)
        return body


class Scenario:
    """One kind of request, set up and ready: ``next()`` builds the next request's environ,
    ``call()`` sends it, and ``expect`` is the status it must get."""

    def __init__(self, name: str, browser: Browser, next: Callable[[], dict], expect: int):
        self.name, self.browser, self.next, self.expect = name, browser, next, expect

    def call(self, environ: dict) -> bytes:
        status, _headers, body = self.browser.call(environ)
        if status != self.expect:
            raise RuntimeError(f"{self.name}: got {status}, expected {self.expect}: {body[:300]!r}")
        return body


def scenarios(app, bare_app, students: int) -> dict[str, Callable[[], Scenario]]:
    """The request kinds measured, each set up on demand (a live session's students take a
    while to join)."""

    def hello() -> Scenario:
        browser = Browser(bare_app)
        return Scenario("hello (bench/hello.py)", browser, lambda: browser.environ("GET", "/hello"), 200)

    def solo() -> tuple[Browser, dict]:
        """A player with an attempt on every question, on its first question."""
        player = Browser(app)
        player.page(QUIZ)
        _status, headers, _body = player.request("POST", f"{QUIZ}/attempts", {"length": "all", "difficulty": ""})
        state = {"url": headers["Location"].rsplit("/", 1)[0], "position": 1}
        page = player.page(f"{state['url']}/1").decode()
        state["questions"] = int(QUESTION_COUNT.search(page).group(1))
        return player, state

    def question() -> Scenario:
        player, state = solo()
        url = f"{state['url']}/1"
        return Scenario("question GET", player, lambda: player.environ("GET", url), 200)

    def answer() -> Scenario:
        player, state = solo()

        def next_answer() -> dict:
            if state["position"] > state["questions"]:  # a new attempt, outside the measure
                _status, headers, _body = player.request("POST", f"{QUIZ}/attempts", {"length": "all", "difficulty": ""})
                state["url"], state["position"] = headers["Location"].rsplit("/", 1)[0], 1
            environ = player.environ("POST", f"{state['url']}/{state['position']}", ANY_ANSWER)
            state["position"] += 1
            return environ

        return Scenario("answer POST", player, next_answer, 303)

    def feedback() -> Scenario:
        player, state = solo()
        url = f"{state['url']}/1"
        player.request("POST", url, ANY_ANSWER)
        return Scenario("feedback GET", player, lambda: player.environ("GET", url), 200)

    def classroom() -> tuple[Browser, str, list[Browser], str]:
        """A host-paced session with ``students`` joined and its first question open: the host
        and their page's address, the students and theirs."""
        host = Browser(app)
        host.page("/login")
        host.request("POST", "/login", {"username": TEACHER, "password": PASSWORD})
        host.page("/host/new/kiss-and-cry")
        _s, headers, _b = host.request(
            "POST", "/host/new/kiss-and-cry",
            {"pacing": "host", "question_count": "3", "time_limit": "240", "scoring": "speed"},
        )
        host_url = headers["Location"]
        code = CODE.search(host.page(host_url).decode()).group(1)
        crowd = []
        for index in range(students):
            student = Browser(app)
            student.page(f"/join?code={code}")
            _s, headers, _b = student.request("POST", "/join", {"code": code, "nickname": f"student {index}"})
            crowd.append(student)
        host.request("POST", host_url + "/action", {"action": "start"})
        return host, host_url, crowd, headers["Location"]

    def live_question() -> Scenario:
        _host, _host_url, crowd, url = classroom()
        return Scenario("live question GET", crowd[0], lambda: crowd[0].environ("GET", url), 200)

    def live_reveal() -> Scenario:
        """A phone's page after the reveal, which every phone of the class asks for at once."""
        host, host_url, crowd, url = classroom()
        for student in crowd[: len(crowd) // 2]:
            student.request("POST", url + "/answer", {**ANY_ANSWER, "position": "1"})
        host.request("POST", host_url + "/action", {"action": "reveal"})
        return Scenario("live reveal GET", crowd[0], lambda: crowd[0].environ("GET", url), 200)

    def live_answer() -> Scenario:
        _host, _host_url, crowd, url = classroom()
        waiting = iter(crowd)
        current: list[Browser] = []

        def next_student() -> dict:
            current[:] = [next(waiting)]  # each student answers once
            return current[0].environ("POST", url + "/answer", {**ANY_ANSWER, "position": "1"})

        class Rotating(Browser):
            def call(self, environ):
                return current[0].call(environ)

        return Scenario(f"live answer POST ({students} students)", Rotating(app), next_student, 303)

    return {
        "hello": hello, "question": question, "answer": answer, "feedback": feedback,
        "live-question": live_question, "live-reveal": live_reveal, "live-answer": live_answer,
    }


class Statements:
    def __init__(self, engine: sa.Engine):
        self.count = 0
        self.log: list[str] = []
        sa.event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn, _cursor, statement, *_args) -> None:
        self.count += 1
        self.log.append(" ".join(statement.split())[:160])


def timed(scenario: Scenario, requests: int, statements: Statements) -> tuple[list[float], int, list[str]]:
    """Time ``requests`` requests in batches: the batch means, and the statements of the last."""
    means = []
    count = 0
    for start in range(0, requests, BATCH):
        environs = [scenario.next() for _ in range(min(BATCH, requests - start))]
        elapsed = 0.0
        for environ in environs:
            before = statements.count
            del statements.log[:]
            started = time.thread_time()
            scenario.call(environ)
            elapsed += time.thread_time() - started
            count = statements.count - before
        means.append(elapsed / len(environs))
    return means, count, list(statements.log)


def counted(scenario: Scenario, requests: int) -> None:
    """Run ``requests`` requests inside math.fsum, the function whose calls callgrind counts
    (``--toggle-collect=math_fsum``): everything else in the process is left out."""
    environs = [scenario.next() for _ in range(requests)]

    def one(environ: dict) -> float:
        scenario.call(environ)
        return 0.0

    math.fsum(one(environ) for environ in environs)


def build_app(url: str):
    from quiz import create_app

    return create_app({
        "ENV": "production", "SECRET_KEY": secrets.token_urlsafe(48), "SQLALCHEMY_DATABASE_URI": url,
        "SESSION_COOKIE_SECURE": False, "JOIN_LIMIT_WRONG_CODES": "1000000 per minute",
    })


def instructions(url: str, names: list[str], requests: int, students: int) -> dict[str, float]:
    """Machine instructions per request of each scenario, counted by callgrind."""
    if not shutil.which("valgrind"):
        sys.exit("--instructions needs valgrind (apt-get install valgrind)")
    counts = {}
    for name in names:
        totals = []
        for n in (requests, 2 * requests):  # the difference leaves out what runs once
            progress(f"{name}: {n} requests under callgrind")
            result = subprocess.run(
                ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=math_fsum",
                 "--callgrind-out-file=/dev/null", sys.executable, __file__, "--inside-callgrind", url, name,
                 "--requests", str(n), "--students", str(students)],
                capture_output=True, text=True, env={"PYTHONMALLOC": "malloc", **__import__("os").environ},
            )
            match = re.search(r"Collected : (\d+)", result.stderr)
            if result.returncode or not match:
                sys.exit(f"callgrind run failed:\n{result.stderr[-3000:]}")
            totals.append(int(match.group(1)))
        counts[name] = (totals[1] - totals[0]) / requests
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--requests", type=int, default=1000, help="per request kind (100 with --instructions)")
    parser.add_argument("--students", type=int, help="in the live session (default: --requests, 100 with --instructions)")
    parser.add_argument("--only", nargs="+", help="request kinds to measure: hello question answer feedback live-question live-reveal live-answer")
    parser.add_argument("--show-sql", action="store_true", help="print each request's statements")
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind instead of timing")
    parser.add_argument("--inside-callgrind", nargs=2, metavar=("URL", "KIND"), help=argparse.SUPPRESS)
    args = parser.parse_args()

    import hello as bare

    if args.inside_callgrind:
        url, name = args.inside_callgrind
        scenario = scenarios(build_app(url).wsgi_app, bare.app.wsgi_app, args.students)[name]()
        for _ in range(20):  # warm caches and first-use imports outside the count
            scenario.call(scenario.next())
        counted(scenario, args.requests)
        return

    from quiz.extensions import db

    if args.instructions:
        args.requests = args.requests if args.requests != 1000 else 100
    # Enough for every request and the warm-up: with --instructions, twice the requests run.
    students = args.students or ((2 if args.instructions else 1) * args.requests + 20)
    rows = []
    with fresh_database(args.database) as url:
        app = build_app(url)
        kinds = scenarios(app.wsgi_app, bare.app.wsgi_app, students)
        names = args.only or list(kinds)
        if args.instructions:
            counts = instructions(url, names, args.requests, students)
            rows = [[name, f"{counts[name] / 1e3:,.0f} k"] for name in names]
        else:
            with app.app_context():
                statements = Statements(db.engine)
            for name in names:
                scenario = kinds[name]()
                means, count, log = timed(scenario, args.requests, statements)
                rows.append([scenario.name, count, f"{min(means) * 1e6:,.0f} µs", f"{percentile(means, 0.5) * 1e6:,.0f} µs"])
                if args.show_sql:
                    print(f"{scenario.name}:")
                    for statement in log:
                        print("   ", statement)

    print(f"machine: {machine()}; database {args.database}; {args.requests} requests each, in one process")
    if args.instructions:
        print_table(["request", "instructions per request (callgrind)"], rows)
    else:
        print_table(["request", "SQL statements", "CPU, best batch", "CPU, median batch"], rows)


if __name__ == "__main__":
    main()
