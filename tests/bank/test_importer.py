"""Importing a bank: adding, revising, retiring and restoring, without ever rewriting history."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

from quiz import play
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import (
    Answer,
    Article,
    AttemptQuestion,
    Choice,
    Question,
    QuestionRevision,
    Quiz,
    SourceQuote,
)
from tests.answers import answer_solo, turn_of

HEADER = """\
version: 1
articles:
  - id: sky
    title: The sky
    text: "The sky is blue. The grass is green. It’s sunny today."
quizzes:
  - id: colours
    title: Colours
    article: sky
questions:
"""

QUESTIONS = {
    "sky": """\
  - id: sky
    prompt: What colour is the sky?
    choices: [Blue, Green]
    correct: Blue
    explanation: The article describes a clear sky.
    source: The sky is blue.
""",
    "grass": """\
  - id: grass
    prompt: What colour is the grass?
    choices: [Blue, Green]
    correct: Green
    explanation: The lawn is the usual colour.
    source: The grass is green.
""",
    "sunny": """\
  - id: sunny
    kind: true_false
    prompt: It is sunny today.
    correct: true
    explanation: The weather is fair.
    source: It's sunny today.
""",
}


@pytest.fixture
def import_text(write_bank):
    """Write ``text`` as the bank file, import it and commit; returns the report."""

    def run(text: str):
        report = import_bank(db.session, load_bank(write_bank(text)))
        db.session.commit()
        return report

    return run


def bank_text(*slugs: str, **edits: tuple[str, str]) -> str:
    """The bank with the named questions; ``edits`` maps a slug to an (old, new) replacement."""
    parts = []
    for slug in slugs:
        text = QUESTIONS[slug]
        if slug in edits:
            old, new = edits[slug]
            assert old in text
            text = text.replace(old, new)
        parts.append(text)
    return HEADER + "".join(parts)


def count(model) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(model))


def row_counts() -> dict[str, int]:
    return {model.__name__: count(model) for model in (Article, Quiz, Question, QuestionRevision, Choice, SourceQuote)}


def question(slug: str) -> Question:
    return db.session.scalar(sa.select(Question).where(Question.slug == slug))


def test_first_import_adds_everything(app_ctx, import_text):
    report = import_text(bank_text("sky", "grass", "sunny"))
    assert (report.articles.added, report.quizzes.added) == (["sky"], ["colours"])
    assert report.questions.added == ["sky", "grass", "sunny"]
    assert report.changes_anything
    assert row_counts() == {
        "Article": 1, "Quiz": 1, "Question": 3, "QuestionRevision": 3, "Choice": 6, "SourceQuote": 3,
    }
    sky = question("sky")
    revision = sky.current_revision
    assert (revision.number, revision.prompt, revision.kind) == (1, "What colour is the sky?", "single")
    assert [(choice.text, choice.is_correct) for choice in revision.choices] == [("Blue", True), ("Green", False)]
    assert (sky.position, question("grass").position, question("sunny").position) == (0, 1, 2)


def test_imported_quote_keeps_its_span_and_excerpt(app_ctx, import_text):
    import_text(bank_text("sunny"))
    article = db.session.scalar(sa.select(Article))
    (quote,) = question("sunny").current_revision.quotes
    assert quote.excerpt == "It’s sunny today."
    assert article.text[quote.span_start : quote.span_end] == quote.excerpt


def test_reimporting_the_same_bank_changes_nothing(app_ctx, import_text):
    text = bank_text("sky", "grass", "sunny")
    import_text(text)
    before = row_counts()
    report = import_text(text)
    assert report.questions.unchanged == ["sky", "grass", "sunny"]
    assert (report.articles.unchanged, report.quizzes.unchanged) == (["sky"], ["colours"])
    assert not report.changes_anything
    assert report.lines() == [
        "Articles: 0 added, 0 changed, 1 unchanged, 0 retired",
        "Quizzes: 0 added, 0 changed, 1 unchanged, 0 retired",
        "Questions: 0 added, 0 changed, 3 unchanged, 0 retired",
    ]
    assert row_counts() == before


def test_changed_prompt_creates_revision_2_and_keeps_revision_1(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    first = question("sky").current_revision
    first_id, first_fingerprint = first.id, first.fingerprint

    report = import_text(
        bank_text("sky", "grass", sky=("prompt: What colour is the sky?", "prompt: Which colour is the sky?"))
    )

    assert report.questions.changed == ["sky (revision 2)"]
    assert report.questions.unchanged == ["grass"]
    db.session.expire_all()
    sky = question("sky")
    assert [revision.number for revision in sky.revisions] == [1, 2]
    assert sky.current_revision.number == 2
    assert sky.current_revision.prompt == "Which colour is the sky?"
    assert sky.current_revision_id != first_id
    old = db.session.get(QuestionRevision, first_id)
    assert (old.prompt, old.fingerprint) == ("What colour is the sky?", first_fingerprint)
    assert [(choice.text, choice.is_correct) for choice in old.choices] == [("Blue", True), ("Green", False)]
    assert [quote.excerpt for quote in old.quotes] == ["The sky is blue."]
    assert count(QuestionRevision) == 3


def test_changed_choices_are_stored_in_the_new_revision_only(app_ctx, import_text):
    import_text(bank_text("sky"))
    import_text(bank_text("sky", sky=("choices: [Blue, Green]", "choices: [Blue, Green, Red]")))
    db.session.expire_all()
    old, new = question("sky").revisions
    assert [choice.text for choice in old.choices] == ["Blue", "Green"]
    assert [choice.text for choice in new.choices] == ["Blue", "Green", "Red"]


def test_a_third_edit_is_revision_3(app_ctx, import_text):
    import_text(bank_text("sky"))
    import_text(bank_text("sky", sky=("explanation: The article", "explanation: Plainly, the article")))
    report = import_text(bank_text("sky", sky=("Blue, Green", "Green, Blue")))
    assert report.questions.changed == ["sky (revision 3)"]
    assert [revision.number for revision in question("sky").revisions] == [1, 2, 3]


def test_reordering_questions_moves_them_without_a_new_revision(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    report = import_text(bank_text("grass", "sky"))
    assert sorted(report.questions.changed) == ["grass", "sky"]
    assert (question("grass").position, question("sky").position) == (0, 1)
    assert count(QuestionRevision) == 2


def test_removed_question_is_retired_but_kept(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    report = import_text(bank_text("sky"))
    assert report.questions.retired == ["grass"]
    assert report.questions.unchanged == ["sky"]
    grass = question("grass")
    assert grass is not None and grass.retired_at is not None
    assert question("sky").retired_at is None
    assert [revision.number for revision in grass.revisions] == [1]
    assert grass.current_revision is not None
    assert count(QuestionRevision) == 2


def test_retiring_is_reported_once(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    import_text(bank_text("sky"))
    report = import_text(bank_text("sky"))
    assert report.questions.retired == []
    assert not report.changes_anything


def test_question_put_back_is_restored_without_a_new_revision(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    revision_id = question("grass").current_revision_id
    import_text(bank_text("sky"))
    report = import_text(bank_text("sky", "grass"))
    assert report.questions.changed == ["grass"]
    assert report.questions.added == []
    grass = question("grass")
    assert grass.retired_at is None
    assert grass.current_revision_id == revision_id
    assert count(QuestionRevision) == 2


def test_question_put_back_edited_gets_revision_2(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    import_text(bank_text("sky"))
    report = import_text(bank_text("sky", "grass", grass=("The lawn", "Plainly, the lawn")))
    assert report.questions.changed == ["grass (revision 2)"]
    grass = question("grass")
    assert grass.retired_at is None
    assert grass.current_revision.number == 2


def test_removed_quiz_and_article_are_retired(app_ctx, import_text):
    import_text(bank_text("sky"))
    other = HEADER.replace("sky", "sea").replace("colours", "waves")
    report = import_text(other + QUESTIONS["grass"].replace("id: grass", "id: tide"))
    assert (report.articles.retired, report.quizzes.retired) == (["sky"], ["colours"])
    assert report.questions.retired == ["sky"]
    quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "colours"))
    article = db.session.scalar(sa.select(Article).where(Article.slug == "sky"))
    assert quiz.retired_at is not None and article.retired_at is not None


def test_retired_question_is_not_offered_to_new_attempts(app_ctx, import_text):
    import_text(bank_text("sky", "grass"))
    import_text(bank_text("sky"))
    quiz = db.session.scalar(sa.select(Quiz))
    attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL)
    assert [slot.question.slug for slot in attempt.slots] == ["sky"]


def test_answer_keeps_pointing_at_the_revision_it_answered(app_ctx, import_text):
    import_text(bank_text("sky"))
    quiz = db.session.scalar(sa.select(Quiz))
    player = play.create_player(db.session)
    attempt = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL, rng=random.Random(1))
    shown = [choice.text for choice in turn_of(attempt, 1).order]
    assert answer_solo(attempt, 1, [shown.index("Blue") + 1])
    db.session.commit()
    first_revision_id = question("sky").current_revision_id

    import_text(bank_text("sky", sky=("prompt: What colour is the sky?", "prompt: Which colour is the sky?")))

    db.session.expire_all()
    answer = db.session.scalar(sa.select(Answer))
    assert answer.revision_id == first_revision_id
    assert answer.is_correct
    assert db.session.scalar(sa.select(AttemptQuestion.revision_id)) == first_revision_id
    assert question("sky").current_revision_id != first_revision_id
    assert db.session.get(QuestionRevision, answer.revision_id).prompt == "What colour is the sky?"


def test_new_attempts_after_an_edit_get_the_new_revision(app_ctx, import_text):
    import_text(bank_text("sky"))
    import_text(bank_text("sky", sky=("prompt: What colour is the sky?", "prompt: Which colour is the sky?")))
    quiz = db.session.scalar(sa.select(Quiz))
    attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL)
    slot = attempt.slots[0]
    assert (slot.revision.number, slot.revision.prompt) == (2, "Which colour is the sky?")


def test_import_only_flushes_so_rollback_undoes_it(app_ctx, write_bank):
    report = import_bank(db.session, load_bank(write_bank(bank_text("sky", "grass"))))
    assert report.questions.added == ["sky", "grass"]
    db.session.rollback()
    assert row_counts() == {
        "Article": 0, "Quiz": 0, "Question": 0, "QuestionRevision": 0, "Choice": 0, "SourceQuote": 0,
    }


def many_questions(count: int, *, edited: tuple[int, ...] = (), left_out: tuple[int, ...] = ()) -> str:
    """A bank of ``count`` questions, more than one round of the importer's bulk statements."""
    parts = [HEADER]
    for number in range(count):
        if number in left_out:
            continue
        prompt = f"Question {number}: what colour is the sky?" + (" (edited)" if number in edited else "")
        parts.append(
            f"  - id: q{number}\n    prompt: \"{prompt}\"\n    choices: [Blue, Green, Red, Grey]\n"
            f"    correct: Blue\n    explanation: The article says so.\n    source: The sky is blue.\n"
            f"    tags: [sky]\n"
        )
    return "".join(parts)


def test_a_large_bank_is_imported_in_rounds_that_report_progress(app_ctx, write_bank):
    calls = []
    bank = load_bank(write_bank(many_questions(2300)))
    report = import_bank(db.session, bank, progress=calls.append)
    db.session.commit()
    assert calls == [1000, 1000, 300]
    assert len(report.questions.added) == 2300
    assert row_counts() == {
        "Article": 1, "Quiz": 1, "Question": 2300, "QuestionRevision": 2300, "Choice": 9200, "SourceQuote": 2300,
    }
    # Each question's current revision is its own.
    mismatched = db.session.scalar(
        sa.select(sa.func.count()).select_from(Question)
        .join(QuestionRevision, Question.current_revision_id == QuestionRevision.id)
        .where(QuestionRevision.question_id != Question.id)
    )
    assert mismatched == 0
    assert question("q1234").current_revision.prompt == "Question 1234: what colour is the sky?"
    assert [choice.text for choice in question("q2299").current_revision.choices] == ["Blue", "Green", "Red", "Grey"]


def test_a_large_bank_edited_in_every_round_revises_moves_and_retires(app_ctx, import_text):
    import_text(many_questions(2300))
    before = {slug: revision for slug, revision in db.session.execute(sa.select(Question.slug, Question.current_revision_id))}

    report = import_text(many_questions(2300, edited=(5, 1500, 2299), left_out=(7,)))

    assert report.questions.changed[:3] == ["q5 (revision 2)", "q8", "q9"]  # q8 on: a place up
    assert "q1500 (revision 2)" in report.questions.changed and "q2299 (revision 2)" in report.questions.changed
    assert report.questions.retired == ["q7"]
    assert report.questions.unchanged == ["q0", "q1", "q2", "q3", "q4", "q6"]
    db.session.expire_all()
    after = dict(db.session.execute(sa.select(Question.slug, Question.current_revision_id)).all())
    assert {slug for slug in after if after[slug] != before[slug]} == {"q5", "q1500", "q2299"}
    assert question("q1500").current_revision.prompt.endswith("(edited)")
    assert [revision.number for revision in question("q2299").revisions] == [1, 2]
    assert (question("q8").position, question("q7").retired_at is not None) == (7, True)
    assert not import_text(many_questions(2300, edited=(5, 1500, 2299), left_out=(7,))).changes_anything


def test_objects_loaded_before_an_import_show_what_it_wrote(app_ctx, import_text):
    """Questions are written with bulk statements: what the session held of them is reloaded."""
    import_text(bank_text("sky", "grass"))
    grass, quiz = question("grass"), db.session.scalar(sa.select(Quiz))
    assert grass.retired_at is None and len(quiz.questions) == 2
    import_text(bank_text("sky", "sunny", sky=("What colour", "Which colour")))
    assert grass.retired_at is not None
    assert question("sky").current_revision.prompt == "Which colour is the sky?"
    assert [entry.slug for entry in quiz.questions] == ["sky", "grass", "sunny"]
