"""What every question kind shares: the data a kind works on, and the class each kind fills in.

A kind owns everything that differs between kinds: how its bank entry is checked and written
back, the order its choices are shown in, how a page's form and the API's body become an
answer, how that answer is graded and stored, what the reveal shows, and how a class's or a
quiz's answers add up. The rest of the app asks the kind; it never tests a kind's name.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l

#: Fields every bank entry may have, whatever its kind.
COMMON_FIELDS = frozenset(
    {"id", "quiz", "kind", "difficulty", "prompt", "explanation", "source", "tags", "time_limit", "group"}
)


@dataclass(frozen=True)
class ChoiceData:
    """A choice (or an ordering question's item) as stored with its revision."""

    #: 0-based place in the bank file: bit ``1 << position`` of an answer's mask. An ordering
    #: question's items are listed in the right order, so it is also the item's right place.
    position: int
    text: str
    is_correct: bool


@dataclass(frozen=True)
class Content:
    """A checked bank entry's kind-specific part: its choices and answer key, as stored."""

    #: (text, is_correct) per choice or item, in the file's order.
    choices: tuple[tuple[str, bool], ...] = ()
    #: What grading needs beyond the choices (a number and its tolerance, accepted texts).
    answer_key: dict[str, Any] | None = None


@dataclass(frozen=True)
class Submission:
    """An answer as sent, before its kind reads it; each kind uses one field.

    Choices and items are named by their numbers on screen (from 1), in the order shown.
    """

    choices: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    #: As typed on a page, or a JSON number from the API.
    number: str | float | None = None
    text: str | None = None


@dataclass(frozen=True)
class Graded:
    """An answer graded: what is stored of it, and how right it is."""

    #: Bit ``1 << ChoiceData.position`` for each choice picked; 0 for kinds without picks.
    selected_mask: int = 0
    #: The answer itself as JSON, for kinds whose answer is not a set of picks.
    response: str | None = None
    #: From 0 to 1; None for a kind whose answers are never right or wrong (a poll).
    credit: float | None = 0.0

    @property
    def is_correct(self) -> bool:
        return self.credit == 1.0


@dataclass(frozen=True)
class RevealedChoice:
    """A choice or item after the answer: whether it is right, and what the player did with it."""

    number: int
    text: str
    is_correct: bool
    picked: bool = False
    #: Ordering: the place the player gave the item (from 1), and whether it is the right one.
    placed: int | None = None


@dataclass(frozen=True)
class Reveal:
    """What a player learns of their own answer."""

    #: The choices (or items, in the right order) with their marks; empty for typed answers.
    choices: list[RevealedChoice]
    #: The answer given, in words, for kinds whose answer is not a pick ("1994", "Toronto").
    given: str | None = None
    #: The right answer in words, for the same kinds.
    expected: str | None = None
    credit: float | None = None
    #: "right", "partly", "wrong" or "voted" (a poll).
    verdict: str = "wrong"

    @property
    def correct_choices(self) -> list[RevealedChoice]:
        return [choice for choice in self.choices if choice.is_correct]

    @property
    def picked_choices(self) -> list[RevealedChoice]:
        return [choice for choice in self.choices if choice.picked]


@dataclass(frozen=True)
class TallyRow:
    """One bar of how a group answered: a choice, an item, a value or a typed answer."""

    label: str
    count: int
    share: float
    is_correct: bool
    #: The choice's or item's number on screen, for kinds that have them.
    number: int | None = None


@dataclass(frozen=True)
class Tally:
    """How a group of answers to one question add up, as the reveal and statistics show them."""

    #: The caption over the rows ("Answers", "Put in the right place"), in the request's language.
    caption: str
    rows: list[TallyRow]
    #: Answers counted.
    total: int
    #: Answers outside the rows shown (a long tail of typed answers).
    others: int = 0


#: Reports a problem at a place under the question's entry: (("correct",), "message").
Report = Callable[[tuple[str | int, ...], str], None]
#: (selected_mask, response, count) for each distinct answer given.
AnswerGroups = Iterable[tuple[int, str | None, int]]


class Kind:
    """A question kind; subclasses fill in what differs. Instances hold no state."""

    name: ClassVar[str]
    #: Shown in the admin and the docs.
    label: ClassVar[LazyString]
    #: Shown above the answer widget, as :attr:`instruction` gives it.
    instruction_message: ClassVar[LazyString]
    #: The template whose macros ``widget``, ``shown`` and ``reveal`` show the question and its
    #: answer, and the script (under static/) that enhances the widget, if any.
    template: ClassVar[str]
    script: ClassVar[str | None] = None
    #: Several choices may be picked (check boxes rather than radio buttons).
    multiple: ClassVar[bool] = False
    #: Answers are right or wrong and earn points; a poll's are neither.
    scored: ClassVar[bool] = True
    #: The players see choices (or items) to pick or order.
    shows_choices: ClassVar[bool] = True
    #: Answered by picking choices with radio buttons or check boxes.
    picks: ClassVar[bool] = False
    #: What the reveal calls the right answer in words (see :meth:`expected`).
    expected_label: ClassVar[LazyString] = _l("The answer")
    #: The field of a :class:`Submission` (and of the API's answer body) this kind reads.
    answer_field: ClassVar[str]
    #: Fields of a bank entry this kind reads, beyond :data:`COMMON_FIELDS`.
    fields: ClassVar[frozenset[str]] = frozenset()
    #: The field listing the texts players pick from or order; the loader checks they differ.
    choices_field: ClassVar[str | None] = None
    #: The choices every question of this kind has, which authors leave out (True, False).
    fixed_choices: ClassVar[tuple[str, ...] | None] = None
    #: Those choices in the words of other languages a quiz may be written in (by primary
    #: language subtag): they are the question's text, shown in the quiz's language.
    fixed_choices_by_language: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: Interchange formats (names in :data:`quiz.formats.FORMATS`) that can carry the kind.
    formats: ClassVar[frozenset[str]] = frozenset({"yaml", "csv"})

    def fixed_choices_in(self, language: str) -> tuple[str, ...] | None:
        """:attr:`fixed_choices` in a quiz's ``language`` (a BCP 47 tag), English otherwise."""
        primary = language.split("-")[0].lower()
        return self.fixed_choices_by_language.get(primary, self.fixed_choices)

    @property
    def instruction(self) -> str:
        """What the player is asked to do, in the request's language: a plain string, as the
        API's schemas and the live screen's JSON take."""
        return str(self.instruction_message)

    # The bank ----------------------------------------------------------------------------

    def check(self, spec: Any, report: Report) -> Content | None:
        """The entry's choices and answer key, or None after reporting what is wrong."""
        raise NotImplementedError

    def entry(self, content: Content) -> dict[str, Any]:
        """The kind's fields of a bank entry, as :meth:`check` reads them back."""
        raise NotImplementedError

    # Play --------------------------------------------------------------------------------

    def shown_order(
        self, choices: Sequence[ChoiceData], *, seed: int, question_id: int, shuffle: bool
    ) -> tuple[ChoiceData, ...]:
        """The choices in the order a player sees them: the same on every reload and screen of
        the attempt or session seeded ``seed``."""
        order = list(choices)
        if shuffle:
            random.Random(f"{seed}:{question_id}").shuffle(order)
        return tuple(order)

    def public(self, answer_key: dict | None) -> dict[str, Any]:
        """What of the answer key a player may see before answering (a number's unit)."""
        return {}

    def read_form(self, form: Mapping[str, list[str]], shown: Sequence[ChoiceData]) -> Submission:
        """A page's form fields (name -> values) as a submission; InvalidAnswer if it holds none."""
        raise NotImplementedError

    def grade(self, shown: Sequence[ChoiceData], answer_key: dict | None, submission: Submission) -> Graded:
        """Grade a submission; InvalidAnswer when it does not fit the question."""
        raise NotImplementedError

    def reveal(
        self, shown: Sequence[ChoiceData], answer_key: dict | None, selected_mask: int, response: str | None,
        credit: float | None,
    ) -> Reveal:
        """What the player learns of a stored answer."""
        raise NotImplementedError

    def expected(self, shown: Sequence[ChoiceData], answer_key: dict | None) -> str:
        """The right answer in words, for exports, results tables and the host's reveal."""
        return ", ".join(choice.text for choice in shown if choice.is_correct)

    def answer_phrases(self, choices: Sequence[Any], answer_key: dict | None) -> list[str]:
        """Phrases that give the answer away wherever a player reads them (another question's
        prompt or feedback, say): the correct choices' texts; none for kinds whose answer is
        not a phrase (true or false, an order, a vote). ``choices`` are stored or checked ones
        (with ``text`` and ``is_correct``) or (text, is_correct) pairs."""
        pairs = (choice if isinstance(choice, tuple) else (choice.text, choice.is_correct) for choice in choices)
        return [text for text, is_correct in pairs if is_correct]

    def answer_text(self, shown: Sequence[ChoiceData], selected_mask: int, response: str | None) -> str:
        """A stored answer in words, for results tables and CSV files."""
        return ", ".join(choice.text for choice in shown if selected_mask & (1 << choice.position))

    def tally(self, shown: Sequence[ChoiceData], answer_key: dict | None, groups: AnswerGroups) -> Tally:
        """How a group's answers add up, for the reveal and statistics."""
        raise NotImplementedError


def verdict(credit: float | None) -> str:
    if credit is None:
        return "voted"
    if credit == 1.0:
        return "right"
    return "partly" if credit > 0 else "wrong"


def one_value(form: Mapping[str, list[str]], name: str) -> str:
    values = form.get(name) or []
    return values[0] if values else ""


def response_value(response: str | None) -> Any:
    return json.loads(response) if response is not None else None

