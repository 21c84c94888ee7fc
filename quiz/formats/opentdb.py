"""Open Trivia DB's JSON, as its API (https://opentdb.com/api.php) answers::

    {"response_code": 0, "results": [{"type": "multiple", "difficulty": "easy",
      "category": "Science &amp; Nature", "question": "...", "correct_answer": "...",
      "incorrect_answers": ["...", "...", "..."]}]}

``type`` is ``multiple`` or ``boolean`` (whose answers are "True" and "False"). Texts are
HTML-entity encoded, the API's default; they are unescaped here and autoescaped when shown.
The API's other encodings, ``encode=base64`` and ``encode=url3986`` (every text of a result
encoded), are recognised by the ``type`` they make of "multiple" and "boolean", and decoded.
The category becomes a tag.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import json
import re
import urllib.parse
from collections.abc import Callable
from json.decoder import scanstring
from typing import Any

from quiz.bank.errors import BankError
from quiz.formats.incoming import Draft, Lines, Place, Read, decode_text, question_entries, refuse, slug_for

_DIFFICULTIES = ("easy", "medium", "hard")
#: What a result's field holds when the field is not there at all.
_MISSING = object()
_RESPONSE_CODES = {
    1: "no results: the request asked for more questions than the category has",
    2: "invalid parameter in the request",
    3: "session token not found",
    4: "session token has returned every question",
    5: "rate limited: too many requests",
}


def read(data: bytes, filename: str) -> Read:
    text = decode_text(data, filename)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        refuse(filename, Place(exc.lineno, exc.colno), f"invalid JSON: {exc.msg}")
    except RecursionError:
        refuse(filename, Place(1, 1), "invalid JSON: nested too deeply")
    reader = _Reader(filename, text)
    if reader.duplicate is not None:
        # json.loads keeps the last of two equal keys; which one the file meant is anyone's guess.
        path, key = reader.duplicate
        line, column = reader.lines.position(reader.offsets[path])
        refuse(filename, Place(line, column, _json_path(path)), f"duplicate key {json.dumps(key)}")
    if not isinstance(document, dict) or not isinstance(document.get("results"), list):
        refuse(filename, reader.place(()), "expected an object with a \"results\" list, as Open Trivia DB answers")
    code = document.get("response_code", 0)
    if code != 0:
        reason = _RESPONSE_CODES.get(code, "the request failed") if isinstance(code, int) else "the request failed"
        refuse(filename, reader.place(("response_code",)), f"response_code {code}: {reason}")
    decode = _decoder(document["results"])
    for index, result in enumerate(document["results"]):
        reader.result(index, _decoded(result, decode) if decode is not None else result)
    return question_entries(filename, reader.drafts, reader.errors)


class _Reader:
    def __init__(self, file: str, text: str):
        self.file = file
        self.lines = Lines(text)
        self.offsets: dict[tuple[str | int, ...], int] = {}
        #: The first key repeated in an object (the path of its second value, the key).
        self.duplicate: tuple[tuple[str | int, ...], str] | None = None
        node_offsets(text, self.offsets, self._repeated)
        self.drafts: list[Draft] = []
        self.errors: list[BankError] = []

    def _repeated(self, path: tuple[str | int, ...], key: str) -> None:
        if self.duplicate is None:
            self.duplicate = (path, key)

    def place(self, path: tuple[str | int, ...]) -> Place:
        """Where the value at ``path`` starts, or the nearest enclosing value that exists."""
        while path not in self.offsets:
            path = path[:-1]
        line, column = self.lines.position(self.offsets[path])
        return Place(line, column, _json_path(path))

    def error(self, path: tuple[str | int, ...], message: str) -> None:
        self.errors.append(self.place(path).error(self.file, message))

    def result(self, index: int, result: Any) -> None:
        path: tuple[str | int, ...] = ("results", index)
        if not isinstance(result, dict):
            self.error(path, "each result is an object with type, question, correct_answer and incorrect_answers")
            return
        problems = len(self.errors)
        kind = result.get("type")
        if kind not in ("multiple", "boolean"):
            self.error((*path, "type"), f"type must be \"multiple\" or \"boolean\", not {json.dumps(kind)}")
        question = self._text((*path, "question"), result.get("question", _MISSING))
        correct = self._text((*path, "correct_answer"), result.get("correct_answer", _MISSING))
        answers = result.get("incorrect_answers")
        if not isinstance(answers, list) or not answers:
            self.error((*path, "incorrect_answers"), "incorrect_answers must be a list of texts")
            answers = []
        wrong = [self._text((*path, "incorrect_answers", position), text) for position, text in enumerate(answers)]
        difficulty = result.get("difficulty")
        if difficulty is not None and difficulty not in _DIFFICULTIES:
            self.error((*path, "difficulty"), "difficulty must be easy, medium or hard")
        category = result.get("category")
        if category is not None and not isinstance(category, str):
            self.error((*path, "category"), "category must be a text")
        if len(self.errors) > problems or question is None or correct is None or None in wrong:
            return
        tags = [slug_for(html.unescape(category))] if category else []
        if kind == "boolean":
            if correct not in ("True", "False") or wrong != ["False" if correct == "True" else "True"]:
                self.error((*path, "correct_answer"), "a boolean question's answers are \"True\" and \"False\"")
                return
            choices = [("True", correct == "True"), ("False", correct == "False")]
            kind_name = "true_false"
        else:
            choices = _shuffled(question, [(correct, True), *((text, False) for text in wrong)])
            kind_name = "single"
        self.drafts.append(Draft(self.place(path), kind_name, question, choices, difficulty=difficulty, tags=tags))

    def _text(self, path: tuple[str | int, ...], value: Any) -> str | None:
        """``value`` (found at ``path``) unescaped; None, with the error told, if it is not text."""
        if value is _MISSING:
            self.error(path, f"\"{path[-1]}\" is missing")
            return None
        if not isinstance(value, str):
            self.error(path, "must be a text")
            return None
        # JSON can escape half of a character ("\ud800"); such text can be neither stored nor shown.
        if any("\ud800" <= character <= "\udfff" for character in value):
            self.error(path, "holds an invalid character (an unpaired \\u surrogate escape)")
            return None
        return html.unescape(value).strip()


#: How each of the API's encodings writes a result's type.
_ENCODED_TYPES = {
    "base64": {base64.b64encode(kind.encode()).decode(): kind for kind in ("multiple", "boolean")},
    "url3986": {"multiple": "multiple", "boolean": "boolean"},
}


def _decoder(results: list[Any]) -> Callable[[str], str] | None:
    """How the results' texts are encoded, told by the first result: None for the API's default
    (HTML entities, unescaped later), else the function that decodes one text."""
    first = next((result for result in results if isinstance(result, dict)), None)
    if first is None:
        return None
    if first.get("type") in _ENCODED_TYPES["base64"]:
        return _from_base64
    question = first.get("question")
    # url3986 keeps "multiple" as it is, and writes every space of the question as %20.
    if isinstance(question, str) and " " not in question and re.search(r"%[0-9A-Fa-f]{2}", question):
        return urllib.parse.unquote
    return None


def _from_base64(text: str) -> str:
    try:
        return base64.b64decode(text, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return text  # not encoded after all: the reader says what is wrong with it


def _decoded(result: Any, decode: Callable[[str], str]) -> Any:
    """The result with every text in it decoded (its keys stay as they are)."""
    if isinstance(result, str):
        return decode(result)
    if isinstance(result, list):
        return [_decoded(item, decode) for item in result]
    if isinstance(result, dict):
        return {key: _decoded(value, decode) for key, value in result.items()}
    return result


def _shuffled(question: str, choices: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """The correct answer moved to a place that depends on the question alone: Open Trivia DB
    lists it first, and a quiz played without shuffling would give it away. The same file
    always imports the same way, so importing it again changes nothing."""
    place = int.from_bytes(hashlib.sha256(question.encode()).digest()[:4], "big") % len(choices)
    correct, *wrong = choices
    return [*wrong[:place], correct, *wrong[place:]]


def _json_path(path: tuple[str | int, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


#: Values nested deeper than this have no position of their own (a result's fields are at depth 3
#: or 4); the walk skips them in one step, so that it never recurses deeply.
_TRACKED_DEPTH = 8


def node_offsets(
    text: str,
    offsets: dict[tuple[str | int, ...], int] | None = None,
    repeated: Callable[[tuple[str | int, ...], str], None] | None = None,
) -> dict[tuple[str | int, ...], int]:
    """Where each value of a valid JSON text starts, by its path: ``("results", 0, "question")``.

    The standard library's parser keeps no positions; this walks the text again, reading
    strings and scalars with its own functions. ``repeated`` hears of every key that an object
    holds twice, with the path of its later value, which is where ``offsets`` then points.
    """
    offsets = {} if offsets is None else offsets
    decoder = json.JSONDecoder()

    def skip_space(at: int) -> int:
        while at < len(text) and text[at] in " \t\n\r":
            at += 1
        return at

    def value(at: int, path: tuple[str | int, ...]) -> int:
        at = skip_space(at)
        offsets[path] = at
        opening = text[at]
        if opening not in "[{" or len(path) >= _TRACKED_DEPTH:
            return decoder.raw_decode(text, at)[1]
        closing = "]" if opening == "[" else "}"
        at = skip_space(at + 1)
        index = 0
        while text[at] != closing:
            if opening == "{":
                key, at = scanstring(text, at + 1)
                at = skip_space(at) + 1  # the colon
                if repeated is not None and (*path, key) in offsets:
                    repeated((*path, key), key)
                at = value(at, (*path, key))
            else:
                at = value(at, (*path, index))
                index += 1
            at = skip_space(at)
            if text[at] == ",":
                at = skip_space(at + 1)
        return at + 1

    value(0, ())
    return offsets
