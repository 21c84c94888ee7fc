"""Importing a checked bank into the database.

The file is the whole bank: entries it no longer lists are retired (hidden from new play but
kept, so that past answers keep their questions and sources). A question whose content
changed gets a new revision; importing the same file twice changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.dialects import postgresql

from quiz import collector
from quiz.bank.loader import Bank, BankArticle, BankQuestion, BankQuiz
from quiz.models import (
    Article,
    BankLock,
    Choice,
    Question,
    QuestionRevision,
    Quiz,
    SourceQuote,
    insert_unless_taken,
    utcnow,
)


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


def lock_bank(session: so.Session) -> None:
    """Wait until no other change to the bank is under way, and make any other wait until this
    session's transaction ends.

    Call it before reading what a change checks or builds on: two admins applying imports, or
    editing questions, at the same moment then change the bank one after the other, the second
    seeing the first's change (an import previewed against the bank before it is refused), where
    they would otherwise both write, and the second silently undo the first or fail.
    """
    session.execute(insert_unless_taken(session, BankLock).values(id=1, changes=0))
    session.execute(sa.update(BankLock).where(BankLock.id == 1).values(changes=BankLock.changes + 1))


def import_bank(
    session: so.Session, bank: Bank, *, progress: Callable[[int], None] | None = None
) -> ImportReport:
    """Bring the database in line with ``bank``; only flushes, the caller commits or rolls back.

    ``progress`` is called with the number of questions handled since the last call.
    """
    with collector.paused():
        return _import_bank(session, bank, progress)


def _import_bank(session: so.Session, bank: Bank, progress: Callable[[int], None] | None) -> ImportReport:
    report = ImportReport()
    articles = _sync_articles(session, bank.articles, report.articles)
    quizzes = _sync_quizzes(session, bank.quizzes, articles, report.quizzes)
    session.flush()  # new quizzes get their ids; the questions are written below the ORM
    _sync_questions(session, bank.questions, {slug: quiz.id for slug, quiz in quizzes.items()}, report.questions, progress)
    # Questions were written with bulk statements, which the ORM does not see: what it holds
    # of questions, and of the quizzes' lists of them, is reloaded when next read.
    for entity in list(session.identity_map.values()):
        if isinstance(entity, (Question, Quiz)):
            session.expire(entity)
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
            shuffle_choices=entry.shuffle_choices, time_limit=entry.time_limit, language=entry.language,
        )
        for entry in entries
    }, report)


def _sync(session: so.Session, model: type, wanted: dict[str, dict], report: SectionReport) -> dict:
    """Add, update and retire ``model`` rows so that they match ``wanted`` (slug -> values)."""
    existing = {entity.slug: entity for entity in session.scalars(sa.select(model).order_by(model.id))}
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


#: Questions written per round of bulk statements; ``progress`` is called after each.
_CHUNK = 1000


def _sync_questions(
    session: so.Session,
    entries: tuple[BankQuestion, ...],
    quiz_ids: dict[str, int],
    report: SectionReport,
    progress: Callable[[int], None] | None,
) -> None:
    """Add, revise, move, restore and retire questions with a few bulk statements per chunk
    of the bank: one query reads what every question is now, and only what differs is written."""
    existing = {
        row.slug: row
        for row in session.execute(
            sa.select(
                Question.id, Question.slug, Question.quiz_id, Question.position, Question.retired_at,
                Question.group_name, QuestionRevision.fingerprint,
            )
            .outerjoin(QuestionRevision, Question.current_revision_id == QuestionRevision.id)
            .order_by(Question.id)
        )
    }
    last_numbers: dict[int, int] | None = None
    for first in range(0, len(entries), _CHUNK):
        chunk = entries[first : first + _CHUNK]
        new: list[BankQuestion] = []
        revised: list[tuple[int, BankQuestion, int]] = []  # (question id, entry, revision number)
        moved: list[dict] = []
        for entry in chunk:
            row = existing.get(entry.slug)
            quiz_id = quiz_ids[entry.quiz_slug]
            if row is None:
                new.append(entry)
                report.added.append(entry.slug)
                continue
            placed = (row.quiz_id, row.position, row.retired_at, row.group_name) != (
                quiz_id, entry.position, None, entry.group
            )
            if placed:
                moved.append({
                    "id": row.id, "quiz_id": quiz_id, "position": entry.position, "retired_at": None,
                    "group_name": entry.group,
                })
            if row.fingerprint != entry.fingerprint():
                if last_numbers is None:
                    last_numbers = dict(session.execute(
                        sa.select(QuestionRevision.question_id, sa.func.max(QuestionRevision.number))
                        .group_by(QuestionRevision.question_id)
                    ).all())
                number = last_numbers.get(row.id, 0) + 1
                revised.append((row.id, entry, number))
                report.changed.append(f"{entry.slug} (revision {number})")
            elif placed:
                report.changed.append(entry.slug)
            else:
                report.unchanged.append(entry.slug)
        _update_rows(session, Question.__table__, moved)
        if new:
            ids = _insert_rows(session, Question.__table__, [
                {
                    "slug": entry.slug, "quiz_id": quiz_ids[entry.quiz_slug], "position": entry.position,
                    "group_name": entry.group,
                }
                for entry in new
            ], key="slug")
            revised += [(ids[entry.slug], entry, 1) for entry in new]
        if revised:
            _add_revisions(session, revised)
        if progress:
            progress(len(chunk))
    kept = {entry.slug for entry in entries}
    retired = [row for slug, row in existing.items() if row.retired_at is None and slug not in kept]
    report.retired.extend(row.slug for row in retired)
    now = utcnow()
    _update_rows(session, Question.__table__, [{"id": row.id, "retired_at": now} for row in retired])


def _add_revisions(session: so.Session, revised: list[tuple[int, BankQuestion, int]]) -> None:
    """Insert a revision (with its choices and quotes) for each (question id, entry, number) of
    distinct questions, and make it its question's current revision."""
    now = utcnow()
    revision_ids = _insert_rows(session, QuestionRevision.__table__, [
        {
            "question_id": question_id, "number": number, "kind": entry.kind, "prompt": entry.prompt,
            "explanation": entry.explanation, "difficulty": entry.difficulty, "time_limit": entry.time_limit,
            "tags": list(entry.tags), "answer_key": entry.answer_key, "fingerprint": entry.fingerprint(),
            "created_at": now,
        }
        for question_id, entry, number in revised
    ], key="question_id")
    choices, quotes = [], []
    for question_id, entry, _ in revised:
        revision_id = revision_ids[question_id]
        choices += [
            {"revision_id": revision_id, "position": position, "text": choice.text, "is_correct": choice.is_correct}
            for position, choice in enumerate(entry.choices)
        ]
        quotes += [
            {
                "revision_id": revision_id, "position": position, "span_start": quote.span_start,
                "span_end": quote.span_end, "excerpt": quote.excerpt,
            }
            for position, quote in enumerate(entry.quotes)
        ]
    _insert_rows(session, Choice.__table__, choices)
    _insert_rows(session, SourceQuote.__table__, quotes)
    _update_rows(session, Question.__table__, [
        {"id": question_id, "current_revision_id": revision_ids[question_id]} for question_id, _, _ in revised
    ])


# Bulk statements. SQLite runs an executemany in C, quickly. Through psycopg, an executemany
# costs tens of microseconds a row and SQLAlchemy's multi-row VALUES as much in converting
# its placeholders, so on PostgreSQL each column travels as one array and the rows are
# unnested on the server: one statement, a handful of parameters, however many rows.


def _insert_rows(session: so.Session, table: sa.Table, rows: list[dict], *, key: str | None = None) -> dict:
    """Insert ``rows`` (dicts with the same keys); with ``key``, return {row[key]: new id},
    the key being unique among the rows."""
    if not rows:
        return {}
    columns = list(rows[0])
    if session.get_bind().dialect.name == "postgresql":
        unnested = _unnested(table, columns, rows)
        statement = sa.insert(table).from_select(columns, sa.select(*(unnested.c[name] for name in columns)))
        params: list[dict] | dict = {}
    else:
        statement, params = sa.insert(table), rows
    if key is None:
        session.execute(statement, params)
        return {}
    returned = session.execute(statement.returning(table.c.id, table.c[key]), params)
    return {row[1]: row[0] for row in returned}


def _update_rows(session: so.Session, table: sa.Table, rows: list[dict]) -> None:
    """Update the rows of ``table`` whose ids ``rows`` give (dicts with "id" and the same keys)."""
    if not rows:
        return
    columns = [name for name in rows[0] if name != "id"]
    if session.get_bind().dialect.name == "postgresql":
        unnested = _unnested(table, ["id", *columns], rows)
        session.execute(
            sa.update(table).where(table.c.id == unnested.c.id).values({name: unnested.c[name] for name in columns})
        )
        return
    session.execute(
        sa.update(table).where(table.c.id == sa.bindparam("row_id")).values({name: sa.bindparam(name) for name in columns}),
        [{"row_id": row["id"], **{name: row[name] for name in columns}} for row in rows],
    )


def _unnested(table: sa.Table, columns: list[str], rows: list[dict]) -> sa.TableValuedAlias:
    """``rows`` as PostgreSQL's ``unnest`` of one typed array per column: ``unnest(...) AS v(columns)``."""
    arrays = []
    for name in columns:
        column_type = table.c[name].type
        values = [row[name] for row in rows]
        if isinstance(column_type, sa.JSON):
            # Sent as text and cast, as psycopg has no adapter for a list of JSON documents.
            values = [json.dumps(value) for value in values]
            array = sa.cast(sa.bindparam(None, values, type_=postgresql.ARRAY(sa.Text)), postgresql.ARRAY(column_type))
        else:
            array = sa.cast(sa.bindparam(None, values, type_=postgresql.ARRAY(column_type)), postgresql.ARRAY(column_type))
        arrays.append(array)
    return sa.func.unnest(*arrays).table_valued(*columns).render_derived(name="v")


def _update(entity: Article | Quiz, values: dict) -> bool:
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
