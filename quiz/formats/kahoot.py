"""Kahoot's spreadsheet template (.xlsx).

The first sheet has its headers on row 8 from column B: the question, answers 1 to 4, the time
limit in seconds, and the correct answer(s) as answer numbers (``2`` or ``1,3``). Each row after
it is a question. Kahoot has no feedback. Two answers "True" and "False" make a true/false question.
A row that repeats the headers' wording ("Question - max 120 characters", "Answer 1 - ...") is
the template's own example, left out with a note; a row with no question and no answers (a time
limit the template filled in) is not a question at all.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
import zlib
from typing import Any

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException

from quiz.bank.errors import BankError
from quiz.formats.incoming import Draft, Place, Read, check_size, question_entries, refuse

HEADER_ROW = 8
FIRST_COLUMN = 2  # B
#: Question, answers 1-4, time limit, correct answer(s).
COLUMNS = 7
ANSWER_COLUMNS = 4

#: A workbook is a zip archive; one that unpacks to more than this is refused (a "zip bomb").
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
#: Rows read below the headers; a sheet that says it has a million rows is not read to the end.
MAX_QUESTION_ROWS = 1000

#: What a damaged, encrypted or foreign archive makes openpyxl, the zip reader or the XML parser raise.
_DAMAGED = (
    InvalidFileException, zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, NotImplementedError,
    RuntimeError, OSError, KeyError, IndexError, ValueError, TypeError, AttributeError, SyntaxError,
)
_NOT_A_WORKBOOK = "not an .xlsx workbook: save Kahoot's template as an Excel workbook (.xlsx)"


def read(data: bytes, filename: str) -> Read:
    check_size(data, filename)
    start = Place(1, 1)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except _DAMAGED:
        refuse(filename, start, _NOT_A_WORKBOOK)
    if unpacked > MAX_UNPACKED_BYTES:
        refuse(filename, start, f"the workbook unpacks to {unpacked:,} bytes; the limit is {MAX_UNPACKED_BYTES:,}")
    try:
        # openpyxl warns about features it skips (data validation, default styles); they carry
        # no questions, and a warning is not the user's concern.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            try:
                sheet = workbook.worksheets[0]
                title = sheet.title
                rows = list(sheet.iter_rows(
                    min_row=HEADER_ROW, max_row=HEADER_ROW + MAX_QUESTION_ROWS + 1,
                    min_col=FIRST_COLUMN, max_col=FIRST_COLUMN + COLUMNS - 1, values_only=True,
                ))
            finally:
                workbook.close()
    except _DAMAGED:
        refuse(filename, start, _NOT_A_WORKBOOK)
    return _questions(filename, title, rows)


def _questions(file: str, sheet: str, rows: list[tuple[Any, ...]]) -> Read:
    header = _cells(rows[0]) if rows else [""] * COLUMNS
    if not header[0].lower().startswith("question") or "correct" not in header[-1].lower():
        refuse(file, _place(sheet, HEADER_ROW, 0), (
            f"row {HEADER_ROW} should hold the template's headers from column B: Question, Answer 1 to 4,"
            " Time limit, Correct answer(s)"
        ))
    if len(rows) > MAX_QUESTION_ROWS + 1 and any(_cells(rows[-1])):
        refuse(file, _place(sheet, HEADER_ROW + MAX_QUESTION_ROWS + 1, 0), (
            f"more than {MAX_QUESTION_ROWS} rows of questions; split the quiz into several files"
        ))
    drafts: list[Draft] = []
    errors: list[BankError] = []
    skipped: list[BankError] = []
    for row_number, row in enumerate(rows[1 : MAX_QUESTION_ROWS + 1], HEADER_ROW + 1):
        cells = _cells(row)
        if not cells[0] and not any(cells[1 : 1 + ANSWER_COLUMNS]):
            continue
        if _is_example(cells, header):
            skipped.append(_place(sheet, row_number, 0).error(file, "the template's example row, not a question"))
            continue
        draft = _draft(file, sheet, row_number, cells, errors)
        if draft is not None:
            drafts.append(draft)
    return question_entries(file, drafts, errors, skipped)


def _is_example(cells: list[str], header: list[str]) -> bool:
    """Whether a row repeats the headers' wording, as the template's example row does."""
    def words(text: str) -> str:
        return " ".join(re.findall(r"[a-z]+", text.lower()))

    question, *answers = (words(cell) for cell in cells[: 1 + ANSWER_COLUMNS])
    heads = [words(cell) for cell in header[: 1 + ANSWER_COLUMNS]]
    return question.startswith("question") and (
        question == heads[0] or sum(answer.startswith("answer") for answer in answers) >= 2
    )


def _cells(row: tuple[Any, ...]) -> list[str]:
    """The row's cells as text, padded to the template's width; 20 and 20.0 both read "20"."""
    cells = []
    for value in (*row, *[None] * (COLUMNS - len(row))):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        cells.append("" if value is None else str(value).strip())
    return cells


def _place(sheet: str, row: int, index: int) -> Place:
    column = FIRST_COLUMN + index
    return Place(row, column, f"{sheet}!{get_column_letter(column)}{row}")


def _draft(file: str, sheet: str, row: int, cells: list[str], errors: list[BankError]) -> Draft | None:
    question, answers, time_limit, correct = cells[0], cells[1 : 1 + ANSWER_COLUMNS], cells[5], cells[6]
    problems = len(errors)

    def error(index: int, message: str) -> None:
        errors.append(_place(sheet, row, index).error(file, message))

    if not question:
        error(0, "the question is empty")
    numbers = [part.strip() for part in re.split(r"[,;\s]+", correct) if part.strip()]
    if not numbers:
        error(6, "no correct answer: write the number of the correct answer(s), like 2 or 1,3")
    for number in numbers:
        if not number.isdigit() or not 1 <= int(number) <= ANSWER_COLUMNS:
            error(6, f"'{number}' is not an answer number from 1 to {ANSWER_COLUMNS}")
        elif not answers[int(number) - 1]:
            error(6, f"answer {number} is marked correct but is empty")
    seconds = None
    if time_limit:
        if not time_limit.isdigit() or not 5 <= int(time_limit) <= 240:
            error(5, f"the time limit '{time_limit}' is not a number of seconds from 5 to 240")
        else:
            seconds = int(time_limit)
    if len(errors) > problems:
        return None
    right = {int(number) - 1 for number in numbers}
    choices = [(text, index in right) for index, text in enumerate(answers) if text]
    kind = "single" if len(right) == 1 else "multi"
    if sorted(text.casefold() for text, _ in choices) == ["false", "true"] and len(right) == 1:
        is_true = next(is_correct for text, is_correct in choices if text.casefold() == "true")
        choices, kind = [("True", is_true), ("False", not is_true)], "true_false"
    return Draft(_place(sheet, row, 0), kind, question, choices, time_limit=seconds)
