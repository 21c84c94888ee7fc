"""Wrong choices of the same kind as the answer, for a question on a date, a year or a figure.

Candidates come first from the same article (another date, another count), then from the
other articles given, then from changing the answer's value and writing it the same way. They
are shown in order; which of them is the answer follows the ``seed`` the drafting passes (it
turns with each question), so that it is not always the middle or the largest. Names are not
offered as choices: a name is typed (see :mod:`quiz.generator.drafting`).

Each article's values are indexed once (see :class:`Lenders`): a question looks up the values
nearest its answer, rather than reading every fact of every article, so that drafting time
grows with the article and not with its square.

Changed values stay plausible: a duration moves to another common value of its unit ("12-hour",
"48-hour", never "25-hour"), and a count of things is never "one" before a plural.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from quiz.quotes import fold
from quiz.generator.facts import FACT_KINDS, Article, Fact, Form, counted_noun
from quiz.generator.numbers import ClockForm, DateForm, NumberForm

CHOICES = 4

#: How far another value of the same kind may be from the answer and still be plausible.
_YEAR_SPREAD = {"year": 20, "age": 30, "date": 10}
_RATIO_SPREAD = Decimal(10)
_STEPS = (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8, -8)
#: How a large number is changed: by no simple ratio, so that the answer is not the one value
#: that halves or doubles into the others (415 beside 830, 622 and 519).
_FACTORS = tuple(Decimal(factor) for factor in ("0.72", "1.28", "0.56", "1.61", "0.83", "1.19", "0.45", "2.1", "1.43", "0.64"))
_CLOCK_STEPS = (83, -83, 166, -166, 249, -249, 332, -332, 415, -415)
#: The values a duration of each unit is usually given in.
COMMON_DURATIONS = {
    "second": (1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90),
    "minute": (1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90),
    "hour": (1, 2, 3, 4, 6, 8, 10, 12, 18, 24, 36, 48, 72, 96),
    "day": (1, 2, 3, 4, 5, 6, 7, 10, 12, 14, 21, 30, 45, 60, 90),
    "week": (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 26, 52),
    "month": (1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 18, 24, 36),
    "year": (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50),
    "decade": (1, 2, 3, 4, 5, 6),
}


@dataclass(frozen=True)
class Candidate:
    text: str
    value: Decimal | None
    #: 0 for this article, 1 for another article, 2 for a changed value.
    source: int


Fits = Callable[[str], bool]


def choose(fact: Fact, article: Article, others: Sequence[Article], seed: int, fits: Fits) -> list[str]:
    """The choices for a question on ``fact`` (a date, a year or a figure): the answer and up
    to three distractors, in the order to show them.

    Pass the same :class:`Lenders` as ``others`` for every question of an article: what they
    lend is then indexed once, not for each question.
    """
    lenders = others if isinstance(others, Lenders) else Lenders(others)
    return _numeric_choices(fact, article, lenders, seed, fits)


def distinct(text: str, chosen: Iterable[str]) -> bool:
    """Neither equal to nor containing (as whole words) any of ``chosen``, ignoring case."""
    key = _key(text)
    for other in chosen:
        other_key = _key(other)
        if key == other_key or contains_words(key, other_key) or contains_words(other_key, key):
            return False
    return True


@functools.lru_cache(maxsize=4096)
def _key(text: str) -> str:
    """A choice as compared with others: folded, ignoring case. The same few texts are compared
    again for each of a question's choices and turns."""
    return fold(text).casefold()


def contains_words(outer: str, inner: str) -> bool:
    """Whether ``inner`` occurs in ``outer`` with no word character (``\\w``) right before or
    after it, as ``re.search(rf"(?<!\\w){re.escape(inner)}(?!\\w)", outer)`` finds; without
    compiling a pattern for every text compared."""
    at = outer.find(inner)
    while at >= 0:
        end = at + len(inner)
        if (at == 0 or not is_word(outer[at - 1])) and (end == len(outer) or not is_word(outer[end])):
            return True
        at = outer.find(inner, at + 1)
    return False


def is_word(character: str) -> bool:
    """What ``\\w`` matches in a ``str`` pattern: a letter, digit or number of any script, or "_"."""
    return character.isalnum() or character == "_"


# Dates and numbers ------------------------------------------------------------------------


def _value(form: Form) -> Decimal:
    if isinstance(form, DateForm):
        return Decimal(form.ordinal_value())
    return form.value


def _restyled(answer: Form, other: Form | None) -> Form | None:
    """``other``'s value written in ``answer``'s style, or None when it cannot be."""
    if isinstance(answer, DateForm) and isinstance(other, DateForm):
        if (answer.year is not None and other.year is None) or (answer.day is not None and other.day is None):
            return None
        return replace(
            answer, year=other.year if answer.year is not None else None, month=other.month,
            day=other.day if answer.day is not None else None,
        )
    if isinstance(answer, ClockForm) and isinstance(other, ClockForm):
        return other
    if isinstance(answer, NumberForm) and isinstance(other, NumberForm):
        same_shape = (answer.prefix, answer.scale, answer.unit.strip(" -").rstrip("s")) == (
            other.prefix, other.scale, other.unit.strip(" -").rstrip("s")
        )
        return answer.with_value(other.value) if same_shape else None
    return None


def _plausible(kind: str, answer: Form, other: Form) -> bool:
    if isinstance(answer, DateForm) and isinstance(other, DateForm):
        return abs((answer.year or 2000) - (other.year or 2000)) <= _YEAR_SPREAD["date"]
    return _plausible_value(kind, answer, _value(other))


def _plausible_value(kind: str, answer: Form, other_value: Decimal) -> bool:
    """Whether a number (not a date) of ``other_value`` is plausible beside ``answer``. The
    plausible values are one interval around the answer's."""
    value = _value(answer)
    if _percent(answer) and value <= 100 < other_value:
        return False  # "62% of the vote" has no "124%" beside it
    if kind in _YEAR_SPREAD:
        return abs(value - other_value) <= _YEAR_SPREAD[kind]
    return other_value > 0 and value / _RATIO_SPREAD <= other_value <= value * _RATIO_SPREAD


def _percent(form: Form) -> bool:
    return isinstance(form, NumberForm) and form.unit.strip() in ("%", "percent", "per cent")


def _changed(kind: str, form: Form) -> Iterable[Form]:
    """The answer's value changed in steps that keep it a valid date or number of its kind.

    Changed numbers of four digits or more take thousands separators ("1,200", not "1200"),
    as news style writes them, though the answer ("600") had none to show.
    """
    if isinstance(form, NumberForm) and kind != "year" and not form.words:
        form = replace(form, commas=True)
    if isinstance(form, DateForm):
        if form.day is not None:
            moves = [{"months": step} for step in _STEPS[:8]] + [{"days": step * 3} for step in _STEPS[:6]]
        else:
            moves = [{"months": step} for step in _STEPS[:12]]
        moves += [{"years": step} for step in _STEPS[:4]]
        for move in moves:
            moved = form.moved(**move)
            if moved is not None:
                yield moved
        return
    if isinstance(form, ClockForm):
        for step in _CLOCK_STEPS:
            changed = form.with_value(form.value + step)
            if changed is not None:
                yield changed
        return
    value = form.value
    unit = form.unit.strip(" -").lower().rstrip("s")
    if kind == "duration" and unit in COMMON_DURATIONS and not form.decimals:
        nearest = sorted(COMMON_DURATIONS[unit], key=lambda common: (max(common / value, value / common), common))
        for common in nearest:
            changed = form.with_value(Decimal(common))
            if common != value and changed is not None:
                yield changed
        return
    # "two landmark performances" must not become "one landmark performances".
    counts_things = kind == "quantity" and not (form.unit or form.prefix or form.scale) and value != 1
    small_whole = value == int(value) and value < 25 and form.decimals == 0
    if kind in ("year", "age") or small_whole:
        for step in _STEPS:
            changed = form.with_value(value + step)
            if changed is not None and not (counts_things and changed.value == 1):
                yield changed
        return
    for factor in _FACTORS:
        changed = form.with_value(_rounded_like(value * factor, value, form.decimals))
        if changed is not None and not (_percent(form) and value <= 100 < changed.value):
            yield changed


@functools.lru_cache(maxsize=1024)
def _changed_choices(kind: str, form: Form, below: bool) -> tuple[Candidate, ...]:
    """The candidates :func:`_changed` makes below (or above) the answer, the closest first:
    the same for each turn a question takes at its choices."""
    value = _value(form)
    changed = [Candidate(changed.render(), _value(changed), 2) for changed in _changed(kind, form)]
    return tuple(sorted(
        (c for c in changed if (c.value < value if below else c.value > value)),  # type: ignore[operator]
        key=lambda c: abs(value - c.value),  # type: ignore[operator]
    ))


def _rounded_like(value: Decimal, answer: Decimal, decimals: int) -> Decimal:
    """A changed value rounded as coarsely as the answer is ("6,000" gives thousands)."""
    if decimals:
        return value.quantize(Decimal(1).scaleb(-decimals))
    whole = int(answer)
    zeros = len(str(whole)) - len(str(whole).rstrip("0")) if whole else 0
    step = Decimal(10) ** min(zeros, max(len(str(whole)) - 1, 0))
    return (value / step).quantize(Decimal(1)) * step


#: Words before a year or date that put it ahead of the article's time ("to be done by 2025").
_AHEAD = re.compile(
    r"\b(?:by|until|till|will|would|to be|due|planned|plans?|expected|scheduled|set to|next|upcoming|future|forecasts?)\b"
)


def _latest_year(article: Article) -> int | None:
    """The year the story was written: its dateline's (a date opening the article), else the
    latest year it names."""
    dated = [fact for fact in article.facts if fact.kind in ("year", "date") and _year_of(fact.form) is not None]
    opening = [fact for fact in dated if fact.sentence == 0 and fact.kind == "date"]
    if opening:
        return _year_of(opening[0].form)
    return max((_year_of(fact.form) for fact in dated), default=None)  # type: ignore[type-var]


def _year_of(form: Form | None) -> int | None:
    if isinstance(form, DateForm):
        return form.year
    if isinstance(form, NumberForm):
        return int(form.value)
    return None


def _within_the_story(fact: Fact, article: Article) -> Callable[[Candidate], bool]:
    """Whether a year or date is no later than the article's own time (the latest year it names),
    for a fact the article tells as past ("joined in 2019", in a story of 2020, has no "2021"
    beside it). A fact told as ahead ("by 2025", "will ...") may take later values."""
    latest = article.derived(_latest_year)
    answer_year = _year_of(fact.form)
    sentence = article.sentences[fact.sentence]
    before = article.text[sentence.start : fact.start]
    if latest is None or answer_year is None or answer_year > latest or _AHEAD.search(before[-60:].lower()):
        return lambda candidate: True
    # An answer in the latest year named may be a year before the story's own (undated stories
    # name no year of their own): one year more, so that it is not always the latest choice.
    if answer_year == latest:
        latest += 1

    def within(candidate: Candidate) -> bool:
        if isinstance(fact.form, DateForm):
            return candidate.value is None or dt.date.fromordinal(int(candidate.value)).year <= latest
        return candidate.value is None or candidate.value <= latest

    return within


@dataclass(frozen=True)
class DateBeside:
    """Another year or date of a year's or date's sentence, as a choice compares with it."""

    #: The other one's form.
    form: Form
    #: How a value of the answer's sort (:func:`_value`) reads against it: a date's day as its
    #: year when the other is a year, else as it is.
    read: Callable[[Decimal], Decimal]
    #: The other one's value, so read.
    value: Decimal
    #: The answer's value, so read.
    answer: Decimal


def dates_beside(fact: Fact, article: Article) -> list[DateBeside]:
    """The other years and dates of ``fact``'s sentence that compare with it: dates with dates
    of the same sort (both with a year, or both without), and years with the year of a date."""
    def year_of_day(value: Decimal) -> Decimal:
        return Decimal(dt.date.fromordinal(int(value)).year)

    def itself(value: Decimal) -> Decimal:
        return value

    answer = fact.form
    beside = []
    for other in article.facts_in(fact.sentence):
        if other is fact or other.kind not in ("year", "date") or other.form is None or answer is None:
            continue
        form, measure = other.form, None
        if isinstance(answer, DateForm) and isinstance(form, DateForm):
            measure = (itself, _value(form)) if (answer.year is None) == (form.year is None) else None
        elif isinstance(answer, DateForm) and answer.year is not None and isinstance(form, NumberForm):
            measure = (year_of_day, form.value)
        elif isinstance(answer, NumberForm) and isinstance(form, DateForm) and form.year is not None:
            measure = (itself, Decimal(form.year))
        elif isinstance(answer, NumberForm) and isinstance(form, NumberForm):
            measure = (itself, form.value)
        if measure is not None:
            read, value = measure
            beside.append(DateBeside(form, read, value, read(_value(answer))))
    return beside


def _on_the_answers_side(fact: Fact, article: Article) -> Callable[[Candidate], bool]:
    """Whether a year or date lies on the same side as the answer of each other one its sentence
    names (:func:`dates_beside`): "declared a state of emergency on ____, shut down all schools
    as of November 17" has no "November 20" beside it, nor "after the ____ attacks, a bill
    proposed in 2016" a 2017, as the prompt tells which way they lie."""
    bounds = [other for other in dates_beside(fact, article) if other.answer != other.value]

    def on_its_side(candidate: Candidate) -> bool:
        return candidate.value is None or all(
            other.read(candidate.value) != other.value
            and (other.read(candidate.value) < other.value) == (other.answer < other.value)
            for other in bounds
        )

    return on_its_side


def _numeric_choices(fact: Fact, article: Article, lenders: Lenders, seed: int, fits: Fits) -> list[str]:
    answer_form = fact.form
    assert answer_form is not None
    answer_value = _value(answer_form)
    timed = fact.kind in ("year", "date")
    in_time = (_within_the_story(fact, article), _on_the_answers_side(fact, article)) if timed else ()
    # Another count is a choice only when it counts the same things: 12 horses are no number
    # of firefighters.
    key = _lending_key(fact.kind, answer_form, counted_noun(article, fact))

    def side(below: bool) -> Iterator[Candidate]:
        """The candidates below (or above) the answer: this article's, the other articles',
        then changed values, each the closest first. Read only as far as ``take`` needs."""
        for source, lendable in enumerate(_lendables(article, lenders)):
            yield from _lent_values(fact.kind, answer_form, lendable.walk(key, answer_value, below), source)
        yield from _changed_choices(fact.kind, answer_form, below)

    below, above = _Unrolled(side(below=True)), _Unrolled(side(below=False))
    wanted_below = seed % CHOICES
    chosen: list[Candidate] = []
    texts = [fact.text]

    # Among "6.3 days", a "7.0 days" reads as made up and leaves the answer the only real figure.
    real_decimals = isinstance(answer_form, NumberForm) and answer_form.decimals > 0 and not re.search(r"\.0+(?!\d)", fact.text)

    def take(pool: Iterable[Candidate], count: int) -> None:
        for candidate in pool:
            if count <= 0:
                return
            if real_decimals and re.search(r"\.0+(?!\d)", candidate.text):
                continue
            if candidate not in chosen and all(fit(candidate) for fit in in_time) and fits(candidate.text) and distinct(candidate.text, texts):
                chosen.append(candidate)
                texts.append(candidate.text)
                count -= 1

    take(below, wanted_below)
    take(above, CHOICES - 1 - len(chosen))
    take(below, CHOICES - 1 - len(chosen))
    ordered = sorted([*chosen, Candidate(fact.text, answer_value, -1)], key=lambda c: c.value)  # type: ignore[arg-type, return-value]
    return [candidate.text for candidate in ordered]


def _lent_values(kind: str, answer: Form, walk: Iterator[tuple[Decimal, Form]], source: int) -> Iterator[Candidate]:
    """The values of a :meth:`_Lendable.walk` written as ``answer`` is, while they stay plausible."""
    for value, form in walk:
        if isinstance(answer, DateForm):
            restyled = _restyled(answer, form)
            if restyled is None:
                continue
            if not _plausible(kind, answer, restyled):
                return  # plausible values are one interval around the answer's: none further out
        else:
            if not _plausible_value(kind, answer, value):
                return
            restyled = _restyled(answer, form)
            if restyled is None:
                continue
        if isinstance(restyled, NumberForm) and kind != "year" and not restyled.words:
            restyled = replace(restyled, commas=True)
        yield Candidate(restyled.render(), _value(restyled), source)


class _Unrolled:
    """The items of an iterator, produced as they are first read and kept for reading again."""

    def __init__(self, items: Iterator[Candidate]):
        self._items = items
        self._read: list[Candidate] = []

    def __iter__(self) -> Iterator[Candidate]:
        at = 0
        while True:
            if at == len(self._read):
                item = next(self._items, None)
                if item is None:
                    return
                self._read.append(item)
            yield self._read[at]
            at += 1


# What articles lend -----------------------------------------------------------------------


class Lenders(tuple[Article, ...]):
    """Other articles whose values may serve as wrong choices, in the order to use them."""

    @functools.cached_property
    def lendable(self) -> _Lendable:
        """What they lend, indexed together when a question first needs it."""
        return _Lendable(self)


def _lendables(article: Article, lenders: Lenders) -> Iterator[_Lendable]:
    """What the article lends, then what the other articles lend, only when it is read."""
    yield article.derived(_own)
    if lenders:
        yield lenders.lendable


def _own(article: Article) -> _Lendable:
    return _Lendable([article])


def _lending_key(kind: str, form: Form, counts: str | None) -> tuple[object, ...]:
    """Which values can stand in for ``form``'s: those :func:`_restyled` can write in its style
    (a date needs the parts the answer shows; a number, its currency, scale and unit), of
    the same kind, counting the same things."""
    if isinstance(form, DateForm):
        return (kind, DateForm, counts, form.year is not None, form.day is not None)
    if isinstance(form, ClockForm):
        return (kind, ClockForm, counts)
    return (kind, NumberForm, counts, form.prefix, form.scale, form.unit.strip(" -").rstrip("s"))


#: A date of no particular style with each combination of parts, to find the dates that can be
#: written with them and their value so written.
_DATE_SHAPES = {
    (has_year, has_day): DateForm(2000 if has_year else None, 1, 1 if has_day else None, "", abbreviated=False)
    for has_year in (False, True)
    for has_day in (False, True)
}


_WEEKDAY = r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s*)?"


def _dateline(article: Article, fact: Fact) -> bool:
    """Whether the fact dates the story rather than its events ("Friday, January 4, 2019" on a
    line of its own, "ST. LOUIS, April 28 (UPI) --"): no wrong choice for an event's date."""
    sentence = article.sentences[fact.sentence]
    if fact.start < sentence.start + sentence.body:
        return True
    return re.fullmatch(_WEEKDAY + re.escape(fact.text) + r"\W*", sentence.text.strip()) is not None


class _Lendable:
    """What some articles can lend as wrong choices, indexed once so that a question looks its
    candidates up rather than reading every fact: their values sorted by how they can be
    written. An article's own is kept with it (see
    :meth:`Article.derived`); the other articles' with their :class:`Lenders`."""

    def __init__(self, articles: Sequence[Article]):
        self._articles = articles
        self._forms: dict[tuple[object, ...], list[Form]] = {}
        for article in articles:
            for fact in article.facts:
                if FACT_KINDS[fact.kind].numeric and fact.form is not None and not _dateline(article, fact):
                    key = _lending_key(fact.kind, fact.form, counted_noun(article, fact))
                    if isinstance(fact.form, DateForm):
                        key = key[:3]  # which dates fit depends on the answer's parts: see values()
                    self._forms.setdefault(key, []).append(fact.form)
        self._values: dict[tuple[object, ...], tuple[list[Decimal], list[Form]]] = {}

    def values(self, key: tuple[object, ...]) -> tuple[list[Decimal], list[Form]]:
        """The distinct values (sorted) of the facts :func:`_lending_key` gives ``key``, as
        the answer's style would write them, each with the first form stating it. A value is
        one text however often it is stated, so it is offered (or passed over) once."""
        if key not in self._values:
            first: dict[Decimal, Form] = {}
            if key[1] is DateForm:
                shape = _DATE_SHAPES[key[3], key[4]]  # type: ignore[index]
                for form in self._forms.get(key[:3], ()):
                    written = _restyled(shape, form)
                    if written is not None:
                        first.setdefault(_value(written), form)
            else:
                for form in self._forms.get(key, ()):
                    first.setdefault(_value(form), form)
            ordered = sorted(first)
            self._values[key] = (ordered, [first[value] for value in ordered])
        return self._values[key]

    def walk(self, key: tuple[object, ...], answer_value: Decimal, below: bool) -> Iterator[tuple[Decimal, Form]]:
        """(value, form) below (or above) ``answer_value``, closest first; read only as far as needed."""
        values, forms = self.values(key)
        if below:
            for at in range(bisect.bisect_left(values, answer_value) - 1, -1, -1):
                yield values[at], forms[at]
        else:
            for at in range(bisect.bisect_right(values, answer_value), len(values)):
                yield values[at], forms[at]
