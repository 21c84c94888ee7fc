"""The generator's pipeline: plain text, facts, templates, choices, checks, then the bank entries."""

from __future__ import annotations

import functools
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from quiz.kinds import KINDS
from quiz.quotes import fold
from quiz.generator import distractors
from quiz.generator.entities import PERSON, PLACE, PLACE_ENDINGS, TITLE
from quiz.generator.facts import FACT_KINDS, Article, Fact, analyse, is_magnitude
from quiz.generator.markdown import plain_text
from quiz.generator.numbers import NumberForm, indefinite_article
from quiz.generator.templates import BLANK, Draft, draft_for
from quiz.generator.validation import Candidate, problems

#: A sentence gives at most this many questions, so that a quiz covers the article.
QUESTIONS_PER_SENTENCE = 2
#: The kinds of fact asked without names: dates, years and figures.
NUMERIC_KINDS = frozenset(kind for kind, spec in FACT_KINDS.items() if spec.numeric)
#: The names asked with ``names``, for the player to type. As multiple choice, a name could only
#: be offered among the other names the articles hold, of another role than the answer's, and
#: graded blind none was acceptable; typed, 16% were, against 22% of the figures graded beside
#: them, and no organisation was (see bench/generator_quality.md, rounds 20 and 21).
TYPED_NAME_KINDS = frozenset({PERSON, PLACE, TITLE})
#: Identifiers are cut to this length before a number makes them unique.
_ID_LENGTH = 48


def _lenders(other_texts: Sequence[str]) -> distractors.Lenders:
    return distractors.Lenders(analyse(plain_text(other)) for other in other_texts)


def _sound_candidates(
    article: Article, others: distractors.Lenders, kinds: frozenset[str], avoid: frozenset[str] = frozenset()
) -> list[Candidate]:
    """The question drafted on each fact of one of ``kinds`` of an analysed article that passes
    every check. ``avoid`` holds answers (folded) offered as no question's wrong choice, nor
    any part of them ("December 11" beside an answer of December 11, 1935)."""
    text = article.text
    avoid_parts = frozenset(part for phrase in avoid for part in _word_spans(phrase))
    sound = []
    # The answer's place among the choices is spread over every place rather than left to
    # chance: each question takes, of the arrangements its values allow ("two" has no two
    # smaller counts below it), the one whose place the sound questions so far used least.
    seed = zlib.crc32(text.encode())
    places: Counter[int] = Counter()
    for fact in article.facts:
        if fact.kind not in kinds:
            continue
        drafts = article.derived(_drafts)
        if fact not in drafts:
            drafts[fact] = draft_for(fact, article)
        draft = drafts[fact]
        if draft is None:
            continue  # no prompt stands alone
        if fact.kind in TYPED_NAME_KINDS:
            typed = Candidate(draft, (draft.answer,), article)
            if not problems(typed, typed=True):
                sound.append(typed)
            continue
        fits = _fits(draft, avoid, avoid_parts)
        least = min(places[place] for place in range(distractors.CHOICES))
        choices: list[str] = []
        for turn in range(distractors.CHOICES):
            arrangement = distractors.choose(fact, article, others, seed + turn, fits)
            if not choices or places[arrangement.index(draft.answer)] < places[choices.index(draft.answer)]:
                choices = arrangement
            if places[choices.index(draft.answer)] == least:
                break
        candidate = Candidate(draft, tuple(choices), article)
        if not problems(candidate):
            sound.append(candidate)
            places[choices.index(draft.answer)] += 1
            seed += 1
        elif _typed_number(draft) is not None and not problems(candidate, typed=True):
            sound.append(candidate)  # typed: the choices that failed are never shown ("Four Navy ships")
    return sound


def _drafts(article: Article) -> dict[Fact, Draft | None]:
    """Each fact's draft, kept with the article as drafting reaches it: the choices are drawn
    twice (see :func:`drafted_entries`), the prompts once."""
    return {}


def _word_spans(text: str) -> Iterable[str]:
    """Every part of ``text`` that begins and ends at a word's edge: the parts another text
    may match as whole words (:func:`distractors.contains_words`), found by lookup rather than
    by searching the text for each of a long article's answers."""
    word = distractors.is_word
    starts = [at for at in range(len(text)) if not text[at].isspace() and (at == 0 or not word(text[at - 1]))]
    ends = [at for at in range(1, len(text) + 1) if not text[at - 1].isspace() and (at == len(text) or not word(text[at]))]
    return (text[start:end] for start in starts for end in ends if end > start)


def _fits(draft: Draft, avoid: frozenset[str] = frozenset(), avoid_parts: frozenset[str] = frozenset()):
    """Whether a distractor reads as well as the answer in the blank (same "a"/"an", same
    capitals), is not named in the prompt, repeats no figure the prompt holds, and neither holds
    nor is part of another question's answer (``avoid``; ``avoid_parts``, every part of them
    that begins and ends at a word's edge)."""
    article_word = re.search(r"\b(a|an)\s*$", draft.before, re.IGNORECASE)
    capital = draft.answer[:1].isupper()

    prompt = fold(draft.prompt).casefold()
    prompt_words = set(re.findall(r"[^\W_]+", prompt))
    counted = draft.fact.kind in ("quantity", "duration", "age", "year")

    own = fold(draft.answer).casefold()

    def fits(text: str) -> bool:
        folded = fold(text).casefold()
        if distractors.contains_words(prompt, folded):
            return False  # a choice the prompt names is plainly not the answer
        if avoid and any(part != own and part in avoid for part in _word_spans(folded)):
            return False  # another question's answer, which the choice would hint at
        if folded != own and folded in avoid_parts:
            return False  # "December 11" beside December 11, 1935: plainly a decoy, or a hint
        if counted:
            # "sixteen years" served of "a sixteen-year sentence": another figure of the prompt
            leading = re.search(r"(\d[\d.,]*)", folded) or re.match(r"([a-z]+)", folded)  # "us$70 million": the 70
            if leading and leading.group(1).strip(".,") in prompt_words:
                return False
        if article_word and indefinite_article(text) != indefinite_article(draft.answer):
            return False
        return not text[:1].isalpha() or text[:1].isupper() == capital

    return fits


def generate_questions(
    text: str, *, max_questions: int | None = None, other_texts: Sequence[str] = (), names: bool = True,
) -> list[dict[str, Any]]:
    """Draft questions on an article (plain text or Markdown), as bank question entries.

    Each entry is a ``single`` question (a ``number`` question for a whole count, duration or
    age, see :func:`_typed_number`) with the exact sentence (or clause) it rests
    on as its source, tagged ``generated`` and with its fact's kind. ``other_texts`` are other articles
    whose facts may serve as wrong choices. With ``names``, people, places and titles are asked
    too, as ``text`` questions the player types the name into (see :data:`TYPED_NAME_KINDS`).
    The same input always gives the same output.
    """
    return drafted_entries(plain_text(text), max_questions=max_questions, other_texts=other_texts, names=names)


def drafted_entries(
    plain: str,
    *,
    max_questions: int | None = None,
    other_texts: Sequence[str] = (),
    acceptable: Callable[[list[dict[str, Any]]], set[str]] | None = None,
    names: bool = True,
    headline: str = "",
) -> list[dict[str, Any]]:
    """:func:`generate_questions` on a text already reduced to plain text, taken as it is.

    ``acceptable``, given every entry, says which (by id) may stay; the best ``max_questions``
    are then taken from those. ``headline``, which players see above every question, tells
    what "the fire" or "the study" of a sentence is (see :func:`templates.draft_for`)."""
    article, others = analyse(plain, headline), _lenders(other_texts)
    kinds = NUMERIC_KINDS | TYPED_NAME_KINDS if names else NUMERIC_KINDS
    kept = _selected(_sound_candidates(article, others, kinds))
    # A wrong choice that is another question's answer tells that answer away (quiz lint says
    # so), and one that another question's sentence gives to something else ("on March 14,
    # NATO said ...") is plainly wrong: the choices are drawn again, leaving out both.
    answers = frozenset(phrase for candidate in kept for phrase in _answer_phrases(candidate))
    stated = frozenset(
        _folded(fact.text) for candidate in kept for fact in article.facts_in(candidate.draft.fact.sentence)
        if fact != candidate.draft.fact and FACT_KINDS[fact.kind].numeric
    )
    if answers:
        kept = _selected(_sound_candidates(article, others, kinds, answers | stated))
    if acceptable is not None:
        trial = _entries(kept, article)
        allowed = acceptable(trial)
        kept = [candidate for candidate, entry in zip(kept, trial) if entry["id"] in allowed]
    return _entries(_best(kept, max_questions), article)


def _answer_phrases(candidate: Candidate) -> list[str]:
    """What tells a candidate's answer (folded): the answer as written, and a typed number's
    digits and word ("three" of "three months", see :meth:`NumberKind.answer_phrases`)."""
    phrases = [fold(candidate.draft.answer).casefold()]
    typed = _typed_number(candidate.draft)
    if typed is not None:
        phrases += KINDS["number"].answer_phrases((), typed)
    return phrases


def _entries(candidates: list[Candidate], article: Article) -> list[dict[str, Any]]:
    used: set[str] = set()
    return [_entry(candidate, article, used) for candidate in candidates]


def _selected(candidates: list[Candidate]) -> list[Candidate]:
    """One question per value (however it is written: "July 14, 2015" and "the 14th of July
    2015" are one), a few per sentence."""
    per_sentence: dict[int, int] = {}
    answers: set[object] = set()
    kept = []
    # Figures first: a typed name takes a sentence's place only where no figure wants it.
    for candidate in sorted(candidates, key=lambda candidate: not FACT_KINDS[candidate.draft.fact.kind].numeric):
        fact = candidate.draft.fact
        keys = {fold(candidate.draft.answer).casefold(), fact.value_key}
        if keys & answers or per_sentence.get(fact.sentence, 0) >= QUESTIONS_PER_SENTENCE:
            continue
        answers.update(keys)
        per_sentence[fact.sentence] = per_sentence.get(fact.sentence, 0) + 1
        kept.append(candidate)
    return sorted(kept, key=lambda candidate: candidate.draft.fact.start)


def _best(kept: list[Candidate], max_questions: int | None) -> list[Candidate]:
    """The best ``max_questions`` of ``kept``, in article order."""
    if max_questions is None or len(kept) <= max_questions:
        return kept
    ranked = sorted(kept, key=lambda candidate: (-_worth(candidate), candidate.draft.fact.start))
    chosen = {id(candidate) for candidate in ranked[:max_questions]}
    return [candidate for candidate in kept if id(candidate) in chosen]


def _worth(candidate: Candidate) -> float:
    """A rough preference: full sets of choices, wh- questions, and facts the article stresses."""
    score = len(candidate.choices) / distractors.CHOICES
    if candidate.draft.template != "cloze":
        score += 0.5
    if candidate.draft.fact.kind in ("date", "year", "person", "place", "title"):
        score += 0.25
    return score


@functools.lru_cache(maxsize=16)
def _folded(text: str) -> str:
    return fold(text).casefold()


def guess_difficulty(candidate: Candidate, article: Article) -> str:
    """Easy when the answer is repeated or comes early; hard when its choices are close values
    made up for it, or it comes from late in a long article; medium otherwise."""
    fact = candidate.draft.fact
    position = fact.start / max(len(article.text), 1)
    if position < 0.15 or _repeated(article, fold(fact.text).casefold()):
        return "easy"
    if FACT_KINDS[fact.kind].numeric and fact.kind not in ("year",) and position > 0.5:
        return "hard"
    return "medium"


def _repeated(article: Article, part: str) -> bool:
    """Whether the article (folded) holds ``part`` twice: ``text.count(part) > 1``."""
    repeated = article.derived(_repeated_facts)
    if part in repeated:
        return repeated[part]
    return _twice(_folded(article.text), part)


def _repeated_facts(article: Article) -> dict[str, bool]:
    """Whether the article holds each of its facts' texts (folded) twice, all found at once."""
    parts = {fold(fact.text).casefold() for fact in article.facts}
    found = repeated_parts(_folded(article.text), parts)
    return {part: part in found for part in parts}


#: Parts at least this long are found by their first characters, all in one pass over the text.
_PREFIX = 4
_CHUNK = 1 << 16


def repeated_parts(text: str, parts: Iterable[str]) -> set[str]:
    """The ``parts`` that occur in ``text`` twice without overlapping (``text.count(part) > 1``).

    One pass over the text looks for every part at once, where searching the text for each part
    would take as many passes as there are parts, and a long article has a part for every
    question. Parts shorter than :data:`_PREFIX` ("40", "two") are searched for one by one:
    there are few, and most occur early and often.
    """
    repeated: set[str] = set()
    by_prefix: dict[str, list[str]] = {}
    for part in sorted(set(parts)):
        if len(part) < _PREFIX:
            if _twice(text, part):
                repeated.add(part)
        else:
            by_prefix.setdefault(part[:_PREFIX], []).append(part)
    first_end: dict[str, int] = {}
    starts = len(text) - _PREFIX + 1
    for chunk in range(0, starts, _CHUNK):
        found = [at for at in range(chunk, min(chunk + _CHUNK, starts)) if text[at : at + _PREFIX] in by_prefix]
        for at in found:
            for part in by_prefix[text[at : at + _PREFIX]]:
                if part in repeated or not text.startswith(part, at):
                    continue
                end = first_end.get(part)
                if end is None:
                    first_end[part] = at + len(part)
                elif at >= end:
                    repeated.add(part)
    return repeated


def _twice(text: str, part: str) -> bool:
    """``text.count(part) > 1``, stopping at the second."""
    if not part:
        return text.count(part) > 1
    first = text.find(part)
    return first >= 0 and text.find(part, first + len(part)) >= 0


def _entry(candidate: Candidate, article: Article, used: set[str]) -> dict[str, Any]:
    draft = candidate.draft
    identifier = _identifier(f"{draft.fact.kind}-{draft.answer}", used)
    asked = _typed_name(candidate, article) or _typed_number(candidate.draft) or {
        "prompt": draft.prompt, "choices": list(candidate.choices), "correct": draft.answer,
    }
    return {
        "id": identifier,
        "kind": "number" if "answer" in asked else "text" if "accept" in asked else "single",
        "difficulty": guess_difficulty(candidate, article),
        **asked,
        "explanation": draft.explanation,
        "source": [draft.quote],
        "tags": ["generated", draft.fact.kind],
    }


def _typed_name(candidate: Candidate, article: Article) -> dict[str, Any] | None:
    """The fields of a text question (the player types the name) for a person, place or title:
    every way the article writes it is right ("Sara Amundson", "Amundson"), so is a person's
    surname when no other person of the article bears it ("Winwood" for Steve Winwood), a
    place's name without the word that ends it ("Abaco" for the Abaco Islands), and a slip of
    one letter in a longer name."""
    draft = candidate.draft
    if draft.fact.kind not in TYPED_NAME_KINDS:
        return None
    entity = article.entity(draft.fact.entity)
    written = [draft.answer, *(mention.text for mention in entity.mentions)] if entity else [draft.answer]
    if draft.fact.kind == PLACE:
        # "Kidapawan" for Kidapawan City is right, unless the article writes it apart (Lincoln
        # beside Lincoln County); "County" alone, for Lincoln County, is not.
        *name, ending = draft.answer.split() or [""]
        if name and ending in PLACE_ENDINGS:
            written = [text for text in written if text != ending]
        if name and ending in SHORTENED_ENDINGS and _folded(" ".join(name)) not in article.derived(_short_places_apart):
            written.append(" ".join(name))
    if draft.fact.kind == PERSON and len(draft.answer.split()) > 1:
        surname = draft.answer.split()[-1]
        if sum(person.split()[-1] == surname for person in article.derived(_people)) == 1:
            written.append(surname)
    accept: list[str] = []
    for text in written:
        if not any(_folded(text) == _folded(seen) for seen in accept):
            accept.append(text)
    return {"prompt": draft.prompt, "accept": accept, "fuzzy": True}


def _short_places_apart(article: Article) -> set[str]:
    """The places' names less the word that ends them ("kidapawan" of Kidapawan City), folded,
    that the article also writes apart from the whole name: all found in one pass over the
    text, rather than the text searched twice for each place asked."""
    names = {_folded(fact.text) for fact in article.facts if fact.kind == PLACE}
    shorts = {name.rsplit(" ", 1)[0] for name in names if " " in name and name.rsplit(" ", 1)[1] in _ENDINGS}
    if not shorts:
        return set()
    # The longest first: where the whole name stands, its short form is not apart.
    parts = "|".join(re.escape(part) for part in sorted(names | shorts, key=len, reverse=True))
    return {found for found in re.findall(rf"(?<!\w)(?:{parts})(?!\w)", _folded(article.text)) if found in shorts}


#: The words ending a place's name that its short form goes without, the same place ("Kidapawan"
#: of Kidapawan City, "Abaco" of the Abaco Islands). Others leave another place or a common word
#: (Carmel of Carmel Valley, Miami of Miami Beach, "Wall" of Wall Street, "Czech" of the Czech
#: Republic).
SHORTENED_ENDINGS = frozenset("City County Town Village Islands Province Region District Desert Ocean Peninsula Mountains".split())
_ENDINGS = frozenset(_folded(ending) for ending in SHORTENED_ENDINGS)


def _people(article: Article) -> list[str]:
    """The full names of the article's people."""
    return [entity.name for entity in article.entities if entity.kind == PERSON]


#: Units a typed number question names after its blank ("____ miles", "____%"), or joined to it
#: by a hyphen ("a ____-year sentence", "a ____-year-old man"), whose answer box is labelled in
#: the plural ("years").
_TYPED_UNIT = re.compile(r"(?: [a-z]+)?|%|-(?P<joined>[a-z]+)(?:-old)?")
#: "about 31 percent": the article gives the figure roughly, and so may the player.
_HEDGED = re.compile(r"\b(?:about|around|roughly|approximately|estimated|close to)\s*$", re.IGNORECASE)
#: How far a typed figure may be from one the article gives roughly.
_HEDGED_TOLERANCE = 10


def _typed_number(draft: Draft) -> dict[str, Any] | None:
    """The fields of a number question (the player types the figure) for a whole count, duration
    or age. Graded blind, such figures were acceptable far more often typed than as multiple
    choice (rounds 23, 25 and 30: 54 of 128 against 23 of 86), whose wrong choices, made up or
    the article's own, readers judged implausible, ruled out by the sentence or told apart by
    their form ("15-", "16-", "17-" and "19-year-old"); a typed answer needs none. Figures with
    a currency, a scale or decimals stay multiple choice. The answer is exact, as the article's
    is, unless the article gives it roughly ("about 500"): then 10% either way is right, when
    that is a whole number."""
    form = draft.fact.form
    if draft.fact.kind not in ("quantity", "duration", "age") or not isinstance(form, NumberForm):
        return None
    # "a magnitude ____ earthquake": typed to its tenth as the article gives it; as choices,
    # made-up magnitudes ran past any ever measured ("10.3").
    magnitude = form.decimals == 1 and is_magnitude(draft.before, draft.after)
    if form.prefix or form.scale or (form.value != int(form.value) and not magnitude):
        return None
    unit = form.unit
    typed_unit = _TYPED_UNIT.fullmatch(unit)
    if not draft.answer.endswith(unit) or not typed_unit or draft.prompt.count(BLANK) > 1:
        return None
    written = _folded(draft.answer.removesuffix(unit))
    if distractors.contains_words(_folded(draft.prompt), written):
        return None  # "only ____ miles in a thirty hour period" hints at 30 as choices do not
    value = float(form.value) if magnitude else int(form.value)
    prompt = draft.prompt.replace(BLANK, BLANK + unit, 1) if BLANK in draft.prompt else draft.prompt
    fields: dict[str, Any] = {"prompt": prompt, "answer": value}
    # Below 10, a tenth is less than one: "about 2 months" is asked exactly, not as 1 to 3.
    if _HEDGED.search(draft.before) and value >= 10:
        fields["tolerance"] = _one_figure(value * _HEDGED_TOLERANCE // 100)
    if typed_unit.group("joined"):
        fields["unit"] = f"{typed_unit.group('joined')}s"  # "a ____-year-old man": years
    elif unit.strip():
        fields["unit"] = unit.strip()
    return fields


def _one_figure(value: int) -> int:
    """``value`` rounded down to its first figure: 60 of 62, 300 of 345."""
    step = 10 ** (len(str(value)) - 1)
    return value // step * step


def _identifier(text: str, used: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", fold(text).casefold()).strip("-")[:_ID_LENGTH].strip("-") or "question"
    identifier, number = base, 1
    while identifier in used:
        number += 1
        identifier = f"{base}-{number}"
    used.add(identifier)
    return identifier
