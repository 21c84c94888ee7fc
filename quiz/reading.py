"""The article reader: an article's text with an anchor at every passage a question quotes."""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so

from quiz import articles
from quiz.models import Article, Question, Quiz, SourceQuote


def article_by_slug(session: so.Session, slug: str) -> Article | None:
    return session.scalar(sa.select(Article).where(Article.slug == slug))


def read(session: so.Session, article: Article, highlight: str | None = None) -> list[articles.Paragraph]:
    """The article's paragraphs, the headline first (numbered 0), anchoring the quotes of its
    quizzes' current questions."""
    rows = session.execute(
        sa.select(Question.slug, SourceQuote.position, SourceQuote.span_start, SourceQuote.span_end, SourceQuote.excerpt)
        .join(Quiz, Quiz.id == Question.quiz_id)
        .join(SourceQuote, SourceQuote.revision_id == Question.current_revision_id)
        .where(Quiz.article_id == article.id)
        .order_by(SourceQuote.span_start)
    )
    quotable = articles.Quotable.of(article.title, article.text)
    offset = quotable.offset
    marks = [
        articles.Mark(articles.quote_anchor(slug, position), start, end)
        for slug, position, start, end, excerpt in rows
        # A quote taken from an older text of the article no longer points at its passage.
        if start + offset >= 0 and quotable.text[start + offset : end + offset] == excerpt
    ]
    return articles.render(quotable, marks, highlight)
