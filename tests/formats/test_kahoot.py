"""Kahoot's spreadsheet template, built here with openpyxl as Kahoot lays it out."""

from __future__ import annotations

import io
import zipfile

import pytest
from openpyxl import Workbook

from quiz.bank import BankInvalid
from quiz.formats import kahoot
from quiz.formats.incoming import MAX_UPLOAD_BYTES

HEADERS = [
    "Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
    "Answer 3 - max 75 characters", "Answer 4 - max 75 characters",
    "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs", "Correct answer(s) - choose at least one",
]


def workbook(*rows: list[object], headers: list[str] = HEADERS) -> bytes:
    """A workbook like Kahoot's template: instructions above, headers on row 8 from column B."""
    book = Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    sheet["B2"] = "Quiz template"
    sheet["B3"] = "Add questions, at least two answer alternatives, time limit and choose correct answers"
    for column, header in enumerate(headers, 2):
        sheet.cell(row=8, column=column, value=header)
    for row_number, row in enumerate(rows, 9):
        sheet.cell(row=row_number, column=1, value=row_number - 8)
        for column, value in enumerate(row, 2):
            sheet.cell(row=row_number, column=column, value=value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def errors_of(data: bytes) -> list[str]:
    with pytest.raises(BankInvalid) as refused:
        kahoot.read(data, "quiz.xlsx").entries
    return [str(error) for error in refused.value.errors]


def test_reads_single_several_and_true_false_questions():
    data = workbook(
        ["What is the capital of France?", "Lyon", "Paris", "Nice", None, 20, 2],
        [None],  # an empty row is skipped
        ["Which are prime?", 2, 3, 4, 9, 30, "1,2"],
        ["The Earth is flat.", "True", "False", None, None, None, "2"],
    )
    assert kahoot.read(data, "quiz.xlsx").entries == [
        {
            "id": "what-is-the-capital-of-france", "kind": "single", "prompt": "What is the capital of France?",
            "choices": ["Lyon", "Paris", "Nice"], "correct": "Paris", "explanation": "The correct answer is: Paris",
            "time_limit": 20,
        },
        {
            "id": "which-are-prime", "kind": "multi", "prompt": "Which are prime?", "choices": ["2", "3", "4", "9"],
            "correct": ["2", "3"], "explanation": "The correct answers are: 2; 3", "time_limit": 30,
        },
        {
            "id": "the-earth-is-flat", "kind": "true_false", "prompt": "The Earth is flat.", "correct": False,
            "explanation": "The correct answer is: False",
        },
    ]


def test_bad_cells_are_reported_by_sheet_row_and_column():
    data = workbook(
        ["Fine?", "a", "b", None, None, 20, 1],  # row 9
        [None, "a", "b", None, None, 20, 1],  # row 10: no question
        ["No correct?", "a", "b", None, None, 20, None],  # row 11
        ["Empty answer correct?", "a", "b", None, None, 20, "1,3"],  # row 12
        ["Out of range?", "a", "b", None, None, 20, "5"],  # row 13
        ["Bad time?", "a", "b", None, None, 300, 1],  # row 14
        ["All correct?", "a", "b", None, None, 20, "1,2"],  # row 15
    )
    assert errors_of(data) == [
        "quiz.xlsx:10:2: Sheet1!B10: the question is empty",
        "quiz.xlsx:11:8: Sheet1!H11: no correct answer: write the number of the correct answer(s), like 2 or 1,3",
        "quiz.xlsx:12:8: Sheet1!H12: answer 3 is marked correct but is empty",
        "quiz.xlsx:13:8: Sheet1!H13: '5' is not an answer number from 1 to 4",
        "quiz.xlsx:14:7: Sheet1!G14: the time limit '300' is not a number of seconds from 5 to 240",
    ]


def test_what_the_bank_refuses_and_the_templates_example_row_are_left_out():
    data = workbook(
        [*HEADERS[:5], 20, 1],  # row 9: the template's example, in the headers' words
        ["Fine?", "a", "b", None, None, 20, 1],  # row 10
        [None, None, None, None, None, 20, None],  # row 11: a time limit and nothing else
        ["All correct?", "a", "b", None, None, 20, "1,2"],  # row 12
    )
    read = kahoot.read(data, "quiz.xlsx")
    assert [entry["prompt"] for entry in read.entries] == ["Fine?"]
    assert [str(error) for error in read.skipped] == [
        "quiz.xlsx:9:2: Sheet1!B9: the template's example row, not a question",
        "quiz.xlsx:12:2: Sheet1!B12: a multi question needs at least one wrong choice",
    ]


def test_a_sheet_without_the_templates_headers_is_refused():
    data = workbook(["Fine?", "a", "b", None, None, 20, 1], headers=["Name", "Score"])
    assert errors_of(data) == [
        "quiz.xlsx:8:2: Sheet1!B8: row 8 should hold the template's headers from column B: Question, Answer 1 to 4,"
        " Time limit, Correct answer(s)"
    ]


@pytest.mark.parametrize("data", [
    b"Question,Answer 1\nWhat?,Yes\n",  # a CSV file named .xlsx
    b"PK\x03\x04 truncated",
    b"",
])
def test_a_file_that_is_not_a_workbook_is_refused(data):
    assert errors_of(data) == [
        "quiz.xlsx:1:1: not an .xlsx workbook: save Kahoot's template as an Excel workbook (.xlsx)"
    ]


def test_a_zip_that_is_not_a_workbook_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a spreadsheet")
    assert errors_of(buffer.getvalue()) == [
        "quiz.xlsx:1:1: not an .xlsx workbook: save Kahoot's template as an Excel workbook (.xlsx)"
    ]


def test_a_workbook_that_unpacks_too_large_is_refused_unread():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (kahoot.MAX_UNPACKED_BYTES + 1))
    data = buffer.getvalue()
    assert len(data) < MAX_UPLOAD_BYTES
    assert errors_of(data) == [
        f"quiz.xlsx:1:1: the workbook unpacks to {kahoot.MAX_UNPACKED_BYTES + 1:,} bytes;"
        f" the limit is {kahoot.MAX_UNPACKED_BYTES:,}"
    ]


def test_a_file_over_the_cap_is_refused():
    data = b"PK\x03\x04" + b"\0" * MAX_UPLOAD_BYTES
    assert errors_of(data) == [f"quiz.xlsx:1:1: file is {len(data):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}"]


def test_rows_past_the_limit_are_refused():
    rows = [[f"Question {n}?", "a", "b", None, None, 20, 1] for n in range(kahoot.MAX_QUESTION_ROWS + 1)]
    assert len(kahoot.read(workbook(*rows[:-1]), "quiz.xlsx").entries) == kahoot.MAX_QUESTION_ROWS
    last = 8 + kahoot.MAX_QUESTION_ROWS + 1
    assert errors_of(workbook(*rows)) == [
        f"quiz.xlsx:{last}:2: Sheet1!B{last}: more than {kahoot.MAX_QUESTION_ROWS} rows of questions;"
        " split the quiz into several files"
    ]
