"""Checks every drafted question must pass; a question failing any is dropped.

Each entry of :data:`CHECKS` returns why a question fails, or None. They are the mechanical
part of judging a question: whether it is worth asking is left to the person reviewing it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from quiz.bank.quotes import fold
from quiz.generator.distractors import distinct
from quiz.generator.entities import PERSON
from quiz.generator.facts import Article
from quiz.generator.numbers import indefinite_article
from quiz.generator.templates import Draft

MIN_CHOICES = 3
#: The answer may not be this many times longer (or shorter) than every other choice.
LENGTH_RATIO = 1.6
#: ... unless the lengths differ by no more than this many characters.
LENGTH_SLACK = 4


@dataclass(frozen=True)
class Candidate:
    """A draft with its choices, and the article it comes from."""

    draft: Draft
    choices: tuple[str, ...]
    article: Article


Check = Callable[[Candidate], str | None]


def _folded(text: str) -> str:
    return fold(text).casefold()


def answer_in_quote(candidate: Candidate) -> str | None:
    if _folded(candidate.draft.answer) not in _folded(candidate.draft.quote):
        return "the answer is not in its quote"
    return None


def enough_choices(candidate: Candidate) -> str | None:
    if len(candidate.choices) < MIN_CHOICES:
        return f"only {len(candidate.choices)} choices"
    return None


def distinct_choices(candidate: Candidate) -> str | None:
    choices = candidate.choices
    for index, choice in enumerate(choices):
        if not distinct(choice, choices[:index]):
            return f"choice '{choice}' repeats or contains another"
    return None


def stem_without_answer(candidate: Candidate) -> str | None:
    answer = _folded(candidate.draft.answer)
    if re.search(rf"(?<!\w){re.escape(answer)}(?!\w)", _folded(candidate.draft.prompt)):
        return "the prompt contains the answer"
    return None


def length_gives_away(candidate: Candidate) -> str | None:
    answer = len(candidate.draft.answer)
    others = [len(choice) for choice in candidate.choices if choice != candidate.draft.answer]
    if not others:
        return None
    if answer > max(others) * LENGTH_RATIO and answer - max(others) > LENGTH_SLACK:
        return "the answer is much longer than every other choice"
    if answer * LENGTH_RATIO < min(others) and min(others) - answer > LENGTH_SLACK:
        return "the answer is much shorter than every other choice"
    return None


def grammar_gives_away(candidate: Candidate) -> str | None:
    """An "a"/"an" before the blank, capitals, or a plural after it that only the answer fits."""
    draft = candidate.draft
    article_word = re.search(r"\b(a|an)\s*$", draft.before, re.IGNORECASE)
    if article_word:
        expected = article_word.group(1).lower()
        if any(indefinite_article(choice) != expected for choice in candidate.choices):
            return f"not every choice follows '{expected}'"
    capitalised = {choice[:1].isupper() for choice in candidate.choices if choice[:1].isalpha()}
    if len(capitalised) > 1:
        return "some choices are capitalised and some are not"
    if re.match(r"\s+[a-z]+s\b", draft.after) and any(choice.lower() in ("one", "1") for choice in candidate.choices):
        return "'one' before a plural"
    return None


def gender_gives_away(candidate: Candidate) -> str | None:
    draft = candidate.draft
    if draft.fact.kind != PERSON or draft.fact.gender is None:
        return None
    genders = {
        mention.text: entity.gender
        for entity in candidate.article.entities
        for mention in entity.mentions
    }
    for choice in candidate.choices:
        if genders.get(choice) not in (None, draft.fact.gender):
            return f"choice '{choice}' is of the other gender"
    return None


def not_main_subject(candidate: Candidate) -> str | None:
    fact = candidate.draft.fact
    if fact.entity is not None and fact.entity in candidate.article.subjects:
        return f"the answer is what the article is about ({fact.entity})"
    return None


#: Every check a question must pass, by name.
CHECKS: dict[str, Check] = {
    "answer-in-quote": answer_in_quote,
    "enough-choices": enough_choices,
    "distinct-choices": distinct_choices,
    "stem-without-answer": stem_without_answer,
    "length": length_gives_away,
    "grammar": grammar_gives_away,
    "gender": gender_gives_away,
    "main-subject": not_main_subject,
}


def problems(candidate: Candidate) -> list[str]:
    """Why ``candidate`` must be dropped: one message per failed check, none when it is sound."""
    return [f"{name}: {message}" for name, check in CHECKS.items() if (message := check(candidate))]
