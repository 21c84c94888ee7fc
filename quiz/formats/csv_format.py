"""CSV: one row per question, for reading and sorting the bank in a spreadsheet.

UTF-8 with a byte order mark, and cells that a spreadsheet would run as a formula get a
leading apostrophe (see :mod:`quiz.csvfile`).
"""

from __future__ import annotations

from typing import Any

from quiz.csvfile import csv_text
from quiz.formats.outgoing import OutgoingQuestion, outgoing_quizzes

#: The most choices (or ordering items) a question has; every row has this many choice columns.
CHOICE_COLUMNS = 8

HEADERS = [
    "quiz", "id", "kind", "difficulty", "prompt",
    *(f"choice {number}" for number in range(1, CHOICE_COLUMNS + 1)),
    "correct", "explanation", "source", "tags", "time limit",
]


def write(document: dict[str, Any]) -> bytes:
    """The rows; ``correct`` lists the numbers of the correct choices ("1" or "1,3"), an
    ordering question's items in the right order ("1,2,3": they are listed so), the number of a
    number question ("1994 (give or take 1)") or the accepted answers of a text question
    separated by " / "; ``source`` holds one quote per line and ``tags`` are separated by commas."""
    rows: list[list[object]] = [HEADERS]
    for quiz in outgoing_quizzes(document, "csv"):
        for question in quiz.questions:
            texts = [text for text, _ in question.choices]
            rows.append([
                quiz.id or "", question.id, question.kind, question.difficulty, question.prompt,
                *texts, *[""] * (CHOICE_COLUMNS - len(texts)),
                _correct(question),
                question.explanation, "\n".join(question.quotes), ", ".join(question.tags),
                "" if question.time_limit is None else question.time_limit,
            ])
    return csv_text(rows).encode("utf-8")


def _correct(question: OutgoingQuestion) -> str:
    key = question.answer_key or {}
    if question.kind == "ordering":
        return ",".join(str(number) for number in range(1, len(question.choices) + 1))
    if question.kind == "number":
        return question.behaviour.expected((), key)
    if question.kind == "text":
        return " / ".join(key.get("accept", []))
    return ",".join(str(number) for number, (_, is_correct) in enumerate(question.choices, 1) if is_correct)
