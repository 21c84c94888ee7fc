"""Importing a checked bank into the database.

The file is the whole bank: entries it no longer lists are retired (hidden from new play but
kept, so that past answers keep their questions and sources). A question whose content
changed gets a new revision; importing the same file twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz.bank.loader import Bank, BankArticle, BankQuestion, BankQuiz
from quiz.models import Article, Choice, Question, QuestionRevision, Quiz, SourceQuote, utcnow


@dataclass
class SectionReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return ", ".join(
            f"{len(getattr(self, outcome))} {outcome}"
            for outcome in ("added", "changed", "unchanged", "retired")
        )


@dataclass
class ImportReport:
    articles: SectionReport = field(default_factory=SectionReport)
    quizzes: SectionReport = field(default_factory=SectionReport)
    questions: SectionReport = field(default_factory=SectionReport)

    @property
    def changes_anything(self) -> bool:
        return any(
            section.added or section.changed or section.retired
            for section in (self.articles, self.quizzes, self.questions)
        )

    def lines(self, *, verbose: bool = True) -> list[str]:
        """Human-readable report: a summary per section, then the ids concerned."""
        lines = []
        for name in ("articles", "quizzes", "questions"):
            section: SectionReport = getattr(self, name)
            lines.append(f"{name.capitalize()}: {section.summary()}")
            if verbose:
                for outcome in ("added", "changed", "retired"):
                    ids = getattr(section, outcome)
                    if ids:
                        lines.append(f"  {outcome}: {', '.join(ids)}")
        return lines


def import_bank(
    session: so.Session, bank: Bank, *, progress: Callable[[int], None] | None = None
) -> ImportReport:
    """Bring the database in line with ``bank``; only flushes, the caller commits or rolls back.

    ``progress`` is called with the number of questions handled since the last call.
    """
    report = ImportReport()
    articles = _sync_articles(session, bank.articles, report.articles)
    quizzes = _sync_quizzes(session, bank.quizzes, articles, report.quizzes)
    _sync_questions(session, bank.questions, quizzes, report.questions, progress)
    session.flush()
    return report


def _sync_articles(session: so.Session, entries: tuple[BankArticle, ...], report: SectionReport) -> dict[str, Article]:
    return _sync(session, Article, {
        entry.slug: dict(title=entry.title, url=entry.url, published_on=entry.published_on, text=entry.text)
        for entry in entries
    }, report)


def _sync_quizzes(
    session: so.Session, entries: tuple[BankQuiz, ...], articles: dict[str, Article], report: SectionReport
) -> dict[str, Quiz]:
    return _sync(session, Quiz, {
        entry.slug: dict(
            title=entry.title, description=entry.description, article=articles[entry.article_slug],
            position=entry.position, questions_per_attempt=entry.questions_per_attempt,
            shuffle_choices=entry.shuffle_choices, time_limit=entry.time_limit,
        )
        for entry in entries
    }, report)


def _sync(session: so.Session, model: type, wanted: dict[str, dict], report: SectionReport) -> dict:
    """Add, update and retire ``model`` rows so that they match ``wanted`` (slug -> values)."""
    existing = {entity.slug: entity for entity in session.scalars(sa.select(model))}
    for slug, values in wanted.items():
        entity = existing.get(slug)
        if entity is None:
            existing[slug] = model(slug=slug, **values)
            session.add(existing[slug])
            report.added.append(slug)
        elif _update(entity, values):
            report.changed.append(slug)
        else:
            report.unchanged.append(slug)
    _retire(existing.values(), set(wanted), report)
    return existing


def _sync_questions(
    session: so.Session,
    entries: tuple[BankQuestion, ...],
    quizzes: dict[str, Quiz],
    report: SectionReport,
    progress: Callable[[int], None] | None,
) -> None:
    existing = {
        question.slug: question
        for question in session.scalars(
            sa.select(Question).options(so.joinedload(Question.current_revision))
        )
    }
    for done, entry in enumerate(entries, start=1):
        question = existing.get(entry.slug)
        fingerprint = entry.fingerprint()
        if question is None:
            question = Question(slug=entry.slug, quiz=quizzes[entry.quiz_slug], position=entry.position)
            session.add(question)
            _add_revision(session, question, entry, fingerprint, number=1)
            report.added.append(entry.slug)
        else:
            placed = _update(question, dict(quiz=quizzes[entry.quiz_slug], position=entry.position, retired_at=None))
            current = question.current_revision
            if current is None or current.fingerprint != fingerprint:
                number = 1 + (session.scalar(
                    sa.select(sa.func.max(QuestionRevision.number)).where(QuestionRevision.question_id == question.id)
                ) or 0)
                _add_revision(session, question, entry, fingerprint, number=number)
                report.changed.append(f"{entry.slug} (revision {number})")
            elif placed:
                report.changed.append(entry.slug)
            else:
                report.unchanged.append(entry.slug)
        if progress and done % 100 == 0:
            progress(100)
    if progress:
        progress(len(entries) % 100)
    _retire(existing.values(), {entry.slug for entry in entries}, report)


def _add_revision(
    session: so.Session, question: Question, entry: BankQuestion, fingerprint: str, *, number: int
) -> None:
    revision = QuestionRevision(
        question=question, number=number, kind=entry.kind, prompt=entry.prompt,
        explanation=entry.explanation, difficulty=entry.difficulty, time_limit=entry.time_limit,
        tags=list(entry.tags), fingerprint=fingerprint,
        choices=[
            Choice(position=position, text=choice.text, is_correct=choice.is_correct)
            for position, choice in enumerate(entry.choices)
        ],
        quotes=[
            SourceQuote(position=position, span_start=quote.span_start, span_end=quote.span_end, excerpt=quote.excerpt)
            for position, quote in enumerate(entry.quotes)
        ],
    )
    session.add(revision)
    question.current_revision = revision


def _update(entity: Article | Quiz | Question, values: dict) -> bool:
    """Set ``values`` on ``entity`` (restoring it if retired); True if anything differed."""
    values = {**values, "retired_at": None}
    changed = False
    for name, value in values.items():
        if getattr(entity, name) != value:
            setattr(entity, name, value)
            changed = True
    return changed


def _retire(entities, kept: set[str], report: SectionReport) -> None:
    for entity in entities:
        if entity.slug not in kept and entity.retired_at is None:
            entity.retired_at = utcnow()
            report.retired.append(entity.slug)
