"""Aiken: question, lettered options, one ANSWER: line."""

from __future__ import annotations

import pytest

from quiz.bank import BankInvalid
from quiz.formats import aiken
from quiz.formats.incoming import MAX_UPLOAD_BYTES

GOOD = """\
What is the correct answer to this question?
A. Is it this one?
B. Maybe this answer?
C) Possibly this one?
ANSWER: A

Which LMS has the most
quiz import formats?
A) Moodle
B) ATutor
C) Claroline
ANSWER: a
"""


def errors_of(text: str) -> list[str]:
    with pytest.raises(BankInvalid) as refused:
        aiken.read(text.encode(), "q.txt").entries
    return [str(error) for error in refused.value.errors]


def test_reads_questions_with_one_correct_answer():
    assert aiken.read(GOOD.encode(), "q.txt").entries == [
        {
            "id": "what-is-the-correct-answer-to-this-question", "kind": "single",
            "prompt": "What is the correct answer to this question?",
            "choices": ["Is it this one?", "Maybe this answer?", "Possibly this one?"],
            "correct": "Is it this one?", "explanation": "The correct answer is: Is it this one?",
        },
        {
            "id": "which-lms-has-the-most-quiz-import-formats", "kind": "single",
            "prompt": "Which LMS has the most\nquiz import formats?",
            "choices": ["Moodle", "ATutor", "Claroline"], "correct": "Moodle",
            "explanation": "The correct answer is: Moodle",
        },
    ]


def test_every_problem_is_reported_with_its_line_and_column():
    text = (
        "A. An option first\n"  # 1
        "Several?\n"  # 2
        "A. one\n"
        "B. two\n"
        "ANSWER: A, B\n"  # 5
        "Out of range?\n"  # 6
        "A. one\n"
        "B. two\n"
        "ANSWER: D\n"  # 9
        "Skipped a letter?\n"  # 10
        "A. one\n"
        "C. three\n"  # 12
        "ANSWER: A\n"
        "Text among options?\n"  # 14
        "A. one\n"
        "  stray text\n"  # 16
        "B. two\n"
        "ANSWER: B\n"
        "Lonely?\n"  # 19
        "A. only one\n"
        "ANSWER: A\n"  # 21
        "No answer line?\n"  # 22
        "A. one\n"
        "B. two\n"
    )
    assert errors_of(text) == [
        "q.txt:1:1: an option or ANSWER: line before any question text",
        "q.txt:5:9: question 1: ANSWER: 'A, B': an Aiken question has exactly one correct answer, like ANSWER: B",
        "q.txt:9:9: question 2: ANSWER: D names no option; the options go from A to B",
        "q.txt:12:1: question 3: option C where option B was expected",
        "q.txt:16:3: question 4: after the options comes the ANSWER: line (like ANSWER: B)",
        "q.txt:21:9: question 5: a question needs at least two options (A. and B.) before its ANSWER: line",
        "q.txt:22:1: question 6: this question has no ANSWER: line (like ANSWER: B)",
    ]


def test_a_file_without_questions_is_refused():
    assert errors_of("\n\n") == ["q.txt:1:1: no questions found in the file"]


def test_a_file_over_the_cap_is_refused():
    with pytest.raises(BankInvalid) as refused:
        aiken.read(b"x" * (MAX_UPLOAD_BYTES + 1), "q.txt").entries
    assert "the limit is 2,097,152" in str(refused.value)


def test_options_without_a_space_after_the_letter_are_told_as_moodle_reads_them():
    # Moodle reads "A)Paris" as question text (its option lines need a space or a tab).
    assert errors_of("Capital of France?\nA)Paris\nB)Lyon\nANSWER: A\n") == [
        "q.txt:2:1: question 1: an option's letter is followed by a space, as Moodle reads it: 'A) Paris', not 'A)Paris'"
    ]
    (entry,) = aiken.read(b"Capital of France?\nA)\tParis\nB) Lyon\nANSWER: A\n", "q.txt").entries
    assert entry["choices"] == ["Paris", "Lyon"]
