"""Facts an article states that a question can ask for: when, how old, how long, how much,
which title, who, which organisation, where.

Each kind of fact is an entry of :data:`FACT_KINDS`. A fact is a span of the article; facts
never overlap (a date's year is not also a year fact).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeVar

from quiz.generator.entities import ORGANISATION, PERSON, PLACE, TITLE, WEEKDAYS, Entity, find_entities, main_subjects
from quiz.generator.numbers import (
    WORD_NUMBER_PATTERN,
    WORD_NUMBERS,
    ClockForm,
    MONTHS,
    DateForm,
    NumberForm,
    find_dates,
    parse_clock,
    parse_number,
)
from quiz.generator.sentences import Sentence, quotation_spans, split_sentences
from quiz.generator.spans import Disjoint

T = TypeVar("T")


@dataclass(frozen=True)
class FactKind:
    name: str
    #: The values can be ordered and perturbed (dates and numbers), not only swapped.
    numeric: bool
    #: When two candidate facts overlap, the lower number wins.
    priority: int


FACT_KINDS: dict[str, FactKind] = {
    kind.name: kind
    for kind in (
        FactKind("date", numeric=True, priority=0),
        FactKind("age", numeric=True, priority=1),
        FactKind("duration", numeric=True, priority=2),
        FactKind("quantity", numeric=True, priority=3),
        FactKind("year", numeric=True, priority=4),
        FactKind(TITLE, numeric=False, priority=5),
        FactKind(PERSON, numeric=False, priority=6),
        FactKind(ORGANISATION, numeric=False, priority=7),
        FactKind(PLACE, numeric=False, priority=8),
    )
}

Form = DateForm | NumberForm | ClockForm


@dataclass(frozen=True)
class Fact:
    kind: str
    #: Exactly as the article writes it.
    text: str
    start: int
    end: int
    sentence: int
    #: How a date or number is written, to write other values the same way.
    form: Form | None = None
    #: The entity a name belongs to (its full name), for people, organisations, places and titles.
    entity: str | None = None
    gender: str | None = None

    @property
    def shown(self) -> str:
        """The fact as a question shows it: as written, but a person the sentence calls by the
        surname alone ("Amundson") by the full name the article gave them ("Sara Amundson"), as
        the other people offered are shown, so that no choice stands out by its form."""
        if self.kind == PERSON and self.entity is not None and self.entity.endswith(f" {self.text}"):
            return self.entity
        return self.text

    @property
    def shape(self) -> tuple[object, ...]:
        """Facts of one shape can stand in for each other as choices."""
        form = self.form
        if isinstance(form, NumberForm):
            return (self.kind, form.prefix, form.scale, form.unit.strip(" -").rstrip("s"))
        if isinstance(form, DateForm):
            return (self.kind, form.day is not None, form.year is not None)
        return (self.kind, type(form).__name__)

    @property
    def value_key(self) -> tuple[object, ...]:
        """What the fact says, whatever its wording: "July 14, 2015" and "the 14th of July 2015",
        "251-pound" and "251 pounds", "Firehiwot Dado" and "Dado" have one key. An article
        gets one question per key."""
        form = self.form
        if isinstance(form, DateForm):
            return ("date", form.year, form.month, form.day)
        if isinstance(form, ClockForm):
            return ("clock", form.seconds)
        if isinstance(form, NumberForm):
            unit = form.unit.strip(" -").lower()
            unit = unit[:-1] if unit.endswith("s") and not unit.endswith("ss") else unit
            unit = "%" if unit in ("percent", "per cent") else unit
            kind = "number" if self.kind in ("quantity", "year") else self.kind
            return (kind, form.prefix, form.scale, "" if self.kind == "age" else unit, form.value.normalize())
        return ("name", self.kind, self.entity or self.text)


@dataclass(frozen=True)
class Article:
    """An article's plain text split into sentences, with its entities and facts."""

    text: str
    sentences: tuple[Sentence, ...]
    entities: tuple[Entity, ...]
    facts: tuple[Fact, ...]
    #: The names of the entities the article is about (see :func:`entities.main_subjects`).
    subjects: frozenset[str]
    #: The spans of the text inside quotation marks (see :func:`sentences.quotation_spans`).
    quotations: tuple[tuple[int, int], ...] = ()
    #: The article's headline, which players see above every question, or "" when unknown.
    headline: str = ""
    #: What :meth:`derived` has built, by the function that built it.
    _derived: dict[Callable[[Any], Any], Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def derived(self, build: Callable[[Article], T]) -> T:
        """``build(self)``, built on first use and kept with the article.

        Later stages look the same things up for every fact (an entity by name, the facts of a
        sentence, what is quoted); each builds its index here once, so that a question costs a
        lookup rather than a pass over the whole article. The article must not change after
        :func:`analyse`, and does not.
        """
        try:
            return self._derived[build]
        except KeyError:
            built = self._derived[build] = build(self)
            return built

    def entity(self, name: str | None) -> Entity | None:
        return self.derived(_entities_by_name).get(name)  # type: ignore[arg-type]

    def facts_in(self, sentence: int) -> tuple[Fact, ...]:
        """The facts of one sentence, in the article's order."""
        return self.derived(_facts_by_sentence).get(sentence, ())


def _entities_by_name(article: Article) -> dict[str, Entity]:
    named: dict[str, Entity] = {}
    for entity in article.entities:
        named.setdefault(entity.name, entity)
    return named


def _facts_by_sentence(article: Article) -> dict[int, tuple[Fact, ...]]:
    by_sentence: dict[int, list[Fact]] = {}
    for fact in article.facts:
        by_sentence.setdefault(fact.sentence, []).append(fact)
    return {sentence: tuple(facts) for sentence, facts in by_sentence.items()}


_NUMBER = rf"(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?|{WORD_NUMBER_PATTERN}"
_NOT_AFTER_NUMBER = r"(?<![\d.,/$£€:\w-])"
_AGES = (
    re.compile(r"\bat the age of (\d{1,3})\b"),
    re.compile(r"\baged? (\d{1,3})\b"),
    re.compile(r"\b(\d{1,3}-year-old)\b"),
)
#: An earthquake's magnitude: "a magnitude 5.2 earthquake", "a 5.3-magnitude quake", "a 6.4 quake";
#: not a bound ("over magnitude 4.5").
_MAGNITUDE_BEFORE = re.compile(r"(?<!over )(?<!above )\bmagnitude[- ]$", re.IGNORECASE)
_MAGNITUDE_AFTER = re.compile(r"[- ]magnitude\b| (?:earthquake|quake|tremor|aftershock)s?\b", re.IGNORECASE)
_MAGNITUDE = re.compile(r"\b\d\.\d\b")
#: A storm's category: "a Category 5 hurricane", "downgraded to Category 2".
_CATEGORY = re.compile(r"\bCategory ([1-5])\b")
_DURATION = re.compile(
    # "a 52-week low", "a 10-year high": a market term, not a length of time the article tells.
    rf"{_NOT_AFTER_NUMBER}(?P<number>{_NUMBER})(?P<unit>[- ](?:second|minute|hour|day|week|month|year|decade)s?)\b(?!-old| high\b| low\b)",
    re.IGNORECASE,
)
_TIME_PART = rf"(?:{_NUMBER}),?[- ](?:second|minute|hour|day|week|month|year)s?\b"
#: "two hours, five minutes and six seconds": one time, whose parts are not facts of their own.
_COMPOUND_TIME = re.compile(rf"{_NOT_AFTER_NUMBER}{_TIME_PART}(?:,?(?: and)? {_TIME_PART})+", re.IGNORECASE)
_MONEY = re.compile(r"(?P<prefix>(?<![A-Za-z])(?:US|C|A|NZ|HK|S)?[$£€])(?P<number>\d[\d,]*(?:\.\d+)?)(?: (?P<scale>thousand|million|billion|trillion))?\b")
_PERCENT = re.compile(rf"{_NOT_AFTER_NUMBER}(?P<number>\d[\d,]*(?:\.\d+)?)(?P<unit>%| percent\b| per cent\b)")
_MEASURE = re.compile(
    rf"{_NOT_AFTER_NUMBER}(?P<number>{_NUMBER})(?: (?P<scale>million|billion))?(?P<unit>[- ](?:miles?|kilometres?|kilometers?|km|feet|foot|inch(?:es)?|yards?|metres?|meters?|pounds?|kilograms?|kg|tons?|tonnes?|acres?|mph|degrees))\b",
    re.IGNORECASE,
)
#: Plurals without an "s": "twenty people", "five children".
_IRREGULAR_PLURALS = frozenset("people children men women police personnel staff crew cattle sheep fish deer teeth mice geese".split())
_IRREGULAR_PLURAL = "|".join(sorted(_IRREGULAR_PLURALS))
_COUNT = re.compile(
    rf"{_NOT_AFTER_NUMBER}(?P<number>(?:\d{{1,3}}(?:,\d{{3}})+|\d+)|(?:[Tt]wo|[Tt]hree|[Ff]our|[Ff]ive|[Ss]ix|[Ss]even|[Ee]ight|[Nn]ine|[Tt]en|[Ee]leven|[Tt]welve|[Ff]ifteen|[Tt]wenty|[Tt]hirty|[Ff]orty|[Ff]ifty))(?: (?P<scale>thousand|million|billion))?(?= (?:[A-Za-z-]+ ){{0,2}}(?:[a-z]+s|{_IRREGULAR_PLURAL})\b)"
)
_CLOCK = re.compile(r"(?<![\d:])\d:\d{2}:\d{2}(?![\d:])")
#: "in 1922"; not a time of day ("at 1922 UTC"), a share ("2020 percent") or a length ("a 2000-year history").
_YEAR = re.compile(r"(?<![\d$£€.,:/-])\b(1[6-9]\d\d|20\d\d)\b(?![\d%]|,\d|\.\d|-year|-[A-Za-z]| percent| (?:UTC|GMT|hours)\b)")


def analyse(text: str, headline: str = "") -> Article:
    """Split, find entities and facts, and name the article's subjects. ``headline`` is kept
    with the article, not analysed."""
    sentences = tuple(split_sentences(text))
    entities = tuple(find_entities(text, sentences))
    candidates = _number_facts(text) + _entity_facts(entities)
    facts = _without_overlaps(candidates)
    starts = [sentence.start for sentence in sentences]
    placed = tuple(
        Fact(fact.kind, fact.text, fact.start, fact.end, max(0, bisect.bisect_right(starts, fact.start) - 1),
             fact.form, fact.entity, fact.gender)
        for fact in facts
    )
    return Article(
        text, sentences, entities, placed, frozenset(main_subjects(entities)), tuple(quotation_spans(text)), headline
    )


def _number_facts(text: str) -> list[Fact]:
    facts = [Fact("date", text[start:end], start, end, -1, form) for start, end, form in find_dates(text)]
    for pattern in _AGES:
        for match in pattern.finditer(text):
            written = match.group(1)
            number, _, unit = written.partition("-")
            form = parse_number(number, unit=f"-{unit}" if unit else "")
            facts.append(Fact("age", written, match.start(1), match.end(1), -1, form))
    for match in _DURATION.finditer(text):
        form = parse_number(match.group("number"), unit=match.group("unit").lower())
        facts.append(Fact("duration", match.group(), match.start(), match.end(), -1, form))
    for match in _MONEY.finditer(text):
        form = parse_number(match.group("number"), prefix=match.group("prefix"), scale=match.group("scale") or "")
        facts.append(Fact("quantity", match.group(), match.start(), match.end(), -1, form))
    for pattern in (_PERCENT, _MEASURE):
        for match in pattern.finditer(text):
            groups = match.groupdict()
            form = parse_number(groups["number"], scale=groups.get("scale") or "", unit=groups["unit"])
            facts.append(Fact("quantity", match.group(), match.start(), match.end(), -1, form))
    common = set(re.findall(r"\b[a-z]+\b", text))
    # "to Area 51": a capitalised word and a number in the middle of a sentence, found in one pass.
    named = set(re.findall(r"\b[a-z]+ ([A-Z][\w’'-]*) (\d[\d,.]*\d|\d)\b", text))
    for match in _COUNT.finditer(text):
        if match.group("number").isdigit() and _YEAR.fullmatch(match.group("number")):
            continue
        if _model_number(text, match.start(), common, named):
            continue
        if _plural_after(text, match.end()) is None:
            continue
        form = parse_number(match.group("number"), scale=match.group("scale") or "")
        facts.append(Fact("quantity", match.group(), match.start(), match.end(), -1, form))
    for match in _MAGNITUDE.finditer(text):
        if is_magnitude(text[max(0, match.start() - 20) : match.start()], text[match.end() : match.end() + 20]):
            facts.append(Fact("quantity", match.group(), match.start(), match.end(), -1, parse_number(match.group())))
    for match in _CATEGORY.finditer(text):
        facts.append(Fact("quantity", match.group(1), match.start(1), match.end(1), -1, parse_number(match.group(1))))
    for match in _CLOCK.finditer(text):
        facts.append(Fact("quantity", match.group(), match.start(), match.end(), -1, parse_clock(match.group())))
    for match in _YEAR.finditer(text):
        if _model_number(text, match.start(1), common, named):
            continue  # "Electronic Commerce Directive 2000", "Zrínyi 2026": part of a name, no year
        facts.append(Fact("year", match.group(1), match.start(1), match.end(1), -1, NumberForm(Decimal(match.group(1)))))
    compound = Disjoint(match.span() for match in _COMPOUND_TIME.finditer(text))
    return [fact for fact in facts if not compound.overlaps(fact.start, fact.end) and not _converted(text, fact)]


_UNIT_WORD = r"(?:miles?|kilometers?|kilometres?|km|feet|foot|ft|inch(?:es)?|meters?|metres?|m|cm|mm|yards?|pounds?|lbs?|kilograms?|kg|tons?|tonnes?|acres?|hectares?|mph|km/h|degrees|°[CF]?|[CF])"


_CURRENCY = r"(?:[A-Z]{0,3}[$£€¥]|euros?|pounds?|dollars?|yen|yuan)"


def _converted(text: str, fact: Fact) -> bool:
    """A measure or an amount given with its conversion: "a hundred kilometers (62 miles)",
    "132 miles (212 km)", "185 mph (~295 km/h)", "five-foot (one and two thirds meters)",
    "US$1.2 billion (euro958 million)". Either one spells the other out, so neither is asked.
    So does the start of a range ("June 8-11") give its end away."""
    if fact.kind == "date" and re.match(r"[-–]\d", text[fact.end : fact.end + 2]):
        return True
    inside = re.search(rf"(?:\b{_UNIT_WORD}|\b(?:million|billion))\s*\([~≈]?[a-z -]{{0,20}}$", text[max(0, fact.start - 50) : fact.start])
    followed = re.match(
        rf"(?:\s*{_UNIT_WORD}\b)?\s*\(\s*(?:about |some |roughly |[~≈]\s*)?(?:[\d.,]+\s*{_UNIT_WORD}|[a-z -]{{3,40}} {_UNIT_WORD}|{_CURRENCY}\s?[\d.,]+(?: (?:million|billion))?)\s*\)",
        text[fact.end : fact.end + 40],
    )
    return fact.kind == "quantity" and bool(inside or followed)


_NOT_PLURALS = frozenset("was has is as this thus its his hers ours yours does goes always across perhaps".split())


def is_magnitude(before: str, after: str) -> bool:
    """Whether a figure with ``before`` and ``after`` around it is an earthquake's magnitude."""
    return bool(_MAGNITUDE_BEFORE.search(before) or _MAGNITUDE_AFTER.match(after))


def _model_number(text: str, start: int, common: set[str], named: set[tuple[str, str]]) -> bool:
    """A number that names a model or a thing rather than counts: "four 777 freighters",
    "Boeing 787 jets", "Area 51 has" — after another number, or after a capitalised name that
    the text never writes in lowercase, or writes with this number in the middle of a sentence
    ("to Area 51") too."""
    before = re.search(r"(^|[.!?\"“\n]\s*|\s)([\w’'-]+)\s+$", text[max(0, start - 40) : start])
    if before is None:
        return False
    word, opens_sentence = before.group(2), before.group(1).strip() != "" or before.start(2) == 0
    if word.isdigit() or word.lower() in WORD_NUMBERS:
        return True
    if not word[:1].isupper() or word in MONTHS or word in WEEKDAYS:
        return False
    if not opens_sentence and word.lower() not in common:
        return True
    number = re.match(r"\d[\d,.]*\d|\d", text[start : start + 20])
    return number is not None and (word, number.group()) in named


_WORD = re.compile(r"[A-Za-z-]+")


def _plural_after(text: str, start: int, end: int | None = None) -> str | None:
    """What a number before ``start`` counts: a plural among the next three words of
    ``text[start:end]`` (only those are read, however long the text)."""
    for match in itertools.islice(_WORD.finditer(text, start, len(text) if end is None else end), 3):
        word = match.group()
        if word in _IRREGULAR_PLURALS or (word.endswith("s") and not word.endswith(("ss", "us", "is")) and word.lower() not in _NOT_PLURALS):
            return word if word.islower() else None
    return None


def counted_noun(article: Article, fact: Fact) -> str | None:
    """What a count of things counts ("firefighters" for "40 firefighters"), None for other facts."""
    form = fact.form
    if fact.kind != "quantity" or not isinstance(form, NumberForm) or form.unit or form.prefix or form.scale:
        return None
    return _plural_after(article.text, fact.end, fact.end + 60)


def _entity_facts(entities: Sequence[Entity]) -> list[Fact]:
    return [
        Fact(entity.kind, mention.text, mention.start, mention.end, -1, None, entity.name, entity.gender)
        for entity in entities
        if entity.kind in FACT_KINDS
        for mention in entity.mentions
    ]


def _without_overlaps(candidates: list[Fact]) -> list[Fact]:
    """Keep the higher-priority (then longer) of overlapping facts."""
    ranked = sorted(
        candidates, key=lambda fact: (FACT_KINDS[fact.kind].priority, -(fact.end - fact.start), fact.start)
    )
    kept: list[Fact] = []
    taken = Disjoint()
    for fact in ranked:
        if not taken.overlaps(fact.start, fact.end):
            kept.append(fact)
            taken.add(fact.start, fact.end)
    return sorted(kept, key=lambda fact: fact.start)
