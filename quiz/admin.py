"""Managing the bank from the web: browsing questions and their revisions, and changing the bank
one question at a time.

Every change goes through the same path as a file import: the bank in play is exported
(:func:`quiz.bank.exporter.export_document`), the change is made to that document, and the
whole document is checked by :func:`quiz.bank.loader.parse_bank` and imported by
:func:`quiz.bank.importer.import_bank`. A question saved here therefore obeys exactly the rules
of the YAML file, and retiring or restoring one is what removing it from the file, or putting
it back, would do. Questions read from another tool's file (:func:`with_new_questions`) are
appended to that document too, and go through the import preview as an uploaded bank does.
Functions only flush; the caller commits.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import count
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import gettext as _

from quiz.bank.diff import QUESTION_FIELDS, FieldChange, field_changes
from quiz.bank.errors import BankError, BankInvalid
from quiz.bank.exporter import export_document, revision_entry
from quiz.bank.importer import ImportReport, import_bank, lock_bank
from quiz.bank.loader import Bank, parse_bank
from quiz.bank.yamlfile import dump_yaml_quoted
from quiz.models import Answer, Article, Question, QuestionRevision, Quiz

#: Questions per page of the question list.
PAGE_SIZE = 25
#: Which questions the list shows, by whether they are retired.
RETIRED_FILTERS = {"no": "In play", "yes": "Retired", "all": "All"}

_LOCATION_PART = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")
#: The longest id the bank accepts (see :data:`quiz.bank.schema.Identifier`).
ID_MAX_LENGTH = 64


class EntryInvalid(Exception):
    """A question entry was refused; nothing was saved.

    ``errors`` holds (place within the entry, message) pairs, e.g. (("choices", 2), "duplicate
    of choice 1"); the place is () for a problem that belongs to no single field.
    """

    def __init__(self, errors: list[tuple[tuple[str | int, ...], str]]):
        self.errors = errors
        super().__init__("; ".join(message for _place, message in errors))


# Changing the bank ---------------------------------------------------------------------------


def document_bank(document: dict[str, Any], file: str) -> Bank:
    """Check a bank document as if it were the file ``file``; raises :class:`BankInvalid`."""
    # Through YAML text, so that the checks are exactly those of a file, with lines and columns.
    # Nobody reads this text, so it is written the quick way (every string quoted on its line).
    raw = dump_yaml_quoted(document).encode()
    # The size cap guards uploads; a document made from the database is as large as the bank.
    return parse_bank(raw, file, base_dir=None, max_bytes=len(raw))


def save_question(session: so.Session, entry: dict[str, Any], *, replacing: str | None = None) -> ImportReport:
    """Add the question ``entry`` (a bank entry) to the bank, or put it in place of the question
    ``replacing``; raises :class:`EntryInvalid` with every problem and changes nothing then.

    A new question goes last in its quiz. Its id may not be any existing question's, retired
    ones included: taking a retired question's id would silently restore that question.
    """
    lock_bank(session)
    document = export_document(session)
    questions: list[dict[str, Any]] = document["questions"]
    if replacing is None:
        if session.scalar(sa.select(Question.id).where(Question.slug == entry.get("id"))) is not None:
            raise EntryInvalid([(("id",), _("the id '%(id)s' is already used by another question", id=entry.get("id")))])
        questions.append(entry)
        index = len(questions) - 1
    else:
        index = next((i for i, existing in enumerate(questions) if existing["id"] == replacing), -1)
        if index < 0:
            raise EntryInvalid([((), _("the question '%(id)s' is not in play; restore it first", id=replacing))])
        # A question keeps its id: another id would be another question.
        questions[index] = {**entry, "id": replacing}
    return _import_with_entry(session, document, index)


def retire_question(session: so.Session, question: Question) -> ImportReport:
    """Take ``question`` out of play, as removing it from the bank file would."""
    lock_bank(session)
    document = export_document(session)
    document["questions"] = [entry for entry in document["questions"] if entry["id"] != question.slug]
    return _import_with_entry(session, document, None)


def restore_question(session: so.Session, question: Question) -> ImportReport:
    """Put a retired question back in play, at the place it had in its quiz, as its current
    revision; raises :class:`EntryInvalid` if that revision no longer passes the checks (e.g.
    its quote is gone from an edited article)."""
    lock_bank(session)
    session.refresh(question)  # as the change before this one left it
    if question.current_revision is None:
        raise EntryInvalid([((), _("the question has no revision to restore"))])
    if question.quiz.retired_at is not None:
        raise EntryInvalid([(
            (), _("its quiz '%(id)s' is retired; import a bank file that has the quiz again", id=question.quiz.slug),
        )])
    document = export_document(session)
    questions: list[dict[str, Any]] = document["questions"]
    positions = dict(session.execute(
        sa.select(Question.slug, Question.position).where(Question.quiz_id == question.quiz_id, Question.retired_at.is_(None))
    ).all())
    same_quiz = [i for i, entry in enumerate(questions) if entry["quiz"] == question.quiz.slug]
    later = [i for i in same_quiz if positions[questions[i]["id"]] >= question.position]
    index = later[0] if later else (same_quiz[-1] + 1 if same_quiz else len(questions))
    questions.insert(index, revision_entry(question.slug, question.quiz.slug, question.current_revision, question.group_name))
    return _import_with_entry(session, document, index)


def _import_with_entry(session: so.Session, document: dict[str, Any], index: int | None) -> ImportReport:
    try:
        bank = document_bank(document, "bank")
    except BankInvalid as invalid:
        raise EntryInvalid(entry_errors(invalid.errors, index)) from None
    return import_bank(session, bank)


def entry_errors(errors: list[BankError], index: int | None) -> list[tuple[tuple[str | int, ...], str]]:
    """The errors of ``questions[index]``, each with its place inside that entry; errors
    elsewhere in the document are kept with place () and their location in the message."""
    by_entry, other = split_errors(errors, [] if index is None else [index])
    return [*by_entry.get(0, []), *(((), message) for message in other)]


def split_errors(
    errors: list[BankError], indexes: Sequence[int]
) -> tuple[dict[int, list[tuple[tuple[str | int, ...], str]]], list[str]]:
    """The errors of the questions at ``indexes`` of the document, keyed by their rank in
    ``indexes``, each with its place inside its entry (as :attr:`EntryInvalid.errors`); and
    every other error, as a message that starts with its location."""
    ranks = {index: rank for rank, index in enumerate(indexes)}
    by_entry: dict[int, list[tuple[tuple[str | int, ...], str]]] = {}
    other = []
    for error in errors:
        loc = error_loc(error.location)
        rank = ranks.get(loc[1]) if len(loc) > 1 and loc[0] == "questions" and isinstance(loc[1], int) else None
        if rank is not None:
            by_entry.setdefault(rank, []).append((loc[2:], error.message))
        else:
            other.append(f"{error.location or 'bank'}: {error.message}")
    return by_entry, other


def error_loc(location: str) -> tuple[str | int, ...]:
    """``questions[3].choices[2]`` -> ``("questions", 3, "choices", 2)``; the inverse of
    :func:`quiz.bank.errors.format_location`."""
    return tuple(
        name if name else int(number) for name, number in _LOCATION_PART.findall(location)
    )


# Adding questions from elsewhere ---------------------------------------------------------------


@dataclass(frozen=True)
class NewQuestions:
    """A whole bank document: the bank in play with new questions appended, ready to be checked
    and previewed as an uploaded bank is."""

    document: dict[str, Any]
    #: The new questions are ``document["questions"][first:]``, in the order given.
    first: int
    #: A new question's id -> the id it got instead, because another question (maybe retired) has it.
    renamed: dict[str, str]


def with_new_questions(
    session: so.Session, entries: list[dict[str, Any]], quiz: str, *, document: dict[str, Any] | None = None
) -> NewQuestions:
    """The bank in play (or ``document``, made from it) with ``entries`` appended, each put in
    the quiz ``quiz``.

    An entry whose id is already used, by any question of the database (retired ones included)
    or by an entry before it, gets the first free id of ``id-2``, ``id-3``...; taking a retired
    question's id would silently restore that question, and an id in play would replace it.
    Nothing is checked here: the document goes to :func:`quiz.bank.loader.parse_bank`.
    """
    document = export_document(session) if document is None else document
    questions: list[dict[str, Any]] = document["questions"]
    taken = set(session.scalars(sa.select(Question.slug))) | {entry["id"] for entry in questions}
    # Ids that are free keep their name even when an earlier entry would have been renamed onto them.
    kept = {str(entry.get("id")) for entry in entries} - taken
    taken |= kept
    renamed: dict[str, str] = {}
    first = len(questions)
    for entry in entries:
        identifier = str(entry.get("id"))
        if identifier in kept:
            kept.discard(identifier)
        else:
            new = free_id(identifier, taken)
            taken.add(new)
            renamed[identifier] = identifier = new
        questions.append({**entry, "id": identifier, "quiz": quiz})
    return NewQuestions(document, first, renamed)


def free_id(identifier: str, taken: Collection[str]) -> str:
    """``identifier`` if it is not ``taken``, else the first of ``identifier-2``, ``-3``... that
    is not, shortened to stay a valid id."""
    if identifier not in taken:
        return identifier
    for number in count(2):
        suffix = f"-{number}"
        candidate = identifier[: ID_MAX_LENGTH - len(suffix)].rstrip("-._") + suffix
        if candidate not in taken:
            return candidate
    raise AssertionError("unreachable")  # count() never ends


def id_from_title(title: str, fallback: str) -> str:
    """A valid id made from a title's words: "Kiss & Cry: the story" -> ``kiss-cry-the-story``."""
    # Accents fall away; every other character that is not a letter or digit separates words.
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    identifier = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    if len(identifier) > 48:
        # Cut at a word boundary, leaving room for a "-2" that makes it unique.
        identifier = identifier[:49].rsplit("-", 1)[0] if "-" in identifier[:49] else identifier[:48]
    return identifier or fallback


def article_ids(session: so.Session) -> set[str]:
    """Every article id of the database, retired ones included."""
    return set(session.scalars(sa.select(Article.slug)))


def quiz_ids(session: so.Session) -> set[str]:
    """Every quiz id of the database, retired ones included."""
    return set(session.scalars(sa.select(Quiz.slug)))


# Browsing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuestionFilter:
    """What the question list shows; empty values mean "any"."""

    quiz: str = ""
    tag: str = ""
    difficulty: str = ""
    #: A key of :data:`RETIRED_FILTERS`.
    retired: str = "no"


@dataclass(frozen=True)
class QuestionRow:
    slug: str
    quiz_title: str
    prompt: str
    difficulty: str
    tags: list[str]
    revision: int
    retired: bool


@dataclass(frozen=True)
class QuestionPage:
    rows: list[QuestionRow]
    #: 1-based; ``pages`` is at least 1, even when nothing matches.
    page: int
    pages: int
    total: int


def list_questions(session: so.Session, filters: QuestionFilter, page: int = 1, per_page: int = PAGE_SIZE) -> QuestionPage:
    """One page of the questions that match ``filters``, by quiz and place in the quiz, the
    retired ones after those in play. A page past the last gives the last."""
    query = (
        sa.select(Question.slug, Quiz.title, QuestionRevision.prompt, QuestionRevision.difficulty,
                  QuestionRevision.tags, QuestionRevision.number, Question.retired_at.is_not(None))
        .join(Quiz, Question.quiz_id == Quiz.id)
        .join(QuestionRevision, Question.current_revision_id == QuestionRevision.id)
    )
    if filters.quiz:
        query = query.where(Quiz.slug == filters.quiz)
    if filters.difficulty:
        query = query.where(QuestionRevision.difficulty == filters.difficulty)
    if filters.tag:
        # Tags are identifiers (no quotes or backslashes), so the quoted tag occurs in the
        # stored JSON list exactly when the list holds it; this works on every database.
        query = query.where(sa.cast(QuestionRevision.tags, sa.Text).contains(f'"{filters.tag}"', autoescape=True))
    if filters.retired == "no":
        query = query.where(Question.retired_at.is_(None))
    elif filters.retired == "yes":
        query = query.where(Question.retired_at.is_not(None))
    total = session.scalar(sa.select(sa.func.count()).select_from(query.subquery())) or 0
    pages = max(1, -(-total // per_page))
    page = min(max(page, 1), pages)
    rows = session.execute(
        query.order_by(Question.retired_at.is_not(None), Quiz.position, Quiz.id, Question.position, Question.id)
        .limit(per_page).offset((page - 1) * per_page)
    )
    return QuestionPage([QuestionRow(*row) for row in rows], page, pages, total)


def quizzes(session: so.Session, *, in_play: bool = False) -> list[Quiz]:
    """Quizzes in home-page order, retired ones last (or left out with ``in_play``)."""
    query = sa.select(Quiz).order_by(Quiz.retired_at.is_not(None), Quiz.position, Quiz.id)
    if in_play:
        query = query.where(Quiz.retired_at.is_(None))
    return list(session.scalars(query))


def tags_in_use(session: so.Session) -> list[str]:
    """Every tag of a current revision, sorted."""
    tags: set[str] = set()
    for revision_tags in session.scalars(
        sa.select(QuestionRevision.tags).join(Question, Question.current_revision_id == QuestionRevision.id)
    ):
        tags.update(revision_tags)
    return sorted(tags)


def question_by_slug(session: so.Session, slug: str) -> Question | None:
    return session.scalar(
        sa.select(Question).where(Question.slug == slug).options(so.joinedload(Question.quiz), so.joinedload(Question.current_revision))
    )


@dataclass(frozen=True)
class RevisionView:
    number: int
    created_at: datetime
    #: The revision as a bank entry (the same shape as the YAML file).
    entry: dict[str, Any]
    #: What differs from the revision before; empty for the first.
    changes: tuple[FieldChange, ...]
    #: Answers given to this revision, in solo play and classroom sessions.
    answers: int
    current: bool


def revision_history(session: so.Session, question: Question) -> list[RevisionView]:
    """Every revision of ``question``, newest first, each with what it changed."""
    revisions = session.scalars(
        sa.select(QuestionRevision).where(QuestionRevision.question_id == question.id)
        .options(so.selectinload(QuestionRevision.choices), so.selectinload(QuestionRevision.quotes))
        .order_by(QuestionRevision.number)
    ).all()
    answers = dict(session.execute(
        sa.select(Answer.revision_id, sa.func.count())
        .where(Answer.revision_id.in_([revision.id for revision in revisions])).group_by(Answer.revision_id)
    ).all())
    history = []
    previous: dict[str, Any] | None = None
    # The quiz is the question's, not the revision's: it is left out of what a revision changed.
    fields = [name for name in QUESTION_FIELDS if name != "quiz"]
    for revision in revisions:
        entry = revision_entry(question.slug, question.quiz.slug, revision)
        history.append(RevisionView(
            revision.number, revision.created_at, entry,
            field_changes(previous, entry, fields) if previous is not None else (),
            answers.get(revision.id, 0), revision.id == question.current_revision_id,
        ))
        previous = entry
    return history[::-1]


@dataclass(frozen=True)
class BankSummary:
    quizzes: int
    questions: int
    retired_questions: int


def bank_summary(session: so.Session) -> BankSummary:
    in_play = session.scalar(sa.select(sa.func.count()).select_from(Quiz).where(Quiz.retired_at.is_(None))) or 0
    counts = dict(session.execute(
        sa.select(Question.retired_at.is_(None), sa.func.count()).group_by(Question.retired_at.is_(None))
    ).all())
    return BankSummary(in_play, counts.get(True, 0), counts.get(False, 0))
