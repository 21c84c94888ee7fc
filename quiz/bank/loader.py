"""Loading a bank file into checked, resolved entries ready to import.

:func:`load_bank` reports every problem at once, each with its file, line and column, and
returns nothing unless the whole file is sound.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from quiz import collector
from quiz.bank.errors import BankError, BankInvalid
from quiz.quotes import FoldedText, fold
from quiz.bank.schema import ArticleSpec, BankSpec, QuestionSpec, QuizSettings, QuizSpec, no_control_characters
from quiz.articles import Quotable
from quiz.bank.yamlfile import Document, parse_yaml
from quiz.kinds import COMMON_FIELDS, KINDS, Content

#: Hints for a field given to a kind that does not read it: (kind, field) -> hint.
_FIELD_HINTS = {
    ("ordering", "choices"): "; list the items in the right order under 'items'",
    ("ordering", "correct"): "; the items' order under 'items' is the answer",
    ("poll", "correct"): "; a poll has no correct choice",
    ("number", "correct"): "; give the number under 'answer'",
    ("text", "correct"): "; list the accepted answers under 'accept'",
}

#: Default cap on a bank file, and separately on each article file it names.
MAX_BANK_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class BankArticle:
    slug: str
    title: str
    url: str | None
    published_on: date | None
    text: str


@dataclass(frozen=True)
class BankQuiz:
    slug: str
    title: str
    description: str
    article_slug: str
    position: int
    questions_per_attempt: int
    shuffle_choices: bool
    time_limit: int
    language: str = "en"


@dataclass(frozen=True)
class BankChoice:
    text: str
    is_correct: bool


@dataclass(frozen=True)
class BankQuote:
    """Where a quote was found: the exact span and characters of the article."""

    span_start: int
    span_end: int
    excerpt: str


@dataclass(frozen=True)
class BankQuestion:
    slug: str
    quiz_slug: str
    position: int
    kind: str
    difficulty: str
    prompt: str
    choices: tuple[BankChoice, ...]
    explanation: str
    quotes: tuple[BankQuote, ...]
    tags: tuple[str, ...]
    time_limit: int | None
    #: What grading needs beyond the choices (see :class:`quiz.kinds.Content`).
    answer_key: dict[str, Any] | None = None
    #: Questions of one group are never asked together; not part of a revision's content.
    group: str | None = None

    def fingerprint(self) -> str:
        """Hash of what a revision stores; equal fingerprints mean nothing to revise."""
        return self._fingerprint

    @cached_property
    def _fingerprint(self) -> str:
        # What asdict() gives, without its deep copies: the import and its preview each ask
        # for every question's fingerprint.
        content = {
            "kind": self.kind, "difficulty": self.difficulty, "prompt": self.prompt,
            "choices": [{"text": choice.text, "is_correct": choice.is_correct} for choice in self.choices],
            "explanation": self.explanation,
            "quotes": [
                {"span_start": quote.span_start, "span_end": quote.span_end, "excerpt": quote.excerpt}
                for quote in self.quotes
            ],
            "tags": list(self.tags), "time_limit": self.time_limit,
        }
        if self.answer_key is not None:  # absent from the kinds without one, as before it existed
            content["answer_key"] = self.answer_key
        encoded = json.dumps(content, sort_keys=True, ensure_ascii=False).encode()
        return hashlib.sha256(encoded).hexdigest()


@dataclass(frozen=True)
class Bank:
    file: str
    articles: tuple[BankArticle, ...]
    quizzes: tuple[BankQuiz, ...]
    questions: tuple[BankQuestion, ...]
    #: Where each question without a source quote is, for ``quiz check`` to warn (or refuse).
    unsourced: tuple[BankError, ...] = ()
    #: The file as parsed, for placing what is found in it later (``quiz lint``).
    document: Document | None = field(default=None, repr=False, compare=False)


def load_bank(path: str | Path, *, max_bytes: int = MAX_BANK_BYTES) -> Bank:
    """Read and check the bank file at ``path``; article files are looked up beside it."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BankInvalid([BankError(str(path), 1, 1, "", f"cannot read file: {exc.strerror}")]) from None
    return parse_bank(raw, str(path), base_dir=path.parent, max_bytes=max_bytes)


def parse_bank(
    raw: bytes, file: str, *, base_dir: Path | None, max_bytes: int = MAX_BANK_BYTES
) -> Bank:
    """Check a bank given as bytes. Without ``base_dir``, articles must be inline."""
    with collector.paused():
        return bank_from_document(parse_yaml(raw, file, max_bytes=max_bytes), base_dir=base_dir, max_bytes=max_bytes)


def bank_from_document(document: Document, *, base_dir: Path | None, max_bytes: int = MAX_BANK_BYTES) -> Bank:
    """Check a bank already parsed, or built in Python (without positions: its errors say
    line 0); the generator checks its drafts so without writing them out and reading them back."""
    data = document.data
    # Entries are checked one by one so that the cross-entry checks below still run on every
    # entry that is well-formed, and a single run reports all problems.
    sections = {
        name: _valid_entries(model, data.get(name) if isinstance(data, dict) else None)
        for name, model in (("articles", ArticleSpec), ("quizzes", QuizSpec), ("questions", QuestionSpec))
    }
    errors = [] if _whole_bank_valid(data, sections) else _bank_errors(document)
    entries = _Entries(
        articles=sections["articles"],
        quizzes=sections["quizzes"],
        questions=sections["questions"],
        declared={section: _declared_ids(data.get(section)) for section in ("articles", "quizzes")},
    )
    return _Resolver(document, entries, base_dir, max_bytes, errors).resolve()


def _whole_bank_valid(data: Any, sections: dict[str, list[Any]]) -> bool:
    """Whether :class:`BankSpec` would accept ``data``, known from its entries checked one by one
    (checking the whole file as well would take as long again)."""
    return (
        isinstance(data, dict)
        and data.keys() <= {"version", *sections}
        and _is_version_1(data.get("version"))
        and all(
            name not in data or (isinstance(data[name], list) and all(entry is not None for entry in entries))
            for name, entries in sections.items()
        )
    )


def _bank_errors(document: Document) -> list[BankError]:
    """What :class:`BankSpec` finds wrong with the file; raises at once when the file is no
    version 1 bank at all, since nothing else in it could then be checked."""
    data = document.data
    try:
        BankSpec.model_validate(data)
    except ValidationError as exc:
        errors = _schema_errors(document, exc)
        if not isinstance(data, dict) or not _is_version_1(data.get("version")):
            raise BankInvalid(errors) from None
        return errors
    return []


def _is_version_1(value: Any) -> bool:
    return type(value) is int and value == 1  # True == 1 in Python, but is no version


@dataclass
class _Entries:
    """Each section's entries in file order, None where an entry failed the schema."""

    articles: list[ArticleSpec | None]
    quizzes: list[QuizSpec | None]
    questions: list[QuestionSpec | None]
    #: Every id written in each section, valid entry or not, so that a reference to a broken
    #: entry is not reported a second time as a reference to nothing.
    declared: dict[str, set[Any]]


def _declared_ids(items: Any) -> set[Any]:
    if not isinstance(items, list):
        return set()
    # An id that is not text is already a schema error; it still counts as an entry.
    return {
        identifier if isinstance(identifier := item.get("id"), str) else None
        for item in items
        if isinstance(item, dict)
    }


def _valid_entries(model: type[Any], items: Any) -> list[Any]:
    if not isinstance(items, list):
        return []
    valid = []
    for item in items:
        try:
            valid.append(model.model_validate(item))
        except ValidationError:
            valid.append(None)
    return valid


def _schema_errors(document: Document, exc: ValidationError) -> list[BankError]:
    errors: dict[tuple, BankError] = {}
    for error in exc.errors():
        loc = _document_loc(document.data, error["loc"], error["type"])
        if loc in errors:  # a union reports once per alternative; keep the first
            continue
        errors[loc] = document.error(loc, _message(document.data, loc, error))
    return list(errors.values())


def _document_loc(data: Any, loc: Iterable[str | int], error_type: str) -> tuple[str | int, ...]:
    """The part of pydantic's ``loc`` that names places in the file (not union alternatives)."""
    kept: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif error_type == "missing" and isinstance(node, dict):
            kept.append(part)  # the missing field itself
            break
        else:
            break
        kept.append(part)
    return tuple(kept)


_FIELDS = {
    (): BankSpec.model_fields,
    ("articles",): ArticleSpec.model_fields,
    ("quizzes",): QuizSpec.model_fields,
    ("quizzes", "settings"): QuizSettings.model_fields,
    ("questions",): QuestionSpec.model_fields,
}


def _message(data: Any, loc: tuple[str | int, ...], error: dict[str, Any]) -> str:
    if error["type"] == "extra_forbidden":
        field = str(loc[-1])
        known = _FIELDS.get(tuple(part for part in loc[:-1] if isinstance(part, str)), {})
        close = difflib.get_close_matches(field, list(known), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        return f"unknown field '{field}'{hint}"
    if error["type"] == "missing":
        return "required field is missing"
    if loc == ("version",):
        return "must be 1, the only version of the format"
    if loc and loc[-1] == "correct":
        return "must be a choice's text, a list of choice texts, or true/false"
    if loc and loc[-1] in ("answer", "tolerance") and error["type"] != "greater_than_equal":
        return "must be a number"
    if error["type"] == "string_pattern_mismatch" and loc and (loc[-1] == "id" or "tags" in loc):
        return "must be lowercase letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
    if error["type"] == "string_pattern_mismatch" and loc and loc[-1] == "language":
        return "must be a language tag such as 'en', 'fr' or 'fr-CA'"
    message = error["msg"].removeprefix("Value error, ")
    return message[0].lower() + message[1:]


class _Resolver:
    """The checks that span entries: references, uniqueness, correct choices, quotes."""

    def __init__(
        self, document: Document, entries: _Entries, base_dir: Path | None, max_bytes: int,
        errors: list[BankError],
    ):
        self.document = document
        self.entries = entries
        self.base_dir = base_dir
        self.max_bytes = max_bytes
        self.errors = errors
        self.unsourced: list[BankError] = []

    def error(self, loc: tuple[str | int, ...], message: str) -> None:
        self.errors.append(self.document.error(loc, message))

    def resolve(self) -> Bank:
        articles = self._articles()
        quizzes = self._quizzes(articles)
        # Quotes may come from the headline as well as the body (see quiz.articles.Quotable).
        texts = {
            slug: (FoldedText(quotable.text), quotable.offset)
            for slug, quotable in ((slug, Quotable.of(article.title, article.text)) for slug, article in articles.items())
        }
        questions = self._questions(quizzes, texts)
        if self.errors:
            raise BankInvalid(self.errors)
        return Bank(
            self.document.file, tuple(articles.values()), tuple(quizzes.values()), questions, tuple(self.unsourced),
            self.document,
        )

    def _unique(self, section: str, entries: list[Any]) -> set[int]:
        """Report repeated ids in ``section``; return the indexes of the repeats and broken entries."""
        first_seen: dict[str, int] = {}
        repeats = {index for index, entry in enumerate(entries) if entry is None}
        for index, entry in enumerate(entries):
            if entry is None:
                continue
            identifier = entry.id
            if identifier in first_seen:
                line, _ = self.document.position((section, first_seen[identifier], "id"))
                self.error((section, index, "id"), f"duplicate id '{identifier}' (first used on line {line})")
                repeats.add(index)
            else:
                first_seen[identifier] = index
        return repeats

    def _articles(self) -> dict[str, BankArticle]:
        repeats = self._unique("articles", self.entries.articles)
        articles = {}
        for index, spec in enumerate(self.entries.articles):
            if spec is None:
                continue
            text = spec.text if spec.text is not None else self._article_file(index, spec.file or "")
            if index not in repeats and text is not None:
                articles[spec.id] = BankArticle(spec.id, spec.title, spec.url, spec.date, text)
        return articles

    def _article_file(self, index: int, name: str) -> str | None:
        loc = ("articles", index, "file")
        if self.base_dir is None:
            self.error(loc, "article files cannot be used here; put the text inline")
            return None
        base = self.base_dir.resolve()
        path = (base / name).resolve()
        if not path.is_relative_to(base):
            self.error(loc, "the article file must be inside the bank file's folder")
            return None
        try:
            if path.stat().st_size > self.max_bytes:
                self.error(loc, f"article file is larger than {self.max_bytes:,} bytes")
                return None
            # Stripped like an inline text, so that an article reads the same either way and an
            # exported bank (articles inline) imports without changing it.
            text = path.read_bytes().decode("utf-8").strip()
            try:
                return no_control_characters(text)
            except ValueError as exc:
                self.error(loc, f"article file '{name}' {exc}")
                return None
        except OSError as exc:
            self.error(loc, f"cannot read article file '{name}': {exc.strerror}")
        except UnicodeDecodeError as exc:
            self.error(loc, f"article file '{name}' is not valid UTF-8 (at byte {exc.start})")
        return None

    def _quizzes(self, articles: dict[str, BankArticle]) -> dict[str, BankQuiz]:
        repeats = self._unique("quizzes", self.entries.quizzes)
        quizzes = {}
        for index, spec in enumerate(self.entries.quizzes):
            if spec is None:
                continue
            if spec.article not in self.entries.declared["articles"]:
                self.error(("quizzes", index, "article"), f"no article with id '{spec.article}' in this file")
            if index in repeats or spec.article not in articles:
                continue
            quizzes[spec.id] = BankQuiz(
                spec.id, spec.title, spec.description.strip(), spec.article, index,
                spec.settings.questions_per_attempt, spec.settings.shuffle_choices,
                spec.settings.time_limit, spec.language,
            )
        return quizzes

    def _questions(
        self, quizzes: dict[str, BankQuiz], texts: dict[str, tuple[FoldedText, int]]
    ) -> tuple[BankQuestion, ...]:
        repeats = self._unique("questions", self.entries.questions)
        declared_quizzes = self.entries.declared["quizzes"]
        only_quiz = next(iter(declared_quizzes), None) if len(self.entries.quizzes) == 1 else None
        positions: dict[str, int] = {}
        questions = []
        for index, spec in enumerate(self.entries.questions):
            if spec is None:
                continue
            loc = ("questions", index)
            quiz_slug = spec.quiz or only_quiz
            if quiz_slug is None:
                self.error((*loc, "id"), "say which quiz this question belongs to (quiz: ...)")
            elif quiz_slug not in declared_quizzes:
                self.error((*loc, "quiz"), f"no quiz with id '{quiz_slug}' in this file")
            content = self._content(loc, spec)
            article_slug = quizzes[quiz_slug].article_slug if quiz_slug in quizzes else None
            quotes = self._quotes(loc, spec, texts.get(article_slug or ""), article_slug)
            if not spec.source:
                self.unsourced.append(self.document.error((*loc, "source"), "no source given"))
            if index in repeats or content is None or quotes is None or quiz_slug not in quizzes:
                continue
            positions[quiz_slug] = position = positions.get(quiz_slug, -1) + 1
            worded = KINDS[spec.kind].fixed_choices_in(quizzes[quiz_slug].language)
            if worded:  # true/false: the choices in the quiz's own words
                rights = (correct for _text, correct in content.choices)
                content = dataclasses.replace(content, choices=tuple(zip(worded, rights)))
            questions.append(
                BankQuestion(
                    slug=spec.id, quiz_slug=quiz_slug, position=position, kind=spec.kind,
                    difficulty=spec.difficulty, prompt=spec.prompt,
                    choices=tuple(BankChoice(text, is_correct) for text, is_correct in content.choices),
                    explanation=spec.explanation, quotes=quotes, tags=tuple(spec.tags),
                    time_limit=spec.time_limit, answer_key=content.answer_key, group=spec.group,
                )
            )
        return tuple(questions)

    def _content(self, loc: tuple, spec: QuestionSpec) -> Content | None:
        """The entry's choices and answer key, checked by its kind."""
        kind = KINDS[spec.kind]
        problems = len(self.errors)
        for name in sorted(spec.model_fields_set - COMMON_FIELDS - kind.fields):
            self.error((*loc, name), f"{kind.name} questions have no '{name}'{_FIELD_HINTS.get((kind.name, name), '')}")
        listed = getattr(spec, kind.choices_field) if kind.choices_field else None
        seen: dict[str, int] = {}
        for index, text in enumerate(listed or []):
            key = fold(text).casefold()
            if key in seen:
                self.error((*loc, kind.choices_field, index), f"duplicate of {kind.choices_field[:-1]} {seen[key] + 1} ('{text}')")
            seen.setdefault(key, index)
        content = kind.check(spec, lambda where, message: self.error((*loc, *where), message))
        return content if len(self.errors) == problems else None

    def _quotes(
        self, loc: tuple, spec: QuestionSpec, quotable: tuple[FoldedText, int] | None, article_slug: str | None
    ) -> tuple[BankQuote, ...] | None:
        if quotable is None:
            return None  # the quiz or article is missing; that error is already reported
        text, offset = quotable
        quotes = []
        for index, quote in enumerate(spec.source):
            span = text.find(quote)
            if span is None:
                found = text.longest_prefix_found(quote)
                detail = f"; it matches up to \"{found[-40:]}\"" if len(found) >= 12 else ""
                self.error((*loc, "source", index), f"quote not found in article '{article_slug}'{detail}")
                continue
            excerpt = text.original[span.start : span.end]
            quotes.append(BankQuote(span.start - offset, span.end - offset, excerpt))
        return tuple(quotes) if len(quotes) == len(spec.source) else None
