"""GIFT, Moodle's plain-text question format.

A question is ``::title:: text {answers}``, questions are separated by blank lines, ``//``
starts a comment line and ``$CATEGORY:`` a category. Answers start with ``=`` (right) or ``~``
(wrong), optionally weighted ``~%50%``; ``#`` adds an answer's feedback and ``####`` the
general feedback. ``~ = # { } :`` and ``\\`` are escaped with a backslash, ``\\n`` is a line break.

Only the multiple-choice and true/false questions are read; other GIFT questions (short
answer, numerical, matching, essay) are refused with their position.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from quiz.bank.errors import BankError
from quiz.formats.incoming import Draft, Place, decode_text, line_and_column, question_entries
from quiz.formats.outgoing import OutgoingQuestion, OutgoingQuiz, outgoing_quizzes

#: Characters GIFT reads as syntax unless escaped; the backslash comes first when escaping.
_SPECIAL = "\\~=#{}:"
_TRUE_FALSE = re.compile(r"(T|TRUE|F|FALSE)\s*(#.*)?", re.IGNORECASE | re.DOTALL)
_FORMAT = re.compile(r"\[(html|moodle|plain|markdown)\]")


# Writing ---------------------------------------------------------------------------------------


def write(document: dict[str, Any]) -> bytes:
    """The document's questions as GIFT, a ``$CATEGORY`` per quiz; the general feedback of each
    question carries its explanation and its source quotes."""
    lines = [
        "// Questions exported from quiz. The general feedback (####) of each question gives",
        "// the explanation and the quote from the article that backs the answer.",
        "",
    ]
    for quiz in outgoing_quizzes(document):
        if quiz.id is not None:
            name = _one_line(quiz.title or quiz.id)
            # Moodle reads "/" in a category path as a subcategory; "//" is a slash in a name.
            lines += [f"// Quiz: {name} ({quiz.id})", f"$CATEGORY: $course$/top/{name.replace('/', '//')}", ""]
        for question in quiz.questions:
            lines += [*_question_lines(question, quiz), ""]
    return "\n".join(lines).encode("utf-8")


def escape(text: str) -> str:
    """``text`` as GIFT shows it literally: special characters escaped, line breaks as ``\\n``."""
    escaped = []
    for character in text.replace("\r\n", "\n"):
        if character in _SPECIAL:
            escaped.append("\\" + character)
        elif character == "\n":
            escaped.append("\\n")
        else:
            escaped.append(character)
    return "".join(escaped)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _question_lines(question: OutgoingQuestion, quiz: OutgoingQuiz) -> list[str]:
    details = [f"difficulty: {question.difficulty}"]
    if question.tags:
        details.append(f"tags: {', '.join(question.tags)}")
    if question.time_limit is not None:
        details.append(f"time limit: {question.time_limit} s")
    head = f"::{escape(question.id)}::{escape(question.prompt)}"
    feedback = f"####{escape(general_feedback(question, quiz.article_title))}"
    if question.kind == "true_false":
        answer = "TRUE" if question.choices[0][1] else "FALSE"
        return [f"// {'; '.join(details)}", f"{head} {{{answer}{feedback}}}"]
    if question.kind == "single":
        answers = [f"\t{'=' if is_correct else '~'}{escape(text)}" for text, is_correct in question.choices]
    else:
        right, wrong = _weights(question)
        answers = [
            f"\t~%{right if is_correct else wrong}%{escape(text)}" for text, is_correct in question.choices
        ]
    return [f"// {'; '.join(details)}", f"{head} {{", *answers, f"\t{feedback}", "}"]


def _weights(question: OutgoingQuestion) -> tuple[str, str]:
    """Percentages for the right and the wrong answers of a several-answer question: the right
    ones add up to 100 and the wrong ones to -100, so that ticking every box earns nothing."""
    right = question.correct_count
    wrong = len(question.choices) - right
    return f"{100 / right:.7g}", f"{-100 / wrong:.7g}"


def general_feedback(question: OutgoingQuestion, article_title: str | None) -> str:
    """The explanation, then the article the quotes come from and each quote on its own line."""
    if not question.quotes:
        return question.explanation
    origin = f"From “{article_title}”:" if article_title else "From the article:"
    return "\n".join([question.explanation, origin, *(f"“{quote}”" for quote in question.quotes)])


# Reading ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Char:
    """One character of a question, whether it was escaped, and where it is in the file."""

    value: str
    escaped: bool
    offset: int


class _Problem(Exception):
    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


def read(data: bytes, filename: str) -> list[dict[str, Any]]:
    """The multiple-choice and true/false questions of a GIFT file."""
    text = decode_text(data, filename)
    drafts: list[Draft] = []
    errors: list[BankError] = []
    for number, block in enumerate(_blocks(text), 1):
        line, column = line_and_column(text, block[0].offset)
        place = Place(line, column, f"question {number}")
        try:
            drafts.append(_draft(block, place))
        except _Problem as problem:
            line, column = line_and_column(text, problem.offset)
            errors.append(BankError(filename, line, column, place.location, problem.message))
    return question_entries(filename, drafts, errors)


def _blocks(text: str) -> Iterator[list[_Char]]:
    """Each question's characters, escapes resolved; comment and category lines left out."""
    block: list[_Char] = []
    offset = 0
    for raw_line in text.split("\n"):
        start, offset = offset, offset + len(raw_line) + 1
        line = raw_line.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if not stripped or stripped.startswith("$CATEGORY:"):
            if block:
                yield block
            block = []
            continue
        if block:
            block.append(_Char("\n", False, start - 1))
        block.extend(_chars(line, start))
    if block:
        yield block


def _chars(line: str, start: int) -> Iterator[_Char]:
    index = 0
    while index < len(line):
        character = line[index]
        following = line[index + 1] if index + 1 < len(line) else ""
        if character == "\\" and following and (following in _SPECIAL or following == "n"):
            yield _Char("\n" if following == "n" else following, True, start + index)
            index += 2
        else:
            yield _Char(character, False, start + index)
            index += 1


def _find(chars: list[_Char], syntax: str, start: int = 0) -> int:
    """Index of the first unescaped occurrence of ``syntax`` at or after ``start``, or -1."""
    for index in range(start, len(chars) - len(syntax) + 1):
        if all(
            not chars[index + offset].escaped and chars[index + offset].value == wanted
            for offset, wanted in enumerate(syntax)
        ):
            return index
    return -1


def _text(chars: list[_Char]) -> str:
    return "".join(char.value for char in chars)


def _strip(chars: list[_Char]) -> list[_Char]:
    start, end = 0, len(chars)
    while start < end and chars[start].value.isspace() and not chars[start].escaped:
        start += 1
    while end > start and chars[end - 1].value.isspace() and not chars[end - 1].escaped:
        end -= 1
    return chars[start:end]


def _draft(block: list[_Char], place: Place) -> Draft:
    opening = _find(block, "{")
    if opening < 0:
        raise _Problem(block[0].offset, "no answers: put the choices in braces, like {=right ~wrong}")
    closing = _find(block, "}", opening + 1)
    if closing < 0:
        raise _Problem(block[opening].offset, "this '{' is never closed by '}'")
    inner = _find(block, "{", opening + 1)
    if 0 <= inner < closing:
        raise _Problem(block[inner].offset, "'{' inside the answers; write \\{ for a brace in a text")
    after = block[closing + 1 :]
    second = _find(after, "{")
    if second >= 0:
        raise _Problem(after[second].offset, "a second set of answers; separate questions with a blank line")
    name, head = _title(_strip(block[:opening]))
    text_format, head = _format(head)
    prompt = _converted(_text(head).strip(), text_format)
    rest = _converted(_text(after).strip(), text_format)
    if rest:
        # Text after the answers makes a "missing word" question: the answers fill the gap.
        prompt = f"{prompt} _____ {rest}".strip()
    if not prompt:
        raise _Problem(block[opening].offset, "the question has no text before its answers")
    answers = block[opening + 1 : closing]
    explanation = ""
    general = _find(answers, "####")
    if general >= 0:
        explanation = _converted(_text(answers[general + 4 :]).strip(), text_format)
        answers = answers[:general]
    choices, kind = _choices(_strip(answers), block[opening].offset, text_format)
    return Draft(place, kind, prompt, choices, explanation=explanation, name=name)


def _title(chars: list[_Char]) -> tuple[str, list[_Char]]:
    if _find(chars[:2], "::") != 0:
        return "", chars
    end = _find(chars, "::", 2)
    if end < 0:
        raise _Problem(chars[0].offset, "the title's '::' is never closed by another '::'")
    return _text(chars[2:end]).strip(), _strip(chars[end + 2 :])


def _format(chars: list[_Char]) -> tuple[str, list[_Char]]:
    match = _FORMAT.match(_text(chars)) if chars and not chars[0].escaped else None
    if match is None:
        return "moodle", chars
    return match.group(1), _strip(chars[match.end() :])


def _converted(text: str, text_format: str) -> str:
    """Plain text of a GIFT text; an ``[html]`` one loses its tags and entities."""
    if text_format != "html":
        return text
    text = re.sub(r"<br\s*/?>|</p>\s*<p[^>]*>", "\n", text, flags=re.IGNORECASE)
    return html.unescape(re.sub(r"<[^>]*>", "", text)).strip()


def _choices(answers: list[_Char], at: int, text_format: str) -> tuple[list[tuple[str, bool]], str]:
    """The choices with whether each is right, and the kind of question the answers make."""
    if not answers:
        raise _Problem(at, _unsupported("an essay question ({})"))
    plain = _text(answers)
    if not answers[0].escaped and (match := _TRUE_FALSE.fullmatch(plain)):
        is_true = match.group(1).upper().startswith("T")
        return [("True", is_true), ("False", not is_true)], "true_false"
    if not answers[0].escaped and answers[0].value == "#":
        raise _Problem(answers[0].offset, _unsupported("a numerical question ({#...})"))
    arrow = _find(answers, "->")
    if arrow >= 0:
        raise _Problem(answers[arrow].offset, _unsupported("a matching question (->)"))
    starts = [index for index, char in enumerate(answers) if not char.escaped and char.value in "=~"]
    if not starts or starts[0] != 0:
        raise _Problem(answers[0].offset, "each answer starts with = (right) or ~ (wrong)")
    if all(answers[index].value == "=" for index in starts):
        raise _Problem(
            answers[0].offset, "a short-answer question (only = answers) cannot be imported; add wrong answers with ~"
        )
    several = not any(answers[index].value == "=" for index in starts)
    choices = []
    for start, end in zip(starts, [*starts[1:], len(answers)]):
        marker = answers[start]
        weight, body = _weight(answers[start + 1 : end], marker.offset)
        if marker.value == "~" and weight is not None and weight > 0 and not several:
            raise _Problem(marker.offset, (
                "partial credit (~%...%) cannot be kept when another answer is marked =;"
                " a choice here is right or wrong"
            ))
        feedback = _find(body, "#")
        text = _converted(_text(_strip(body[:feedback] if feedback >= 0 else body)), text_format)
        if not text:
            raise _Problem(marker.offset, "this answer has no text")
        is_correct = marker.value == "=" if not several else weight is not None and weight > 0
        choices.append((text, is_correct))
    return choices, "multi" if several else "single"


def _unsupported(question: str) -> str:
    return f"{question} cannot be imported; only multiple choice and true/false can"


def _weight(chars: list[_Char], at: int) -> tuple[float | None, list[_Char]]:
    """The ``%50%`` weight at the start of an answer, and the rest of it."""
    body = _strip(chars)
    if _find(body[:1], "%") != 0:
        return None, chars
    end = _find(body, "%", 1)
    try:
        weight = float(_text(body[1:end])) if end > 0 else None
    except ValueError:
        weight = None
    if weight is None or not -100 <= weight <= 100:
        raise _Problem(at, "a weight is a percentage between -100 and 100, like ~%50%")
    return weight, body[end + 1 :]
