"""A new quiz drafted from an article: reading and drafting, then the picked questions checked
as part of the whole bank, without HTTP."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from quiz import admin, drafts
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.generator import MAX_ARTICLE_BYTES
from quiz.models import Question, Quiz
from tests.bank.test_importer import bank_text

#: Plain facts, written for these tests: dates, a height, names.
ARTICLE = """\
The Lighthouse of Port Elm

The lighthouse of Port Elm was built in 1872 by the engineer Margaret Hale. It stands 41 metres tall on a granite cliff.

The light was electrified in 1931 and automated in 1989. Its last keeper, Thomas Reid, left the tower in 1989 after 22 years of service.

In 2004 the Port Elm Heritage Trust bought the lighthouse and opened it as a museum.
"""


@pytest.fixture
def bank(app_ctx, write_bank):
    """The small test bank (article "sky", quiz "colours", question "sky"), committed."""
    import_bank(db.session, load_bank(write_bank(bank_text("sky"))))
    db.session.commit()


def draft(**kwargs) -> drafts.ArticleDrafts:
    return drafts.draft_article(db.session, ARTICLE.encode(), "lighthouse.txt", **kwargs)


def refused_fields(**kwargs) -> dict[str, list[str]]:
    raw = kwargs.pop("raw", ARTICLE.encode())
    with pytest.raises(drafts.DraftsRefused) as refused:
        drafts.draft_article(db.session, raw, "lighthouse.txt", **kwargs)
    return refused.value.fields


def test_an_article_is_drafted_with_its_own_title_and_ids_made_from_it(bank):
    drafted = draft()
    assert drafted.title == "The Lighthouse of Port Elm"
    assert (drafted.article_id, drafted.quiz_id) == ("the-lighthouse-of-port-elm", "the-lighthouse-of-port-elm")
    assert drafted.text.startswith("The lighthouse of Port Elm was built in 1872")
    assert len(drafted.questions) >= 2
    for entry in drafted.questions:
        assert entry["quiz"] == drafted.quiz_id
        assert entry["source"] and all(quote in drafted.text for quote in entry["source"])


def test_a_given_title_and_ids_are_used(bank):
    drafted = draft(title="Port Elm", article_id="port-elm-article", quiz_id="port-elm-quiz")
    assert (drafted.title, drafted.article_id, drafted.quiz_id) == ("Port Elm", "port-elm-article", "port-elm-quiz")


def test_ids_made_from_the_title_skip_those_already_used(bank):
    assert (draft(title="Sky").article_id, draft(title="Colours").quiz_id) == ("sky-2", "colours-2")


def test_ids_that_are_given_must_be_unused(bank):
    fields = refused_fields(article_id="sky", quiz_id="colours")
    assert fields == {
        drafts.ARTICLE_ID: ["The id 'sky' is already used by an article (retired ones count too): choose another."],
        drafts.QUIZ_ID: ["The id 'colours' is already used by a quiz (retired ones count too): choose another."],
    }


def test_an_article_without_a_title_line_needs_a_title(bank):
    raw = ARTICLE.split("\n", 2)[2].encode()
    assert refused_fields(raw=raw) == {drafts.TITLE: ["The article has no title line: give it a title."]}
    assert drafts.draft_article(db.session, raw, "pasted", title="Port Elm").title == "Port Elm"


def test_a_broken_or_oversized_article_is_refused_with_its_place(bank):
    fields = refused_fields(raw=b"A title\n\nThe caf\xe9 opened in 1999.\n")
    assert fields == {drafts.ARTICLE: ["Line 3, column 8: invalid UTF-8 (byte 0xe9)"]}
    fields = refused_fields(raw=b"x" * (drafts.MAX_ARTICLE_BYTES + 1))
    assert fields[drafts.ARTICLE][0].startswith(
        f"The article is {drafts.MAX_ARTICLE_BYTES + 1:,} bytes; drafting here takes up to {drafts.MAX_ARTICLE_BYTES:,}."
    )


def test_the_cap_is_within_the_generators_own():
    assert 0 < drafts.MAX_ARTICLE_BYTES <= MAX_ARTICLE_BYTES


def test_an_article_with_nothing_to_ask_is_refused(bank):
    fields = refused_fields(raw=b"Nothing here\n\nthis text states no fact at all, only words\n")
    assert fields[drafts.ARTICLE][0].startswith("No question could be drafted from this article.")


def build(drafted: drafts.ArticleDrafts, questions: list[dict]) -> admin.NewQuestions:
    return drafts.drafted_quiz(
        db.session, title=drafted.title, quiz_title=drafted.quiz_title, article_id=drafted.article_id,
        quiz_id=drafted.quiz_id, text=drafted.text, questions=questions,
    )


def test_the_picked_questions_become_a_new_quiz_on_the_article(bank):
    drafted = draft()
    picked = [drafted.questions[0], {**drafted.questions[-1], "prompt": "Edited: " + drafted.questions[-1]["prompt"]}]
    added = build(drafted, picked)
    assert added.renamed == {}
    report = import_bank(db.session, admin.document_bank(added.document, "bank"))
    db.session.commit()
    assert report.articles.added == [drafted.article_id] and report.quizzes.added == [drafted.quiz_id]
    assert report.questions.added == [entry["id"] for entry in picked] and report.questions.unchanged == ["sky"]
    quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == drafted.quiz_id))
    assert (quiz.title, quiz.article.text) == (drafted.title, drafted.text)
    questions = db.session.scalars(sa.select(Question).where(Question.quiz_id == quiz.id).order_by(Question.position)).all()
    assert questions[1].current_revision.prompt.startswith("Edited: ")
    assert [quote.excerpt for quote in questions[0].current_revision.quotes] == drafted.questions[0]["source"]


def test_the_new_quiz_is_titled_with_the_headline_less_what_its_questions_ask(bank):
    raw = ARTICLE.replace("The Lighthouse of Port Elm", "Port Elm lighthouse opened as a museum in 2004", 1).encode()
    drafted = drafts.draft_article(db.session, raw, "lighthouse.txt")
    assert drafted.title == "Port Elm lighthouse opened as a museum in 2004"
    assert "2004" in [entry.get("correct") for entry in drafted.questions]
    assert drafted.quiz_title == "Port Elm lighthouse opened as a museum"
    added = build(drafted, drafted.questions)
    import_bank(db.session, admin.document_bank(added.document, "bank"))
    db.session.commit()
    quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == drafted.quiz_id))
    assert (quiz.title, quiz.article.title) == ("Port Elm lighthouse opened as a museum", drafted.title)


def test_a_picked_question_with_a_used_id_is_renamed(bank):
    drafted = draft()
    added = build(drafted, [{**drafted.questions[0], "id": "sky"}])
    assert added.renamed == {"sky": "sky-2"}
    assert added.document["questions"][-1]["id"] == "sky-2"


def test_each_problem_is_reported_on_the_question_it_concerns(bank):
    drafted = draft()
    first, second = drafted.questions[0], drafted.questions[1]
    choices = list(second["choices"])
    choices[1] = choices[0].upper()
    picked = [{**first, "source": ["A quote the article never had."]}, {**second, "choices": choices}]
    with pytest.raises(drafts.DraftsRefused) as refused:
        build(drafted, picked)
    assert refused.value.questions[0] == [(("source", 0), f"quote not found in article '{drafted.article_id}'")]
    assert (("choices", 1), f"duplicate of choice 1 ('{choices[1]}')") in refused.value.questions[1]
    assert refused.value.other == [] and refused.value.fields == {}


def test_picking_nothing_is_refused(bank):
    with pytest.raises(drafts.DraftsRefused) as refused:
        build(draft(), [])
    assert refused.value.other == ["Pick at least one question."]


def test_ids_taken_since_the_drafts_were_made_are_refused(bank):
    drafted = drafts.draft_article(db.session, ARTICLE.encode(), "lighthouse.txt", article_id="sky-two", quiz_id="colours-two")
    taken = drafts.ArticleDrafts(drafted.title, drafted.quiz_title, "sky", "colours", drafted.text, drafted.questions)
    with pytest.raises(drafts.DraftsRefused) as refused:
        build(taken, drafted.questions)
    assert set(refused.value.fields) == {drafts.ARTICLE_ID, drafts.QUIZ_ID}


def test_wrong_choices_come_from_the_other_articles_within_a_bound(app_ctx, write_bank):
    long_text = "The bridge opened in 1999. " * (drafts.MAX_ARTICLE_BYTES // 27 + 1)
    text = bank_text("sky").replace("quizzes:", f"  - id: long\n    title: Long\n    text: {long_text}\nquizzes:", 1)
    import_bank(db.session, load_bank(write_bank(text)))
    # An article too long to draft here is too long to analyse on every draft.
    assert drafts._other_texts(db.session) == ["The sky is blue. The grass is green. It’s sunny today."]
