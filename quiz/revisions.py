"""What a question revision says, read once per process, and how it is shown to a player.

A revision never changes once written, so each process keeps its content in memory (solo
pages and classroom phones ask for the same revisions thousands of times). The order a
player sees its choices in follows only from what the attempt or session stored when it
started, so every reload, every screen and every server shows the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz import articles, giveaways
from quiz.kinds import KINDS, ChoiceData, Kind
from quiz.models import Choice, QuestionRevision, SourceQuote


@dataclass(frozen=True)
class QuoteData:
    position: int
    span_start: int
    span_end: int
    excerpt: str


@dataclass(frozen=True)
class RevisionData:
    """What a revision says, detached from the database."""

    id: int
    #: A key of :data:`quiz.kinds.KINDS`, as :attr:`QuestionRevision.kind`.
    kind: str
    prompt: str
    explanation: str
    choices: tuple[ChoiceData, ...]
    quotes: tuple[QuoteData, ...]
    answer_key: dict[str, Any] | None = None

    @property
    def behaviour(self) -> Kind:
        """The kind itself, which grades, reveals and tallies answers to the revision."""
        return KINDS[self.kind]

    @property
    def multiple(self) -> bool:
        return self.behaviour.multiple

    @property
    def instruction(self) -> str:
        return self.behaviour.instruction

    @property
    def public(self) -> dict[str, Any]:
        """What of the answer key a player may see before answering."""
        return self.behaviour.public(self.answer_key)


@dataclass(frozen=True)
class ShownChoice:
    """A choice as a question page shows it: its number on screen and its text, nothing more."""

    number: int
    text: str


def shown_choices(order: tuple[ChoiceData, ...] | list[ChoiceData]) -> list[ShownChoice]:
    return [ShownChoice(number, choice.text) for number, choice in enumerate(order, 1)]


def shown_order(revision: RevisionData, *, seed: int, question_id: int, shuffle: bool) -> tuple[ChoiceData, ...]:
    """The revision's choices in the order shown to an attempt or session seeded ``seed`` that
    shuffles choices or not (as it stored when it started)."""
    return revision.behaviour.shown_order(revision.choices, seed=seed, question_id=question_id, shuffle=shuffle)


_REVISIONS: dict[tuple[int, datetime], RevisionData] = {}
_REVISIONS_CACHED = 20_000
_revision = QuestionRevision.__table__
_choice = Choice.__table__
_quote = SourceQuote.__table__
_REVISION_QUERY = sa.select(
    _revision.c.kind, _revision.c.prompt, _revision.c.explanation, _revision.c.answer_key
).where(_revision.c.id == sa.bindparam("revision_id"))
_CHOICES_QUERY = (
    sa.select(_choice.c.position, _choice.c.text, _choice.c.is_correct)
    .where(_choice.c.revision_id == sa.bindparam("revision_id"))
    .order_by(_choice.c.position)
)
_QUOTES_QUERY = (
    sa.select(_quote.c.position, _quote.c.span_start, _quote.c.span_end, _quote.c.excerpt)
    .where(_quote.c.revision_id == sa.bindparam("revision_id"))
    .order_by(_quote.c.position)
)


def revision_data(session: so.Session, revision_id: int, created_at: datetime) -> RevisionData:
    """The revision's content, read from the database once per process.

    ``created_at`` (the revision's) is part of the key: ids repeat between databases (a
    recreated one, or the tests' many), the time of creation with them does not.
    """
    key = (revision_id, created_at)
    data = _REVISIONS.get(key)
    if data is None:
        connection = session.connection()
        params = {"revision_id": revision_id}
        kind, prompt, explanation, answer_key = connection.execute(_REVISION_QUERY, params).one()
        data = RevisionData(
            revision_id, kind, prompt, explanation,
            tuple(ChoiceData(*row) for row in connection.execute(_CHOICES_QUERY, params)),
            tuple(QuoteData(*row) for row in connection.execute(_QUOTES_QUERY, params)),
            answer_key,
        )
        if len(_REVISIONS) >= _REVISIONS_CACHED:
            _REVISIONS.clear()
        _REVISIONS[key] = data
    return data


def data_of(revision: QuestionRevision) -> RevisionData:
    """A loaded revision's content, as :func:`revision_data` gives it."""
    return RevisionData(
        revision.id, revision.kind, revision.prompt, revision.explanation,
        tuple(ChoiceData(choice.position, choice.text, choice.is_correct) for choice in revision.choices),
        tuple(QuoteData(quote.position, quote.span_start, quote.span_end, quote.excerpt) for quote in revision.quotes),
        revision.answer_key,
    )


@dataclass(frozen=True)
class Source:
    """A quote as shown after the answer: in its paragraph when possible, and its reader anchor."""

    excerpt: str
    paragraph: articles.Paragraph | None
    anchor: str
    #: Whether the article may be cited by its headline: not while that tells an answer still to come.
    cite_headline: bool = True
    #: The quotes it shows: one, or several of one paragraph.
    quotes: tuple[QuoteData, ...] = ()


def sources(
    revision: RevisionData, question_slug: str, quotable: articles.Quotable, hide: articles.Hide = articles.Hide()
) -> list[Source]:
    """The revision's quotes, each in its paragraph of the article, where what would tell an
    answer in ``hide`` (those of questions still to be asked) is left out around the quote."""
    cite_headline = not hide.tells_in(quotable)
    shown: list[Source] = []
    for quote in revision.quotes:
        paragraph = articles.passage(quotable, quote.span_start, quote.span_end, quote.excerpt, hide)
        earlier = next((
            index for index, source in enumerate(shown)
            if paragraph is not None and source.paragraph is not None and source.paragraph.number == paragraph.number
        ), None)
        if earlier is None:
            anchor = articles.quote_anchor(question_slug, quote.position)
            shown.append(Source(quote.excerpt, paragraph, anchor, cite_headline, (quote,)))
            continue
        # Two quotes of one paragraph: the paragraph once, with both highlighted in it.
        source = shown[earlier]
        quotes = (*source.quotes, quote)
        merged = articles.passage_of(quotable, [(one.span_start, one.span_end, one.excerpt) for one in quotes], hide)
        shown[earlier] = Source(source.excerpt, merged, source.anchor, cite_headline, quotes)
    return shown


def hide_answers(later: list[RevisionData]) -> articles.Hide:
    """What feedback must leave out to keep the answers of ``later`` revisions, those of
    questions still to be asked: their quotes, and their answer phrases."""
    return articles.Hide(
        tuple((quote.span_start, quote.span_end) for revision in later for quote in revision.quotes),
        tuple(
            core for revision in later
            for core in giveaways.answer_cores(revision.kind, revision.choices, revision.answer_key)
        ),
    )
