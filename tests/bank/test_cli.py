"""The command line: ``check``, ``import`` (with ``--dry-run``) and ``init``."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from quiz import create_app
from quiz.bank import load_bank
from quiz.cli import main
from quiz.extensions import db
from quiz.models import Article, Choice, Question, QuestionRevision, Quiz, SourceQuote
from quiz.paths import bundled_bank
from tests.conftest import TEST_CONFIG

GOOD = """\
version: 1
articles:
  - id: sky
    title: The sky
    text: "The sky is blue. The grass is green. It’s sunny today."
quizzes:
  - id: colours
    title: Colours
    article: sky
questions:
  - id: sky
    prompt: What colour is the sky?
    choices: [Blue, Green]
    correct: Blue
    explanation: The article describes a clear sky.
    source: The sky is blue.
  - id: grass
    prompt: What colour is the grass?
    choices: [Blue, Green]
    correct: Green
    explanation: The lawn is the usual colour.
    source: The grass is green.
"""

SUNNY = """\
  - id: sunny
    kind: true_false
    prompt: It is sunny today.
    correct: true
    explanation: The weather is fair.
    source: It's sunny today.
"""

#: GOOD with three mistakes, on lines 14, 19 and 22.
BROKEN = (
    GOOD.replace("correct: Blue", "correct: Yellow")
    .replace("choices: [Blue, Green]\n    correct: Green", "choices: [Green, green]\n    correct: Green")
    .replace("source: The grass is green.", "source: The grass is purple and tall.")
)


def row_counts(app) -> dict[str, int]:
    with app.app_context():
        return {
            model.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (Article, Quiz, Question, QuestionRevision, Choice, SourceQuote)
        }


def revision_numbers(app, slug: str) -> list[int]:
    with app.app_context():
        question = db.session.scalar(sa.select(Question).where(Question.slug == slug))
        return [revision.number for revision in question.revisions]


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


# check ----------------------------------------------------------------------------------------


def test_check_accepts_the_bundled_bank(runner):
    bank = load_bank(bundled_bank())
    result = runner.invoke(args=["check", str(bundled_bank())])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"{bundled_bank()}: ok (1 article(s), 1 quiz(zes), {len(bank.questions)} question(s))\n"
    )
    assert result.stderr == ""


def test_check_lists_every_error_on_stderr_and_exits_1(runner, write_bank):
    path = write_bank(BROKEN)
    result = runner.invoke(args=["check", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{path}:14:5: questions[0].correct: 'Yellow' is not one of the choices",
        f"{path}:19:22: questions[1].choices[1]: duplicate of choice 1 ('green')",
        f"{path}:22:5: questions[1].source[0]: quote not found in article 'sky';"
        ' it matches up to "The grass is "',
        f"{path}: 3 error(s)",
    ]


def test_check_reports_good_and_bad_files_separately(runner, write_bank):
    good = write_bank(GOOD, name="good.yaml")
    bad = write_bank(GOOD.replace("correct: Blue", "correct: Yellow"), name="bad.yaml")
    result = runner.invoke(args=["check", str(good), str(bad)])
    assert result.exit_code == 1
    assert result.stdout == f"{good}: ok (1 article(s), 1 quiz(zes), 2 question(s))\n"
    assert result.stderr == (
        f"{bad}:14:5: questions[0].correct: 'Yellow' is not one of the choices\n"
        f"{bad}: 1 error(s)\n"
    )
    # click 8.2+ keeps stderr apart but result.output shows both, as a terminal would.
    assert result.output == result.stdout + result.stderr


def test_check_never_touches_the_database(runner, app, write_bank):
    result = runner.invoke(args=["check", str(write_bank(GOOD))])
    assert result.exit_code == 0
    assert set(row_counts(app).values()) == {0}


def test_console_script_check_works_on_its_own(write_bank):
    """``quiz check`` is part of the console script's group itself, not only of the app's CLI."""
    good = write_bank(GOOD, name="good.yaml")
    bad = write_bank(BROKEN)
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(good)]).exit_code == 0
    result = runner.invoke(main, ["check", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"{bad}: 3 error(s)"


# import ---------------------------------------------------------------------------------------


def test_import_prints_counts_and_ids(runner, app, write_bank):
    result = runner.invoke(args=["import", str(write_bank(GOOD))])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "Articles: 1 added, 0 changed, 0 unchanged, 0 retired",
        "  added: sky",
        "Quizzes: 1 added, 0 changed, 0 unchanged, 0 retired",
        "  added: colours",
        "Questions: 2 added, 0 changed, 0 unchanged, 0 retired",
        "  added: sky, grass",
    ]
    assert row_counts(app)["QuestionRevision"] == 2


def test_import_reports_added_changed_unchanged_and_retired(runner, write_bank):
    assert runner.invoke(args=["import", str(write_bank(GOOD))]).exit_code == 0
    edited = (
        GOOD.replace("What colour is the sky?", "Which colour is the sky?")
        .replace("  - id: grass\n", SUNNY + "  - id: grass\n")
        .split("  - id: grass\n")[0]
    )
    result = runner.invoke(args=["import", str(write_bank(edited))])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "Articles: 0 added, 0 changed, 1 unchanged, 0 retired",
        "Quizzes: 0 added, 0 changed, 1 unchanged, 0 retired",
        "Questions: 1 added, 1 changed, 0 unchanged, 1 retired",
        "  added: sunny",
        "  changed: sky (revision 2)",
        "  retired: grass",
    ]


def test_import_of_the_same_file_says_nothing_to_change(runner, app, write_bank):
    path = write_bank(GOOD)
    assert runner.invoke(args=["import", str(path)]).exit_code == 0
    before = row_counts(app)
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Articles: 0 added, 0 changed, 1 unchanged, 0 retired",
        "Quizzes: 0 added, 0 changed, 1 unchanged, 0 retired",
        "Questions: 0 added, 0 changed, 2 unchanged, 0 retired",
        "Nothing to change.",
    ]
    assert row_counts(app) == before


def test_import_of_a_broken_file_exits_1_and_changes_nothing(runner, app, write_bank):
    assert runner.invoke(args=["import", str(write_bank(GOOD, name="good.yaml"))]).exit_code == 0
    before = row_counts(app)
    path = write_bank(BROKEN)
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:14:5: questions[0].correct: 'Yellow' is not one of the choices"
    assert lines[-1] == f"{path}: 3 error(s); nothing was imported"
    assert len(lines) == 4
    assert row_counts(app) == before
    assert revision_numbers(app, "sky") == [1]


def test_import_of_another_format_points_to_convert_and_changes_nothing(runner, app, tmp_path):
    before = row_counts(app)
    gift = tmp_path / "bank.gift"
    gift.write_text("::sky::What colour is the sky? {=Blue ~Green ~Red}\n", encoding="utf-8")
    result = runner.invoke(args=["import", str(gift)])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{gift}: quiz import reads bank files (YAML), not GIFT files.")
    assert f"quiz convert {gift} questions.yaml" in result.stderr
    moodle = tmp_path / "bank.xml"
    moodle.write_text("<quiz></quiz>", encoding="utf-8")
    result = runner.invoke(args=["import", str(moodle)])
    assert result.exit_code == 1 and "not Moodle XML files. Convert it first" in result.stderr
    sheet = tmp_path / "bank.csv"
    sheet.write_text("id,prompt\n", encoding="utf-8")
    result = runner.invoke(args=["import", str(sheet)])
    assert result.exit_code == 1 and "CSV files cannot be read yet" in result.stderr
    assert row_counts(app) == before


def test_import_respects_the_configured_size_cap(app, write_bank):
    app.config["BANK_MAX_BYTES"] = 100
    path = write_bank(GOOD)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}:1:1: file is {len(GOOD.encode()):,} bytes; the limit is 100\n")
    assert set(row_counts(app).values()) == {0}


def test_dry_run_reports_changes_but_leaves_an_empty_database_empty(runner, app, write_bank):
    result = runner.invoke(args=["import", str(write_bank(GOOD)), "--dry-run"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "Questions: 2 added, 0 changed, 0 unchanged, 0 retired" in lines
    assert lines[-1] == "Dry run: nothing was changed."
    assert set(row_counts(app).values()) == {0}


def test_dry_run_reports_a_revision_without_making_it(runner, app, write_bank):
    assert runner.invoke(args=["import", str(write_bank(GOOD))]).exit_code == 0
    before = row_counts(app)
    edited = write_bank(GOOD.replace("What colour is the sky?", "Which colour is the sky?"), name="edited.yaml")
    result = runner.invoke(args=["import", str(edited), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "  changed: sky (revision 2)" in result.stdout.splitlines()
    assert row_counts(app) == before
    assert revision_numbers(app, "sky") == [1]
    with app.app_context():
        sky = db.session.scalar(sa.select(Question).where(Question.slug == "sky"))
        assert sky.current_revision.prompt == "What colour is the sky?"
    # The real import afterwards still makes revision 2.
    assert "  changed: sky (revision 2)" in runner.invoke(args=["import", str(edited)]).stdout.splitlines()
    assert revision_numbers(app, "sky") == [1, 2]


def test_dry_run_does_not_retire(runner, app, write_bank):
    assert runner.invoke(args=["import", str(write_bank(GOOD))]).exit_code == 0
    fewer = write_bank(GOOD.split("  - id: grass\n")[0], name="fewer.yaml")
    result = runner.invoke(args=["import", str(fewer), "--dry-run"])
    assert "  retired: grass" in result.stdout.splitlines()
    with app.app_context():
        grass = db.session.scalar(sa.select(Question).where(Question.slug == "grass"))
        assert grass.retired_at is None


# init -----------------------------------------------------------------------------------------


@pytest.fixture
def fresh_app(database_url):
    """An app on a new database with no tables at all: ``init`` must create them."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(empty=True)})
    yield app
    with app.app_context():
        db.engine.dispose()


def test_init_creates_the_schema_and_imports_the_bundled_bank(fresh_app):
    with fresh_app.app_context():
        assert sa.inspect(db.engine).get_table_names() == []
    result = fresh_app.test_cli_runner().invoke(args=["init"])
    assert result.exit_code == 0, f"{result.output}\n{result.exception!r}"
    with fresh_app.app_context():
        tables = set(sa.inspect(db.engine).get_table_names())
    assert {"article", "quiz", "question", "question_revision", "choice", "source_quote", "answer"} <= tables
    assert "alembic_version" in tables
    expected = len(load_bank(bundled_bank()).questions)
    assert f"Questions: {expected} added, 0 changed, 0 unchanged, 0 retired" in result.stdout.splitlines()
    assert row_counts(fresh_app)["Question"] == expected


def test_init_twice_has_nothing_to_change(fresh_app):
    runner = fresh_app.test_cli_runner()
    first = runner.invoke(args=["init"])
    assert first.exit_code == 0, f"{first.output}\n{first.exception!r}"
    before = row_counts(fresh_app)
    second = runner.invoke(args=["init"])
    assert second.exit_code == 0, f"{second.output}\n{second.exception!r}"
    assert second.stdout.splitlines()[-1] == "Nothing to change."
    assert row_counts(fresh_app) == before
