"""Classroom benchmark: one host-paced session with N simulated students on the production server.

Starts ``quiz serve`` (gunicorn with quiz/gunicorn_config.py) on a fresh database, logs a
teacher in, and lets N students (each its own connection and cookie) join, keep an event
stream open, and do what static/js/live.js does on a phone: when the stream says a question
opened, answer it from the event's data at a random moment within the answer window; when
it says anything else changed, fetch the page again. The host shows each reveal for
``--reveal`` seconds before the next question, as a class looks at the answer and its source.

Prints, per run: answers sent, stored, lost and duplicated; answer POST latency p50/p95/p99;
and the delay from the host's "next" to each student's stream receiving it (p50/p95/max).
Targets for 300 students: nothing lost or duplicated, answer POST p99 <= 100 ms, stream
p95 <= 1 s.

    .venv/bin/python bench/live.py --students 300
    .venv/bin/python bench/live.py --students 300 1000 --database postgresql
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time

import sqlalchemy as sa

from client import (
    ANY_ANSWER,
    Phone,
    add_worker_arguments,
    fresh_database,
    log_in,
    machine,
    percentile,
    print_table,
    progress,
    quiz_server,
    worker_settings,
)

CODE = re.compile(r'<p class="code"[^>]*>(\d{6})</p>')


class Student:
    def __init__(self, server, index: int):
        self.phone = Phone.of(server)
        self.name = f"student {index}"
        self.live_url = ""
        self.opened: dict[int, float] = {}  # position -> when the stream said it opened
        self.answered: list[int] = []
        self.latencies: list[float] = []
        self.errors: list[str] = []

    async def join(self, code: str) -> None:
        await self.phone.page(f"/join?code={code}")
        response = await self.phone.post("/join", {"code": code, "nickname": self.name})
        if response.status != 303:
            raise RuntimeError(f"{self.name} could not join: {response.status}")
        self.live_url = response.headers["location"]

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
        response = await self.phone.get(self.live_url)
        if response.status != 200:
            self.errors.append(f"redraw got {response.status}")

    async def answer(self, position: int, choices: int, window: float) -> None:
        await asyncio.sleep(random.uniform(0, window))
        started = time.perf_counter()
        response = await self.phone.post(
            self.live_url + "/answer",
            {**ANY_ANSWER, "choice": str(random.randint(1, max(choices, 1))), "position": str(position)},
        )
        self.latencies.append(time.perf_counter() - started)
        if response.status == 303:  # recorded; the script shows "Answer received" itself
            self.answered.append(position)
        else:
            self.errors.append(f"question {position}: answer got {response.status}")


async def run(server, students: int, questions: int, window: float, reveal: float) -> dict:
    host = Phone.of(server)
    await log_in(host)
    await host.page("/host/new/kiss-and-cry")
    response = await host.post(
        "/host/new/kiss-and-cry",
        {"pacing": "host", "question_count": str(questions), "time_limit": str(int(window) + 10), "scoring": "speed"},
    )
    host_url = response.headers["location"]
    code = CODE.search((await host.page(host_url)).text).group(1)

    crowd = [Student(server, index) for index in range(students)]
    for batch in range(0, students, 50):
        await asyncio.gather(*(student.join(code) for student in crowd[batch : batch + 50]))
    progress(f"{students} students joined")
    stop = asyncio.Event()
    followers = [asyncio.create_task(student.follow(window, stop)) for student in crowd]
    await asyncio.sleep(2 + students / 500)  # let every stream connect

    nexts: dict[int, float] = {}
    for position in range(1, questions + 1):
        nexts[position] = time.monotonic()
        # The first question opens with "start", the others with "next" after a reveal (the
        # session shows no leaderboard in between).
        await host.post(host_url + "/action", {"action": "start" if position == 1 else "next"})
        # Wait for the question to close (everyone answered) or the window to pass.
        until = time.monotonic() + window + 15
        while time.monotonic() < until:
            if 'data-state="question_open"' not in (await host.get(host_url)).text:
                break
            await asyncio.sleep(0.5)
        progress(f"question {position} closed")
        await host.post(host_url + "/action", {"action": "reveal"})
        # The class looks at the answer and its source before the host moves on; every phone
        # shows the reveal meanwhile.
        await asyncio.sleep(reveal)
    await host.post(host_url + "/action", {"action": "finish"})
    progress("finished; waiting for the streams to end")
    try:
        await asyncio.wait_for(asyncio.gather(*followers), timeout=60)
    except TimeoutError:
        progress("some streams did not see the end")
    host.close()
    return {
        "sent": sum(len(student.answered) for student in crowd),
        "latencies": [value for student in crowd for value in student.latencies],
        "delays": [student.opened[p] - nexts[p] for student in crowd for p in student.opened],
        "errors": [error for student in crowd for error in student.errors],
        "missing_events": students * questions - sum(len(student.opened) for student in crowd),
        "session": int(host_url.rsplit("/", 1)[1]),
    }


def recorded_answers(database_url: str, session_id: int) -> tuple[int, int]:
    """(answers stored, distinct student-question pairs) for the session."""
    engine = sa.create_engine(database_url, poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            pairs = connection.execute(
                sa.text(
                    "SELECT answer.attempt_id, answer.question_id FROM answer"
                    " JOIN attempt ON attempt.id = answer.attempt_id WHERE attempt.live_session_id = :session"
                ),
                {"session": session_id},
            ).all()
    finally:
        engine.dispose()
    return len(pairs), len(set(pairs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="+", default=[300])
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--window", type=float, default=5.0, help="seconds within which each student answers")
    parser.add_argument("--reveal", type=float, default=3.0, help="seconds the host shows each reveal before the next question")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    add_worker_arguments(parser)
    args = parser.parse_args()

    settings = worker_settings(args)
    rows, errors = [], []
    workers = 0
    for count in args.students:
        with fresh_database(args.database) as url:
            with quiz_server(url, **settings) as server:
                workers = len(server.worker_pids())
                result = asyncio.run(run(server, count, args.questions, args.window, args.reveal))
            stored, distinct = recorded_answers(url, result["session"])
        ms = [value * 1000 for value in result["latencies"]]
        delays = [value * 1000 for value in result["delays"]]
        rows.append([
            count, f"{result['sent']} / {stored} / {max(result['sent'] - stored, 0)} / {stored - distinct}",
            " / ".join(f"{percentile(ms, share):,.0f}" for share in (0.5, 0.95, 0.99)) + " ms",
            " / ".join(f"{value:,.0f}" for value in (percentile(delays, 0.5), percentile(delays, 0.95), max(delays or [0])))
            + " ms",
            len(result["errors"]) + result["missing_events"],
        ])
        errors += result["errors"][:5]

    print(f"machine: {machine()}; load generator on the same cores")
    print(f"server: quiz serve, {workers} workers; database {args.database}; {args.questions} questions,"
          f" answers within {args.window:g} s, reveals shown {args.reveal:g} s")
    print_table(
        ["students", "answers sent / stored / lost / duplicated", "answer POST p50 / p95 / p99",
         "host next -> stream p50 / p95 / max", "errors"],
        rows,
    )
    for error in errors:
        print("   ", error)


if __name__ == "__main__":
    main()
