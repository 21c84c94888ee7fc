"""``quiz generate``: a draft bank file that passes the checker, the same on every run."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from quiz.bank import load_bank
from quiz.cli import main
from tests.conftest import REPO
from tests.generator.test_unseen_articles import PEOPLE

ARTICLE = REPO / "articles" / "kiss-and-cry.txt"


def test_generate_writes_a_bank_that_passes_check_and_is_identical_on_rerun(tmp_path):
    runner = CliRunner()
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    for out in (first, second):
        result = runner.invoke(main, ["generate", str(ARTICLE), "--out", str(out), "--title", "Kiss & Cry"])
        assert result.exit_code == 0, result.output
    assert first.read_bytes() == second.read_bytes()
    bank = load_bank(first)
    assert [article.slug for article in bank.articles] == ["kiss-and-cry"]
    assert bank.articles[0].title == "Kiss & Cry"
    assert len(bank.questions) >= 8 and not bank.unsourced
    for command in (["check", "--require-sources"], ["lint"]):
        checked = runner.invoke(main, [*command, str(first)])
        assert checked.exit_code == 0, checked.output


def test_title_line_max_and_bank(tmp_path):
    article = tmp_path / "story.md"
    article.write_text("# A Skater's Story\n\n" + ARTICLE.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", str(article), "--max", "3", "--bank", str(REPO / "questions.yaml")])
    assert result.exit_code == 0, result.output
    assert "title: A Skater's Story" in result.stdout
    assert result.stdout.count("tags:") == 3
    assert "3 question(s) drafted" in result.stderr


def test_names_are_left_out_with_the_no_names_option(tmp_path):
    article = tmp_path / "day.txt"
    article.write_text(f"Doris Day\n\n{PEOPLE}\n", encoding="utf-8")
    named, plain = (CliRunner().invoke(main, ["generate", str(article), *option]) for option in ([], ["--no-names"]))
    assert plain.exit_code == named.exit_code == 0
    assert "- person" not in plain.stdout and "- person" in named.stdout and "kind: text" in named.stdout


def test_bad_input_is_reported_with_its_place_and_writes_nothing(tmp_path):
    article = tmp_path / "broken.txt"
    article.write_bytes(b"Title\n\nGood line.\nBad \xff byte.\n")
    out = tmp_path / "out.yaml"
    result = CliRunner().invoke(main, ["generate", str(article), "--out", str(out)])
    assert result.exit_code == 1
    assert f"{article}:4:5: invalid UTF-8 (byte 0xff)" in result.stderr
    assert not out.exists()
    missing = CliRunner().invoke(main, ["generate", str(tmp_path / "none.txt")])
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    bad_id = CliRunner().invoke(main, ["generate", str(ARTICLE), "--id", "Not An Id"])
    assert bad_id.exit_code == 1 and "--id" in bad_id.stderr


def test_a_file_command_runs_with_its_imports_kept_from_the_collector(tmp_path):
    # What keeps `quiz generate` quick to start (bench/startup.py): the modules a command
    # imports are frozen once, so that no collection walks them again; the collector stays on.
    script = (
        "import gc\n"
        "import quiz.cli\n"
        "before = gc.get_freeze_count()\n"
        f"quiz.cli.main(['check', {str(REPO / 'questions.yaml')!r}], standalone_mode=False)\n"
        "print(before, gc.get_freeze_count() > 0, gc.isenabled())\n"
    )
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.split()[-3:] == ["0", "True", "True"]
