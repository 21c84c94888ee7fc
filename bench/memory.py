"""Memory of the production server's processes: idle, under load, and with a classroom connected.

Starts ``quiz serve`` (gunicorn with quiz/gunicorn_config.py) on a fresh database and reads
each process's resident memory from /proc (RSS, and PSS: shared pages divided among the
processes sharing them) at four moments:

- idle: just after start, every worker having served a few requests;
- answers: the peak while 32 players answer questions and reload question pages
  (bench/answers.py's load) for ``--seconds``;
- classroom: the peak while N students (default 1,000) each keep an event stream open and
  all answer one question;
- after: idle again.

    .venv/bin/python bench/memory.py
    .venv/bin/python bench/memory.py --database postgresql --students 1000
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from answers import Player, answer, question
from burst import Host, Student, wait_until_opened
from client import closed_loop, fresh_database, machine, print_table, progress, quiz_server, rss_mib


def pss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Sampler:
    """The peak RSS and PSS of each process, sampled every ``interval`` seconds while running."""

    def __init__(self, pids: dict[str, int], interval: float = 0.25):
        self.pids, self.interval = pids, interval
        self.peak = {name: (0.0, 0.0) for name in pids}
        self._task: asyncio.Task | None = None

    def sample(self) -> None:
        for name, pid in self.pids.items():
            rss, pss = rss_mib(pid), pss_mib(pid)
            self.peak[name] = (max(self.peak[name][0], rss), max(self.peak[name][1], pss))

    async def _run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(self.interval)

    def __enter__(self) -> Sampler:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc) -> None:
        self._task.cancel()
        self.sample()


async def answers_load(server, seconds: float) -> None:
    players = [Player.of(server) for _ in range(32)]
    await asyncio.gather(*(player.start_attempt() for player in players))

    async def mixed(player: Player, load) -> None:
        await question(player, load)
        await answer(player, load)

    await closed_loop(players, mixed, seconds, warmup=0)
    for player in players:
        player.close()


async def classroom(server, students_count: int) -> None:
    host = Host(server)
    code = await host.open_session(questions=1, time_limit=120)
    students = [Student(server, index) for index in range(students_count)]
    for start in range(0, students_count, 50):
        await asyncio.gather(*(student.join(code) for student in students[start : start + 50]))
    stop = asyncio.Event()
    followers = [asyncio.create_task(student.follow(stop)) for student in students]
    await asyncio.sleep(2 + students_count / 500)
    started = time.monotonic()
    await host.act("start")
    await wait_until_opened(students, 1, started)
    due = time.monotonic() + 0.1
    await asyncio.gather(*(student.answer(due + index / students_count) for index, student in enumerate(students)))
    progress(f"{students_count} students answered")
    await asyncio.sleep(1)
    await host.act("finish")
    stop.set()
    try:
        await asyncio.wait_for(asyncio.gather(*followers), timeout=30)
    except TimeoutError:
        for task in followers:
            task.cancel()
    host.phone.close()


async def measure(server, args) -> dict[str, dict[str, tuple[float, float]]]:
    pids = {"master": server.process.pid}
    pids.update({f"worker {number}": pid for number, pid in enumerate(sorted(server.worker_pids()), 1)})
    moments = {}
    # Idle: every worker has served some requests (a fresh one has not loaded everything yet).
    warm = [Player.of(server) for _ in range(8)]
    await asyncio.gather(*(player.start_attempt() for player in warm))
    for player in warm:
        player.close()
    await asyncio.sleep(1)
    idle = Sampler(pids)
    idle.sample()
    moments["idle"] = idle.peak
    progress("answers load")
    with Sampler(pids) as sampler:
        await answers_load(server, args.seconds)
    moments["answers (peak)"] = sampler.peak
    progress(f"classroom of {args.students}")
    with Sampler(pids) as sampler:
        await classroom(server, args.students)
    moments[f"{args.students} streams (peak)"] = sampler.peak
    await asyncio.sleep(2)
    after = Sampler(pids)
    after.sample()
    moments["after"] = after.peak
    return moments


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--seconds", type=float, default=10.0, help="of the answers load")
    parser.add_argument("--students", type=int, default=1000)
    args = parser.parse_args()

    with fresh_database(args.database) as url, quiz_server(url) as server:
        moments = asyncio.run(measure(server, args))

    print(f"machine: {machine()}")
    print(f"server: quiz serve; database {args.database}; RSS / PSS in MiB")
    names = list(next(iter(moments.values())))
    rows = [
        [name, *(f"{values[name][0]:.0f} / {values[name][1]:.0f}" for values in moments.values())] for name in names
    ]
    print_table(["process", *moments], rows)


if __name__ == "__main__":
    main()
