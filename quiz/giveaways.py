"""Giveaways: where a quiz tells one of its answers before the question is asked, or a question's
form tells its own answer. ``quiz lint`` reports them; feedback hides them (see
:func:`quiz.articles.passage`).

Questions of one ``group`` are never asked together, so what they tell each other is no
giveaway. Otherwise a question's answer is given away when one of its *answer phrases* (the
kind says which: the correct choice's text, the number, the accepted words) can be read in
another question's prompt, choices or explanation, in the quote shown after another question,
or in the quiz's title or description. Phrases are compared folded (case, typographic quotes and dashes,
spacing) as whole words, with a leading article or possessive left out ("Her lungs" is found
in "it had spread to her lungs").
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from quiz.quotes import fold
from quiz.kinds import KINDS

_LEADING = re.compile(r"^(?:the|a|an|her|his|their|its|our|your)\s+")
_EDGE = " .,;:!?\"'()[]"
#: Prompts this alike (the share of their words they have in common) are reported as near
#: duplicates.
SIMILAR_PROMPTS = 0.75


def folded(text: str) -> str:
    return " ".join(fold(text).casefold().split())


def answer_cores(kind: str, choices: Sequence[Any], answer_key: dict | None) -> list[str]:
    """The folded phrases that give a question's answer away; too short ones (but numbers) are
    left out, as they would be found everywhere."""
    cores = []
    for phrase in KINDS[kind].answer_phrases(choices, answer_key):
        core = _LEADING.sub("", folded(phrase)).strip(_EDGE)
        if (len(core) >= 3 or core.isdigit()) and core not in cores:
            cores.append(core)
    return cores


@functools.lru_cache(maxsize=4096)
def _pattern(core: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, core.split())) + r"(?!\w)")


def mentioned(text: str, cores: Iterable[str]) -> list[str]:
    """Which of ``cores`` ``text`` mentions."""
    text = folded(text)
    return [core for core in cores if _pattern(core).search(text)]


def hidden_spans(text: str, cores: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each sentence (or piece of one) of ``text`` that mentions one of ``cores``.

    ``text`` is searched piece by piece, a piece ending at a sentence's end, so that hiding one
    leaves the rest readable."""
    if not cores:
        return []
    spans = []
    for match in re.finditer(r"[^.!?]+(?:[.!?]+[\"”’')]*|$)", text):
        if match.group().strip() and mentioned(match.group(), cores):
            spans.append(match.span())
    return spans


# Linting a bank -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One giveaway: where it is (a place in the bank file), what it is, and the question whose
    answer it gives (None for a question that gives its own away)."""

    check: str
    loc: tuple[str | int, ...]
    #: The entry it concerns: ``questions[3] (id)`` or ``quizzes[0] (id)``.
    subject: str
    message: str
    other: str | None = None


@dataclass(frozen=True)
class Placed:
    """A finding and where it is in its file."""

    file: str
    line: int
    column: int
    finding: Finding

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.finding.subject}: {self.finding.message}"

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "line": self.line, "column": self.column, "check": self.finding.check,
            "entry": self.finding.subject, "message": self.finding.message, "gives_away": self.finding.other,
        }


def placed(bank: Any) -> list[Placed]:
    """:func:`lint`, each finding placed in the bank's file (as ``quiz lint`` prints them)."""
    findings = []
    for finding in lint(bank):
        line, column = bank.document.position(finding.loc) if bank.document is not None else (1, 1)
        findings.append(Placed(bank.file, line, column, finding))
    return sorted(findings, key=lambda item: (item.line, item.column, item.finding.message))


def lint(bank: Any) -> list[Finding]:
    """Every giveaway in a checked bank (:class:`quiz.bank.loader.Bank`), quiz by quiz."""
    findings: list[Finding] = []
    index = {question.slug: number for number, question in enumerate(bank.questions)}
    for quiz_number, quiz in enumerate(bank.quizzes):
        questions = [question for question in bank.questions if question.quiz_slug == quiz.slug]
        cores = {question.slug: answer_cores(question.kind, question.choices, question.answer_key) for question in questions}
        name = {question.slug: f"questions[{index[question.slug]}] ({question.slug})" for question in questions}
        for field in ("title", "description"):
            for question in questions:
                for core in mentioned(getattr(quiz, field), cores[question.slug]):
                    findings.append(Finding(
                        "answer-in-quiz", ("quizzes", quiz_number, field), f"quizzes[{quiz_number}] ({quiz.slug})",
                        f"the quiz's {field} gives away {name[question.slug]}: “{core}”", question.slug,
                    ))
        answers = _AnswerIndex(questions, cores)
        overlaps = _overlapping_quotes(questions)
        for reader_number, reader in enumerate(questions):
            here = ("questions", index[reader.slug])
            findings += [
                Finding("answer-in-question", (*here, "source", quote_number), name[reader.slug],
                        f"its quote overlaps the source of {name[owner.slug]}", owner.slug)
                for quote_number, owner in overlaps.get(reader_number, [])
            ]
            for field, texts in _shown_before_answering(reader) + _shown_after_answering(reader):
                for owner, core in answers.mentioned_in(texts):
                    if owner is reader or _grouped(owner, reader):
                        continue
                    findings.append(Finding(
                        "answer-in-question", (*here, *field), name[reader.slug],
                        f"its {_field_name(field)} {_verb(field)} away {name[owner.slug]}: “{core}”", owner.slug,
                    ))
        findings += _outliers(questions, name, index)
        findings += _duplicates(questions, name, index)
    return findings


def _overlapping_quotes(questions) -> dict[int, list[tuple[int, Any]]]:
    """For each question (by number), its quotes that share words with another question's, as
    (quote's number, the other question): feedback shows a quote whole, and with it part of
    the passage that proves the other's answer. Quotes are swept in article order, so that
    each is compared only with those that start before it ends."""
    quotes = sorted(
        (quote.span_start, quote.span_end, number, quote_number)
        for number, question in enumerate(questions) for quote_number, quote in enumerate(question.quotes)
    )
    pairs: set[tuple[int, int, int]] = set()
    for at, (start, end, number, quote_number) in enumerate(quotes):
        for other_start, other_end, other, other_quote in quotes[at + 1:]:
            if other_start >= end:
                break
            if other != number and not _grouped(questions[number], questions[other]):
                pairs.update({(number, quote_number, other), (other, other_quote, number)})
    found: dict[int, list[tuple[int, Any]]] = {}
    for number, quote_number, other in sorted(pairs):
        found.setdefault(number, []).append((quote_number, questions[other]))
    return found


def _grouped(one, other) -> bool:
    """Whether two questions share a group, and so are never asked together."""
    return one.group is not None and one.group == other.group


def _shown_before_answering(question) -> list[tuple[tuple, list[str]]]:
    field = "items" if question.kind == "ordering" else "choices"
    shown = [] if KINDS[question.kind].fixed_choices else [(field, [choice.text for choice in question.choices])]
    return [(("prompt",), [question.prompt]), *(((name,), texts) for name, texts in shown)]


def _shown_after_answering(question) -> list[tuple[tuple, list[str]]]:
    """The explanation, and each quote: the part of its paragraph feedback always shows."""
    return [(("explanation",), [question.explanation])] + [
        (("source", number), [quote.excerpt]) for number, quote in enumerate(question.quotes)
    ]


class _AnswerIndex:
    """Every answer phrase of a quiz, found by its first word: a text can only mention the
    phrases whose first word it holds, so each text is searched for those alone rather than
    for every phrase of the quiz (drafted quizzes have hundreds)."""

    def __init__(self, questions, cores: dict[str, list[str]]):
        self._by_word: dict[str, list[tuple[int, int, Any, str]]] = {}
        for owner_number, owner in enumerate(questions):
            for core_number, core in enumerate(cores[owner.slug]):
                first = re.search(r"\w+", core)
                if first:
                    self._by_word.setdefault(first.group(), []).append((owner_number, core_number, owner, core))

    def mentioned_in(self, texts: list[str]) -> list[tuple[Any, str]]:
        """(question, phrase) for each answer phrase ``texts`` mention, in bank order."""
        found = {}
        for text in texts:
            text = folded(text)
            for word in set(re.findall(r"\w+", text)):
                for owner_number, core_number, owner, core in self._by_word.get(word, ()):
                    if (owner_number, core_number) not in found and _pattern(core).search(text):
                        found[owner_number, core_number] = (owner, core)
        return [found[key] for key in sorted(found)]


def _field_name(field: tuple) -> str:
    return {"source": "quote"}.get(field[0], field[0])


def _verb(field: tuple) -> str:
    return "give" if field[0] in ("choices", "items") else "gives"


def _outliers(questions, name, index) -> list[Finding]:
    """A correct choice that stands out among its choices by length or by form."""
    findings = []
    for question in questions:
        if question.kind != "single" or len(question.choices) < 3:
            continue
        right = next(choice.text for choice in question.choices if choice.is_correct)
        wrong = [choice.text for choice in question.choices if not choice.is_correct]
        loc = ("questions", index[question.slug], "choices")
        longest, shortest = max(len(text) for text in wrong), min(len(text) for text in wrong)
        if len(right) > 1.5 * longest and len(right) - longest >= 10:
            findings.append(Finding("outlier", loc, name[question.slug],
                                    f"the correct choice “{right}” is by far the longest"))
        elif len(right) < 0.6 * shortest and shortest - len(right) >= 8:
            findings.append(Finding("outlier", loc, name[question.slug],
                                    f"the correct choice “{right}” is by far the shortest"))
        shared = set.intersection(*(_word_pairs(text) for text in wrong)) - _word_pairs(right)
        if len(wrong) >= 2 and shared:
            pair = " ".join(sorted(shared)[0])
            findings.append(Finding("outlier", loc, name[question.slug],
                                    f"the correct choice “{right}” is the only one without “{pair}”"))
    return findings


def _word_pairs(text: str) -> set[tuple[str, str]]:
    words = re.findall(r"\w+", folded(text))
    return set(zip(words, words[1:]))


def _duplicates(questions, name, index) -> list[Finding]:
    """Prompts with nearly the same words. Prefix filtering keeps it from comparing every pair
    (drafted quizzes have hundreds of prompts): with the words of each prompt ranked rarest
    first, two prompts this alike must share one of their first few words."""
    findings = []
    prompts = [folded(question.prompt) for question in questions]
    words = [frozenset(re.findall(r"\w+", prompt)) for prompt in prompts]
    frequency = Counter(word for prompt_words in words for word in prompt_words)
    having: dict[str, list[int]] = {}
    for later_number, later in enumerate(questions):
        ranked = sorted(words[later_number], key=lambda word: (frequency[word], word))
        prefix = ranked[: len(ranked) - math.ceil(SIMILAR_PROMPTS * len(ranked)) + 1]
        for earlier_number in sorted({number for word in prefix for number in having.get(word, ())}):
            earlier = questions[earlier_number]
            shared = len(words[earlier_number] & words[later_number]) / len(words[earlier_number] | words[later_number])
            if shared >= SIMILAR_PROMPTS and not _grouped(earlier, later):
                same = prompts[earlier_number] == prompts[later_number]
                findings.append(Finding(
                    "duplicate-prompt", ("questions", index[later.slug], "prompt"), name[later.slug],
                    f"its prompt is {'the same as' if same else 'nearly that of'} {name[earlier.slug]}",
                    earlier.slug,
                ))
        for word in prefix:
            having.setdefault(word, []).append(later_number)
    return findings
