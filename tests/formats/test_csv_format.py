"""CSV: one row per question, UTF-8 with BOM, no cell a spreadsheet would run."""

from __future__ import annotations

import csv
import io

from quiz.formats import csv_format


def rows_of(data: bytes) -> list[list[str]]:
    assert data.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_one_row_per_question_under_clear_headers(document):
    rows = rows_of(csv_format.write(document))
    assert rows[0] == [
        "quiz", "id", "kind", "difficulty", "prompt", "choice 1", "choice 2", "choice 3", "choice 4", "choice 5",
        "choice 6", "choice 7", "choice 8", "correct", "explanation", "source", "tags", "time limit",
    ]
    by_id = {row[1]: dict(zip(rows[0], row)) for row in rows[1:]}
    assert list(by_id) == ["sky", "colours-named", "sunny", "clouds"]
    sky = by_id["sky"]
    assert (sky["quiz"], sky["kind"], sky["difficulty"], sky["time limit"]) == ("colours", "single", "easy", "20")
    assert [sky[f"choice {n}"] for n in range(1, 9)] == ["Blue", "'=Green", "Red #1", "", "", "", "", ""]
    assert (sky["correct"], sky["source"], sky["tags"]) == ("1", "The sky is blue.", "sky, easy-ones")
    named = by_id["colours-named"]
    assert named["correct"] == "1,2"
    assert named["source"] == "The sky is blue.\nThe grass is green."  # one quote per line
    assert [by_id["sunny"]["choice 1"], by_id["sunny"]["choice 2"], by_id["sunny"]["correct"]] == ["True", "False", "1"]
    assert (by_id["clouds"]["correct"], by_id["clouds"]["source"]) == ("2", "")


def test_cells_that_start_like_a_formula_are_neutralised():
    document = {"version": 1, "questions": [{
        "id": "q", "prompt": "=HYPERLINK(\"http://evil.example\")", "choices": ["+1", "-1", "@SUM(A1)", "fine"],
        "correct": "fine", "explanation": "-it depends", "source": ["=1+1"],
    }]}
    row = rows_of(csv_format.write(document))[1]
    assert row[4] == "'=HYPERLINK(\"http://evil.example\")"
    assert row[5:9] == ["'+1", "'-1", "'@SUM(A1)", "fine"]
    assert row[14:16] == ["'-it depends", "'=1+1"]
    assert row[0] == ""  # a question of no quiz yet
