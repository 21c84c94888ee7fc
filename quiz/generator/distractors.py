"""Wrong choices of the same kind as the answer.

Candidates come first from the same article (another date, another person), then from the
other articles given, then, for dates and numbers, from changing the answer's value and
writing it the same way. Dates and numbers are shown in order; which of them is the answer
follows the ``seed`` the drafting passes (it turns with each question), so that it is not
always the middle or the largest. Names are placed by the same seed.

Changed values stay plausible: a duration moves to another common value of its unit ("12-hour",
"48-hour", never "25-hour"), and a count of things is never "one" before a plural. Names come
only from entities of the answer's sort (no court among companies, no city among countries)
and never of the other gender than the answer's; when the question speaks of a gender, only
people known to be of it are offered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from quiz.bank.quotes import fold
from quiz.generator.entities import ORGANISATION, Entity
from quiz.generator.facts import FACT_KINDS, Article, Fact, Form, counted_noun
from quiz.generator.numbers import ClockForm, DateForm, NumberForm

CHOICES = 4

#: How far another value of the same kind may be from the answer and still be plausible.
_YEAR_SPREAD = {"year": 20, "age": 30, "date": 10}
_RATIO_SPREAD = Decimal(10)
_STEPS = (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8, -8)
_FACTORS = tuple(Decimal(factor) for factor in ("0.5", "1.5", "2", "0.75", "3", "1.25", "0.6", "2.5", "0.4", "4"))
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


def choose(
    fact: Fact, article: Article, others: Sequence[Article], seed: int, fits: Fits, *, known_gender: bool = False
) -> list[str]:
    """The choices for a question on ``fact``: the answer and up to three distractors, in the
    order to show them. People of the other gender than the answer's are never offered; with
    ``known_gender`` (the question speaks of a gender), only people known to share it are."""
    if FACT_KINDS[fact.kind].numeric and fact.form is not None:
        return _numeric_choices(fact, article, others, seed, fits)
    return _name_choices(fact, article, others, seed, fits, known_gender)


def distinct(text: str, chosen: Iterable[str]) -> bool:
    """Neither equal to nor containing (as whole words) any of ``chosen``, ignoring case."""
    key = fold(text).casefold()
    for other in chosen:
        other_key = fold(other).casefold()
        if key == other_key or _contains(key, other_key) or _contains(other_key, key):
            return False
    return True


def _contains(outer: str, inner: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(inner)}(?!\w)", outer) is not None


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
    value, other_value = _value(answer), _value(other)
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


def _rounded_like(value: Decimal, answer: Decimal, decimals: int) -> Decimal:
    """A changed value rounded as coarsely as the answer is ("6,000" gives thousands)."""
    if decimals:
        return value.quantize(Decimal(1).scaleb(-decimals))
    whole = int(answer)
    zeros = len(str(whole)) - len(str(whole).rstrip("0")) if whole else 0
    step = Decimal(10) ** min(zeros, max(len(str(whole)) - 1, 0))
    return (value / step).quantize(Decimal(1)) * step


def _numeric_choices(fact: Fact, article: Article, others: Sequence[Article], seed: int, fits: Fits) -> list[str]:
    answer_form = fact.form
    assert answer_form is not None
    answer_value = _value(answer_form)
    candidates: list[Candidate] = []
    # Another count is a choice only when it counts the same things: 12 horses are no number
    # of firefighters.
    counts = counted_noun(article, fact)
    pooled = [(article, other) for other in article.facts] + [(text, other) for text in others for other in text.facts]
    for pool, other in pooled:
        source = 0 if pool is article else 1
        if other.kind != fact.kind or other.form is None or counted_noun(pool, other) != counts:
            continue
        restyled = _restyled(answer_form, other.form)
        if isinstance(restyled, NumberForm) and fact.kind != "year" and not restyled.words:
            restyled = replace(restyled, commas=True)
        if restyled is not None and _plausible(fact.kind, answer_form, restyled):
            candidates.append(Candidate(restyled.render(), _value(restyled), source))
    candidates += [Candidate(changed.render(), _value(changed), 2) for changed in _changed(fact.kind, answer_form)]
    below = sorted((c for c in candidates if c.value is not None and c.value < answer_value),
                   key=lambda c: (c.source, answer_value - c.value))  # type: ignore[operator]
    above = sorted((c for c in candidates if c.value is not None and c.value > answer_value),
                   key=lambda c: (c.source, c.value - answer_value))  # type: ignore[operator]
    wanted_below = seed % CHOICES
    chosen: list[Candidate] = []
    texts = [fact.text]

    # Among "6.3 days", a "7.0 days" reads as made up and leaves the answer the only real figure.
    real_decimals = isinstance(answer_form, NumberForm) and answer_form.decimals > 0 and not re.search(r"\.0+(?!\d)", fact.text)

    def take(pool: list[Candidate], count: int) -> None:
        for candidate in pool:
            if count <= 0:
                return
            if real_decimals and re.search(r"\.0+(?!\d)", candidate.text):
                continue
            if candidate not in chosen and fits(candidate.text) and distinct(candidate.text, texts):
                chosen.append(candidate)
                texts.append(candidate.text)
                count -= 1

    take(below, wanted_below)
    take(above, CHOICES - 1 - len(chosen))
    take(below, CHOICES - 1 - len(chosen))
    ordered = sorted([*chosen, Candidate(fact.text, answer_value, -1)], key=lambda c: c.value)  # type: ignore[arg-type, return-value]
    return [candidate.text for candidate in ordered]


# Names ----------------------------------------------------------------------------------


def _name_form(entity: Entity, words: int) -> str:
    """The entity's name as written in the article, closest in length to the answer's."""
    forms = sorted({mention.text for mention in entity.mentions})
    return min(forms, key=lambda text: (abs(len(text.split()) - words), -len(text), text))


def _sort(entity: Entity) -> str | None:
    """The entity's sort; among organisations of no known sort, initials ("NASA") and names
    ("Barclays") are kept apart too."""
    if entity.sort is None and entity.kind == ORGANISATION:
        return "initials" if entity.name.replace(".", "").isupper() else None
    return entity.sort


def _name_choices(
    fact: Fact, article: Article, others: Sequence[Article], seed: int, fits: Fits, known_gender: bool
) -> list[str]:
    words = len(fact.text.split())
    answer = article.entity(fact.entity)
    sort = _sort(answer) if answer is not None else None
    candidates: list[Candidate] = []
    for source, pool in enumerate([article, *others]):
        entities = sorted(
            (entity for entity in pool.entities if entity.kind == fact.kind and _sort(entity) == sort),
            key=lambda entity: (-len(entity.mentions), entity.mentions[0].start),
        )
        for entity in entities:
            if pool is article and entity.name == fact.entity:
                continue
            if known_gender and (fact.gender is None or entity.gender != fact.gender):
                continue  # the question speaks of a gender: only people known to be of it
            if fact.gender and entity.gender and entity.gender != fact.gender:
                continue
            candidates.append(Candidate(_name_form(entity, words), None, min(source, 1)))
    chosen: list[str] = []
    for candidate in candidates:
        if len(chosen) == CHOICES - 1:
            break
        if fits(candidate.text) and distinct(candidate.text, [fact.text, *chosen]):
            chosen.append(candidate.text)
    position = seed % (len(chosen) + 1)
    return [*chosen[:position], fact.text, *chosen[position:]]
