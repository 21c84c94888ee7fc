"""Dates and numbers as written in an article, parsed so that they can be written again with
other values in exactly the same style ("March 31, 2015", "Nov. 6", "$4.5 billion", "two years").
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, replace
from decimal import Decimal

from quiz.generator.spans import Disjoint
from quiz.kinds.number import NUMBER_WORDS, WORD_NUMBERS

MONTHS = tuple(calendar.month_name)[1:]
_MONTH_ABBREVIATIONS = ("Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec.")
_MONTH_NUMBERS = {
    **{name.lower(): number for number, name in enumerate(MONTHS, 1)},
    **{name.lower().rstrip("."): number for number, name in enumerate(_MONTH_ABBREVIATIONS, 1)},
    "sep": 9, "jun": 6, "jul": 7, "mar": 3, "apr": 4,
}
MONTH_PATTERN = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan\.|Feb\.|Mar\.|Apr\.|Jun\.|Jul\.|Aug\.|Sept?\.|Oct\.|Nov\.|Dec\.)"
)

WORD_NUMBER_PATTERN = "|".join(sorted(WORD_NUMBERS, key=len, reverse=True))
SCALES = ("thousand", "million", "billion", "trillion")


def ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


@dataclass(frozen=True)
class DateForm:
    """A calendar date with the parts the article gave, and how it wrote them.

    ``template`` holds ``{month}``, ``{day}``, ``{ordinal}`` and ``{year}`` placeholders;
    ``abbreviated`` says whether the month was written like "Nov.".
    """

    year: int | None
    month: int
    day: int | None
    template: str
    abbreviated: bool

    def render(self) -> str:
        names = _MONTH_ABBREVIATIONS if self.abbreviated else MONTHS
        return self.template.format(
            month=names[self.month - 1], day=self.day, ordinal=ordinal(self.day or 1), year=self.year
        )

    def ordinal_value(self) -> int:
        """Days since an epoch, to sort dates (a missing year or day counts as the first)."""
        return dt.date(self.year or 2000, self.month, self.day or 1).toordinal()

    def moved(self, *, years: int = 0, months: int = 0, days: int = 0) -> DateForm | None:
        """The same form with another date, or None when that date does not exist."""
        month_index = self.month - 1 + months
        year = (self.year or 2000) + years + month_index // 12
        month = month_index % 12 + 1
        day = self.day
        if day is not None:
            day += days
            if not 1 <= day <= calendar.monthrange(year, month)[1]:
                return None
        if self.year is not None and not 1 <= year <= 9999:
            return None
        return replace(self, year=year if self.year is not None else None, month=month, day=day)


_DATE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\b(?P<month>{MONTH_PATTERN}) (?P<day>\d{{1,2}}), (?P<year>1[5-9]\d\d|20\d\d)\b"), "{month} {day}, {year}"),
    (re.compile(rf"\b(?P<day>\d{{1,2}}) (?P<month>{MONTH_PATTERN}),? (?P<year>1[5-9]\d\d|20\d\d)\b"), "{day} {month} {year}"),
    (re.compile(rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th) of (?P<month>{MONTH_PATTERN}),? (?P<year>1[5-9]\d\d|20\d\d)\b"), "{ordinal} of {month} {year}"),
    (re.compile(rf"\b(?P<month>{MONTH_PATTERN}) of (?P<year>1[5-9]\d\d|20\d\d)\b"), "{month} of {year}"),
    (re.compile(rf"\b(?P<month>{MONTH_PATTERN}),? (?P<year>1[5-9]\d\d|20\d\d)\b"), "{month} {year}"),
    (re.compile(rf"\b(?P<month>{MONTH_PATTERN}) (?P<day>\d{{1,2}})\b(?!,? \d)"), "{month} {day}"),
)


def find_dates(text: str) -> list[tuple[int, int, DateForm]]:
    """Dates in ``text``: (start, end, form), longest match first where patterns overlap."""
    found: list[tuple[int, int, DateForm]] = []
    taken = Disjoint()
    for pattern, template in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            if taken.overlaps(match.start(), match.end()):
                continue
            form = _date_form(match, template)
            if form is not None:
                found.append((match.start(), match.end(), form))
                taken.add(match.start(), match.end())
    return sorted(found, key=lambda item: item[0])


def _date_form(match: re.Match[str], template: str) -> DateForm | None:
    parts = match.groupdict()
    month_text = parts["month"]
    month = _MONTH_NUMBERS[month_text.lower().rstrip(".")]
    year = int(parts["year"]) if parts.get("year") else None
    day = int(parts["day"]) if parts.get("day") else None
    if day is not None and not 1 <= day <= calendar.monthrange(year or 2000, month)[1]:
        return None
    # "May 5" style matches need a plausible day; "June 2" could be anything else too.
    return DateForm(year, month, day, template, abbreviated=month_text.endswith("."))


@dataclass(frozen=True)
class NumberForm:
    """A number and the way it was written: digits or words, separators, decimals, currency,
    scale and unit, so that another value can be written the same way.

    ``unit`` is written after the number (" years", "-month", "%", " percent"); a unit with a
    plural ``s`` loses it for the value 1.
    """

    value: Decimal
    prefix: str = ""
    words: bool = False
    commas: bool = False
    decimals: int = 0
    scale: str = ""
    unit: str = ""

    def render(self) -> str:
        number = self._number()
        scale = f" {self.scale}" if self.scale else ""
        unit = self.unit
        if self.value == 1 and not self.scale and unit[:1] in (" ", "-"):
            unit = _singular(unit)
        return f"{self.prefix}{number}{scale}{unit}"

    def _number(self) -> str:
        if self.words and self.value == int(self.value) and int(self.value) in NUMBER_WORDS:
            return NUMBER_WORDS[int(self.value)]
        if self.words:
            return str(int(self.value))
        quantized = self.value.quantize(Decimal(1).scaleb(-self.decimals)) if self.decimals else self.value.quantize(Decimal(1))
        return f"{quantized:,}" if self.commas else f"{quantized}"

    def with_value(self, value: Decimal) -> NumberForm | None:
        """The same form with ``value``, or None when it cannot be written so (negative, or a
        word number without a word)."""
        if value <= 0:
            return None
        if self.words and (value != int(value) or int(value) not in NUMBER_WORDS):
            return None
        # What dataclasses.replace does, without its checks: drafting writes many values.
        return NumberForm(value, self.prefix, self.words, self.commas, self.decimals, self.scale, self.unit)


def _singular(unit: str) -> str:
    """A unit for the value 1: "1 foot", "1 inch", "one year"."""
    if unit.endswith("feet"):
        return unit[:-4] + "foot"
    if unit.endswith(("ches", "shes", "xes")):
        return unit[:-2]
    if unit.endswith("s") and not unit.endswith("ss"):
        return unit[:-1]
    return unit


def parse_number(text: str, **form: str | bool) -> NumberForm:
    """The form of a number written as ``text`` (digits, "1,200", "4.5" or a word like "two")."""
    lowered = text.lower()
    if lowered in WORD_NUMBERS:
        return NumberForm(Decimal(WORD_NUMBERS[lowered]), words=True, **form)  # type: ignore[arg-type]
    digits = text.replace(",", "")
    decimals = len(digits.partition(".")[2])
    return NumberForm(Decimal(digits), commas="," in text, decimals=decimals, **form)  # type: ignore[arg-type]


def indefinite_article(text: str) -> str:
    """"a" or "an" before ``text`` as it would be read aloud (numbers included: "an 18", "an 8")."""
    word = text.lstrip("$£€\"“'‘(").lower()
    if not word:
        return "a"
    if word[0].isdigit():
        digits = re.match(r"[\d,]+", word)
        leading = digits.group().split(",")[0] if digits else word[0]
        return "an" if leading.startswith("8") or leading in ("11", "18") else "a"
    if word.startswith(("one", "uni", "use", "eu", "ur")):
        return "a"
    if word.startswith(("hour", "honest", "honou", "heir")):
        return "an"
    return "an" if word[0] in "aeiou" else "a"


@dataclass(frozen=True)
class ClockForm:
    """A race or running time such as "2:05:06" (hours, minutes, seconds)."""

    seconds: int

    def render(self) -> str:
        hours, rest = divmod(self.seconds, 3600)
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"

    def with_value(self, value: Decimal) -> ClockForm | None:
        return ClockForm(int(value)) if value > 0 else None

    @property
    def value(self) -> Decimal:
        return Decimal(self.seconds)


def parse_clock(text: str) -> ClockForm:
    hours, minutes, seconds = (int(part) for part in text.split(":"))
    return ClockForm(hours * 3600 + minutes * 60 + seconds)
