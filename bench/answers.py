"""Answer submission and question pages against the ceiling, on the production server.

Starts ``quiz serve`` (gunicorn with quiz/gunicorn_config.py) on a fresh database and, beside
it, bench/hello.py (a Flask app answering "hello") under the same gunicorn configuration.
A fixed number of simulated players, each its own kept-alive connection and cookie, then
send requests one after another for a fixed time:

- ``hello``: GET /hello on the bare Flask app: the ceiling;
- ``question GET``: each player reloads the question page of its attempt;
- ``answer POST``: each player answers its attempt's questions in turn (starting a new
  attempt when one ends); only the answer POSTs are counted.

Prints requests per second, latency p50/p99, the server's CPU time per request, and each
scenario's share of the ceiling's throughput. Targets: answer POST and question GET at
0.5 of the ceiling or more.

    .venv/bin/python bench/answers.py
    .venv/bin/python bench/answers.py --database postgresql --connections 64 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics

from client import (
    ANY_ANSWER,
    CpuMeter,
    Load,
    Phone,
    add_worker_arguments,
    closed_loop,
    fresh_database,
    hello_server,
    machine,
    ms,
    percentile,
    print_table,
    progress,
    quiz_server,
    server_pids,
    timed,
    worker_settings,
)

QUIZ = "/quizzes/kiss-and-cry"
QUESTION_COUNT = re.compile(r"Question \d+ of (\d+)")


class Player(Phone):
    attempt_url = ""
    position = 1
    questions = 0

    async def start_attempt(self) -> None:
        """A new attempt on every question of the quiz, and its first question page."""
        if not self.csrf_token:
            await self.page(QUIZ)
        response = await self.post(f"{QUIZ}/attempts", {"length": "all", "difficulty": ""})
        if response.status != 303:
            raise RuntimeError(f"starting an attempt got {response.status}")
        self.attempt_url = response.headers["location"].removesuffix("/1").rsplit("/questions", 1)[0]
        self.position = 1
        page = await self.get(self.question_url)
        self.questions = int(QUESTION_COUNT.search(page.text).group(1))

    @property
    def question_url(self) -> str:
        return f"{self.attempt_url}/questions/{self.position}"


async def hello(phone: Player, load: Load | None) -> None:
    response = await timed(load, phone.get("/hello"))
    if response.status != 200 and load is not None:
        load.failures.append(f"hello: {response.status}")


async def question(phone: Player, load: Load | None) -> None:
    if phone.position > phone.questions:
        await phone.start_attempt()  # not counted
    response = await timed(load, phone.get(phone.question_url))
    if response.status != 200 and load is not None:
        load.failures.append(f"question: {response.status}")


async def answer(phone: Player, load: Load | None) -> None:
    if phone.position > phone.questions:
        await phone.start_attempt()  # not counted
    response = await timed(load, phone.post(phone.question_url, ANY_ANSWER))
    if response.status != 303 and load is not None:
        load.failures.append(f"answer: {response.status}")
    phone.position += 1


SCENARIOS = {"hello": hello, "question GET": question, "answer POST": answer}


async def measure(args, quiz, bare) -> dict[str, list[tuple[Load, CpuMeter]]]:
    players = [Player.of(quiz) for _ in range(args.connections)]
    hello_phones = [Player.of(bare) for _ in range(args.connections)]
    for start in range(0, len(players), 16):
        await asyncio.gather(*(player.start_attempt() for player in players[start : start + 16]))
    progress(f"{len(players)} players started their attempts")
    runs: dict[str, list[tuple[Load, CpuMeter]]] = {name: [] for name in SCENARIOS}
    for round_ in range(1, args.rounds + 1):
        for name, step in SCENARIOS.items():
            server = bare if name == "hello" else quiz
            meter = CpuMeter(server_pids(server))
            load = await closed_loop(
                hello_phones if name == "hello" else players, step, args.seconds, args.warmup, meter=meter
            )
            runs[name].append((load, meter))
            progress(f"round {round_}: {name}: {load.rate:,.0f} req/s, {len(load.failures)} failures")
    for phone in players + hello_phones:
        phone.close()
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--connections", type=int, default=32, help="simulated players, each one connection")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured time per scenario and round")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of load before measuring")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of all scenarios; the median round is shown")
    add_worker_arguments(parser, "both servers")
    args = parser.parse_args()

    settings = worker_settings(args)
    with fresh_database(args.database) as url, quiz_server(url, **settings) as quiz, hello_server(**settings) as bare:
        workers = len(quiz.worker_pids())
        runs = asyncio.run(measure(args, quiz, bare))

    print(f"machine: {machine()}; load generator on the same cores")
    print(f"server: quiz serve, {workers} workers ({args.worker_class or 'configured class'}); database {args.database};"
          f" {args.connections} connections; {args.rounds} x {args.seconds:g} s per scenario, median round shown")
    medians = {
        name: sorted(loads, key=lambda run: run[0].rate)[len(loads) // 2] for name, loads in runs.items()
    }
    ceiling = medians["hello"][0].rate
    rows = []
    for name, (load, meter) in medians.items():
        rates = [run.rate for run, _ in runs[name]]
        rows.append([
            name, f"{load.rate:,.0f}", f"{min(rates):,.0f}-{max(rates):,.0f}",
            ms(percentile(load.latencies, 0.5)), ms(percentile(load.latencies, 0.99)),
            f"{meter.server / max(len(load.latencies), 1) * 1e6:,.0f} µs", f"{meter.client / load.seconds:.0%}",
            f"{load.rate / ceiling:.2f}", len(load.failures),
        ])
    print_table(
        ["scenario", "req/s", "range", "p50", "p99", "server CPU/req", "client CPU", "x ceiling", "failures"], rows
    )
    for name, (load, _meter) in medians.items():
        for failure in load.failures[:3]:
            print(f"  {name}: {failure}")
    if len(runs["hello"]) > 1:
        spread = statistics.pstdev(run.rate for run, _ in runs["hello"]) / ceiling
        print(f"ceiling varied by {spread:.0%} (standard deviation) between rounds")


if __name__ == "__main__":
    main()
