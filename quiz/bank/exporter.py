"""The database's current bank as a bank document: what :func:`quiz.bank.yamlfile.dump_yaml` writes
as ``questions.yaml`` and :func:`quiz.bank.loader.parse_bank` reads back.

Only what is in play is exported: retired articles, quizzes and questions are left out, and each
question is written as its current revision. Articles carry their text inline and sources are the
stored excerpts, so the document stands alone and importing it changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz.bank.loader import BankArticle, BankQuestion
from quiz.kinds import KINDS, Content
from quiz.models import Article, Choice, Question, QuestionRevision, Quiz, SourceQuote


def export_document(session: so.Session) -> dict[str, Any]:
    """The bank in play, in file order: articles as first imported, quizzes and their questions
    by position. Exporting an unchanged database twice gives equal documents."""
    articles = session.scalars(sa.select(Article).where(Article.retired_at.is_(None)).order_by(Article.id))
    quizzes = session.scalars(
        sa.select(Quiz).where(Quiz.retired_at.is_(None)).options(so.joinedload(Quiz.article))
        .order_by(Quiz.position, Quiz.id)
    ).all()
    return {
        "version": 1,
        "articles": [article_entry(article) for article in articles],
        "quizzes": [quiz_entry(quiz) for quiz in quizzes],
        "questions": _question_entries(session),
    }


def _question_entries(session: so.Session) -> list[dict[str, Any]]:
    """Every question in play as its current revision's entry. Read as plain rows, in three
    queries, since the web admin exports the whole bank for every question it saves."""
    in_play = (
        sa.select(Question.current_revision_id)
        .join(Quiz, Question.quiz_id == Quiz.id)
        .where(Question.retired_at.is_(None), Quiz.retired_at.is_(None), Question.current_revision_id.is_not(None))
    )
    choices: dict[int, list[tuple[str, bool]]] = {}
    for revision_id, text, is_correct in session.execute(
        sa.select(Choice.revision_id, Choice.text, Choice.is_correct)
        .where(Choice.revision_id.in_(in_play.scalar_subquery()))
        .order_by(Choice.revision_id, Choice.position)
    ):
        choices.setdefault(revision_id, []).append((text, is_correct))
    excerpts: dict[int, list[str]] = {}
    for revision_id, excerpt in session.execute(
        sa.select(SourceQuote.revision_id, SourceQuote.excerpt)
        .where(SourceQuote.revision_id.in_(in_play.scalar_subquery()))
        .order_by(SourceQuote.revision_id, SourceQuote.position)
    ):
        excerpts.setdefault(revision_id, []).append(excerpt)
    rows = session.execute(
        in_play.with_only_columns(
            Question.slug, Quiz.slug, QuestionRevision.id, QuestionRevision.kind, QuestionRevision.difficulty,
            QuestionRevision.prompt, QuestionRevision.explanation, QuestionRevision.tags, QuestionRevision.time_limit,
            QuestionRevision.answer_key, Question.group_name,
        )
        .join(QuestionRevision, Question.current_revision_id == QuestionRevision.id)
        .order_by(Quiz.position, Quiz.id, Question.position, Question.id)
    )
    return [
        _question_entry(
            slug, quiz_slug, kind, difficulty, prompt, Content(tuple(choices.get(revision_id, [])), answer_key),
            explanation, excerpts.get(revision_id, []), tags, time_limit, group,
        )
        for slug, quiz_slug, revision_id, kind, difficulty, prompt, explanation, tags, time_limit, answer_key, group
        in rows
    ]


def article_entry(article: Article | BankArticle) -> dict[str, Any]:
    """An article's bank entry, from the database or from a loaded bank file (same fields)."""
    entry: dict[str, Any] = {"id": article.slug, "title": article.title}
    if article.url is not None:
        entry["url"] = article.url
    if article.published_on is not None:
        entry["date"] = article.published_on
    entry["text"] = article.text
    return entry


def quiz_entry(quiz: Quiz) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": quiz.slug, "title": quiz.title}
    if quiz.description:
        entry["description"] = quiz.description
    # English is the default: banks written in it export as they always have.
    if quiz.language != "en":
        entry["language"] = quiz.language
    entry["article"] = quiz.article.slug
    entry["settings"] = {
        "questions_per_attempt": quiz.questions_per_attempt,
        "shuffle_choices": quiz.shuffle_choices,
        "time_limit": quiz.time_limit,
    }
    return entry


def revision_entry(slug: str, quiz_slug: str, revision: QuestionRevision, group: str | None = None) -> dict[str, Any]:
    """A stored revision as the bank entry that would import as exactly that revision (in
    ``group``, the question's)."""
    return _question_entry(
        slug, quiz_slug, revision.kind, revision.difficulty, revision.prompt,
        Content(tuple((choice.text, choice.is_correct) for choice in revision.choices), revision.answer_key),
        revision.explanation, [quote.excerpt for quote in revision.quotes], revision.tags, revision.time_limit, group,
    )


def bank_question_entry(question: BankQuestion) -> dict[str, Any]:
    """A checked question as a bank entry, in the same shape as :func:`revision_entry` gives."""
    return _question_entry(
        question.slug, question.quiz_slug, question.kind, question.difficulty, question.prompt,
        Content(tuple((choice.text, choice.is_correct) for choice in question.choices), question.answer_key),
        question.explanation, [quote.excerpt for quote in question.quotes], question.tags, question.time_limit,
        question.group,
    )


def _question_entry(
    slug: str, quiz_slug: str, kind_name: str, difficulty: str, prompt: str, content: Content,
    explanation: str, excerpts: Sequence[str], tags: Sequence[str], time_limit: int | None, group: str | None = None,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": slug, "quiz": quiz_slug, "kind": kind_name, "difficulty": difficulty, "prompt": prompt,
        **KINDS[kind_name].entry(content),
    }
    entry["explanation"] = explanation
    if excerpts:
        entry["source"] = list(excerpts)
    if tags:
        entry["tags"] = list(tags)
    if time_limit is not None:
        entry["time_limit"] = time_limit
    if group is not None:
        entry["group"] = group
    return entry
