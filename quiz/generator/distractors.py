"""Wrong choices of the same kind as the answer.

Candidates come first from the same article (another date, another person), then from the
other articles given, then, for dates and numbers, from changing the answer's value and
writing it the same way. Dates and numbers are shown in order; which of them is the answer
is drawn from a hash of the question, so that it is not always the middle or the largest.
Names are placed by the same hash.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from quiz.bank.quotes import fold
from quiz.generator.entities import Entity
from quiz.generator.facts import FACT_KINDS, Article, Fact, Form
from quiz.generator.numbers import ClockForm, DateForm, NumberForm

CHOICES = 4

#: How far another value of the same kind may be from the answer and still be plausible.
_YEAR_SPREAD = {"year": 20, "age": 30, "date": 10}
_RATIO_SPREAD = Decimal(10)
_STEPS = (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8, -8)
_FACTORS = tuple(Decimal(factor) for factor in ("0.5", "1.5", "2", "0.75", "3", "1.25", "0.6", "2.5", "0.4", "4"))
_CLOCK_STEPS = (83, -83, 166, -166, 249, -249, 332, -332, 415, -415)


@dataclass(frozen=True)
class Candidate:
    text: str
    value: Decimal | None
    #: 0 for this article, 1 for another article, 2 for a changed value.
    source: int


Fits = Callable[[str], bool]


def choose(fact: Fact, article: Article, others: Sequence[Article], seed: int, fits: Fits) -> list[str]:
    """The choices for a question on ``fact``: the answer and up to three distractors, in the
    order to show them."""
    if FACT_KINDS[fact.kind].numeric and fact.form is not None:
        return _numeric_choices(fact, article, others, seed, fits)
    return _name_choices(fact, article, others, seed, fits)


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
    if kind in _YEAR_SPREAD:
        return abs(value - other_value) <= _YEAR_SPREAD[kind]
    return other_value > 0 and value / _RATIO_SPREAD <= other_value <= value * _RATIO_SPREAD


def _changed(kind: str, form: Form) -> Iterable[Form]:
    """The answer's value changed in steps that keep it a valid date or number of its kind."""
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
    small_whole = value == int(value) and value < 25 and form.decimals == 0
    if kind in ("year", "age") or small_whole:
        for step in _STEPS:
            changed = form.with_value(value + step)
            if changed is not None:
                yield changed
        return
    for factor in _FACTORS:
        changed = form.with_value(_rounded_like(value * factor, value, form.decimals))
        if changed is not None:
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
    for source, facts in enumerate([article.facts, [other for text in others for other in text.facts]]):
        for other in facts:
            if other.kind != fact.kind or other.form is None:
                continue
            restyled = _restyled(answer_form, other.form)
            if restyled is not None and _plausible(fact.kind, answer_form, restyled):
                candidates.append(Candidate(restyled.render(), _value(restyled), min(source, 1)))
    candidates += [Candidate(changed.render(), _value(changed), 2) for changed in _changed(fact.kind, answer_form)]
    below = sorted((c for c in candidates if c.value is not None and c.value < answer_value),
                   key=lambda c: (c.source, answer_value - c.value))  # type: ignore[operator]
    above = sorted((c for c in candidates if c.value is not None and c.value > answer_value),
                   key=lambda c: (c.source, c.value - answer_value))  # type: ignore[operator]
    wanted_below = seed % CHOICES
    chosen: list[Candidate] = []
    texts = [fact.text]

    def take(pool: list[Candidate], count: int) -> None:
        for candidate in pool:
            if count <= 0:
                return
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


def _name_choices(fact: Fact, article: Article, others: Sequence[Article], seed: int, fits: Fits) -> list[str]:
    words = len(fact.text.split())
    candidates: list[Candidate] = []
    for source, pool in enumerate([article, *others]):
        entities = sorted(
            (entity for entity in pool.entities if entity.kind == fact.kind),
            key=lambda entity: (-len(entity.mentions), entity.mentions[0].start),
        )
        for entity in entities:
            if pool is article and entity.name == fact.entity:
                continue
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
