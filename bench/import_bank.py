"""Import benchmark: a generated 10,000-question bank checked, imported and re-imported.

Generates, the same every time, a bank of 20 articles of news length and 500 questions on each
(four choices, an explanation, one or two quotes copied from the article, some of them typed
with straight quotes and hyphens where the article has typographic ones, tags, difficulties and
a few true/false and multi questions), written as a person writes the file. Then, on a fresh
database, times the functions ``quiz import`` runs:

- check: load and check the file, as ``quiz check`` does (``quiz.bank.load_bank``);
- first import: load, import and commit into the empty database;
- re-import, no change: the same file again, which must change nothing;
- preview of the 1% edit: what the web admin shows before an upload of the file with 100
  questions reworded is applied (``quiz.bank.diff.preview_import``);
- re-import, 1% edited: that file imported, each reworded question getting a new revision;
- ``quiz import`` end to end: the real command in a new process, on the file just imported;
- admin save: one question edited through the web admin's path, in a bank of 1,000 questions.

Each phase is shown with its wall time, the CPU time of this process (steadier on a shared
machine; a database server's own work is not in it), questions per second and peak memory.
Targets: the first import within 10 s, a re-import with no change within 3 s.

    .venv/bin/python bench/import_bank.py                          # SQLite
    .venv/bin/python bench/import_bank.py --database postgresql    # a database of its own on 127.0.0.1:5432
    .venv/bin/python bench/import_bank.py --write-bank bank.yaml   # only write the generated bank
"""

from __future__ import annotations

import argparse
import os
import random
import resource as rusage
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from flask_migrate import upgrade

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from quiz import admin, create_app  # noqa: E402
from quiz.bank import load_bank  # noqa: E402
from quiz.bank.diff import preview_import  # noqa: E402
from quiz.bank.exporter import export_document  # noqa: E402
from quiz.bank.importer import import_bank  # noqa: E402
from quiz.extensions import db  # noqa: E402
from quiz.models import Question, QuestionRevision  # noqa: E402
from quiz.paths import resource  # noqa: E402

ARTICLES = 20
QUESTIONS_PER_ARTICLE = 500
#: Questions reworded for the "1% edited" re-import: every hundredth.
EDIT_EVERY = 100

# Article text --------------------------------------------------------------------------------

_NAMES = [
    "Maria Okafor", "Daniel Brandt", "Aiko Tanaka", "Luis Herrera", "Fiona McLeod", "Omar Haddad",
    "Grace Whitfield", "Pavel Novak", "Amina Diallo", "Tom Castellano", "Ingrid Solberg", "Ravi Menon",
]
_PLACES = [
    "Hopkinsville", "the river district", "Fairfield County", "the northern suburbs", "Guelph",
    "the old harbour", "Tucson", "the county courthouse", "Lake Edenville", "the city centre",
]
_ORGANISATIONS = [
    "the city council", "the regional water board", "the state university", "the fire department",
    "the transport authority", "the county health office", "the local chamber of commerce",
]
_SUBJECTS = [
    "the project", "the new bridge", "the inquiry", "the rescue team", "the company", "the museum",
    "the survey", "the festival", "the hospital", "the observatory", "the school board",
]
_VERBS = [
    "announced", "confirmed", "rejected", "delayed", "approved", "reviewed", "questioned", "welcomed",
    "expanded", "completed", "postponed", "described",
]
_OBJECTS = [
    "a plan to rebuild the eastern wing", "the cost of the repairs", "a second round of funding",
    "the results of the first inspection", "a proposal for longer opening hours",
    "the findings of an independent report", "a new schedule for the work", "the number of volunteers",
    "a request for more staff", "the safety record of the site",
]
_TAILS = [
    "after months of debate", "earlier this week", "despite strong objections", "on Tuesday evening",
    "for the first time since 1998", "according to officials", "ahead of the winter season",
    "in a statement released at noon", "before a packed public meeting", "with little warning",
]
_QUOTES = [
    "We’re doing everything we can", "It’s been a long road", "Nobody expected it to happen so fast",
    "The community deserves answers", "We’ll keep working until it’s finished",
    "This is a good day for the town",
]


def _sentence(rng: random.Random, year: int) -> str:
    shape = rng.randrange(6)
    name, place = rng.choice(_NAMES), rng.choice(_PLACES)
    subject, verb, obj, tail = rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_OBJECTS), rng.choice(_TAILS)
    number = rng.randrange(2, 950)
    if shape == 0:
        return f"{subject.capitalize()} {verb} {obj} {tail}, {name} said."
    if shape == 1:
        return f"“{rng.choice(_QUOTES)},” said {name}, who has worked in {place} for {number % 40 + 2} years."
    if shape == 2:
        return f"In {year - number % 30}, {rng.choice(_ORGANISATIONS)} {verb} {obj} — a decision that still divides {place}."
    if shape == 3:
        return f"About {number:,} residents of {place} were affected, and {subject} {verb} {obj} {tail}."
    if shape == 4:
        return f"{name}’s office {verb} {obj}; the total came to ${number}.{rng.randrange(10)} million."
    return f"The work in {place} — {rng.randrange(3, 60)} weeks of it — was {verb} by {rng.choice(_ORGANISATIONS)} {tail}."


def article_text(rng: random.Random, index: int) -> str:
    """An article of about 900 words in 10 to 14 paragraphs; the first line is its headline."""
    year = 2000 + index
    paragraphs = []
    for _ in range(rng.randrange(10, 15)):
        paragraphs.append(" ".join(_sentence(rng, year) for _ in range(rng.randrange(3, 7))))
    return "\n\n".join(paragraphs)


# Questions -----------------------------------------------------------------------------------

_DIFFICULTIES = ["easy", "medium", "medium", "hard"]
_TAGS = ["people", "places", "numbers", "dates", "quotes", "organisations", "timeline", "money"]


def _quote_from(rng: random.Random, text: str) -> str:
    """A run of 6 to 14 words of ``text``, sometimes typed with straight quotes and hyphens."""
    words = text.split()
    length = rng.randrange(6, 15)
    start = rng.randrange(0, len(words) - length)
    quote = " ".join(words[start : start + length])
    if rng.random() < 0.3:
        quote = quote.replace("’", "'").replace("“", '"').replace("”", '"').replace("—", "-")
    return quote


def _question(rng: random.Random, article: int, number: int, text: str, reworded: bool) -> dict:
    slug = f"a{article:02d}-q{number:03d}"
    sources = [_quote_from(rng, text) for _ in range(rng.choice((1, 1, 2)))]
    name = rng.choice(_NAMES)
    prompt = f"According to the article, what did {name} say about {rng.choice(_SUBJECTS)} ({number})?"
    if reworded:
        prompt = prompt.replace("According to the article", "As the article reports")
    entry: dict = {"id": slug, "quiz": f"article-{article:02d}", "difficulty": _DIFFICULTIES[number % 4]}
    kind = "true_false" if number % 17 == 0 else "multi" if number % 23 == 0 else "single"
    entry["kind"] = kind
    entry["prompt"] = prompt
    if kind == "true_false":
        entry["correct"] = number % 2 == 0
    else:
        choices = rng.sample(_OBJECTS, 4)
        entry["choices"] = [choice.capitalize() for choice in choices]
        entry["correct"] = entry["choices"][:2] if kind == "multi" else entry["choices"][number % 4]
    entry["explanation"] = (
        f"The article reports it in its own words: {rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} "
        f"{rng.choice(_OBJECTS)}, and {name} explains why {rng.choice(_TAILS)}."
    )
    entry["source"] = sources
    entry["tags"] = rng.sample(_TAGS, rng.randrange(1, 3))
    if number % 10 == 0:
        entry["time_limit"] = 20 + number % 4 * 10
    return entry


def _scalar(value) -> str:
    """A YAML scalar as a person would type it: plain where that reads the same, else quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    risky = (
        not text or text[0] in "!&*-?{}[],#|>@`\"'%" or ": " in text or " #" in text or text.endswith(":")
        or text != text.strip() or text.lower() in ("true", "false", "null", "~", "yes", "no")
        or text.replace(".", "").isdigit()
    )
    if risky:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def _flow(values) -> str:
    text = "[" + ", ".join(_scalar(value) for value in values) + "]"
    if any(c in text[1:-1] for c in "[]{}") or any("," in str(value) for value in values):
        return ""
    return text


def bank_text(*, edited: bool = False, articles: int = ARTICLES, per_article: int = QUESTIONS_PER_ARTICLE) -> str:
    """The generated bank as YAML text; ``edited`` rewords every hundredth question."""
    rng = random.Random(20260501)
    texts = [article_text(rng, index) for index in range(articles)]
    lines = ["# Generated bank for the import benchmark.", "version: 1", "", "articles:"]
    for index, text in enumerate(texts):
        lines += [f"  - id: article-{index:02d}", f"    title: Benchmark article {index + 1}", "    text: |"]
        lines += [f"      {line}" if line else "" for line in text.split("\n")]
    lines += ["", "quizzes:"]
    for index in range(articles):
        lines += [
            f"  - id: article-{index:02d}", f"    title: Benchmark quiz {index + 1}",
            "    description: >-", "      A generated quiz on a generated article, for timing imports.",
            f"    article: article-{index:02d}",
        ]
    lines += ["", "questions:"]
    count = 0
    for index, text in enumerate(texts):
        for number in range(per_article):
            reworded = edited and count % EDIT_EVERY == 0
            count += 1
            entry = _question(rng, index, number, text, reworded)
            lines.append(f"  - id: {entry.pop('id')}")
            for key, value in entry.items():
                if key == "explanation":
                    lines += ["    explanation: >-", f"      {value}"]
                elif key in ("choices", "source") or (key == "correct" and isinstance(value, list)):
                    lines.append(f"    {key}:")
                    lines += [f"      - {_scalar(item)}" for item in value]
                elif key == "tags":
                    lines.append(f"    tags: {_flow(value)}")
                else:
                    lines.append(f"    {key}: {_scalar(value)}")
            lines.append("")
    return "\n".join(lines)


# Timing --------------------------------------------------------------------------------------


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _reset_peak_rss() -> None:
    """Start a new peak-memory measurement (Linux: writing 5 to clear_refs resets VmHWM)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_rss_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return rusage.getrusage(rusage.RUSAGE_SELF).ru_maxrss / 1024


class Phases:
    """Times named phases: each row is (phase, wall seconds, CPU seconds, questions, peak RSS in MiB).

    The machine is shared, so wall time varies with the neighbours' load; the CPU time of the
    process doing the work varies much less (a database server's own CPU is not in it).
    """

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float, int, float]] = []

    def run(self, name: str, questions: int, function: Callable[[], object]) -> object:
        _reset_peak_rss()
        started, cpu = time.perf_counter(), time.process_time()
        result = function()
        self.add(name, time.perf_counter() - started, time.process_time() - cpu, questions, _peak_rss_mib())
        return result

    def add(self, name: str, seconds: float, cpu: float, questions: int, rss: float = float("nan")) -> None:
        self.rows.append((name, seconds, cpu, questions, rss))
        progress(f"{name}: {seconds:.2f} s ({cpu:.2f} s CPU)")


def make_app(database_url: str):
    app = create_app({
        "SECRET_KEY": "bench-" * 8,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "BANK_MAX_BYTES": 8 * 1024 * 1024,
    })
    with app.app_context():
        upgrade(directory=str(resource("migrations")))
    return app


def load_and_import(path: Path):
    """What ``quiz import FILE`` does, without printing: load, import, commit."""
    bank = load_bank(path)
    report = import_bank(db.session, bank)
    db.session.commit()
    return report


def bench_import(app, database_url: str, directory: Path, phases: Phases) -> None:
    plain_path, edited_path = directory / "bank.yaml", directory / "bank-edited.yaml"
    total = ARTICLES * QUESTIONS_PER_ARTICLE
    with app.app_context():
        bank = phases.run("check (load only)", total, lambda: load_bank(plain_path))
        assert len(bank.questions) == total, len(bank.questions)
        report = phases.run("first import", total, lambda: load_and_import(plain_path))
        assert len(report.questions.added) == total
        report = phases.run("re-import, no change", total, lambda: load_and_import(plain_path))
        assert not report.changes_anything, report.lines(verbose=False)
        edited = load_bank(edited_path)
        db.session.expire_all()
        preview = phases.run("preview of the 1% edit", total, lambda: preview_import(db.session, edited))
        db.session.rollback()
        assert len(preview.questions.changed) == total // EDIT_EVERY, len(preview.questions.changed)
        report = phases.run("re-import, 1% edited", total, lambda: load_and_import(edited_path))
        assert len(report.questions.changed) == total // EDIT_EVERY, len(report.questions.changed)
        revisions = db.session.scalar(sa.select(sa.func.count()).select_from(QuestionRevision))
        assert revisions == total + total // EDIT_EVERY, revisions
        db.engine.dispose()

    # The real command, end to end: a new process, the app, the import and its report.
    environment = {**os.environ, "DATABASE_URL": database_url, "QUIZ_SECRET_KEY": "bench-" * 8}
    command = [str(Path(sys.executable).parent / "quiz"), "import", str(edited_path)]
    children = rusage.getrusage(rusage.RUSAGE_CHILDREN)
    started = time.perf_counter()
    finished = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    after = rusage.getrusage(rusage.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    if finished.returncode != 0 or "Nothing to change." not in finished.stdout:
        raise SystemExit(f"quiz import failed ({finished.returncode}):\n{finished.stdout[-2000:]}\n{finished.stderr[-2000:]}")
    phases.add("`quiz import`, no change (new process)", seconds, cpu, total, after.ru_maxrss / 1024)


def bench_admin_save(app, directory: Path, phases: Phases) -> None:
    """One question saved through the web admin's path, valid and invalid, in a 1,000-question bank."""
    path = directory / "bank-1000.yaml"
    path.write_text(bank_text(articles=2, per_article=500), encoding="utf-8")
    with app.app_context():
        load_and_import(path)
        slug = db.session.scalar(sa.select(Question.slug).order_by(Question.id).limit(1))
        entry = next(item for item in export_document(db.session)["questions"] if item["id"] == slug)
        db.session.rollback()

        def save(prompt: str, source: list[str]):
            try:
                report = admin.save_question(db.session, {**entry, "prompt": prompt, "source": source}, replacing=slug)
            except admin.EntryInvalid as invalid:
                db.session.rollback()
                return invalid
            db.session.commit()
            return report

        report = phases.run("admin save, 1,000-question bank", 1, lambda: save(entry["prompt"] + " (edited)", entry["source"]))
        assert len(report.questions.changed) == 1, report
        refused = phases.run(
            "admin save refused (quote not in article)", 1,
            lambda: save(entry["prompt"], ["words that are nowhere in the article"]),
        )
        assert isinstance(refused, admin.EntryInvalid), refused
        db.engine.dispose()


def _database(args, directory: Path, name: str):
    if args.database == "sqlite":
        return f"sqlite:///{directory}/{name}.sqlite3", lambda: None
    database = f"quiz_import_bench_{name}_{uuid.uuid4().hex[:8]}"
    admin_engine = sa.create_engine(args.postgresql_url, isolation_level="AUTOCOMMIT")
    with admin_engine.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{database}"')

    def drop():
        with admin_engine.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin_engine.dispose()

    return sa.make_url(args.postgresql_url).set(database=database).render_as_string(hide_password=False), drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--postgresql-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--write-bank", type=Path, metavar="FILE", help="write the generated bank to FILE and stop")
    parser.add_argument("--no-admin", action="store_true", help="leave out the admin save timings")
    args = parser.parse_args()

    if args.write_bank:
        args.write_bank.write_text(bank_text(), encoding="utf-8")
        return

    phases = Phases()
    with tempfile.TemporaryDirectory(prefix="quiz-import-bench-") as folder:
        directory = Path(folder)
        started = time.perf_counter()
        (directory / "bank.yaml").write_text(bank_text(), encoding="utf-8")
        (directory / "bank-edited.yaml").write_text(bank_text(edited=True), encoding="utf-8")
        size = (directory / "bank.yaml").stat().st_size
        progress(f"bank generated in {time.perf_counter() - started:.1f} s: {size / 2**20:.1f} MiB")

        url, drop = _database(args, directory, "import")
        try:
            bench_import(make_app(url), url, directory, phases)
        finally:
            drop()
        if not args.no_admin:
            url, drop = _database(args, directory, "admin")
            try:
                bench_admin_save(make_app(url), directory, phases)
            finally:
                drop()

    print(f"\nImport of a generated bank ({ARTICLES} articles, {ARTICLES * QUESTIONS_PER_ARTICLE:,} questions, "
          f"{size / 2**20:.1f} MiB), {args.database}, {os.cpu_count()} cores")
    header = ["phase", "seconds", "CPU seconds", "questions/s", "peak RSS (MiB)"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for name, seconds, cpu, questions, rss in phases.rows:
        rate = f"{questions / seconds:,.0f}" if questions > 1 else "–"
        print(f"{name} | {seconds:.2f} | {cpu:.2f} | {rate} | {rss:.0f}")


if __name__ == "__main__":
    main()
