"""Changing the bank one question at a time, by the rules of the bank file, adding questions read
from other tools' files, and browsing it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from pydantic import TypeAdapter

from quiz import admin
from quiz.bank import BankError, BankInvalid, load_bank, parse_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.bank.schema import Identifier
from quiz.bank.yamlfile import dump_yaml
from quiz.extensions import db
from quiz.formats import FORMATS
from quiz.models import Question, QuestionRevision
from tests.bank.test_importer import HEADER, QUESTIONS, bank_text

NEW_ENTRY = {
    "id": "sunny-again", "quiz": "colours", "kind": "true_false", "prompt": "It is sunny.", "correct": True,
    "explanation": "Fair weather.", "source": ["It’s sunny today."],
}


@pytest.fixture
def imported(app_ctx, write_bank):
    """Import ``text`` and commit."""

    def run(text: str) -> None:
        import_bank(db.session, load_bank(write_bank(text)))
        db.session.commit()

    return run


def question(slug: str) -> Question:
    return db.session.scalar(sa.select(Question).where(Question.slug == slug))


def places() -> dict[str, int | None]:
    """Each question's place in its quiz, None for retired ones."""
    return {q.slug: None if q.retired_at else q.position for q in db.session.scalars(sa.select(Question))}


def revision_count() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(QuestionRevision))


def reimporting_the_export_changes_nothing() -> bool:
    bank = parse_bank(dump_yaml(export_document(db.session)).encode(), "export.yaml", base_dir=None)
    report = import_bank(db.session, bank)
    db.session.rollback()
    return not report.changes_anything


def test_a_new_question_goes_last_in_its_quiz(imported):
    imported(bank_text("sky", "grass"))
    report = admin.save_question(db.session, dict(NEW_ENTRY))
    db.session.commit()
    assert report.questions.added == ["sunny-again"]
    assert places() == {"sky": 0, "grass": 1, "sunny-again": 2}
    assert question("sunny-again").current_revision.choices[0].is_correct
    assert reimporting_the_export_changes_nothing()


def test_an_edited_question_gets_a_new_revision_in_the_same_place(imported):
    imported(bank_text("sky", "grass"))
    entry = {**export_document(db.session)["questions"][0], "prompt": "Which colour is the sky?"}
    report = admin.save_question(db.session, entry, replacing="sky")
    db.session.commit()
    assert report.questions.changed == ["sky (revision 2)"]
    assert [r.prompt for r in question("sky").revisions] == ["What colour is the sky?", "Which colour is the sky?"]
    assert places() == {"sky": 0, "grass": 1}


def test_an_edit_cannot_rename_the_question(imported):
    imported(bank_text("sky"))
    entry = {**export_document(db.session)["questions"][0], "id": "renamed"}
    admin.save_question(db.session, entry, replacing="sky")
    assert question("renamed") is None and question("sky").retired_at is None


def test_a_refused_entry_names_every_problem_by_field_and_saves_nothing(imported):
    imported(bank_text("sky"))
    before = revision_count()
    entry = {
        **NEW_ENTRY, "kind": "single", "choices": ["Yes", "yes", "No"], "correct": "Maybe",
        "source": ["It’s sunny today.", "It is raining."],
    }
    with pytest.raises(admin.EntryInvalid) as refused:
        admin.save_question(db.session, entry)
    assert sorted(refused.value.errors) == [
        (("choices", 1), "duplicate of choice 1 ('yes')"),
        (("correct",), "'Maybe' is not one of the choices"),
        (("source", 1), "quote not found in article 'sky'"),
    ]
    db.session.rollback()
    assert revision_count() == before and question("sunny-again") is None


def test_an_entry_of_the_wrong_shape_is_refused_as_in_a_file(imported):
    imported(bank_text("sky"))
    with pytest.raises(admin.EntryInvalid) as refused:
        admin.save_question(db.session, {**NEW_ENTRY, "tags": ["Bad Tag"], "time_limit": 2})
    assert sorted(refused.value.errors) == [
        (("tags", 0), "must be lowercase letters, digits, '-', '_' or '.', starting and ending with a letter or digit"),
        (("time_limit",), "input should be greater than or equal to 5"),
    ]


def test_a_new_question_may_not_take_the_id_of_a_retired_one(imported):
    imported(bank_text("sky", "grass"))
    imported(bank_text("sky"))
    with pytest.raises(admin.EntryInvalid) as refused:
        admin.save_question(db.session, {**NEW_ENTRY, "id": "grass"})
    assert refused.value.errors == [(("id",), "the id 'grass' is already used by another question")]
    assert question("grass").retired_at is not None


def test_a_new_question_may_not_take_the_id_of_one_in_play(imported):
    imported(bank_text("sky"))
    with pytest.raises(admin.EntryInvalid) as refused:
        admin.save_question(db.session, {**NEW_ENTRY, "id": "sky"})
    assert refused.value.errors == [(("id",), "the id 'sky' is already used by another question")]


def test_retiring_closes_the_gap_and_the_export_still_imports_unchanged(imported):
    imported(bank_text("sky", "grass", "sunny"))
    report = admin.retire_question(db.session, question("grass"))
    db.session.commit()
    assert report.questions.retired == ["grass"]
    assert places() == {"sky": 0, "grass": None, "sunny": 1}
    assert reimporting_the_export_changes_nothing()


def test_restoring_puts_the_question_back_in_its_place_without_a_new_revision(imported):
    imported(bank_text("sky", "grass", "sunny"))
    revision_id = question("grass").current_revision_id
    admin.retire_question(db.session, question("grass"))
    db.session.commit()
    report = admin.restore_question(db.session, question("grass"))
    db.session.commit()
    assert report.questions.changed == ["grass", "sunny"]
    assert places() == {"sky": 0, "grass": 1, "sunny": 2}
    assert question("grass").current_revision_id == revision_id


def test_a_question_retired_last_in_its_quiz_comes_back_last(imported):
    imported(bank_text("sky", "grass"))
    admin.retire_question(db.session, question("grass"))
    admin.restore_question(db.session, question("grass"))
    assert places() == {"sky": 0, "grass": 1}


def test_a_question_whose_quote_left_the_article_cannot_be_restored(imported):
    imported(bank_text("sky", "grass"))
    imported(HEADER.replace(" The grass is green.", "") + QUESTIONS["sky"])
    with pytest.raises(admin.EntryInvalid) as refused:
        admin.restore_question(db.session, question("grass"))
    assert refused.value.errors == [(("source", 0), "quote not found in article 'sky'")]


def test_a_question_of_a_retired_quiz_cannot_be_restored(imported):
    imported(bank_text("sky"))
    imported(HEADER.replace("colours", "waves") + QUESTIONS["grass"])
    with pytest.raises(admin.EntryInvalid, match="its quiz 'colours' is retired"):
        admin.restore_question(db.session, question("sky"))


def test_error_locations_read_back_into_places():
    assert admin.error_loc("questions[3].choices[2]") == ("questions", 3, "choices", 2)
    assert admin.error_loc("quizzes[0].settings.time_limit") == ("quizzes", 0, "settings", "time_limit")
    assert admin.error_loc("") == ()


# Browsing ------------------------------------------------------------------------------------


TAGGED = bank_text(
    "sky", "grass", "sunny",
    sky=("source: The sky is blue.", "source: The sky is blue.\n    tags: [sky, easy_ones]\n    difficulty: easy"),
    grass=("source: The grass is green.", "source: The grass is green.\n    tags: [easy-ones]"),
)


def slugs(filters: admin.QuestionFilter, **kwargs) -> list[str]:
    return [row.slug for row in admin.list_questions(db.session, filters, **kwargs).rows]


def test_questions_are_listed_by_place_with_the_retired_ones_last(imported):
    imported(TAGGED)
    imported(TAGGED.replace("  - id: sky\n    prompt", "  - id: sky-retired\n    prompt"))
    assert slugs(admin.QuestionFilter(retired="all")) == ["sky-retired", "grass", "sunny", "sky"]
    assert slugs(admin.QuestionFilter()) == ["sky-retired", "grass", "sunny"]
    assert slugs(admin.QuestionFilter(retired="yes")) == ["sky"]


def test_questions_are_filtered_by_tag_exactly(imported):
    imported(TAGGED)
    # "easy_ones" must not match "easy-ones" (nor the other way round), although "_" is a LIKE wildcard.
    assert slugs(admin.QuestionFilter(tag="easy_ones")) == ["sky"]
    assert slugs(admin.QuestionFilter(tag="easy-ones")) == ["grass"]
    assert slugs(admin.QuestionFilter(tag="easy")) == []
    assert admin.tags_in_use(db.session) == ["easy-ones", "easy_ones", "sky"]


def test_questions_are_filtered_by_difficulty_and_quiz(imported):
    imported(TAGGED)
    assert slugs(admin.QuestionFilter(difficulty="easy")) == ["sky"]
    assert slugs(admin.QuestionFilter(quiz="colours", difficulty="medium")) == ["grass", "sunny"]
    assert slugs(admin.QuestionFilter(quiz="other")) == []


def test_questions_come_in_pages_and_a_page_too_far_gives_the_last(imported):
    imported(TAGGED)
    first = admin.list_questions(db.session, admin.QuestionFilter(), 1, per_page=2)
    assert ([row.slug for row in first.rows], first.page, first.pages, first.total) == (["sky", "grass"], 1, 2, 3)
    assert slugs(admin.QuestionFilter(), page=99, per_page=2) == ["sunny"]
    assert slugs(admin.QuestionFilter(), page=-3, per_page=2) == ["sky", "grass"]
    empty = admin.list_questions(db.session, admin.QuestionFilter(tag="none"), 5)
    assert (empty.rows, empty.page, empty.pages, empty.total) == ([], 1, 1, 0)


def test_the_history_lists_revisions_newest_first_with_what_each_changed(imported):
    imported(bank_text("sky"))
    imported(bank_text("sky", sky=("What colour", "Which colour")))
    imported(bank_text("sky", sky=("choices: [Blue, Green]", "choices: [Blue, Green, Red]")))
    history = admin.revision_history(db.session, question("sky"))
    assert [(view.number, view.current) for view in history] == [(3, True), (2, False), (1, False)]
    assert [change.field for change in history[0].changes] == ["prompt", "choices"]
    assert [(change.field, change.old, change.new) for change in history[1].changes] == [
        ("prompt", "What colour is the sky?", "Which colour is the sky?"),
    ]
    assert history[2].changes == () and history[2].entry["prompt"] == "What colour is the sky?"


def test_the_summary_counts_what_is_in_play(imported):
    imported(bank_text("sky", "grass"))
    imported(bank_text("sky"))
    assert admin.bank_summary(db.session) == admin.BankSummary(quizzes=1, questions=1, retired_questions=1)


# Adding questions read from another tool's file ------------------------------------------------


GIFT = """\
::sky:: Which colour is the sky today? {=Blue ~Grey}

::grass:: Is grass green? {T}

::fresh:: Which is warm? {=Sun ~Snow ~Ice}
"""


def read_gift(text: str = GIFT) -> list[dict]:
    return FORMATS["gift"].read(text.encode(), "new.gift").entries


def test_read_questions_are_added_last_to_the_quiz_renamed_away_from_every_existing_id(imported):
    imported(bank_text("sky", "grass"))
    imported(bank_text("sky"))  # grass is retired
    added = admin.with_new_questions(db.session, read_gift(), "colours")
    # An id in play would replace that question; a retired one would bring it back.
    assert added.renamed == {"sky": "sky-2", "grass": "grass-2"}
    assert added.first == 1
    assert [entry["id"] for entry in added.document["questions"]] == ["sky", "sky-2", "grass-2", "fresh"]
    assert all(entry["quiz"] == "colours" for entry in added.document["questions"])

    report = import_bank(db.session, admin.document_bank(added.document, "bank"))
    db.session.commit()
    assert report.questions.added == ["sky-2", "grass-2", "fresh"]
    assert report.questions.changed == [] and report.questions.retired == []
    assert places() == {"sky": 0, "grass": None, "sky-2": 1, "grass-2": 2, "fresh": 3}
    assert question("sky").current_revision.prompt == "What colour is the sky?"
    assert question("fresh").current_revision.quotes == []


def test_a_free_id_keeps_its_name_even_if_a_renamed_one_would_take_it(imported):
    imported(bank_text("sky"))
    entries = [dict(entry) for entry in read_gift()[:2]]
    entries[1]["id"] = "sky-2"
    added = admin.with_new_questions(db.session, entries, "colours")
    assert added.renamed == {"sky": "sky-3"}
    assert [entry["id"] for entry in added.document["questions"][added.first:]] == ["sky-3", "sky-2"]


def test_entries_with_the_same_id_are_told_apart(imported):
    imported(bank_text("sky"))
    fresh = read_gift()[2]
    added = admin.with_new_questions(db.session, [fresh, dict(fresh)], "colours")
    assert [entry["id"] for entry in added.document["questions"][added.first:]] == ["fresh", "fresh-2"]
    assert added.renamed == {"fresh": "fresh-2"}


def test_questions_added_to_an_unknown_quiz_are_refused_by_the_bank_checks(imported):
    imported(bank_text("sky"))
    added = admin.with_new_questions(db.session, read_gift(), "no-such-quiz")
    with pytest.raises(BankInvalid, match="no-such-quiz"):
        admin.document_bank(added.document, "bank")


def test_a_free_id_stays_a_valid_id():
    assert admin.free_id("sky", set()) == "sky"
    assert admin.free_id("sky", {"sky", "sky-2"}) == "sky-3"
    longest = "a" * 61 + "-bc"
    assert admin.free_id(longest, {longest}) == "a" * 61 + "-2"
    TypeAdapter(Identifier).validate_python(admin.free_id("a" * 64, {"a" * 64}))


@pytest.mark.parametrize(("title", "identifier"), [
    ("Kiss & Cry: the true story", "kiss-cry-the-true-story"),
    ("Éclair au café, 1999", "eclair-au-cafe-1999"),
    ("¿¡…!?", "article"),
    ("A very long title that goes on and on well past what an id should hold", "a-very-long-title-that-goes-on-and-on-well-past"),
])
def test_ids_made_from_titles(title, identifier):
    assert admin.id_from_title(title, "article") == identifier
    TypeAdapter(Identifier).validate_python(identifier)


def test_errors_are_split_by_the_question_they_concern():
    errors = [
        BankError("bank", 9, 5, "questions[2].choices[1]", "duplicate of choice 1 ('a')"),
        BankError("bank", 3, 5, "articles[1].title", "field required"),
        BankError("bank", 12, 5, "questions[4].source[0]", "quote not found in article 'sky'"),
        BankError("bank", 7, 5, "questions[1].prompt", "field required"),
    ]
    by_entry, other = admin.split_errors(errors, [2, 3, 4])
    assert by_entry == {
        0: [(("choices", 1), "duplicate of choice 1 ('a')")],
        2: [(("source", 0), "quote not found in article 'sky'")],
    }
    assert other == ["articles[1].title: field required", "questions[1].prompt: field required"]
