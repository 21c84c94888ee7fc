"""Offline drafting of sourced multiple-choice questions from a news-style article.

The pipeline, one module per stage: :mod:`~quiz.generator.markdown` (Markdown to the plain
text stored as the article), :mod:`~quiz.generator.sentences`, :mod:`~quiz.generator.facts`
(with :mod:`~quiz.generator.numbers` and :mod:`~quiz.generator.entities`),
:mod:`~quiz.generator.templates`, :mod:`~quiz.generator.distractors` and
:mod:`~quiz.generator.validation`; :mod:`~quiz.generator.drafting` runs them in turn.
Everything is deterministic and uses nothing but the standard library.

Drafting time grows in step with the article: no stage reads the whole article again for each
sentence, name, fact or question. What they look up many times is indexed once, with the
article (:meth:`~quiz.generator.facts.Article.derived`) or in :mod:`~quiz.generator.spans`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from quiz import giveaways
from quiz.bank.errors import BankError, BankInvalid
from quiz.bank.loader import bank_from_document
from quiz.bank.yamlfile import Document
from quiz.generator import headline
from quiz.generator.drafting import drafted_entries, generate_questions
from quiz.generator.markdown import plain_text, split_title

__all__ = ["draft_bank", "generate_questions", "plain_text", "read_article", "split_title"]

#: Largest article file read, in bytes.
MAX_ARTICLE_BYTES = 2 * 1024 * 1024


def read_article(raw: bytes, file: str) -> tuple[str | None, str]:
    """An article file's title (when its first line or heading is one) and its plain text.

    Raises :class:`BankInvalid` naming the line and column of invalid UTF-8, or saying the
    file is too large or empty.
    """
    if len(raw) > MAX_ARTICLE_BYTES:
        raise BankInvalid([BankError(file, 1, 1, "", f"file is {len(raw):,} bytes; the limit is {MAX_ARTICLE_BYTES:,}")])
    try:
        decoded = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[line_start : exc.start].decode("utf-8", "replace")) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        raise BankInvalid([BankError(file, line, column, "", f"invalid UTF-8 (byte 0x{raw[exc.start]:02x})")]) from None
    title, text = split_title(plain_text(decoded))
    if not text:
        raise BankInvalid([BankError(file, 1, 1, "", "the article has no text")])
    return title, text


def draft_bank(
    text: str,
    *,
    title: str,
    article_id: str,
    quiz_id: str,
    max_questions: int | None = None,
    other_texts: Sequence[str] = (),
    names: bool = True,
) -> dict[str, Any]:
    """A complete bank document: the article, one quiz and the drafted questions, ready for
    :func:`quiz.bank.yamlfile.dump_yaml` and for review. ``text`` is the article's plain text
    (:func:`read_article`'s), kept as it is: reducing it again could change it (an escaped
    ``\\*`` would lose its star the second time). No draft gives another away: the document
    passes ``quiz lint`` (see :func:`without_giveaways`).

    The article keeps ``title``; the quiz, which players see the title of, is titled with it
    less what the drafts ask (see :mod:`~quiz.generator.headline`), so that the facts a headline
    states can be asked."""

    def document(questions: list[dict[str, Any]], quiz_title: str) -> dict[str, Any]:
        return {
            "version": 1,
            "articles": [{"id": article_id, "title": title, "text": text}],
            "quizzes": [{"id": quiz_id, "title": quiz_title, "article": article_id}],
            "questions": [{"id": entry["id"], "quiz": quiz_id, **entry} for entry in questions],
        }

    drafted = drafted_entries(
        text, max_questions=max_questions, other_texts=other_texts, names=names, headline=title,
        acceptable=lambda entries: without_giveaways(document(entries, title), counting_the_title=False),
    )
    shown = headline.quiz_title(title, drafted)
    drafted = [
        entry for entry in drafted if not headline.states(shown, entry) and not headline.tells_a_birth(title, entry)
    ]
    kept = without_giveaways(document(drafted, shown))
    return document([entry for entry in drafted if entry["id"] in kept], shown)


#: Kinds of fact that, graded blind, were acceptable less often than figures (13% of years and
#: dates, 22% of counts, amounts, durations and ages; bench/generator_quality.md): of two
#: drafts that give each other away, the one of these goes.
ROTE_KINDS = frozenset({"year", "date"})


def without_giveaways(document: dict[str, Any], *, counting_the_title: bool = True) -> set[str]:
    """The ids of the drafts in ``document`` to keep so that ``quiz lint`` finds nothing (nothing
    but what the quiz's title gives away, when not ``counting_the_title``): until no finding is
    left, a typed name goes first, then the draft named in the most findings (on a tie, one of
    :data:`ROTE_KINDS`, then the later one): names give way to what was measured more often
    acceptable, and a lead's figure that two names and a lesser figure repeat ("all 33 passengers"
    beside "near ____" and "carried 33 passengers and ____ crew") stays. A finding names one
    draft or two, so dropping drafts never makes new ones."""
    ids = [entry["id"] for entry in document["questions"]]
    try:
        findings = giveaways.lint(bank_from_document(Document("draft", document), base_dir=None)) if ids else []
    except BankInvalid:
        return set(ids)  # an article no bank may hold: importing the draft says why
    # A finding is placed in the draft it is about (``questions``, its number, ...) or in the quiz.
    if not counting_the_title:
        findings = [finding for finding in findings if finding.loc[0] != "quizzes"]
    left = [
        {slug for slug in (ids[finding.loc[1]] if finding.loc[0] == "questions" else None, finding.other) if slug}
        for finding in findings
    ]
    order = {slug: number for number, slug in enumerate(ids)}
    rote = {entry["id"] for entry in document["questions"] if entry["tags"][-1] in ROTE_KINDS}
    named = {entry["id"] for entry in document["questions"] if entry["kind"] == "text"}
    dropped: set[str] = set()
    while left:
        blamed = Counter(slug for involved in left for slug in involved)
        worst = max(blamed, key=lambda slug: (slug in named, blamed[slug], slug in rote, order[slug]))
        dropped.add(worst)
        left = [involved for involved in left if worst not in involved]
    return set(ids) - dropped
