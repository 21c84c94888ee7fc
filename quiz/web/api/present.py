"""Turning what the domain returns into the API's response models, for the views of every area."""

from __future__ import annotations

from flask import url_for

from quiz import articles, play, revisions
from quiz.kinds import Submission, Tally
from quiz.models import Article, Attempt, Quiz
from quiz.web.api import schemas


def article_ref(article: Article) -> schemas.ArticleRef:
    return schemas.ArticleRef(
        id=article.slug, title=article.title, url=article.url, reader_url=url_for("reader.article", slug=article.slug)
    )


def quiz_summary(quiz: Quiz, question_count: int) -> schemas.QuizSummary:
    return schemas.QuizSummary(
        id=quiz.slug, title=quiz.title, description=quiz.description, question_count=question_count,
        questions_per_attempt=quiz.questions_per_attempt, article=article_ref(quiz.article),
    )


def attempt(attempt: Attempt) -> schemas.Attempt:
    return schemas.Attempt(
        id=attempt.public_id,
        quiz=attempt.quiz.slug,
        question_count=attempt.question_count,
        answered_count=attempt.answered_count,
        correct_count=attempt.correct_count,
        score=attempt.score,
        difficulty=attempt.difficulty,
        next_position=play.next_position(attempt) if attempt.finished_at is None else None,
        started_at=attempt.started_at,
        finished_at=attempt.finished_at,
        duration_ms=attempt.duration_ms,
        session_id=attempt.live_session_id,
        retry=attempt.retry_of_id is not None,
    )


def source(article_slug: str, quoted: revisions.Source) -> schemas.SourceOut:
    return schemas.SourceOut(
        excerpt=quoted.excerpt,
        anchor=quoted.anchor,
        reader_url=url_for("reader.article", slug=article_slug, highlight=quoted.anchor, _anchor=quoted.anchor),
        passage=passage(quoted.paragraph) if quoted.paragraph else None,
    )


def passage(paragraph: articles.Paragraph) -> schemas.PassageOut:
    before, quote, after = [], [], []
    for segment in paragraph.segments:
        if segment.highlighted:
            quote.append(segment.text)
        else:
            # What tells a later question's answer never leaves the server.
            (after if quote else before).append("[…]" if segment.hidden else segment.text)
    return schemas.PassageOut(paragraph=paragraph.number, before="".join(before), quote="".join(quote), after="".join(after))


def feedback(article_slug: str, given: play.Feedback) -> schemas.Feedback:
    reveal = given.reveal
    return schemas.Feedback(
        position=given.position,
        correct=given.answer.is_correct,
        credit=given.answer.credit,
        points=given.answer.points,
        picked=[choice.number for choice in reveal.picked_choices],
        correct_choices=[choice.number for choice in reveal.correct_choices] if given.revision.behaviour.picks else [],
        choices=[
            schemas.RevealedChoice(number=choice.number, text=choice.text, correct=choice.is_correct,
                                   picked=choice.picked, placed=choice.placed)
            for choice in reveal.choices
        ],
        given=given.given,
        expected=given.expected,
        votes=tally_rows(given.tally) if given.tally else None,
        explanation=given.revision.explanation,
        sources=[source(article_slug, quoted) for quoted in given.sources],
        answered_at=given.answer.answered_at,
        elapsed_ms=given.answer.elapsed_ms,
    )


def tally_rows(tally: Tally) -> list[schemas.TallyRow]:
    return [
        schemas.TallyRow(number=row.number, text=row.label, correct=row.is_correct, count=row.count,
                         share=round(row.share, 3))
        for row in tally.rows
    ]


def submission(body: schemas.SubmitAnswer | schemas.LiveAnswer) -> Submission:
    """An answer's body as the answering core reads it."""
    return Submission(choices=tuple(body.choices or ()), order=tuple(body.order or ()), number=body.number,
                      text=body.text)
