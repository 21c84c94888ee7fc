"""CSV: one row per question, for reading and sorting the bank in a spreadsheet.

UTF-8 with a byte order mark, and cells that a spreadsheet would run as a formula get a
leading apostrophe (see :mod:`quiz.csvfile`).
"""

from __future__ import annotations

from typing import Any

from quiz.csvfile import csv_text
from quiz.formats.outgoing import outgoing_quizzes

#: The most choices a question has; every row has this many choice columns.
CHOICE_COLUMNS = 6

HEADERS = [
    "quiz", "id", "kind", "difficulty", "prompt",
    *(f"choice {number}" for number in range(1, CHOICE_COLUMNS + 1)),
    "correct", "explanation", "source", "tags", "time limit",
]


def write(document: dict[str, Any]) -> bytes:
    """The rows; ``correct`` lists the numbers of the correct choices ("1" or "1,3"), ``source``
    holds one quote per line and ``tags`` are separated by commas."""
    rows: list[list[object]] = [HEADERS]
    for quiz in outgoing_quizzes(document):
        for question in quiz.questions:
            texts = [text for text, _ in question.choices]
            rows.append([
                quiz.id or "", question.id, question.kind, question.difficulty, question.prompt,
                *texts, *[""] * (CHOICE_COLUMNS - len(texts)),
                ",".join(str(number) for number, (_, is_correct) in enumerate(question.choices, 1) if is_correct),
                question.explanation, "\n".join(question.quotes), ", ".join(question.tags),
                "" if question.time_limit is None else question.time_limit,
            ])
    return csv_text(rows).encode("utf-8")
