"""Previewing an import: the same verdicts as the import itself, field by field, and no writes."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from quiz.bank import load_bank
from quiz.bank.diff import FieldChange, bank_digest, preview_import
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Article, Choice, Question, QuestionRevision, Quiz, SourceQuote
from tests.bank.test_importer import HEADER, QUESTIONS, bank_text


def row_counts() -> dict[str, int]:
    return {
        model.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(model))
        for model in (Article, Quiz, Question, QuestionRevision, Choice, SourceQuote)
    }


@pytest.fixture
def imported(write_bank):
    """Import ``text`` and commit."""

    def run(text: str) -> None:
        import_bank(db.session, load_bank(write_bank(text)))
        db.session.commit()

    return run


@pytest.fixture
def preview_then_import(write_bank):
    """Preview ``text``, check that the preview wrote nothing, then import it: the preview and
    the import's report, which must agree."""

    def run(text: str):
        bank = load_bank(write_bank(text))
        before, digest = row_counts(), bank_digest(db.session)
        preview = preview_import(db.session, bank)
        assert not db.session.dirty and not db.session.new
        assert (row_counts(), bank_digest(db.session)) == (before, digest)
        report = import_bank(db.session, bank)
        db.session.commit()
        assert preview.report() == report
        assert preview.changes_anything == report.changes_anything
        return preview

    return run


SKY_ARTICLE_EDITED = HEADER.replace('text: "The sky', 'text: "Today. The sky')
OTHER_QUIZ = HEADER.replace("sky", "sea").replace("colours", "waves") + QUESTIONS["grass"].replace("id: grass", "id: tide")

# (what is in the database, what is previewed and imported)
SCENARIOS = {
    "first import": (None, bank_text("sky", "grass", "sunny")),
    "same bank again": (bank_text("sky", "grass"), bank_text("sky", "grass")),
    "edited prompt": (bank_text("sky", "grass"), bank_text("sky", "grass", sky=("What colour", "Which colour"))),
    "reordered": (bank_text("sky", "grass"), bank_text("grass", "sky")),
    "question removed": (bank_text("sky", "grass", "sunny"), bank_text("sky", "sunny")),
    "question added": (bank_text("sky"), bank_text("sky", "sunny")),
    "article text moved the quotes": (bank_text("sky", "grass"), SKY_ARTICLE_EDITED + QUESTIONS["sky"] + QUESTIONS["grass"]),
    "quiz settings": (bank_text("sky"), bank_text("sky").replace("    article: sky\n", "    article: sky\n    settings: {time_limit: 45}\n")),
    "quiz language": (bank_text("sky"), bank_text("sky").replace("    article: sky\n", "    article: sky\n    language: fr\n")),
    "everything replaced": (bank_text("sky", "grass"), OTHER_QUIZ),
}


@pytest.mark.parametrize("before, after", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_the_preview_agrees_with_the_import(app_ctx, imported, preview_then_import, before, after):
    if before is not None:
        imported(before)
    preview_then_import(after)


def test_a_question_put_back_is_previewed_as_restored_and_agrees(app_ctx, imported, preview_then_import):
    imported(bank_text("sky", "grass"))
    imported(bank_text("sky"))
    preview = preview_then_import(bank_text("sky", "grass", grass=("The lawn", "Plainly, the lawn")))
    (grass,) = preview.questions.changed
    assert grass.slug == "grass" and grass.new_revision == 2
    assert FieldChange("retired", True, False) in grass.changes
    assert FieldChange(
        "explanation", "The lawn is the usual colour.", "Plainly, the lawn is the usual colour."
    ) in grass.changes


def test_changed_fields_show_old_and_new_values(app_ctx, imported, write_bank):
    imported(bank_text("sky", "grass"))
    edited = bank_text("grass", "sky", sky=("choices: [Blue, Green]\n    correct: Blue", "choices: [Blue, Grey]\n    correct: Grey"))
    preview = preview_import(db.session, load_bank(write_bank(edited)))
    changed = {entry.slug: entry for entry in preview.questions.changed}
    assert changed["sky"].new_revision == 2
    assert changed["sky"].changes == (
        FieldChange("choices", ["Blue", "Green"], ["Blue", "Grey"]),
        FieldChange("correct", "Blue", "Grey"),
        FieldChange("place in quiz", 1, 2),
    )
    assert (changed["grass"].new_revision, changed["grass"].changes) == (None, (FieldChange("place in quiz", 2, 1),))
    assert [entry.slug for entry in preview.articles.unchanged] == ["sky"]


def test_a_quote_found_elsewhere_is_a_change_of_place(app_ctx, imported, write_bank):
    imported(bank_text("sky"))
    preview = preview_import(db.session, load_bank(write_bank(SKY_ARTICLE_EDITED + QUESTIONS["sky"])))
    (sky,) = preview.questions.changed
    assert sky.new_revision == 2
    assert sky.changes == (FieldChange("source place", ["characters 0-16"], ["characters 7-23"]),)
    (article,) = preview.articles.changed
    assert [change.field for change in article.changes] == ["text"]


def test_added_and_retired_entries_are_labelled(app_ctx, imported, write_bank):
    imported(bank_text("sky", "grass"))
    preview = preview_import(db.session, load_bank(write_bank(OTHER_QUIZ)))
    assert [(entry.slug, entry.label) for entry in preview.questions.added] == [("tide", "What colour is the grass?")]
    assert [(entry.slug, entry.label) for entry in preview.questions.retired] == [
        ("sky", "What colour is the sky?"), ("grass", "What colour is the grass?"),
    ]
    assert [(entry.slug, entry.label) for entry in preview.quizzes.retired] == [("colours", "Colours")]


def test_the_digest_changes_with_the_bank_and_only_with_it(app_ctx, imported):
    imported(bank_text("sky", "grass"))
    digest = bank_digest(db.session)
    imported(bank_text("sky", "grass"))
    assert bank_digest(db.session) == digest
    imported(bank_text("sky"))
    retired = bank_digest(db.session)
    assert retired != digest
    imported(bank_text("sky", "grass"))
    assert bank_digest(db.session) == digest
    imported(bank_text("sky", "grass", sky=("What colour", "Which colour")))
    assert bank_digest(db.session) not in (digest, retired)
