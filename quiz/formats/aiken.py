"""Aiken, the simplest multiple-choice format Moodle reads::

    What is the capital of France?
    A. Paris
    B. Lyon
    ANSWER: A

The question text, then options lettered A, B, C... (``A.`` or ``A)``, then a space or a tab,
as Moodle reads them), then ``ANSWER:`` with the one correct letter. There is no feedback, and
exactly one answer is correct.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from quiz.bank.errors import BankError
from quiz.formats.incoming import Draft, Place, Read, decode_text, question_entries

_OPTION = re.compile(r"([A-Z])[.)]\s+(\S.*)")
_ANSWER = re.compile(r"ANSWER\s*:\s*(.*)", re.IGNORECASE)
#: "A)Paris": an option to the eye, but question text to Moodle, which wants a space after the letter.
_CRAMPED_OPTION = re.compile(r"[A-Z][.)]\S")


@dataclass
class _Question:
    place: Place
    lines: list[str]
    #: Where each of ``lines`` is: (line, column).
    line_places: list[tuple[int, int]]
    options: list[str] = field(default_factory=list)


def read(data: bytes, filename: str) -> Read:
    reader = _Reader(filename)
    for line_number, raw_line in enumerate(decode_text(data, filename).split("\n"), 1):
        reader.line(line_number, len(raw_line) - len(raw_line.lstrip()) + 1, raw_line.strip())
    reader.end()
    return question_entries(filename, reader.drafts, reader.errors)


class _Reader:
    """Reads line by line: question text, then options, then the ANSWER: line that ends the question."""

    def __init__(self, file: str):
        self.file = file
        self.drafts: list[Draft] = []
        self.errors: list[BankError] = []
        self.current: _Question | None = None
        self.count = 0

    def error(self, line: int, column: int, message: str) -> None:
        location = self.current.place.location if self.current else ""
        self.errors.append(BankError(self.file, line, column, location, message))

    def line(self, number: int, column: int, line: str) -> None:
        if not line:
            return
        option = _OPTION.fullmatch(line)
        answer = _ANSWER.fullmatch(line)
        current = self.current
        if current is None:
            if answer or option:
                self.error(number, column, "an option or ANSWER: line before any question text")
                return
            self.count += 1
            self.current = _Question(Place(number, column, f"question {self.count}"), [line], [(number, column)])
        elif answer:
            self.answer(current, answer.group(1).strip(), number, column + answer.start(1))
            self.current = None
        elif option and len(current.options) == len(string.ascii_uppercase):
            self.error(number, column, "more options than letters from A to Z")
        elif option:
            expected = string.ascii_uppercase[len(current.options)]
            if option.group(1) != expected:
                self.error(number, column, f"option {option.group(1)} where option {expected} was expected")
            current.options.append(option.group(2).strip())
        elif current.options:
            self.error(number, column, "after the options comes the ANSWER: line (like ANSWER: B)")
        else:
            current.lines.append(line)
            current.line_places.append((number, column))

    def end(self) -> None:
        if self.current is not None:
            place = self.current.place
            self.error(place.line, place.column, "this question has no ANSWER: line (like ANSWER: B)")

    def answer(self, question: _Question, letters: str, line: int, column: int) -> None:
        """Keep the question if its ANSWER: line names one of its options."""
        count = len(question.options)
        if count < 2:
            cramped = [place for text, place in zip(question.lines, question.line_places) if _CRAMPED_OPTION.match(text)]
            if len(cramped) >= 2:
                self.error(*cramped[0], "an option's letter is followed by a space, as Moodle reads it: 'A) Paris', not 'A)Paris'")
            else:
                self.error(line, column, "a question needs at least two options (A. and B.) before its ANSWER: line")
            return
        if not re.fullmatch(r"[A-Z]", letters.upper()):
            several = len(re.findall(r"[A-Z]", letters.upper())) > 1
            reason = (
                "an Aiken question has exactly one correct answer" if several else "name the correct option's letter"
            )
            self.error(line, column, f"ANSWER: '{letters}': {reason}, like ANSWER: B")
            return
        index = string.ascii_uppercase.index(letters.upper())
        if index >= count:
            last = string.ascii_uppercase[count - 1]
            self.error(line, column, f"ANSWER: {letters} names no option; the options go from A to {last}")
            return
        choices = [(text, number == index) for number, text in enumerate(question.options)]
        self.drafts.append(Draft(question.place, "single", "\n".join(question.lines), choices))
