"""A quiz's own language (``language: fr`` in the bank): its pages are shown in it when neither
the visitor nor the browser names a language of the app, its true/false choices are its own
words, and its texts carry their ``lang`` on a page in another language."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Choice, Question, QuestionRevision
from quiz.web.language import COOKIE
from tests.web.helpers import start_attempt
from tests.web.live_helpers import create_session, join_code, joined, log_in, phone_page, press

FRENCH_BANK = """\
version: 1
articles:
  - id: gare
    title: La gare
    text: "La gare a ouvert en 1871. Le dernier train régulier est parti en 1968."
quizzes:
  - id: gare
    title: La vieille gare
    language: fr
    article: gare
    settings: {shuffle_choices: false}
questions:
  - id: ouverture
    prompt: En quelle année la gare a-t-elle ouvert?
    choices: ["1871", "1968"]
    correct: "1871"
    explanation: Elle a ouvert en 1871.
    source: La gare a ouvert en 1871.
  - id: dernier-train
    kind: true_false
    prompt: Le dernier train régulier est parti en 1968.
    correct: true
    explanation: C’était en 1968.
    source: Le dernier train régulier est parti en 1968.
"""


def lang_of_page(page: str) -> str:
    return re.search(r'<html lang="([^"]+)">', page)[1]


@pytest.fixture
def french_quiz(app, write_bank):
    with app.app_context():
        import_bank(db.session, load_bank(write_bank(FRENCH_BANK)))
        db.session.commit()
    return app


@pytest.mark.parametrize("headers", [{}, {"Accept-Language": "de-DE"}])
def test_a_french_quiz_plays_in_french_for_a_browser_with_no_language_of_the_app(french_quiz, headers):
    client = french_quiz.test_client()
    quiz_page = client.get("/quizzes/gare", headers=headers).get_data(as_text=True)
    assert lang_of_page(quiz_page) == "fr-CA"
    assert "<h1>La vieille gare</h1>" in quiz_page  # no lang of its own: the page's is the quiz's
    first = start_attempt(client, "all", quiz="/quizzes/gare", headers=headers)
    question = client.get(first, headers=headers).get_data(as_text=True)
    assert lang_of_page(question) == "fr-CA" and "Question 1 sur 2" in question
    # Pages of no quiz in particular are in English.
    assert lang_of_page(client.get("/", headers=headers).get_data(as_text=True)) == "en"


def test_true_false_choices_are_in_the_quiz_s_own_words(french_quiz):
    with french_quiz.app_context():
        texts = db.session.scalars(
            sa.select(Choice.text).join(QuestionRevision).join(Question, Question.id == QuestionRevision.question_id)
            .where(Question.slug == "dernier-train").order_by(Choice.id)
        ).all()
    assert texts == ["Vrai", "Faux"]


@pytest.mark.parametrize("cookie, headers", [("en", {"Accept-Language": "fr"}), (None, {"Accept-Language": "en-US"})])
def test_the_visitor_s_language_beats_the_quiz_s_and_its_texts_are_marked(french_quiz, cookie, headers):
    client = french_quiz.test_client()
    if cookie:
        client.set_cookie(COOKIE, cookie)
    quiz_page = client.get("/quizzes/gare", headers=headers).get_data(as_text=True)
    assert lang_of_page(quiz_page) == "en"
    assert '<h1 lang="fr">La vieille gare</h1>' in quiz_page
    first = start_attempt(client, "all", quiz="/quizzes/gare", headers=headers)
    question = client.get(first, headers=headers).get_data(as_text=True)
    assert "Question 1 of 2" in question
    assert re.search(r'<legend><h1 lang="fr">[^<]+</h1></legend>', question)
    assert '<label for="choice-1" lang="fr">' in question


def test_an_english_quiz_on_a_french_page_marks_its_texts_english(bundled):
    client = bundled.test_client()
    french = {"Accept-Language": "fr-CA"}
    home = client.get("/", headers=french).get_data(as_text=True)
    assert '<h2 lang="en"><a href="/quizzes/kiss-and-cry">' in home
    first = start_attempt(client, "all", quiz="/quizzes/kiss-and-cry", headers=french)
    question = client.get(first, headers=french).get_data(as_text=True)
    assert lang_of_page(question) == "fr-CA"
    assert re.search(r'<legend><h1 lang="en">[^<]+</h1></legend>', question)


def test_a_classroom_session_of_a_french_quiz_is_in_french_on_every_screen(french_quiz):
    host = log_in(french_quiz, "teacher")
    session_id = create_session(host, quiz="gare")
    code = join_code(host, session_id)
    phone = joined(french_quiz, code, "Ana", session_id)
    press(host, session_id, "start")
    assert lang_of_page(phone_page(phone, session_id)) == "fr-CA"
    host_page = host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
    assert lang_of_page(host_page) == "fr-CA"
    assert re.search(r'<h1 class="prompt">(En quelle année|Le dernier train)', host_page)
