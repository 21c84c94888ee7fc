"""Number questions: the player types a number, right when within the tolerance of the answer."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from quiz.kinds.base import (
    AnswerGroups,
    ChoiceData,
    Content,
    Graded,
    Kind,
    Report,
    Reveal,
    Submission,
    Tally,
    TallyRow,
    one_value,
    response_value,
    verdict,
)
from quiz.refusals import InvalidAnswer

#: The most characters a typed number may have.
MAX_TYPED = 40
#: Distinct values a tally shows; the rest are counted together.
TALLY_ROWS = 8

#: Numbers as English spells them out ("six minutes").
WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
NUMBER_WORDS = {number: word for word, number in WORD_NUMBERS.items()}
#: Below this, a number's word gives it away only beside the unit ("two years"): "one" and
#: "two" stand in "one of them", "no one" or "the two men" far more often than they count.
_WORD_ALONE_FROM = 3

_GROUPED = re.compile(r"\d{1,3}(,\d{3})+(\.\d+)?")
_PLAIN = re.compile(r"\d+([.,]\d+)?|[.,]\d+")


def parse_number(typed: str, unit: str | None = None) -> float | None:
    """The number in ``typed``, as people write them: "1994", "-3.5", "3,5", "1,000,000",
    "1 000", "12 km" for a question in km. None when it is no number."""
    text = typed.strip().replace("\u2212", "-")
    if unit and text.casefold().endswith(unit.casefold()):
        text = text[: -len(unit)].strip()
    sign = -1.0 if text.startswith("-") else 1.0
    text = text.lstrip("+-").strip()
    # Spaces of every width group thousands ("1 000"), as do commas before a point.
    text = re.sub(r"(?<=\d)[ \u00a0\u202f_'](?=\d{3})", "", text)
    if _GROUPED.fullmatch(text):
        text = text.replace(",", "")
    elif _PLAIN.fullmatch(text):
        text = text.replace(",", ".")  # a lone decimal comma, as French and others write it
    else:
        return None
    value = sign * float(text)
    return value if math.isfinite(value) else None


def format_number(value: float) -> str:
    """A number as the bank would write it: no ".0" on whole numbers, no exponent for years."""
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


class NumberKind(Kind):
    name = "number"
    label = _l("A number")
    instruction_message = _l("Type a number.")
    template = "kinds/number.html"
    answer_field = "number"
    shows_choices = False
    fields = frozenset({"answer", "tolerance", "unit"})
    formats = frozenset({"yaml", "csv", "gift", "moodle-xml"})

    def check(self, spec: Any, report: Report) -> Content | None:
        if spec.answer is None:
            report(("answer",), "a number question needs its answer (answer: 1994)")
            return None
        key: dict[str, Any] = {"answer": spec.answer, "tolerance": spec.tolerance or 0}
        if spec.unit is not None:
            key["unit"] = spec.unit
        return Content((), key)

    def entry(self, content: Content) -> dict[str, Any]:
        key = content.answer_key or {}
        entry: dict[str, Any] = {"answer": key["answer"]}
        if key.get("tolerance"):
            entry["tolerance"] = key["tolerance"]
        if key.get("unit") is not None:
            entry["unit"] = key["unit"]
        return entry

    def public(self, answer_key: dict | None) -> dict[str, Any]:
        return {"unit": (answer_key or {}).get("unit")}

    def read_form(self, form: Mapping[str, list[str]], shown: Sequence[ChoiceData]) -> Submission:
        typed = one_value(form, "number").strip()
        if not typed:
            raise InvalidAnswer(_("Type a number."), "number")
        return Submission(number=typed)

    def grade(self, shown: Sequence[ChoiceData], answer_key: dict | None, submission: Submission) -> Graded:
        key = answer_key or {}
        if isinstance(submission.number, (int, float)):
            try:
                value = float(submission.number)
            except OverflowError:  # an integer beyond any float
                value = math.inf
            if not math.isfinite(value):
                raise InvalidAnswer(_("Give a finite number."), "number")
        else:
            typed = (submission.number or "").strip()
            if not typed:
                raise InvalidAnswer(_("Type a number."), "number")
            if len(typed) > MAX_TYPED:
                raise InvalidAnswer(_("A number of at most %(count)s characters.", count=MAX_TYPED), "number")
            value = parse_number(typed, key.get("unit"))
            if value is None:
                raise InvalidAnswer(
                    _("“%(typed)s” is not a number: type digits, such as 1994 or 2.5.", typed=typed), "number"
                )
        return Graded(0, json.dumps(value), 1.0 if self._within(value, key) else 0.0)

    @staticmethod
    def _within(value: float, key: dict) -> bool:
        answer, tolerance = float(key["answer"]), float(key.get("tolerance") or 0)
        # A hair of slack for binary fractions: 0.1 + 0.2 is within 0 of 0.3.
        return abs(value - answer) <= tolerance + 1e-9 * max(1.0, abs(answer))

    def _with_unit(self, value: float, key: dict) -> str:
        unit = key.get("unit")
        return f"{format_number(value)} {unit}" if unit else format_number(value)

    def expected(self, shown: Sequence[ChoiceData], answer_key: dict | None) -> str:
        key = answer_key or {}
        text = self._with_unit(key["answer"], key)
        if key.get("tolerance"):
            return _("%(answer)s (give or take %(tolerance)s)", answer=text, tolerance=format_number(key["tolerance"]))
        return text

    def answer_phrases(self, choices, answer_key) -> list[str]:
        answer = (answer_key or {}).get("answer")
        if answer is None:
            return []
        written = format_number(answer)
        grouped = f"{answer:,}" if float(answer).is_integer() and abs(answer) >= 1000 else written
        phrases = {written, grouped.replace(".0", "") if grouped.endswith(".0") else grouped}
        # "six minutes" in one prompt tells another's typed 6 as plainly as "6" would.
        word = NUMBER_WORDS.get(answer)
        unit = (answer_key or {}).get("unit")
        if word is not None and answer >= _WORD_ALONE_FROM:
            phrases.add(word)
        elif word is not None and unit:
            phrases.add(f"{word} {unit}")
            if unit.isalpha():
                # "the two-day shutdown" tells a typed 2 in days as plainly as "two days".
                phrases.add(f"{word}-{unit.removesuffix('s')}")
        return sorted(phrases)

    def answer_text(self, shown: Sequence[ChoiceData], selected_mask: int, response: str | None) -> str:
        value = response_value(response)
        return format_number(value) if value is not None else ""

    def reveal(
        self, shown: Sequence[ChoiceData], answer_key: dict | None, selected_mask: int, response: str | None,
        credit: float | None,
    ) -> Reveal:
        value = response_value(response)
        given = self._with_unit(value, answer_key or {}) if value is not None else None
        return Reveal([], given=given, expected=self.expected(shown, answer_key), credit=credit, verdict=verdict(credit))

    def tally(self, shown: Sequence[ChoiceData], answer_key: dict | None, groups: AnswerGroups) -> Tally:
        """The values given, most given first (ties by value), the right ones marked."""
        counts: Counter[float] = Counter()
        for _mask, response, count in groups:
            value = response_value(response)
            if value is not None:
                counts[float(value)] += count
        total = sum(counts.values())
        top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TALLY_ROWS]
        rows = [
            TallyRow(self._with_unit(value, answer_key or {}), count, count / total if total else 0.0,
                     self._within(value, answer_key or {}))
            for value, count in sorted(top)
        ]
        return Tally(_("Numbers given"), rows, total, total - sum(count for _value, count in top))
