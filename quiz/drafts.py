"""A new quiz drafted from an article, for the admin's review in the browser.

:func:`draft_article` reads the article and drafts its questions with
:mod:`quiz.generator`; the admin picks and edits them; :func:`drafted_quiz` puts the article,
a new quiz and the picked questions into the bank in play and checks the whole document as a
bank file. Nothing here writes: the document goes through the import preview, as an uploaded
bank does, so adding a drafted quiz is an import like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import format_decimal
from flask_babel import gettext as _

from quiz import admin, generator
from quiz.bank import BankInvalid
from quiz.bank.exporter import export_document
from quiz.generator import draft_bank, read_article
from quiz.models import Article

#: The most questions drafted for one review: each is a fieldset of a dozen inputs.
MAX_DRAFTS = 40
#: The longest article drafted in a request. A request holds its worker, with every classroom
#: stream on it, until it is done, and gunicorn ends a worker that takes 30 s. Drafting time
#: grows in step with the article (about 0.3 s for 64 KiB of news, 5 s for 1 MiB); with the other
#: articles in play (see :data:`OTHER_TEXTS_MAX_LENGTH`), an article this long is drafted in
#: about 1.5 s, 3 s at most on a busy two-core server: a tenth of the 30 s. ``quiz generate``
#: takes articles up to :data:`quiz.generator.MAX_ARTICLE_BYTES`.
MAX_ARTICLE_BYTES = min(96 * 1024, generator.MAX_ARTICLE_BYTES)
#: The other articles in play lend wrong choices, and each is analysed for every draft (for the
#: whole of this budget, more work than the article itself): the newest are taken up to this many
#: characters in all, none longer than an article drafted here.
OTHER_TEXTS_MAX_LENGTH = 256 * 1024
#: A quiz's title is at most this long (an article's may be longer).
TITLE_MAX_LENGTH = 200

#: What :class:`DraftsRefused` errors are about, besides the questions.
ARTICLE, TITLE, ARTICLE_ID, QUIZ_ID = "article", "title", "article_id", "quiz_id"


class DraftsRefused(Exception):
    """The article, its title, its ids or some picked questions cannot be used; nothing changed.

    ``fields`` maps :data:`ARTICLE`, :data:`TITLE`, :data:`ARTICLE_ID` or :data:`QUIZ_ID` to
    messages; ``questions`` maps a picked question's rank to its errors, placed inside its
    entry as :attr:`quiz.admin.EntryInvalid.errors` are; ``other`` holds every other message.
    """

    def __init__(
        self,
        fields: dict[str, list[str]] | None = None,
        questions: dict[int, list[tuple[tuple[str | int, ...], str]]] | None = None,
        other: list[str] | None = None,
    ):
        self.fields = fields or {}
        self.questions = questions or {}
        self.other = other or []
        messages = [message for messages in self.fields.values() for message in messages]
        messages += [message for errors in self.questions.values() for _place, message in errors]
        super().__init__("; ".join(messages + self.other))


@dataclass(frozen=True)
class ArticleDrafts:
    """An article read for a new quiz, and the questions drafted from it."""

    title: str
    #: What players see: the title less what the drafts ask (see :mod:`quiz.generator.headline`).
    quiz_title: str
    article_id: str
    quiz_id: str
    #: The article's plain text: what is stored, and what every quote points into.
    text: str
    #: Bank question entries (with ``quiz`` set to ``quiz_id``), in article order.
    questions: list[dict[str, Any]]


def draft_article(
    session: so.Session,
    raw: bytes,
    file: str,
    *,
    title: str | None = None,
    article_id: str | None = None,
    quiz_id: str | None = None,
    max_questions: int = MAX_DRAFTS,
    names: bool = True,
) -> ArticleDrafts:
    """Read an article file (plain text or Markdown) and draft questions on it; raises
    :class:`DraftsRefused` with every problem.

    The title defaults to the article's own title line; the ids default to one made from the
    title, with a number added when an article (or quiz) already has it. Ids that are given
    must be unused, by retired articles and quizzes too: reusing one would change or restore
    them. The other articles in play (see :data:`OTHER_TEXTS_MAX_LENGTH`) serve as a source of
    wrong choices. Files over :data:`MAX_ARTICLE_BYTES` are refused before they are read.
    People, places and titles are asked too (typed by the player) unless ``names`` is false.
    """
    if len(raw) > MAX_ARTICLE_BYTES:
        raise DraftsRefused({ARTICLE: [_(
            "The article is %(size)s bytes; drafting here takes up to %(limit)s. "
            "Shorten it, or draft it with the quiz generate command and import the file it writes.",
            size=format_decimal(len(raw)), limit=format_decimal(MAX_ARTICLE_BYTES),
        )]})
    try:
        found_title, text = read_article(raw, file)
    except BankInvalid as invalid:
        raise DraftsRefused({ARTICLE: [_positioned(error.line, error.column, error.message) for error in invalid.errors]}) from None
    fields: dict[str, list[str]] = {}
    title = (title or "").strip() or found_title or ""
    if not title:
        fields[TITLE] = [_("The article has no title line: give it a title.")]
    elif len(title) > TITLE_MAX_LENGTH:
        fields[TITLE] = [_(
            "The title is %(length)s characters long; a quiz's title has at most %(max)s.",
            length=len(title), max=TITLE_MAX_LENGTH,
        )]
    article_id = _new_id(article_id, admin.article_ids(session), title, "article", ARTICLE_ID, fields)
    quiz_id = _new_id(quiz_id, admin.quiz_ids(session), title, "quiz", QUIZ_ID, fields)
    if fields:
        raise DraftsRefused(fields)
    document = draft_bank(
        text, title=title, article_id=article_id, quiz_id=quiz_id, max_questions=max_questions,
        other_texts=_other_texts(session), names=names,
    )
    if not document["questions"]:
        raise DraftsRefused({ARTICLE: [_(
            "No question could be drafted from this article. The drafts ask about dates, years, "
            "figures and names stated in plain sentences."
        )]})
    return ArticleDrafts(
        title, document["quizzes"][0]["title"], article_id, quiz_id, document["articles"][0]["text"], document["questions"],
    )


def _other_texts(session: so.Session) -> list[str]:
    texts: list[str] = []
    total = 0
    for text in session.scalars(sa.select(Article.text).where(Article.retired_at.is_(None)).order_by(Article.id.desc())):
        if len(text) <= MAX_ARTICLE_BYTES and total + len(text) <= OTHER_TEXTS_MAX_LENGTH:
            texts.append(text)
            total += len(text)
    return texts


def _positioned(line: int, column: int, message: str) -> str:
    return _("Line %(line)s, column %(column)s: %(message)s", line=line, column=column, message=message)


def _new_id(given: str | None, taken: set[str], title: str, fallback: str, field: str, fields: dict[str, list[str]]) -> str:
    if given:
        if given in taken:
            fields[field] = [
                _("The id '%(id)s' is already used by an article (retired ones count too): choose another.", id=given)
                if field == ARTICLE_ID
                else _("The id '%(id)s' is already used by a quiz (retired ones count too): choose another.", id=given)
            ]
        return given
    return admin.free_id(admin.id_from_title(title, fallback), taken)


def drafted_quiz(
    session: so.Session, *, title: str, quiz_title: str, article_id: str, quiz_id: str, text: str,
    questions: list[dict[str, Any]],
) -> admin.NewQuestions:
    """The bank in play with the article ``text``, a quiz on it and the picked ``questions``
    (bank entries) added, checked as a bank file; raises :class:`DraftsRefused` with each
    problem on the question it concerns, and changes nothing.

    A question whose id another question has is renamed (see :func:`quiz.admin.with_new_questions`).
    """
    fields: dict[str, list[str]] = {}
    if article_id in admin.article_ids(session):
        fields[ARTICLE_ID] = [_("The id '%(id)s' is now used by another article: start again with another id.", id=article_id)]
    if quiz_id in admin.quiz_ids(session):
        fields[QUIZ_ID] = [_("The id '%(id)s' is now used by another quiz: start again with another id.", id=quiz_id)]
    if not questions:
        raise DraftsRefused(fields, other=[_("Pick at least one question.")])
    if fields:
        raise DraftsRefused(fields)
    document = export_document(session)
    document["articles"].append({"id": article_id, "title": title, "text": text})
    document["quizzes"].append({"id": quiz_id, "title": quiz_title, "article": article_id})
    added = admin.with_new_questions(session, questions, quiz_id, document=document)
    try:
        admin.document_bank(added.document, "drafts")
    except BankInvalid as invalid:
        by_question, other = admin.split_errors(invalid.errors, range(added.first, len(added.document["questions"])))
        raise DraftsRefused(questions=by_question, other=other) from None
    return added
