"""The quiz's title: the article's headline, less what the questions ask.

A headline states the story's main facts ("Ginger Baker dies at age 80", "Florida pileup kills
five children"), the very facts most worth asking, and players see the quiz's title before
every question. Titling the quiz with the whole headline would either give those answers away
or keep them from being asked; the headline with each asked value (and the preposition that
brings it in: "at age 80", "from June 15") taken out keeps the story and tells no answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from quiz.generator.numbers import WORD_NUMBERS
from quiz.generator.validation import asks_a_birth

#: Words that bring in a value and go with it: "dies at age 80", "mandatory from June 15".
_LEAD_IN = r"(?:(?:at the age of|at age|aged|at|in|on|from|after|since|by|of)\s+)?"
#: A title left with fewer words than this says too little of the story to stand as one.
MIN_WORDS = 3


def quiz_title(headline: str, questions: Iterable[Mapping[str, Any]]) -> str:
    """``headline`` with the answer of each drafted question (bank entries) taken out, or the
    headline itself when too little of it would be left (the questions it states then go: see
    :func:`states`)."""
    title = headline
    for question in questions:
        if "accept" not in question:  # a name taken out leaves a headline about no one
            title = _answer_in(question).sub(" ", title)
    title = _tidy(title)
    return title if len(title.split()) >= MIN_WORDS else headline


def states(title: str, question: Mapping[str, Any]) -> bool:
    """Whether ``title`` states the answer of ``question``, in any of the ways it may be
    written: ``quiz lint`` looks for a typed figure in digits only, and "Fourteen months"
    tells 14 as well as "14 months" does."""
    return bool(_answer_in(question).search(title))


#: An age a headline gives: "dies at 97", "dies aged 22", "dies at age 80", "a 17-year-old".
_AGE = re.compile(r"\b(?:aged|at(?: the)? age(?: of)?|(?:dies|died|dead) at)\s+\d{1,3}\b|\b\d{1,3}-year-old\b", re.IGNORECASE)


def tells_a_birth(headline: str, question: Mapping[str, Any]) -> bool:
    """Whether ``headline`` gives an age and ``question`` asks when someone was born: the year
    the story was filed less the age tells the year, give or take one (see
    :func:`~quiz.generator.validation.birth_year_from_age`, the same for an age the article
    gives)."""
    return question["tags"][-1] in ("year", "date") and asks_a_birth(question["prompt"]) and bool(_AGE.search(headline))


def _answer_in(question: Mapping[str, Any]) -> re.Pattern[str]:
    """The answer of ``question`` in a headline, with what brings it in before it and its unit
    after it."""
    unit = question.get("unit")
    after = rf"(?:\s+{re.escape(unit)})?" if unit else ""
    written = "|".join(_written_forms(question))
    return re.compile(rf"\s*{_LEAD_IN}(?<!\w)(?:{written}){after}(?!\w)", re.IGNORECASE)


def _written_forms(question: Mapping[str, Any]) -> list[str]:
    """Patterns for the ways a headline may write a question's answer: the right choice as it
    reads, a typed name in any of the ways the article writes it, or a typed figure in digits
    (with or without thousands commas) or in words."""
    if "accept" in question:
        return [r"\s+".join(map(re.escape, accepted.split())) for accepted in question["accept"]]
    if "answer" not in question:
        return [r"\s+".join(map(re.escape, str(question["correct"]).split()))]
    value = question["answer"]
    forms = [re.escape(f"{value:,}"), re.escape(str(value))]
    return forms + [word for word, number in WORD_NUMBERS.items() if number == value]


def _tidy(title: str) -> str:
    """Spaces and punctuation mended where a part was taken out: no space before a comma, no
    two commas in a row, none at either end."""
    title = re.sub(r"\s+", " ", title)
    title = re.sub(r"\s+([,;:.!?])", r"\1", title)
    title = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", title)
    return title.strip(" ,;:-–—")
