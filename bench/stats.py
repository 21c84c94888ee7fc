"""Statistics benchmark: item analysis and leaderboard reads over a large store of answers.

Builds one database per size (the bundled bank, then generated players, attempts, answers and
best scores, all written with bulk inserts), then times, side by side:

- the quiz statistics page, as a teacher's browser gets it (full request through the app);
- the statistics alone (``quiz.stats.quiz_stats``);
- a leaderboard read: the top 50 and the reader's own rank (``quiz.play.leaderboard``/``rank_of``),
  and the leaderboard page.

Answers follow a two-parameter item response model, so the statistics have something to find:
most questions discriminate, one is answered at random, one has a distractor nobody picks and
one a distractor that strong players fall for.

    .venv/bin/python bench/stats.py                       # 10,000 and 1,000,000 answers, SQLite
    .venv/bin/python bench/stats.py --answers 10000 100000 --database postgresql
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from flask_migrate import upgrade

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from quiz import accounts, create_app, play, stats  # noqa: E402
from quiz.bank import load_bank  # noqa: E402
from quiz.bank.importer import import_bank  # noqa: E402
from quiz.extensions import db  # noqa: E402
from quiz.models import Answer, Attempt, BestScore, Choice, Player, Question, Quiz  # noqa: E402
from quiz.paths import bundled_bank, resource  # noqa: E402

QUESTIONS_PER_ATTEMPT = 10
ATTEMPTS_PER_PLAYER = 1.6
BATCH = 20_000
PASSWORD = "benchmark-password-123"


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def make_app(database_url: str):
    app = create_app({
        "SECRET_KEY": "bench-" * 8,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
    })
    with app.app_context():
        upgrade(directory=str(resource("migrations")))
        import_bank(db.session, load_bank(bundled_bank()))
        accounts.create_user(db.session, "teacher", PASSWORD, "teacher")
        db.session.commit()
    return app


def generate(app, answers: int, seed: int = 1) -> None:
    """Fill the database with about ``answers`` answers to the bundled quiz."""
    rng = random.Random(seed)
    with app.app_context():
        quiz = db.session.scalar(sa.select(Quiz))
        questions = db.session.scalars(sa.select(Question).where(Question.quiz_id == quiz.id)).all()
        choices = {
            question.id: db.session.scalars(
                sa.select(Choice).where(Choice.revision_id == question.current_revision_id).order_by(Choice.position)
            ).all()
            for question in questions
        }
        items = [_item_model(rng, index, question, choices[question.id]) for index, question in enumerate(questions)]

        attempts = answers // QUESTIONS_PER_ATTEMPT
        players = max(1, int(attempts / ATTEMPTS_PER_PLAYER))
        start = datetime(2026, 1, 1)
        db.session.execute(sa.insert(Player), [
            {"id": i + 1, "token": uuid.uuid4().hex, "nickname": f"player{i + 1}", "created_at": start}
            for i in range(players)
        ])
        ability = [rng.gauss(0, 1) for _ in range(players)]
        best: dict[int, tuple] = {}
        attempt_rows, answer_rows = [], []
        for attempt_id in range(1, attempts + 1):
            player = rng.randrange(players)
            started = start + timedelta(seconds=attempt_id * 30)
            asked = rng.sample(items, QUESTIONS_PER_ATTEMPT)
            # One attempt in twenty is abandoned part-way.
            answered = asked if rng.random() > 0.05 else asked[: rng.randrange(1, QUESTIONS_PER_ATTEMPT)]
            right = 0
            elapsed_total = 0
            first_answer = len(answer_rows)
            for item in answered:
                correct, mask = item.answer(rng, ability[player])
                elapsed = int(rng.lognormvariate(8.8, 0.5))  # about 6.6 s, skewed
                elapsed_total += elapsed
                right += correct
                answer_rows.append({
                    "attempt_id": attempt_id, "question_id": item.question_id, "revision_id": item.revision_id,
                    "selected_mask": mask, "is_correct": correct, "points": int(correct),
                    "answered_at": started + timedelta(milliseconds=elapsed_total), "elapsed_ms": elapsed,
                })
            finished = len(answered) == QUESTIONS_PER_ATTEMPT
            for row in answer_rows[first_answer:]:
                # What quiz.play.count_for_statistics does when an attempt finishes.
                row["attempt_correct_count"] = right if finished else None
                row["attempt_question_count"] = QUESTIONS_PER_ATTEMPT if finished else None
            finished_at = started + timedelta(milliseconds=elapsed_total) if finished else None
            attempt_rows.append({
                "id": attempt_id, "public_id": uuid.uuid4().hex, "player_id": player + 1, "quiz_id": quiz.id,
                "shuffle_seed": attempt_id, "question_count": QUESTIONS_PER_ATTEMPT,
                "answered_count": len(answered), "correct_count": right, "score": right,
                "started_at": started, "finished_at": finished_at,
                "duration_ms": elapsed_total if finished else None,
            })
            if finished:
                candidate = (-right, elapsed_total, finished_at, attempt_id)
                if player not in best or candidate < best[player]:
                    best[player] = candidate
            if len(answer_rows) >= BATCH:
                _flush(attempt_rows, answer_rows)
        _flush(attempt_rows, answer_rows)
        db.session.execute(sa.insert(BestScore), [
            {"quiz_id": quiz.id, "player_id": player + 1, "attempt_id": attempt_id, "score": -score,
             "question_count": QUESTIONS_PER_ATTEMPT, "duration_ms": duration, "finished_at": finished_at}
            for player, (score, duration, finished_at, attempt_id) in best.items()
        ])
        db.session.commit()
        if db.engine.dialect.name == "sqlite":
            with db.engine.connect() as connection:
                connection.exec_driver_sql("ANALYZE")
        else:
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")


def _flush(attempt_rows: list, answer_rows: list) -> None:
    if attempt_rows:
        db.session.execute(sa.insert(Attempt), attempt_rows)
    if answer_rows:
        db.session.execute(sa.insert(Answer), answer_rows)
    attempt_rows.clear()
    answer_rows.clear()


class _Item:
    """A question's behaviour: difficulty b, discrimination a, and how wrong answers spread."""

    def __init__(self, question_id, revision_id, a, b, correct_mask, wrong, weights, lure_of_strong):
        self.question_id, self.revision_id = question_id, revision_id
        self.a, self.b = a, b
        self.correct_mask, self.wrong, self.weights = correct_mask, wrong, weights
        self.lure_of_strong = lure_of_strong

    def answer(self, rng: random.Random, theta: float) -> tuple[bool, int]:
        chance = 0.25 + 0.75 / (1 + math.exp(-self.a * (theta - self.b)))
        if rng.random() < chance:
            return True, self.correct_mask
        weights = list(self.weights)
        if self.lure_of_strong is not None and theta > 0.5:
            weights[self.lure_of_strong] *= 6
        return False, rng.choices(self.wrong, weights)[0]


def _item_model(rng: random.Random, index: int, question: Question, choices: list[Choice]) -> _Item:
    correct_mask = sum(1 << choice.position for choice in choices if choice.is_correct)
    wrong = [1 << choice.position for choice in choices if not choice.is_correct] or [0]
    weights = [rng.uniform(0.5, 1.5) for _ in wrong]
    a, b, lure = rng.uniform(0.6, 2.0), rng.gauss(0, 1), None
    if index == 0:
        a = 0.0  # answered at random: no discrimination
    elif index == 1 and len(weights) > 1:
        weights[0] = 0.0  # a distractor nobody picks
    elif index == 2 and len(weights) > 1:
        lure = 0  # a distractor that draws strong players
    return _Item(question.id, question.current_revision_id, a, b, correct_mask, wrong, weights, lure)


def timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return times


def measure(app, repeat_page: int, repeat_board: int) -> dict:
    with app.app_context():
        quiz = db.session.scalar(sa.select(Quiz))
        slug = quiz.slug
        stored = db.session.scalar(sa.select(sa.func.count()).select_from(Answer))
        reader = db.session.scalar(sa.select(BestScore).order_by(BestScore.player_id.desc()).limit(1))

        def read_leaderboard():
            db.session.expire_all()
            rows = play.leaderboard(db.session, quiz)
            play.rank_of(db.session, reader)
            assert rows, "empty leaderboard"

        def compute_stats():
            db.session.expire_all()
            stats.quiz_stats(db.session, quiz)

        board = timed(read_leaderboard, repeat_board)
        computed = timed(compute_stats, repeat_page)
        result = stats.quiz_stats(db.session, quiz)

    client = app.test_client()
    client.post("/login", data={"username": "teacher", "password": PASSWORD})

    def get(path):
        def request():
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
        return request

    page = timed(get(f"/stats/quiz/{slug}"), repeat_page)
    board_page = timed(get(f"/quizzes/{slug}/leaderboard"), repeat_board)
    return {
        "answers": stored, "page": page, "stats": computed, "board": board, "board_page": board_page,
        "to_review": len(result.to_review), "alpha": result.reliability,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--repeat", type=int, default=5, help="timed statistics page loads per size")
    args = parser.parse_args()

    results = []
    with tempfile.TemporaryDirectory(prefix="quiz-stats-bench-") as directory:
        for size in args.answers:
            url, drop = _database(args, Path(directory), size)
            try:
                app = make_app(url)
                started = time.perf_counter()
                generate(app, size)
                progress(f"{size:,} answers generated in {time.perf_counter() - started:.1f} s")
                results.append(measure(app, args.repeat, repeat_board=200))
                with app.app_context():
                    db.engine.dispose()
            finally:
                drop()

    print(f"\nStatistics and leaderboard reads, {args.database}, median (p95) in ms")
    header = ["answers stored", "stats page", "stats computed", "leaderboard read", "leaderboard page", "to review", "KR-20"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for result in results:
        print(" | ".join([
            f"{result['answers']:,}",
            _summary(result["page"]), _summary(result["stats"]), _summary(result["board"]), _summary(result["board_page"]),
            str(result["to_review"]), f"{result['alpha']:.3f}" if result["alpha"] is not None else "–",
        ]))


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return f"{statistics.median(ordered):.1f} ({p95:.1f})"


def _database(args, directory: Path, size: int):
    if args.database == "sqlite":
        return f"sqlite:///{directory}/stats-{size}.sqlite3", lambda: None
    name = f"quiz_stats_bench_{size}_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(args.postgresql_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')

    def drop():
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()

    return sa.make_url(args.postgresql_url).set(database=name).render_as_string(hide_password=False), drop


if __name__ == "__main__":
    main()
