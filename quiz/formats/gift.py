"""GIFT, Moodle's plain-text question format.

A question is ``::title:: text {answers}``, questions are separated by blank lines, ``//``
starts a comment line and ``$CATEGORY:`` a category. Answers start with ``=`` (right) or ``~``
(wrong), optionally weighted ``~%50%``; ``#`` adds an answer's feedback and ``####`` the
general feedback. ``~ = # { } :`` and ``\\`` are escaped with a backslash, ``\\n`` is a line break.

Multiple-choice, true/false, short-answer (only ``=`` answers: a typed answer) and numerical
(``{#1200:50}`` or ``{#1150..1250}``) questions are read; other GIFT items (descriptions,
essays, matching) are left out, each reported at its place. A ``$CATEGORY:`` becomes a tag of
the questions that follow it.

Comment lines just before a question may say more about it, as Moodle reads them:
``// [id:rink-seats] [tag:venues]``, and, for this app, ``// difficulty: hard; time limit: 30 s``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from quiz.bank.errors import BankError
from quiz.formats.html_text import plain_text
from quiz.formats.incoming import (
    Draft,
    Lines,
    Place,
    Read,
    category_tag,
    decode_text,
    plain_number,
    question_entries,
    slug_for,
)
from quiz.formats.outgoing import OutgoingQuestion, OutgoingQuiz, outgoing_quizzes
from quiz.kinds.number import format_number

#: Characters GIFT reads as syntax unless escaped; the backslash comes first when escaping.
_SPECIAL = "\\~=#{}:"
_TRUE_FALSE = re.compile(r"(T|TRUE|F|FALSE)\s*(#.*)?", re.IGNORECASE | re.DOTALL)
#: The bank's limit; checked early so that a file of one question with endless answers stays quick.
_MOST_CHOICES = 6
_MOST_ACCEPTED = 20
_FORMAT = re.compile(r"\[(html|moodle|plain|markdown)\]")
_WEIGHT = re.compile(r"%\s*[-+]?\d+(?:[.,]\d*)?\s*%")
#: What a question's comment lines may say about it: Moodle's id and tags (a "]" in them is
#: escaped as "\]"), and this app's difficulty and time limit.
_COMMENT_ID = re.compile(r"\[id:((?:\\]|[^\]])+)\]")
_COMMENT_TAG = re.compile(r"\[tag:((?:\\]|[^\]])+)\]")
_COMMENT_DIFFICULTY = re.compile(r"\bdifficulty:\s*(easy|medium|hard)\b", re.IGNORECASE)
_COMMENT_TIME_LIMIT = re.compile(r"\btime limit:\s*(\d+)\s*s\b", re.IGNORECASE)
_COMMENT_UNIT = re.compile(r"\bunit:\s*([^;]*[^;\s])")


# Writing ---------------------------------------------------------------------------------------


def write(document: dict[str, Any]) -> bytes:
    """The document's questions as GIFT, a ``$CATEGORY`` per quiz; the general feedback of each
    question carries its explanation and its source quotes."""
    lines = [
        "// Questions exported from quiz. The general feedback (####) of each question gives",
        "// the explanation and the quote from the article that backs the answer.",
        "",
    ]
    for quiz in outgoing_quizzes(document, "gift"):
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


def _choice(text: str) -> str:
    """A choice as GIFT shows it: literally, or, when it holds "->" (which a reader takes for a
    matching question's pair), as HTML with the ">" escaped."""
    if "->" in text:
        return f"[html]{escape(html.escape(text, quote=False))}"
    return _literal(text)


def _decimal(value: float) -> str:
    """A number as GIFT writes one: digits and a point, never an exponent ("1e-05")."""
    return format(Decimal(format_number(value)), "f")


def _literal(text: str) -> str:
    """An answer or feedback as GIFT shows it literally: escaped, and behind a ``[plain]`` marker
    when it starts with what a reader would take for a weight ("%100% free") or a format marker
    ("[html] tags"); the marker is read and dropped before either."""
    escaped = escape(text)
    return f"[plain]{escaped}" if escaped.startswith(("%", "[")) else escaped


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _question_lines(question: OutgoingQuestion, quiz: OutgoingQuiz) -> list[str]:
    # Moodle reads the id and tags from the comment before a question; the rest is for this app.
    moodle = " ".join([f"[id:{question.id}]", *(f"[tag:{tag}]" for tag in question.tags)])
    details = [f"difficulty: {question.difficulty}"]
    if question.time_limit is not None:
        details.append(f"time limit: {question.time_limit} s")
    # [plain]: Moodle would otherwise take the prompt for HTML ("<b>" in it would render).
    head = f"::{escape(question.id)}::[plain]{escape(question.prompt)}"
    feedback = f"####{_literal(general_feedback(question, quiz.article_title))}"
    if question.kind == "true_false":
        answer = "TRUE" if question.choices[0][1] else "FALSE"
        return [f"// {moodle}", f"// {'; '.join(details)}", f"{head} {{{answer}{feedback}}}"]
    if question.kind == "number":
        key = question.answer_key or {}
        if key.get("unit"):
            details.append(f"unit: {key['unit']}")
        answer = f"#{_decimal(key['answer'])}:{_decimal(key.get('tolerance') or 0)}"
        return [f"// {moodle}", f"// {'; '.join(details)}", f"{head} {{{answer}{feedback}}}"]
    if question.kind == "text":
        answers = [f"\t={_literal(text)}" for text in (question.answer_key or {}).get("accept", [])]
        return [f"// {moodle}", f"// {'; '.join(details)}", f"{head} {{", *answers, f"\t{feedback}", "}"]
    if question.kind == "single":
        answers = [f"\t{'=' if is_correct else '~'}{_choice(text)}" for text, is_correct in question.choices]
    else:
        right, wrong = _weights(question)
        answers = [
            f"\t~%{right if is_correct else wrong}%{_choice(text)}" for text, is_correct in question.choices
        ]
    return [f"// {moodle}", f"// {'; '.join(details)}", f"{head} {{", *answers, f"\t{feedback}", "}"]


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
class _Chars:
    """Part of a question with its escapes resolved: the characters, the same characters with
    the escaped ones blanked out (where syntax is looked for), and each one's offset in the file."""

    text: str
    syntax: str
    offsets: list[int]

    def __getitem__(self, part: slice) -> _Chars:
        return _Chars(self.text[part], self.syntax[part], self.offsets[part])

    def __len__(self) -> int:
        return len(self.text)

    def find(self, syntax: str, start: int = 0) -> int:
        """Index of the first unescaped ``syntax`` at or after ``start``, or -1."""
        return self.syntax.find(syntax, start)

    def strip(self) -> _Chars:
        """Without the unescaped whitespace around it."""
        start = len(self.syntax) - len(self.syntax.lstrip())
        return self[start : max(start, len(self.syntax.rstrip()))]


#: What an escaped character looks like to the syntax searches: never a syntax character.
_ESCAPED = "\0"


class _Problem(Exception):
    """The file is broken here."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


class _LeftOut(_Problem):
    """A question GIFT holds well that cannot be kept here; the file's other questions are read."""


def read(data: bytes, filename: str) -> Read:
    """The questions of a GIFT file that this app's kinds can hold."""
    text = decode_text(data, filename)
    lines = Lines(text)
    drafts: list[Draft] = []
    errors: list[BankError] = []
    skipped: list[BankError] = []
    notes: list[BankError] = []
    for number, (category, comments, block) in enumerate(_blocks(text), 1):
        line, column = lines.position(block.offsets[0])
        place = Place(line, column, f"question {number}")
        lost: list[str] = []
        try:
            draft = _commented(_draft(block, place, lost), comments)
        except _Problem as problem:
            line, column = lines.position(problem.offset)
            found = BankError(filename, line, column, place.location, problem.message)
            (skipped if isinstance(problem, _LeftOut) else errors).append(found)
        else:
            if category and category not in draft.tags:
                draft.tags.insert(0, category)
            drafts.append(draft)
            notes += [place.error(filename, f"the question loses {item}") for item in lost]
    return question_entries(filename, drafts, errors, skipped, notes)


def _blocks(text: str) -> Iterator[tuple[str | None, list[str], _Chars]]:
    """Each question, escapes resolved, with the tag of the category it is in and the comment
    lines among its lines."""
    block: list[tuple[str, str, int]] = []
    comments: list[str] = []
    category: str | None = None
    offset = 0
    for raw_line in text.split("\n"):
        start, offset = offset, offset + len(raw_line) + 1
        line = raw_line.rstrip("\r")
        stripped = line.strip()
        if stripped.startswith("//"):
            comments.append(stripped[2:])
            continue
        if not stripped or stripped.startswith("$CATEGORY:"):
            if block:
                yield category, comments, _joined(block)
            block, comments = [], []
            if stripped:
                category = category_tag(stripped.removeprefix("$CATEGORY:").strip())
            continue
        if block:
            block.append(("\n", "\n", start - 1))
        block.extend(_chars(line, start))
    if block:
        yield category, comments, _joined(block)


def _commented(draft: Draft, comments: list[str]) -> Draft:
    """``draft`` with what its comment lines say: an id and tags as Moodle writes them, a
    difficulty, a time limit and a unit as this app writes them."""
    comment = "\n".join(comments)
    if not comment:
        return draft
    if not draft.name and (found := _COMMENT_ID.search(comment)):
        draft.name = found.group(1).replace("\\]", "]").strip()
    for found in _COMMENT_TAG.finditer(comment):
        tag = slug_for(found.group(1).replace("\\]", "]"))
        if tag not in draft.tags:
            draft.tags.append(tag)
    if found := _COMMENT_DIFFICULTY.search(comment):
        draft.difficulty = found.group(1).lower()
    if found := _COMMENT_TIME_LIMIT.search(comment):
        draft.time_limit = int(found.group(1))
    if draft.kind == "number" and draft.answer_key is not None and (found := _COMMENT_UNIT.search(comment)):
        draft.answer_key["unit"] = found.group(1)
    return draft


def _joined(chars: list[tuple[str, str, int]]) -> _Chars:
    return _Chars("".join(char[0] for char in chars), "".join(char[1] for char in chars), [char[2] for char in chars])


def _chars(line: str, start: int) -> Iterator[tuple[str, str, int]]:
    """(character, what syntax searches see, offset) for each character of ``line``."""
    index = 0
    while index < len(line):
        character = line[index]
        following = line[index + 1] if index + 1 < len(line) else ""
        if character == "\\" and following and (following in _SPECIAL or following == "n"):
            yield ("\n" if following == "n" else following), _ESCAPED, start + index
            index += 2
        else:
            yield character, character, start + index
            index += 1


def _draft(block: _Chars, place: Place, lost: list[str]) -> Draft:
    """The question ``block`` holds; what its HTML cannot keep as text is added to ``lost``."""
    opening = block.find("{")
    if opening < 0:
        raise _LeftOut(block.offsets[0], (
            "a description (text without answers in braces) cannot be imported; it has nothing to answer"
        ))
    closing = block.find("}", opening + 1)
    if closing < 0:
        raise _Problem(block.offsets[opening], "this '{' is never closed by '}'")
    inner = block.find("{", opening + 1)
    if 0 <= inner < closing:
        raise _Problem(block.offsets[inner], "'{' inside the answers; write \\{ for a brace in a text")
    second = block.find("{", closing + 1)
    if second >= 0:
        raise _Problem(block.offsets[second], "a second set of answers; separate questions with a blank line")
    name, head = _title(block[:opening].strip())
    text_format, head = _format(head)
    prompt = _converted(head.text.strip(), text_format, lost)
    rest = _converted(block[closing + 1 :].text.strip(), text_format, lost)
    if rest:
        # Text after the answers makes a "missing word" question: the answers fill the gap.
        prompt = f"{prompt} _____ {rest}".strip()
    if not prompt and name:
        prompt = name  # "::What is GIFT?::{=...}": the title is all the text there is, as Moodle shows it
    if not prompt:
        raise _Problem(block.offsets[opening], "the question has no text before its answers")
    answers = block[opening + 1 : closing]
    explanation = ""
    general = answers.find("####")
    if general >= 0:
        feedback_format, feedback = _format(answers[general + 4 :].strip())
        feedback_format = text_format if feedback_format == "moodle" else feedback_format
        explanation = _converted(feedback.text.strip(), feedback_format, lost)
        answers = answers[:general]
    answers = answers.strip()
    if answers.syntax.startswith("#"):
        return Draft(place, "number", prompt, [], explanation=explanation, name=name,
                     answer_key=_numerical(answers[1:], answers.offsets[0]))
    choices, kind, feedback = _choices(answers, block.offsets[opening], text_format, lost)
    # Without general feedback, what the right answer's own feedback says explains it best.
    explanation = explanation or feedback
    if kind == "text":
        return Draft(place, kind, prompt, [], explanation=explanation, name=name,
                     answer_key={"accept": [text for text, _ in choices], "fuzzy": False})
    return Draft(place, kind, prompt, choices, explanation=explanation, name=name)


_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_NUMERICAL = re.compile(rf"\s*(?P<answer>{_NUMBER})\s*(?::\s*(?P<tolerance>{_NUMBER}))?\s*")
_NUMERICAL_RANGE = re.compile(rf"\s*(?P<low>{_NUMBER})\s*\.\.\s*(?P<high>{_NUMBER})\s*")


def _numerical(chars: _Chars, at: int) -> dict[str, Any]:
    """A numerical question's answer, ``1200:50`` or ``1150..1250``, as a number question's key."""
    text = chars.syntax
    if match := _NUMERICAL.fullmatch(text):
        answer, tolerance = float(match["answer"]), abs(float(match["tolerance"] or 0))
    elif match := _NUMERICAL_RANGE.fullmatch(text):
        low, high = sorted((float(match["low"]), float(match["high"])))
        answer, tolerance = (low + high) / 2, (high - low) / 2
    else:
        raise _LeftOut(at, _unsupported("a numerical question with several answers or feedback"))
    return {"answer": plain_number(answer), "tolerance": plain_number(tolerance)}



def _title(chars: _Chars) -> tuple[str, _Chars]:
    if not chars.syntax.startswith("::"):
        return "", chars
    end = chars.find("::", 2)
    if end < 0:
        raise _Problem(chars.offsets[0], "the title's '::' is never closed by another '::'")
    return chars[2:end].text.strip(), chars[end + 2 :].strip()


def _format(chars: _Chars) -> tuple[str, _Chars]:
    match = _FORMAT.match(chars.syntax)
    if match is None:
        return "moodle", chars
    return match.group(1), chars[match.end() :].strip()


def _converted(text: str, text_format: str, lost: list[str]) -> str:
    """Plain text of a GIFT text; an ``[html]`` one loses its tags and entities, and what the
    text cannot keep (an image, a link's address) is added to ``lost``."""
    if text_format != "html":
        return text
    text, dropped = plain_text(text)
    lost += dropped
    return text


def _choices(
    answers: _Chars, at: int, text_format: str, lost: list[str],
) -> tuple[list[tuple[str, bool]], str, str]:
    """The choices with whether each is right, the kind of question the answers make, and the
    feedback of the right answer (the first right one), if it has any."""
    if not answers:
        raise _LeftOut(at, _unsupported("an essay question ({})"))
    if match := _TRUE_FALSE.fullmatch(answers.syntax):
        is_true = match.group(1).upper().startswith("T")
        # {T#shown to a wrong answer#shown to a right one}: the second speaks of the right answer.
        marks = [at for at, character in enumerate(answers.syntax) if character == "#"]
        right = _converted(answers[marks[1] + 1 :].text.strip(), text_format, lost) if len(marks) > 1 else ""
        return [("True", is_true), ("False", not is_true)], "true_false", right
    starts = [index for index, character in enumerate(answers.syntax) if character in "=~"]
    markers = [answers.syntax[index] for index in starts]
    arrow = answers.find("->")
    # Matching questions pair = answers; with a ~ answer, "->" is only part of a choice's text.
    if arrow >= 0 and "~" not in markers:
        raise _LeftOut(answers.offsets[arrow], _unsupported("a matching question (->)"))
    if not starts or starts[0] != 0:
        raise _Problem(answers.offsets[0], "each answer starts with = (right) or ~ (wrong)")
    short_answer = "~" not in markers
    most = _MOST_ACCEPTED if short_answer else _MOST_CHOICES
    if len(starts) > most:
        what = f"at most {most} accepted answers" if short_answer else f"2 to {most} choices"
        raise _LeftOut(answers.offsets[0], f"a question has {what}; this one has {len(starts)}")
    # As in Moodle: without any "=" answer, the weights say which of several answers are right.
    several = "=" not in markers
    choices = []
    right_feedback = ""
    for start, end, marker in zip(starts, [*starts[1:], len(answers)], markers):
        at = answers.offsets[start]
        weight, body = _weight(answers[start + 1 : end], at)
        # A choice may carry its own format marker ("=[plain]Paris"), which is no part of its text.
        choice_format, body = _format(body.strip())
        choice_format = text_format if choice_format == "moodle" else choice_format
        if marker == "~" and weight is not None and weight > 0 and not several:
            raise _LeftOut(at, (
                "partial credit (~%...%) cannot be kept when another answer is marked =;"
                " a choice here is right or wrong"
            ))
        feedback = body.find("#")
        text = _converted((body[:feedback] if feedback >= 0 else body).text.strip(), choice_format, lost)
        if not text:
            raise _Problem(at, "this answer has no text")
        if short_answer and weight is not None and weight != 100:
            raise _LeftOut(at, "partial credit (=%...%) on a typed answer cannot be kept; an answer is right or not")
        is_correct = weight is not None and weight > 0 if several else marker == "="
        if is_correct and feedback >= 0 and not right_feedback:
            right_feedback = _converted(body[feedback + 1 :].text.strip(), choice_format, lost)
        choices.append((text, is_correct))
    if short_answer:
        return choices, "text", right_feedback
    return choices, "multi" if several else "single", right_feedback


def _unsupported(question: str) -> str:
    return f"{question} cannot be imported; only multiple choice, true/false, short answer and numerical can"


def _weight(chars: _Chars, at: int) -> tuple[float | None, _Chars]:
    """The ``%50%`` weight at the start of an answer, and the rest of it."""
    body = chars.strip()
    # As Moodle reads it: "%run" is an answer's text, only "%50%" (digits between the signs) a weight.
    if not _WEIGHT.match(body.syntax):
        return None, chars
    end = body.find("%", 1)
    try:
        weight = float(body[1:end].text.replace(",", ".")) if end > 0 else None
    except ValueError:
        weight = None
    if weight is None or not -100 <= weight <= 100:
        raise _Problem(at, "a weight is a percentage between -100 and 100, like ~%50%")
    return weight, body[end + 1 :]
