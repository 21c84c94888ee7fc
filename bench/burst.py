"""A classroom's answers in a burst, on the production server.

Starts ``quiz serve`` (gunicorn with quiz/gunicorn_config.py) on a fresh database; a teacher
opens a host-paced session and N students join it, each with its own cookie, and keep its
event stream open as a phone does. Then:

1. **spread**: the host opens question 1, and once every phone has it, the students answer
   at moments spread evenly over ``--spread`` seconds (in a random order);
2. **at once**: the host opens question 2, and every student answers at the same instant.

Each answer goes over a connection of its own, opened when the student answers, as a phone
whose connection was idle a while does. Latency is counted from the moment the student was
due to answer, so that a slow client cannot hide a slow server. The answers stored in the
database are counted afterwards: none may be lost or stored twice.

Targets for 1,000 students: spread over 2 s, p99 <= 250 ms; all at once, the last response
within 1.5 s; 0 lost.

    .venv/bin/python bench/burst.py
    .venv/bin/python bench/burst.py --database postgresql
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
    CpuMeter,
    Phone,
    add_worker_arguments,
    fresh_database,
    log_in,
    machine,
    ms,
    percentile,
    print_table,
    progress,
    quiz_server,
    server_pids,
    worker_settings,
)

CODE = re.compile(r'<p class="code"[^>]*>(\d{6})</p>')


class Student:
    def __init__(self, server, index: int):
        self.phone = Phone.of(server)
        self.name = f"student {index}"
        self.url = ""
        self.opened: dict[int, float] = {}  # question position -> when the stream said so
        self.stream_errors: list[str] = []

    async def join(self, code: str) -> None:
        await self.phone.page(f"/join?code={code}")
        response = await self.phone.post("/join", {"code": code, "nickname": self.name})
        if response.status != 303:
            raise RuntimeError(f"{self.name} could not join: {response.status}")
        self.url = response.headers["location"]
        self.phone.close()

    async def follow(self, stop: asyncio.Event) -> None:
        """The event stream, as the phone's script keeps it open."""
        while not stop.is_set():
            try:
                async for event in self.phone.events(self.url + "/events"):
                    if event["state"] == "question_open":
                        self.opened.setdefault(event["position"], time.monotonic())
                    if event["state"] == "finished" or stop.is_set():
                        return
            except (OSError, asyncio.IncompleteReadError) as error:
                self.stream_errors.append(repr(error))
                await asyncio.sleep(0.5)

    async def answer(self, position: int, due: float) -> tuple[float, int | str]:
        """Answer question ``position`` at monotonic time ``due``, on a new connection; (latency
        from ``due``, status)."""
        await asyncio.sleep(max(due - time.monotonic(), 0))
        phone = Phone(self.phone.host, self.phone.port, self.phone.cookie)
        phone.csrf_token = self.phone.csrf_token
        try:
            response = await phone.post(self.url + "/answer", {**ANY_ANSWER, "position": str(position)})
            status: int | str = response.status
        except (OSError, asyncio.IncompleteReadError) as error:
            status = repr(error)
        finally:
            phone.close()
        return time.monotonic() - due, status


class Host:
    def __init__(self, server):
        self.phone = Phone.of(server)
        self.url = ""

    async def open_session(self, questions: int, time_limit: int) -> str:
        await log_in(self.phone)
        await self.phone.page("/host/new/kiss-and-cry")
        response = await self.phone.post(
            "/host/new/kiss-and-cry",
            {"pacing": "host", "question_count": str(questions), "time_limit": str(time_limit), "scoring": "speed"},
        )
        self.url = response.headers["location"]
        return CODE.search((await self.phone.page(self.url)).text).group(1)

    async def act(self, action: str) -> None:
        response = await self.phone.post(self.url + "/action", {"action": action})
        if response.status != 303:
            raise RuntimeError(f"host action {action} got {response.status}")

    @property
    def session_id(self) -> int:
        return int(self.url.rsplit("/", 1)[1])


async def wait_until_opened(students: list[Student], position: int, since: float, timeout: float = 30) -> list[float]:
    """Until every stream has seen question ``position`` open; the delays from ``since``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(position not in student.opened for student in students):
        await asyncio.sleep(0.05)
    return [student.opened[position] - since for student in students if position in student.opened]


async def run(server, students_count: int, spread: float, seed: int) -> dict:
    host = Host(server)
    code = await host.open_session(questions=2, time_limit=120)
    students = [Student(server, index) for index in range(students_count)]
    for start in range(0, students_count, 50):
        await asyncio.gather(*(student.join(code) for student in students[start : start + 50]))
    progress(f"{students_count} students joined session {host.session_id}")
    stop = asyncio.Event()
    followers = [asyncio.create_task(student.follow(stop)) for student in students]
    await asyncio.sleep(2 + students_count / 500)  # every stream connected
    rng = random.Random(seed)
    results = {}

    # 1. Spread evenly.
    started = time.monotonic()
    await host.act("start")
    fanout = await wait_until_opened(students, 1, started)
    progress(f"question 1 open on {len(fanout)} phones")
    order = students[:]
    rng.shuffle(order)
    t0 = time.monotonic() + 0.2
    meter = CpuMeter(server_pids(server))
    meter.start()
    answers = await asyncio.gather(
        *(student.answer(1, t0 + spread * index / students_count) for index, student in enumerate(order))
    )
    meter.stop()
    results["spread"] = answers, fanout, meter
    progress("spread: all answered")
    for action in ("close", "reveal", "next"):
        await host.act(action)

    # 2. All at once.
    started = time.monotonic()
    fanout = await wait_until_opened(students, 2, started)
    progress(f"question 2 open on {len(fanout)} phones")
    t0 = time.monotonic() + 0.2
    meter = CpuMeter(server_pids(server))
    meter.start()
    answers = await asyncio.gather(*(student.answer(2, t0) for student in students))
    meter.stop()
    results["at once"] = answers, fanout, meter
    progress("at once: all answered")
    for action in ("close", "reveal", "finish"):
        await host.act(action)
    stop.set()
    try:
        await asyncio.wait_for(asyncio.gather(*followers), timeout=30)
    except TimeoutError:
        for task in followers:
            task.cancel()
    results["stream errors"] = [error for student in students for error in student.stream_errors]
    results["session"] = host.session_id
    host.phone.close()
    return results


def stored_answers(database_url: str, session_id: int) -> dict[int, tuple[int, int]]:
    """Per question position: (answers stored, distinct students among them)."""
    engine = sa.create_engine(database_url, poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                sa.text(
                    "SELECT live_question.position, count(answer.id), count(DISTINCT answer.attempt_id) FROM answer"
                    " JOIN live_player ON live_player.attempt_id = answer.attempt_id"
                    " JOIN live_question ON live_question.session_id = live_player.session_id"
                    "  AND live_question.question_id = answer.question_id"
                    " WHERE live_player.session_id = :session GROUP BY live_question.position"
                ),
                {"session": session_id},
            ).all()
    finally:
        engine.dispose()
    return {position: (count, distinct) for position, count, distinct in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=2.0, help="seconds over which the first answers are spread")
    parser.add_argument("--seed", type=int, default=1)
    add_worker_arguments(parser)
    args = parser.parse_args()

    settings = worker_settings(args)
    with fresh_database(args.database) as url:
        with quiz_server(url, **settings) as server:
            workers = len(server.worker_pids())
            results = asyncio.run(run(server, args.students, args.spread, args.seed))
        stored = stored_answers(url, results["session"])

    print(f"machine: {machine()}; load generator on the same cores")
    print(f"server: quiz serve, {workers} workers; database {args.database}; {args.students} students,"
          " each with its event stream open")
    rows = []
    for position, name in ((1, "spread"), (2, "at once")):
        answers, fanout, meter = results[name]
        latencies = [latency for latency, _status in answers]
        accepted = sum(status == 303 for _latency, status in answers)
        count, distinct = stored.get(position, (0, 0))
        label = f"spread over {args.spread:g} s" if name == "spread" else "all at once"
        rows.append([
            label, f"{percentile(fanout, 0.5) * 1000:,.0f} / {max(fanout or [0]) * 1000:,.0f} ms",
            ms(percentile(latencies, 0.5)), ms(percentile(latencies, 0.95)), ms(percentile(latencies, 0.99)),
            ms(max(latencies)), f"{len(answers)} / {accepted} / {count}", args.students - distinct, count - distinct,
            f"{meter.server * 1e6 / len(answers):,.0f} µs / {meter.client * 1e6 / len(answers):,.0f} µs",
        ])
    print_table(
        ["answers", "next -> phones p50 / max", "p50", "p95", "p99", "last", "sent / accepted / stored", "lost",
         "duplicated", "CPU per answer: server / client"],
        rows,
    )
    failures = [status for name in ("spread", "at once") for _latency, status in results[name][0] if status != 303]
    for failure in failures[:5]:
        print(f"  refused or failed: {failure}")
    if results["stream errors"]:
        print(f"  {len(results['stream errors'])} stream errors, e.g. {results['stream errors'][0]}")


if __name__ == "__main__":
    main()
