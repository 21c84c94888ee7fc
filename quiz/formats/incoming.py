"""What every reader shares: the upload cap, positions in a file, and turning what a file says
into checked question entries.

A reader collects one :class:`Draft` per question with the place it was found, the problems it
met on the way, and the questions it had to leave out; :func:`question_entries` checks the
drafts as the bank would, gives each a unique id and returns a :class:`Read`, or raises
:class:`~quiz.bank.errors.BankInvalid` with every problem at once.

A *problem* is the file being broken (a brace never closed, invalid JSON): nothing is read until
it is fixed. A question the file holds well but that our kinds cannot (an essay, partial credit,
seven choices) is *left out*, with its place and why, and the rest is read.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, NoReturn

from pydantic import ValidationError

from quiz.bank.errors import BankError, BankInvalid
from quiz.quotes import fold
from quiz.bank.schema import IDENTIFIER_PATTERN, QuestionSpec
from quiz.kinds import KINDS, Content

#: Files larger than this are refused before they are parsed.
MAX_UPLOAD_BYTES = 2 * 1024 * 1024

#: Ids made from prompts stop at a word boundary before this length, leaving room for "-99".
_ID_LENGTH = 48


@dataclass(frozen=True)
class Place:
    """Where something is in its file: 1-based line and column (sheet row and column for a
    spreadsheet), and a name for it such as ``results[3].question`` or ``Sheet1!C9``."""

    line: int
    column: int
    location: str = ""

    def error(self, file: str, message: str) -> BankError:
        return BankError(file, self.line, self.column, self.location, message)


@dataclass
class Draft:
    """A question as a file gives it, before it is checked."""

    place: Place
    kind: str
    prompt: str
    #: The choices, each with whether it is correct; True and False for a true_false question.
    choices: list[tuple[str, bool]]
    explanation: str = ""
    #: What the file calls the question (a GIFT title, say); the id is made from it, else from the prompt.
    name: str = ""
    difficulty: str | None = None
    tags: list[str] = field(default_factory=list)
    time_limit: int | None = None
    #: For kinds graded by more than choices: a number and its tolerance, accepted texts.
    answer_key: dict[str, Any] | None = None


@dataclass(frozen=True)
class Read:
    """What a reader made of a file."""

    #: Bank entries of the questions read, without ``quiz`` and ``source``.
    entries: list[dict[str, Any]]
    #: Each question of the file that was left out, at its place, saying what it is and why.
    skipped: list[BankError] = field(default_factory=list)
    #: What read questions lost on the way (an image, a link's address), at its place.
    notes: list[BankError] = field(default_factory=list)

    def strict(self) -> list[dict[str, Any]]:
        """The entries, if no question was left out; raises :class:`BankInvalid` naming them otherwise."""
        if self.skipped:
            raise BankInvalid(self.skipped)
        return self.entries


def refuse(file: str, place: Place, message: str) -> NoReturn:
    """Stop reading: the file is broken at ``place`` in a way that hides everything after it."""
    raise BankInvalid([place.error(file, message)])


def check_size(data: bytes, file: str) -> None:
    if len(data) > MAX_UPLOAD_BYTES:
        refuse(file, Place(1, 1), f"file is {len(data):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}")


def decode_text(data: bytes, file: str) -> str:
    """The file's text, without the byte order mark that spreadsheet and Windows editors add."""
    check_size(data, file)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8")
        line, column = Lines(before).position(len(before))
        refuse(file, Place(line, column), f"invalid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8")
    return text.removeprefix("\ufeff")


class Lines:
    """Finds the line and column of any place in a text without counting lines again each time
    (a file may have tens of thousands of questions)."""

    def __init__(self, text: str):
        self.starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of ``text[offset]``."""
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def plain_number(value: float) -> float | int:
    """``value`` as a bank entry writes it: 1200 rather than 1200.0."""
    return int(value) if value.is_integer() else value


def slug_for(text: str) -> str:
    """A valid id made from the first words of ``text``: "Who won in 2014?" -> ``who-won-in-2014``."""
    # Accents fall away ("é" is "e" and a combining accent); other non-ASCII characters
    # (typographic apostrophes, "°") separate words like spaces.
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(
        character if character.isascii() else "" if unicodedata.combining(character) else " "
        for character in decomposed
    ).lower()
    words = re.findall(r"[a-z0-9]+", plain)
    slug = ""
    for word in words:
        if len(slug) + 1 + len(word) > _ID_LENGTH:
            break
        slug = f"{slug}-{word}" if slug else word
    if not slug and words:  # a first word longer than the limit
        slug = words[0][:_ID_LENGTH]
    if not slug and text.strip():
        # No Latin letters or digits ("日本の首都は？"): an id from the text itself, so that it stays
        # the same whatever the question's place in the file.
        return "question-" + hashlib.sha256(text.strip().encode()).hexdigest()[:8]
    return slug or "question"


#: Parts of a Moodle category path that name no topic: the context, the top, the default category.
_NO_TOPIC = re.compile(r"\$(?:course|system|module|coursecategory|cat\d*)\$|top|default for .*", re.IGNORECASE)


def category_tag(path: str) -> str | None:
    """A tag for the last named category of a Moodle category path like
    ``$course$/top/Films/Kiss & Cry`` (GIFT's ``$CATEGORY:``, Moodle XML's ``<category>``);
    Moodle writes a "/" inside a name as "//"."""
    names = [name.replace("\0", "/").strip() for name in path.replace("//", "\0").split("/")]
    topics = [name for name in names if name and not _NO_TOPIC.fullmatch(name)]
    return slug_for(topics[-1]) if topics else None


def question_entries(
    file: str, drafts: list[Draft], errors: list[BankError], skipped: list[BankError] | None = None,
    notes: list[BankError] | None = None,
) -> Read:
    """Bank entries for ``drafts``, checked as the bank checks them, with ids unique in the file.

    A draft the bank would refuse is left out, each reason said at its place. Raises
    :class:`BankInvalid` listing ``errors`` if there are any, or when no question is left to
    import. The entries carry no ``quiz`` and no ``source``: whoever imports them decides both.
    """
    if errors:
        raise BankInvalid(errors)
    skipped = list(skipped or [])
    ids = _Ids()
    entries = []
    for draft in drafts:
        entry = _entry(draft, "question")
        problems = _problems(entry, draft)
        if problems:
            skipped.extend(draft.place.error(file, problem) for problem in problems)
            continue
        # A name that is an id already (as this app's exports write them) is kept as it is.
        name_is_id = re.match(IDENTIFIER_PATTERN, draft.name) is not None
        entry["id"] = ids.unique(draft.name if name_is_id else slug_for(draft.name or draft.prompt))
        entries.append(entry)
    if not entries:
        if not skipped:
            raise BankInvalid([BankError(file, 1, 1, "", "no questions found in the file")])
        raise BankInvalid([BankError(file, 1, 1, "", "no question in the file can be imported"), *skipped])
    return Read(entries, sorted(skipped), sorted(notes or []))


class _Ids:
    """Hands out ids unique in a file: ``q``, then ``q-2``, ``q-3``..."""

    def __init__(self) -> None:
        self.used: set[str] = set()
        #: The next number to try for each slug, so that many equal prompts stay quick.
        self.next_number: dict[str, int] = {}

    def unique(self, slug: str) -> str:
        number = self.next_number.get(slug, 1)
        candidate = slug if number == 1 else f"{slug}-{number}"
        while candidate in self.used:
            number += 1
            candidate = f"{slug}-{number}"
        self.next_number[slug] = number + 1
        self.used.add(candidate)
        return candidate


def _entry(draft: Draft, identifier: str) -> dict[str, Any]:
    correct = [text for text, is_correct in draft.choices if is_correct]
    entry: dict[str, Any] = {"id": identifier, "kind": draft.kind}
    if draft.difficulty:
        entry["difficulty"] = draft.difficulty
    entry["prompt"] = draft.prompt
    kind = KINDS[draft.kind]
    if not kind.picks:
        entry.update(kind.entry(Content(tuple(draft.choices), draft.answer_key)))
        correct = [kind.expected((), draft.answer_key)]
    elif kind.fixed_choices is not None:
        entry["correct"] = draft.choices[0][1]
    else:
        entry["choices"] = [text for text, _ in draft.choices]
        entry["correct"] = correct if kind.multiple else (correct[0] if len(correct) == 1 else correct)
    # The bank needs an explanation and many formats have no feedback: say what the answer is.
    entry["explanation"] = draft.explanation.strip() or _answer_statement(correct)
    if draft.tags:
        entry["tags"] = draft.tags
    if draft.time_limit is not None:
        entry["time_limit"] = draft.time_limit
    return entry


def _answer_statement(correct: list[str]) -> str:
    if len(correct) == 1:
        return f"The correct answer is: {correct[0]}"
    return "The correct answers are: " + "; ".join(correct)


def _problems(entry: dict[str, Any], draft: Draft) -> list[str]:
    """What the bank would refuse in ``entry``, each message naming the field."""
    try:
        QuestionSpec.model_validate(entry)
    except ValidationError as exc:
        # How many choices are correct is told below, in the kind's own words.
        problems = [_schema_message(error) for error in exc.errors() if error["loc"][:1] != ("correct",)]
    else:
        problems = []
    kind = KINDS[draft.kind]
    if kind.fixed_choices is not None or not kind.picks:
        return problems
    seen: dict[str, int] = {}
    for number, (text, _) in enumerate(draft.choices, 1):
        key = fold(text).casefold()
        if key in seen:
            problems.append(f"choice {number} ('{text}') repeats choice {seen[key]}")
        seen.setdefault(key, number)
    message = kind.correct_count_error(sum(is_correct for _, is_correct in draft.choices), len(draft.choices))
    if message:
        problems.append(message)
    return problems


_FIELD_NAMES = {
    "prompt": "the question", "choices": "the choices", "explanation": "the feedback", "time_limit": "the time limit",
}


def _schema_message(error: dict[str, Any]) -> str:
    loc = error["loc"]
    if loc == ("choices",) and error["type"] in ("too_short", "too_long"):
        return f"a question has 2 to 6 choices; this one has {len(error['input'])}"
    name = _FIELD_NAMES.get(str(loc[0]), str(loc[0])) if loc else "the question"
    if len(loc) >= 2 and loc[0] == "choices" and isinstance(loc[1], int):
        name = f"choice {loc[1] + 1}"
    message = error["msg"].removeprefix("Value error, ")
    return f"{name}: {message[0].lower()}{message[1:]}"
