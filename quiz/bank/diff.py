"""What importing a bank would change, worked out without writing anything.

:func:`preview_import` follows the rules of :func:`quiz.bank.importer.import_bank` entry by entry
and adds the field-level detail a person needs to judge a change: the old and new value of
every field that differs. :meth:`ImportPreview.report` is the report the import would then
give, and :func:`bank_digest` fingerprints the state a preview was made against, so that a
preview is never applied to a bank that changed since.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz.bank.exporter import bank_question_entry, revision_entry
from quiz.bank.importer import ImportReport, SectionReport
from quiz.bank.loader import Bank, BankArticle, BankQuiz
from quiz.models import Article, Question, QuestionRevision, Quiz

#: The fields of a question entry compared for a preview, in the order they are shown.
QUESTION_FIELDS = (
    "quiz", "kind", "prompt", "choices", "correct", "items", "answer", "tolerance", "unit", "accept", "fuzzy",
    "explanation", "source", "difficulty", "tags", "time_limit", "group",
)


@dataclass(frozen=True)
class FieldChange:
    """One field that differs; ``old`` or ``new`` is None where the field is absent."""

    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class Entry:
    slug: str
    #: What a person recognises the entry by: an article's or quiz's title, a question's prompt.
    label: str


@dataclass(frozen=True)
class ChangedEntry(Entry):
    changes: tuple[FieldChange, ...]
    #: Questions only: the number of the revision the import adds, None if the wording stays.
    new_revision: int | None = None


@dataclass
class SectionPreview:
    added: list[Entry] = field(default_factory=list)
    changed: list[ChangedEntry] = field(default_factory=list)
    unchanged: list[Entry] = field(default_factory=list)
    retired: list[Entry] = field(default_factory=list)

    def report(self) -> SectionReport:
        return SectionReport(
            added=[entry.slug for entry in self.added],
            changed=[
                f"{entry.slug} (revision {entry.new_revision})" if entry.new_revision else entry.slug
                for entry in self.changed
            ],
            unchanged=[entry.slug for entry in self.unchanged],
            retired=[entry.slug for entry in self.retired],
        )


@dataclass
class ImportPreview:
    articles: SectionPreview = field(default_factory=SectionPreview)
    quizzes: SectionPreview = field(default_factory=SectionPreview)
    questions: SectionPreview = field(default_factory=SectionPreview)

    def report(self) -> ImportReport:
        """The report :func:`~quiz.bank.importer.import_bank` gives for the same bank and database."""
        return ImportReport(self.articles.report(), self.quizzes.report(), self.questions.report())

    @property
    def changes_anything(self) -> bool:
        return self.report().changes_anything


def preview_import(session: so.Session, bank: Bank) -> ImportPreview:
    """Compare ``bank`` with the database as :func:`~quiz.bank.importer.import_bank` would; reads only."""
    return ImportPreview(
        articles=_preview_articles(session, bank.articles),
        quizzes=_preview_quizzes(session, bank.quizzes),
        questions=_preview_questions(session, bank),
    )


def field_changes(old: dict[str, Any], new: dict[str, Any], fields: Iterable[str]) -> tuple[FieldChange, ...]:
    """The ``fields`` whose values differ between two entries, absent fields counting as None."""
    return tuple(
        FieldChange(name, old.get(name), new.get(name)) for name in fields if old.get(name) != new.get(name)
    )


def _restored(entity: Article | Quiz | Question) -> tuple[FieldChange, ...]:
    return (FieldChange("retired", True, False),) if entity.retired_at is not None else ()


def _retired(entities: Iterable[Any], kept: set[str], label) -> list[Entry]:
    return [Entry(entity.slug, label(entity)) for entity in entities if entity.slug not in kept and entity.retired_at is None]


def _preview_articles(session: so.Session, entries: tuple[BankArticle, ...]) -> SectionPreview:
    preview = SectionPreview()
    existing = {article.slug: article for article in session.scalars(sa.select(Article).order_by(Article.id))}
    for entry in entries:
        article = existing.get(entry.slug)
        if article is None:
            preview.added.append(Entry(entry.slug, entry.title))
            continue
        old = dict(title=article.title, url=article.url, date=article.published_on, text=article.text)
        new = dict(title=entry.title, url=entry.url, date=entry.published_on, text=entry.text)
        changes = field_changes(old, new, old) + _restored(article)
        _sort(preview, Entry(entry.slug, entry.title), changes)
    preview.retired = _retired(existing.values(), {entry.slug for entry in entries}, lambda article: article.title)
    return preview


def _preview_quizzes(session: so.Session, entries: tuple[BankQuiz, ...]) -> SectionPreview:
    preview = SectionPreview()
    existing = {
        quiz.slug: quiz
        for quiz in session.scalars(sa.select(Quiz).options(so.joinedload(Quiz.article)).order_by(Quiz.id))
    }
    for entry in entries:
        quiz = existing.get(entry.slug)
        if quiz is None:
            preview.added.append(Entry(entry.slug, entry.title))
            continue
        # Positions are shown 1-based, as a person counts places in the file.
        old = dict(
            title=quiz.title, description=quiz.description, article=quiz.article.slug, position=quiz.position + 1,
            questions_per_attempt=quiz.questions_per_attempt, shuffle_choices=quiz.shuffle_choices,
            time_limit=quiz.time_limit, language=quiz.language,
        )
        new = dict(
            title=entry.title, description=entry.description, article=entry.article_slug, position=entry.position + 1,
            questions_per_attempt=entry.questions_per_attempt, shuffle_choices=entry.shuffle_choices,
            time_limit=entry.time_limit, language=entry.language,
        )
        _sort(preview, Entry(entry.slug, entry.title), field_changes(old, new, old) + _restored(quiz))
    preview.retired = _retired(existing.values(), {entry.slug for entry in entries}, lambda quiz: quiz.title)
    return preview


def _preview_questions(session: so.Session, bank: Bank) -> SectionPreview:
    preview = SectionPreview()
    # One light row per question; equal fingerprints mean equal fields, so only the questions
    # whose content differs have their current revision (with choices and quotes) loaded.
    existing = {
        row.slug: row
        for row in session.execute(
            sa.select(
                Question.id, Question.slug, Question.position, Question.retired_at, Question.group_name,
                Quiz.slug.label("quiz_slug"), QuestionRevision.fingerprint, QuestionRevision.prompt,
            )
            .join(Quiz, Question.quiz_id == Quiz.id)
            .outerjoin(QuestionRevision, Question.current_revision_id == QuestionRevision.id)
            .order_by(Question.id)
        )
    }
    revised = [
        existing[entry.slug].id
        for entry in bank.questions
        if entry.slug in existing and existing[entry.slug].fingerprint != entry.fingerprint()
    ]
    current = _current_revisions(session, revised)
    last_revision = dict(
        session.execute(
            sa.select(QuestionRevision.question_id, sa.func.max(QuestionRevision.number)).group_by(QuestionRevision.question_id)
        ).all()
    ) if revised else {}
    for entry in bank.questions:
        row = existing.get(entry.slug)
        if row is None:
            preview.added.append(Entry(entry.slug, entry.prompt))
            continue
        new_revision = None
        if row.fingerprint == entry.fingerprint():
            changes = field_changes({"quiz": row.quiz_slug}, {"quiz": entry.quiz_slug}, ("quiz",))
        else:
            revision = current.get(row.id)
            old = revision_entry(row.slug, row.quiz_slug, revision, row.group_name) if revision is not None else {}
            changes = field_changes(old, bank_question_entry(entry), QUESTION_FIELDS)
            new_revision = last_revision.get(row.id, 0) + 1
            if revision is not None and not changes:
                # Same words, found elsewhere in an article whose text changed.
                changes = (FieldChange(
                    "source place",
                    [f"characters {quote.span_start}-{quote.span_end}" for quote in revision.quotes],
                    [f"characters {quote.span_start}-{quote.span_end}" for quote in entry.quotes],
                ),)
        if row.position != entry.position:
            changes += (FieldChange("place in quiz", row.position + 1, entry.position + 1),)
        if row.group_name != entry.group and not any(change.field == "group" for change in changes):
            changes += (FieldChange("group", row.group_name, entry.group),)
        if row.retired_at is not None:
            changes += (FieldChange("retired", True, False),)
        _sort(preview, Entry(entry.slug, entry.prompt), changes, new_revision)
    kept = {entry.slug for entry in bank.questions}
    preview.retired = [
        Entry(row.slug, row.prompt if row.prompt is not None else row.slug)
        for row in existing.values()
        if row.slug not in kept and row.retired_at is None
    ]
    return preview


def _current_revisions(session: so.Session, question_ids: list[int]) -> dict[int, QuestionRevision]:
    """The current revision of each of ``question_ids``, with its choices and quotes."""
    revisions: dict[int, QuestionRevision] = {}
    for first in range(0, len(question_ids), 1000):  # within every database's limit on parameters
        revisions.update(
            (revision.question_id, revision)
            for revision in session.scalars(
                sa.select(QuestionRevision)
                .join(Question, Question.current_revision_id == QuestionRevision.id)
                .where(Question.id.in_(question_ids[first : first + 1000]))
                .options(so.selectinload(QuestionRevision.choices), so.selectinload(QuestionRevision.quotes))
            )
        )
    return revisions


def _sort(preview: SectionPreview, entry: Entry, changes: tuple[FieldChange, ...], new_revision: int | None = None) -> None:
    if changes or new_revision:
        preview.changed.append(ChangedEntry(entry.slug, entry.label, changes, new_revision))
    else:
        preview.unchanged.append(entry)


def bank_digest(session: so.Session) -> str:
    """SHA-256 of everything an import compares against, retired entries included.

    A question's content is pinned by its current revision's id, since revisions never change.
    """
    digest = hashlib.sha256()
    queries = (
        sa.select(
            Article.slug, Article.title, Article.url, Article.published_on, Article.text, Article.retired_at.is_(None)
        ).order_by(Article.slug),
        sa.select(
            Quiz.slug, Quiz.title, Quiz.description, Quiz.article_id, Quiz.position, Quiz.questions_per_attempt,
            Quiz.shuffle_choices, Quiz.time_limit, Quiz.language, Quiz.retired_at.is_(None),
        ).order_by(Quiz.slug),
        sa.select(
            Question.slug, Question.quiz_id, Question.position, Question.current_revision_id,
            Question.retired_at.is_(None), Question.group_name,
        ).order_by(Question.slug),
    )
    for query in queries:
        for row in session.execute(query):
            digest.update(json.dumps(list(row), default=str, ensure_ascii=False).encode())
            digest.update(b"\n")
        digest.update(b"--\n")
    return digest.hexdigest()
