"""Question templates: turning a fact and its sentence into a prompt.

:data:`TEMPLATES` is tried in order and the first that fits a fact wins: a few wh- questions
for sentence patterns that can be rephrased safely, then the cloze ("In ____, she ...") that
fits any fact. A sentence that leans on an earlier one ("It didn't count ...") or opens with a
pronoun whose person cannot be told for sure is not used: every prompt must stand alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from quiz.generator.entities import PERSON
from quiz.generator.facts import Article, Fact
from quiz.generator.sentences import Sentence

BLANK = "____"

#: Sentences longer than this are cut to the clause holding the fact.
MAX_QUOTE_WORDS = 60
MIN_QUOTE_WORDS = 6

_LEANING_OPENERS = frozenset("it its this that these those they them their there such".split())
_SUBJECT_PRONOUNS = {"he": "male", "she": "female", "his": "male", "her": "female"}
_PRONOUN = re.compile(r"\b(he|she|his|her)\b", re.IGNORECASE)
_NOT_A_NOUN = frozenset("to and or in on at with for from by of that as than but after before when while so".split())
_SPEECH = r"(?:said|says|explained|added|told reporters|recalled|admitted|wrote)"


@dataclass(frozen=True)
class Draft:
    """A question before its choices: what to ask, the answer, and the quote that proves it."""

    template: str
    fact: Fact
    prompt: str
    answer: str
    quote: str
    explanation: str
    #: The words right before and after the blank (cloze) or the answer in the quote.
    before: str
    after: str


Template = Callable[[Fact, Article], Draft | None]


def _quote_for(fact: Fact, article: Article) -> tuple[str, int] | None:
    """The sentence holding ``fact``, or its clause when the sentence is long, and its offset."""
    sentence = article.sentences[fact.sentence]
    text, start = sentence.text, sentence.start
    if len(text.split()) > MAX_QUOTE_WORDS:
        clause = _clause(text, fact.start - start, fact.end - start)
        if clause is None:
            return None
        text, start = clause[0], start + clause[1]
    if len(text.split()) < MIN_QUOTE_WORDS or fact.text not in text:
        return None
    return text, start


def _clause(text: str, fact_start: int, fact_end: int) -> tuple[str, int] | None:
    bounds = [0] + [match.end() for match in re.finditer(r"[;:—–]\s*|,\s+(?=(?:and|but|while|which|who)\b)", text)] + [len(text)]
    # Only the opening clause stands alone; a later one lacks its subject.
    for left, right in zip(bounds[:1], bounds[1:2]):
        if left <= fact_start and fact_end <= right:
            clause = text[left:right].rstrip(" ;:—–,")
            if len(clause.split()) <= MAX_QUOTE_WORDS:
                return clause, left
    return None


def _resolve_opening_pronoun(sentence_text: str, offset: int, article: Article, sentence: Sentence) -> tuple[str, str] | None:
    """The sentence with its first pronoun replaced by the one person it can mean, when a
    pronoun comes before any name; the sentence unchanged when none does; None when the
    person is not certain.

    Returns (text, name used) — the name is empty when nothing was replaced.
    """
    narration = re.sub(r"[\"“][^\"”]*[\"”]", lambda match: " " * len(match.group()), sentence_text)
    match = _PRONOUN.search(narration)
    if match is None:
        return sentence_text, ""
    people_before = [
        fact for fact in article.facts
        if fact.kind == PERSON and fact.sentence == sentence.index and fact.start < offset + match.start()
    ]
    if people_before:
        return sentence_text, ""
    word = match.group(1)
    gender = _SUBJECT_PRONOUNS[word.lower()]
    person = _antecedent(article, sentence.index, gender)
    if person is None:
        return None
    name = article.entity(person).display_name  # type: ignore[union-attr]
    after = sentence_text[match.end() :]
    if word.lower() == "his" or (word.lower() == "her" and _possessive(after)):
        apostrophe = "’" if "’" in article.text else "'"
        name_form = f"{name}{apostrophe}s"
    else:
        name_form = name
    return sentence_text[: match.start()] + name_form + after, name


def _possessive(after: str) -> bool:
    following = re.match(r"\s+([A-Za-z-]+)", after)
    return bool(following) and following.group(1).lower() not in _NOT_A_NOUN  # type: ignore[union-attr]


def _antecedent(article: Article, index: int, gender: str) -> str | None:
    """The one person of ``gender`` named in the three sentences before, else the article's
    main person when no one else of that gender is named there; None if unsure."""
    window = range(max(0, index - 3), index + 1)
    named = {
        fact.entity: fact.gender for fact in article.facts
        if fact.kind == PERSON and fact.sentence in window
    }
    matching = [name for name, known in named.items() if known in (gender, None)]
    if len(matching) == 1 and named[matching[0]] == gender:
        return matching[0]
    if not matching:
        subjects = [entity for entity in article.entities if entity.kind == PERSON and entity.name in article.subjects]
        if len(subjects) == 1 and subjects[0].gender == gender:
            return subjects[0].name
    return None


def _stands_alone(text: str) -> bool:
    first = re.match(r"[\"“‘']?([A-Za-z]+)", text)
    return first is None or first.group(1).lower() not in _LEANING_OPENERS


def _lowercase_start(text: str, article: Article) -> str:
    """``text`` with its first letter lowercased when its first word is a common word."""
    first = re.match(r"([A-Za-z]+)", text)
    if first and first.group(1).lower() in {word.lower() for word in re.findall(r"\b[a-z]+\b", article.text)}:
        return text[0].lower() + text[1:]
    return text


def _explained(text: str, article: Article) -> str:
    text = text.rstrip()
    if not text.endswith((".", "!", "?", "\"", "”")):
        text += "."
    return f"According to the article, {_lowercase_start(text, article)}"


def cloze(fact: Fact, article: Article) -> Draft | None:
    """"Complete the sentence: In ____, Carley first learned ..." for any fact."""
    found = _quote_for(fact, article)
    if found is None:
        return None
    quote, quote_start = found
    if not _stands_alone(quote):
        return None
    at, end = fact.start - quote_start, fact.end - quote_start
    blanked = quote[:at] + BLANK + quote[end:]
    resolved = _resolve_opening_pronoun(blanked, quote_start, article, article.sentences[fact.sentence])
    if resolved is None:
        return None
    stem, _ = resolved
    filled = stem.replace(BLANK, fact.text, 1)
    return Draft(
        template="cloze", fact=fact, prompt=f"Complete the sentence from the article: {stem}",
        answer=fact.text, quote=quote, explanation=_explained(filled, article),
        before=quote[:at], after=quote[end:],
    )


_DIED_AT = re.compile(r"^(?P<who>[A-Z][\w’'.-]*(?: [A-Z][\w’'.-]*){0,3}) died at the age of (?P<age>\d{1,3})\b")


def age_at_death(fact: Fact, article: Article) -> Draft | None:
    """"At what age did Carley die?" from "She died at the age of 19 ..."."""
    if fact.kind != "age":
        return None
    sentence = article.sentences[fact.sentence]
    resolved = _resolve_opening_pronoun(sentence.text, sentence.start, article, sentence)
    if resolved is None:
        return None
    text, _ = resolved
    match = _DIED_AT.match(text)
    if match is None or match.group("age") != fact.text:
        return None
    who = match.group("who")
    return Draft(
        template="age-at-death", fact=fact, prompt=f"According to the article, at what age did {who} die?",
        answer=fact.text, quote=sentence.text, explanation=f"According to the article, {who} died at the age of {fact.text}.",
        before="", after="",
    )


_ATTRIBUTED = (
    re.compile(rf"^[\"“](?P<words>[^\"”]{{20,240}}?)[,.!?]?[\"”],? (?P<who>[A-Z][\w’'-]*(?: [A-Z][\w’'-]*){{0,2}}),?(?: [^.]*?)? {_SPEECH}\b"),
    re.compile(rf"^[\"“](?P<words>[^\"”]{{20,240}}?)[,.!?]?[\"”],? {_SPEECH} (?P<who>[A-Z][\w’'-]*(?: [A-Z][\w’'-]*){{0,2}})\b"),
)


def attributed_quote(fact: Fact, article: Article) -> Draft | None:
    """"Who said ...?" for a quotation followed by its speaker's name."""
    if fact.kind != PERSON:
        return None
    sentence = article.sentences[fact.sentence]
    for pattern in _ATTRIBUTED:
        match = pattern.match(sentence.text)
        if match and match.group("who") == fact.text and sentence.start + match.start("who") == fact.start:
            words = match.group("words").strip()
            return Draft(
                template="attributed-quote", fact=fact,
                prompt=f"According to the article, who said: “{words}”?",
                answer=fact.text, quote=sentence.text,
                explanation=f"The article attributes these words to {fact.text}.",
                before="", after="",
            )
    return None


#: Tried in order; the first template that fits a fact makes its question.
TEMPLATES: dict[str, Template] = {
    "age-at-death": age_at_death,
    "attributed-quote": attributed_quote,
    "cloze": cloze,
}


def draft_for(fact: Fact, article: Article) -> Draft | None:
    for template in TEMPLATES.values():
        draft = template(fact, article)
        if draft is not None:
            return draft
    return None
