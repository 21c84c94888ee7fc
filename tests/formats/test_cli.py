"""``quiz export``, ``quiz convert`` and ``quiz check --require-sources``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from defusedxml.ElementTree import fromstring

from quiz.bank import load_bank, parse_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.bank.yamlfile import dump_yaml, parse_yaml, plain
from quiz.cli import main
from quiz.extensions import db
from quiz.formats import gift
from quiz.paths import bundled_bank
from tests.formats.conftest import BANK


@pytest.fixture
def runner():
    """The console script itself: convert and check need no app."""
    return CliRunner()


@pytest.fixture
def imported(app):
    with app.app_context():
        import_bank(db.session, parse_bank(BANK.encode(), "bank.yaml", base_dir=None))
        db.session.commit()
    return app


# export ---------------------------------------------------------------------------------------


def test_export_writes_the_bank_file_to_stdout_by_default(imported):
    result = imported.test_cli_runner().invoke(args=["export"])
    assert result.exit_code == 0, result.output
    with imported.app_context():
        assert result.stdout == dump_yaml(export_document(db.session))
    again = parse_bank(result.stdout_bytes, "export.yaml", base_dir=None)
    assert [question.slug for question in again.questions] == ["sky", "colours-named", "sunny", "clouds"]


def test_export_in_another_format_to_a_file(imported, tmp_path):
    out = tmp_path / "bank.xml"
    result = imported.test_cli_runner().invoke(args=["export", "--format", "moodle-xml", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    root = fromstring(out.read_bytes())
    assert len(root.findall("question")) == 5  # a category and four questions


def test_export_refuses_a_format_it_cannot_write(imported):
    result = imported.test_cli_runner().invoke(args=["export", "--format", "kahoot"])
    assert result.exit_code == 2
    assert "'kahoot' is not one of" in result.stderr


# convert --------------------------------------------------------------------------------------


def test_convert_a_bank_file_to_gift_and_back_to_yaml_for_a_quiz(runner, tmp_path):
    bank_file = tmp_path / "bank.yaml"
    bank_file.write_text(BANK, encoding="utf-8")
    result = runner.invoke(main, ["convert", str(bank_file), str(tmp_path / "bank.gift")])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{tmp_path / 'bank.gift'}: 4 question(s) written as GIFT\n"
    result = runner.invoke(main, ["convert", str(tmp_path / "bank.gift"), str(tmp_path / "new.yaml"), "--quiz", "colours"])
    assert result.exit_code == 0, result.output
    document = plain(parse_yaml((tmp_path / "new.yaml").read_bytes(), "new.yaml", max_bytes=10**6).data)
    assert list(document) == ["version", "questions"]
    assert [(entry["id"], entry["quiz"]) for entry in document["questions"]] == [
        ("sky", "colours"), ("colours-named", "colours"), ("sunny", "colours"), ("clouds", "colours"),
    ]
    assert all("source" not in entry for entry in document["questions"])


def test_convert_reads_a_bank_files_articles_beside_it(runner, tmp_path):
    out = tmp_path / "bundled.csv"
    result = runner.invoke(main, ["convert", str(bundled_bank()), str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().decode("utf-8-sig").count("\nkiss-and-cry,") == len(load_bank(bundled_bank()).questions)


def test_convert_with_formats_named_when_the_extension_is_ambiguous(runner, tmp_path):
    source = tmp_path / "questions.txt"
    source.write_text("Which?\nA. yes\nB. no\nANSWER: A\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    result = runner.invoke(main, ["convert", str(source), str(out)])
    assert result.exit_code == 1
    assert result.stderr == (
        f"{source}: cannot tell the format from the extension; name it with --from (yaml, gift, moodle-xml, aiken, kahoot, opentdb)\n"
    )
    result = runner.invoke(main, ["convert", str(source), str(out), "--from", "aiken", "--to", "gift"])
    assert result.exit_code == 0, result.output
    assert gift.read(out.read_bytes(), "out.txt").entries[0]["correct"] == "yes"


def test_convert_refuses_unknown_formats_and_a_misplaced_quiz(runner, tmp_path):
    bank_file = tmp_path / "bank.yaml"
    bank_file.write_text(BANK, encoding="utf-8")
    out = str(tmp_path / "out.gift")
    cases = {
        ("--from", "csv"): "--from 'csv': not one of yaml, gift, moodle-xml, aiken, kahoot, opentdb\n",
        ("--to", "kahoot"): "--to 'kahoot': not one of yaml, gift, moodle-xml, csv\n",
        ("--quiz", "colours"): "--quiz is for questions read from other formats; a bank file's questions have their quizzes\n",
    }
    for options, message in cases.items():
        result = runner.invoke(main, ["convert", str(bank_file), out, *options])
        assert (result.exit_code, result.stderr) == (1, message)
    result = runner.invoke(main, ["convert", str(bank_file), str(tmp_path / "quiz.xlsx")])
    assert (result.exit_code, result.stderr) == (
        1, f"{tmp_path / 'quiz.xlsx'}: Kahoot spreadsheet files cannot be written; --to can be yaml, gift, moodle-xml, csv\n"
    )
    gift_file = tmp_path / "q.gift"
    gift_file.write_text("Which? {=a ~b}\n", encoding="utf-8")
    result = runner.invoke(main, ["convert", str(gift_file), str(tmp_path / "q.yaml"), "--quiz", "Not An Id"])
    assert result.exit_code == 1
    assert result.stderr == "--quiz 'Not An Id': an id is lowercase letters, digits, '-', '_' or '.'\n"
    assert sorted(os.listdir(tmp_path)) == ["bank.yaml", "q.gift"]


def test_convert_of_a_broken_file_lists_the_errors_and_leaves_the_output_alone(runner, tmp_path):
    source = tmp_path / "broken.gift"
    source.write_text("Fine? {=a ~b}\n\nNever closed {=a ~b\n", encoding="utf-8")
    out = tmp_path / "out.yaml"
    out.write_text("the previous output\n", encoding="utf-8")
    result = runner.invoke(main, ["convert", str(source), str(out)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{source}:3:14: question 2: this '{{' is never closed by '}}'",
        f"{source}: 1 error(s); nothing was written",
    ]
    assert out.read_text(encoding="utf-8") == "the previous output\n"
    assert sorted(os.listdir(tmp_path)) == ["broken.gift", "out.yaml"]


def test_convert_leaves_out_what_it_cannot_hold_and_says_so_unless_strict(runner, tmp_path):
    source = tmp_path / "teacher.gift"
    source.write_text("Fine? {=a ~b}\n\nEssay? {}\n\nMatch {=a -> b =c -> d}\n", encoding="utf-8")
    out = tmp_path / "out.yaml"
    result = runner.invoke(main, ["convert", str(source), str(out), "--strict"])
    essay = (
        f"{source}:3:8: question 2: an essay question ({{}}) cannot be imported;"
        " only multiple choice, true/false, short answer and numerical can"
    )
    matching = (
        f"{source}:5:11: question 3: a matching question (->) cannot be imported;"
        " only multiple choice, true/false, short answer and numerical can"
    )
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [essay, matching, f"{source}: 2 error(s); nothing was written"]
    assert not out.exists()
    result = runner.invoke(main, ["convert", str(source), str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [f"{essay} (left out)", f"{matching} (left out)"]
    assert result.stdout == (
        f"{out}: 1 question(s) written as Bank file (YAML); 2 left out of {source}"
        " (listed above; --strict refuses such a file)\n"
    )
    assert [question["prompt"] for question in yaml.safe_load(out.read_text())["questions"]] == ["Fine?"]


def test_convert_reports_an_output_it_cannot_write(runner, tmp_path):
    source = tmp_path / "q.gift"
    source.write_text("Which? {=a ~b}\n", encoding="utf-8")
    result = runner.invoke(main, ["convert", str(source), str(tmp_path / "missing" / "out.yaml")])
    assert result.exit_code == 1
    assert result.stderr == f"{tmp_path / 'missing' / 'out.yaml'}: cannot write: No such file or directory\n"


def test_the_written_file_gets_ordinary_permissions(runner, tmp_path):
    source = tmp_path / "q.gift"
    source.write_text("Which? {=a ~b}\n", encoding="utf-8")
    out = tmp_path / "out.yaml"
    assert runner.invoke(main, ["convert", str(source), str(out)]).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


# check --require-sources ----------------------------------------------------------------------


def write_bank(tmp_path: Path) -> Path:
    path = tmp_path / "bank.yaml"
    path.write_text(BANK, encoding="utf-8")
    return path


def test_check_warns_about_unsourced_questions_and_passes(runner, tmp_path):
    path = write_bank(tmp_path)
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 0
    assert result.stdout == f"{path}: ok (1 article(s), 1 quiz(zes), 4 question(s))\n"
    assert result.stderr == f"{path}:35:5: questions[3].source: no source given (warning)\n"


def test_check_with_require_sources_refuses_unsourced_questions(runner, tmp_path):
    path = write_bank(tmp_path)
    result = runner.invoke(main, ["check", "--require-sources", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"{path}:35:5: questions[3].source: no source given", f"{path}: 1 error(s)"]


def test_the_bundled_bank_has_a_source_for_every_question(runner):
    result = runner.invoke(main, ["check", "--require-sources", str(bundled_bank())])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_make_check_requires_sources():
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "$(BIN)/quiz check --require-sources questions.yaml" in makefile
