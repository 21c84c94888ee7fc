"""Questions without a source quote: allowed by the schema, stored without quotes, shown as such."""

from __future__ import annotations

from types import SimpleNamespace

import sqlalchemy as sa

from quiz.bank import parse_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.formats import FORMATS
from quiz.models import Question, SourceQuote
from tests.conftest import csrf_token

BANK = """\
version: 1
articles:
  - id: sky
    title: The sky
    text: The sky is blue.
quizzes:
  - id: colours
    title: Colours
    article: sky
questions:
  - id: imported
    prompt: Which colour is the sea?
    choices: [Blue, Red]
    correct: Blue
    explanation: Seas look blue.
"""


def test_a_question_without_source_loads_with_no_quotes_and_its_place():
    bank = parse_bank(BANK.encode(), "bank.yaml", base_dir=None)
    assert bank.questions[0].quotes == ()
    assert [str(error) for error in bank.unsourced] == ["bank.yaml:11:5: questions[0].source: no source given"]


def test_an_empty_source_list_is_unsourced_too():
    bank = parse_bank((BANK + "    source: []\n").encode(), "bank.yaml", base_dir=None)
    assert [str(error) for error in bank.unsourced] == ["bank.yaml:16:5: questions[0].source: no source given"]


def test_an_unsourced_question_is_stored_without_quotes_and_exports_without_source(app_ctx):
    import_bank(db.session, parse_bank(BANK.encode(), "bank.yaml", base_dir=None))
    db.session.commit()
    question = db.session.scalar(sa.select(Question).where(Question.slug == "imported"))
    assert question.current_revision.quotes == []
    assert db.session.scalar(sa.select(sa.func.count()).select_from(SourceQuote)) == 0
    document = export_document(db.session)
    assert "source" not in document["questions"][0]
    # The exported bank imports back unchanged.
    again = parse_bank(FORMATS["yaml"].write(document), "again.yaml", base_dir=None)
    assert import_bank(db.session, again).changes_anything is False


def test_the_feedback_and_results_pages_say_no_source_was_given(app, client):
    with app.app_context():
        import_bank(db.session, parse_bank(BANK.encode(), "bank.yaml", base_dir=None))
        db.session.commit()
    page = client.get("/quizzes/colours").get_data(as_text=True)
    started = client.post(
        "/quizzes/colours/attempts", data={"csrf_token": csrf_token(page), "length": "all", "difficulty": ""}
    )
    assert started.status_code == 303
    url = started.location
    question = client.get(url).get_data(as_text=True)
    answered = client.post(url, data={"csrf_token": csrf_token(question), "choice": ["1"]})
    assert answered.status_code == 303
    feedback = client.get(url).get_data(as_text=True)
    assert "Seas look blue." in feedback
    assert "<p>No source given.</p>" in feedback
    assert 'class="source"' not in feedback
    results = client.get(url.rsplit("/questions/", 1)[0] + "/results").get_data(as_text=True)
    assert "<p>No source given.</p>" in results


def test_the_live_reveal_says_no_source_was_given(app):
    screen = SimpleNamespace(
        question=SimpleNamespace(revision=SimpleNamespace(explanation="Seas look blue.")),
        sources=[], live=SimpleNamespace(quiz=SimpleNamespace(article=None)),
    )
    with app.app_context():
        shown = str(app.jinja_env.get_template("live/_parts.html").module.explanation(screen))
    assert "<p>Seas look blue.</p>" in shown
    assert "<p>No source given.</p>" in shown
