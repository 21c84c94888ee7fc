"""Giveaways: ``quiz lint`` on planted ones, and feedback that never tells the answer of a
question still to come."""

from __future__ import annotations

import json
import random
import re

import pytest
import sqlalchemy as sa

from quiz import articles, giveaways, live, play
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Quiz, User
from quiz.paths import bundled_bank
from tests.answers import answer_live, answer_solo, live_right, turn_of

ARTICLE = """\
version: 1
articles:
  - id: rink
    title: The Riverside rink opens its doors in Ottawa
    text: |
      The Riverside rink opened in 1990. Its first coach was Marie Tremblay, who taught there for thirty years.

      The rink was rebuilt in 2004.
quizzes:
  - id: rink
    title: {title}
    article: rink
questions:
"""
CLEAN = """\
  - id: opened
    prompt: In which year did the rink open?
    choices: ["1988", "1990", "1994"]
    correct: "1990"
    explanation: It opened that year.
    source: The Riverside rink opened in 1990.
  - id: coach
    prompt: Who was the rink's first coach?
    choices: [Marie Tremblay, Anne Roy, Julie Paquette]
    correct: Marie Tremblay
    explanation: She taught there for decades.
    source: Its first coach was Marie Tremblay
  - id: rebuilt
    prompt: When was the rink rebuilt?
    choices: ["2002", "2004", "2008"]
    correct: "2004"
    explanation: Fourteen years after it opened.
    source: The rink was rebuilt in 2004.
"""


def bank_file(write_bank, questions: str = CLEAN, title: str = "The rink"):
    return write_bank(ARTICLE.format(title=title) + questions)


def lint_messages(path) -> list[str]:
    return [str(item) for item in giveaways.placed(load_bank(path))]


# quiz lint ---------------------------------------------------------------------------------------


def test_a_clean_quiz_has_nothing_to_report(write_bank, app):
    path = bank_file(write_bank)
    assert lint_messages(path) == []
    result = app.test_cli_runner().invoke(args=["lint", str(path)])
    assert (result.exit_code, result.stdout) == (0, "")


def test_planted_giveaways_are_each_reported_naming_both_questions(write_bank, app):
    planted = CLEAN.replace(
        "prompt: When was the rink rebuilt?", "prompt: When was the rink, opened in 1990, rebuilt?"
    ).replace(
        "explanation: She taught there for decades.", "explanation: She taught there from 1990."
    ).replace(
        'choices: ["2002", "2004", "2008"]', 'choices: ["2002", "2004", "Marie Tremblay\'s year"]'
    ) + """\
  - id: opened-again
    prompt: In what year did the rink open?
    choices: ["1987", "1990", "1993"]
    correct: "1990"
    explanation: As the first line says.
    source: The Riverside rink opened in 1990.
"""
    path = bank_file(write_bank, planted, title="Marie Tremblay's rink")
    messages = lint_messages(path)
    assert f"{path}:11:5: quizzes[0] (rink): the quiz's title gives away questions[1] (coach): “marie tremblay”" in messages
    assert f"{path}:24:5: questions[1] (coach): its explanation gives away questions[0] (opened): “1990”" in messages
    assert f"{path}:27:5: questions[2] (rebuilt): its prompt gives away questions[0] (opened): “1990”" in messages
    assert f"{path}:28:5: questions[2] (rebuilt): its choices give away questions[1] (coach): “marie tremblay”" in messages
    assert f"{path}:33:5: questions[3] (opened-again): its prompt is nearly that of questions[0] (opened)" in messages
    result = app.test_cli_runner().invoke(args=["lint", "--format", "json", str(path)])
    assert result.exit_code == 1
    found = json.loads(result.stdout)
    assert {item["check"] for item in found} == {"answer-in-quiz", "answer-in-question", "duplicate-prompt"}
    assert {"file": str(path), "line": 27, "column": 5, "check": "answer-in-question",
            "entry": "questions[2] (rebuilt)", "message": "its prompt gives away questions[0] (opened): “1990”",
            "gives_away": "opened"} in found


def test_a_quote_that_holds_another_answer_is_reported(write_bank):
    planted = CLEAN.replace("source: Its first coach was Marie Tremblay",
                            "source: The Riverside rink opened in 1990. Its first coach was Marie Tremblay")
    messages = lint_messages(bank_file(write_bank, planted))
    assert any("questions[1] (coach): its quote gives away questions[0] (opened): “1990”" in line for line in messages)


@pytest.mark.parametrize("answer, unit, elsewhere, found", [
    (30, "years", "She taught there for thirty years.", "thirty"),
    (30, None, "She taught there for thirty years.", "thirty"),
    (2, "years", "It closed for two years.", "two years"),
    (2, "years", "It closed after a two-year fight.", "two-year"),
    (2, "coaches", "It closed for two years.", None),  # "two" alone says too little
    (1, None, "She was one of its coaches.", None),
])
def test_a_typed_number_is_given_away_by_its_word_too(write_bank, answer, unit, elsewhere, found):
    typed = f"""\
  - id: taught
    kind: number
    prompt: For how long did the first coach teach at the rink?
    answer: {answer}
{f"    unit: {unit}" if unit else ""}
    explanation: As the article says.
    source: who taught there for thirty years
"""
    path = bank_file(write_bank, CLEAN.replace("She taught there for decades.", elsewhere) + typed)
    messages = [line for line in lint_messages(path) if "gives away questions[3] (taught)" in line]
    if found is None:
        assert messages == []
    else:
        assert messages == [f"{path}:24:5: questions[1] (coach): its explanation gives away questions[3] (taught): “{found}”"]


@pytest.mark.parametrize("choices, correct, message", [
    ('[Sing and skate but not speak, Speak and skate but not sing, "Speak, sing and skate"]', '"Speak, sing and skate"',
     "is the only one without “but not”"),
    ("[Ice, Snow, The frozen water of the whole river valley]", "The frozen water of the whole river valley",
     "is by far the longest"),
])
def test_a_correct_choice_that_stands_out_is_reported(write_bank, choices, correct, message):
    question = f"""\
  - id: odd
    prompt: What stands out?
    choices: {choices}
    correct: {correct}
    explanation: Because.
    source: The rink was rebuilt in 2004.
"""
    path = bank_file(write_bank, CLEAN + question)
    assert any("questions[3] (odd): the correct choice" in line and message in line for line in lint_messages(path))


def test_lint_refuses_a_broken_file_as_check_does(write_bank, app):
    path = write_bank("version: 1\nquestions: [{id: x}]\n")
    result = app.test_cli_runner().invoke(args=["lint", str(path)])
    assert result.exit_code == 1 and "required field is missing" in result.stderr


def test_the_bundled_bank_gives_nothing_away(app):
    result = app.test_cli_runner().invoke(args=["lint", str(bundled_bank())])
    assert result.exit_code == 0, result.stdout


# Feedback keeps what is still to come -------------------------------------------------------------


@pytest.fixture
def rink(app, write_bank):
    # The coach's quote sits in the paragraph that also tells when the rink opened.
    with app.app_context():
        import_bank(db.session, load_bank(bank_file(write_bank)))
        db.session.commit()
    return app


def attempt_asking(order: list[str]):
    """An attempt that asks the questions in ``order``."""
    quiz = db.session.scalar(sa.select(Quiz))
    for seed in range(1000):
        attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL,
                                     rng=random.Random(seed))
        if [slot.question.slug for slot in attempt.slots] == order:
            return attempt
    raise AssertionError(order)


def shown_passage(feedback) -> str:
    return "".join("[…]" if segment.hidden else segment.text for segment in feedback.sources[0].paragraph.segments)


def test_feedback_leaves_out_the_answer_of_a_question_still_to_come(rink):
    with rink.app_context():
        attempt = attempt_asking(["coach", "opened", "rebuilt"])
        answer_solo(attempt, 1)
        coach, _ = play.turn_feedback(db.session, turn_of(attempt, 1))
        assert shown_passage(coach) == "[…] Its first coach was Marie Tremblay, who taught there for thirty years."
        answer_solo(attempt, 2)
        answer_solo(attempt, 3)
        # Once every question is answered, nothing is left out.
        review = play.results(db.session, attempt)
        assert "[…]" not in shown_passage(review.items[0])


def test_feedback_shows_the_whole_paragraph_when_nothing_is_to_come(rink):
    with rink.app_context():
        attempt = attempt_asking(["opened", "coach", "rebuilt"])
        for position in (1, 2):
            answer_solo(attempt, position)
        coach, _ = play.turn_feedback(db.session, turn_of(attempt, 2))
        assert "[…]" not in shown_passage(coach) and "opened in 1990" in shown_passage(coach)


def test_the_feedback_page_and_the_api_leave_it_out_too(rink, client):
    with rink.app_context():
        attempt = attempt_asking(["coach", "opened", "rebuilt"])
        token = db.session.get(play.Player, attempt.player_id).token
        public_id = attempt.public_id
        db.session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    response = client.post(f"/api/v1/attempts/{public_id}/questions/1/answer", headers=headers, json={"choices": [1]})
    passage = response.get_json()["feedback"]["sources"][0]["passage"]
    assert (passage["before"], passage["quote"]) == ("[…] ", "Its first coach was Marie Tremblay")
    with client.session_transaction() as cookie:
        cookie["player"] = token
    page = client.get(f"/attempts/{public_id}/questions/1").get_data(as_text=True)
    assert "opened in 1990" not in page and "tells the answer to a question still to come" in page


def test_a_classroom_reveal_leaves_out_the_answers_of_the_sessions_later_questions(rink):
    with rink.app_context():
        quiz = db.session.scalar(sa.select(Quiz))
        host = User(username="teacher", password_hash="x", role="teacher")
        db.session.add(host)
        session = live.create_session(db.session, host, quiz, live.Settings(shuffle=True), rng=random.Random(0))
        slugs = [question.question.slug for question in session.questions]
        ana = live.join(db.session, session, play.create_player(db.session), "Ana")
        live.start(db.session, session)
        while slugs[session.position - 1] != "coach":
            live.reveal(db.session, session)
            live.advance(db.session, session)
            live.advance(db.session, session)
        answer_live(session, ana, live_right(ana, session))
        live.reveal(db.session, session)
        screen = live.screen(db.session, session)
        text = "".join("[…]" if s.hidden else s.text for s in screen.sources[0].paragraph.segments)
        assert ("[…]" in text) == ("opened" in slugs[session.position:])


# The headline ------------------------------------------------------------------------------------------


DOORS = """\
  - id: doors
    prompt: In which city does the rink open its doors?
    choices: [Ottawa, Toronto, Montreal]
    correct: Ottawa
    explanation: The headline says so.
    source: opens its doors in Ottawa
"""


def test_a_quote_may_come_from_the_headline_and_is_shown_there(write_bank, app, client):
    bank = load_bank(bank_file(write_bank, DOORS))
    (quote,) = bank.questions[0].quotes
    assert quote.span_start < 0 and quote.excerpt == "opens its doors in Ottawa"
    quotable = articles.Quotable.of(bank.articles[0].title, bank.articles[0].text)
    paragraph = articles.passage(quotable, quote.span_start, quote.span_end, quote.excerpt)
    assert paragraph.number == 0 and [s.text for s in paragraph.segments if s.highlighted] == [quote.excerpt]
    with app.app_context():
        import_bank(db.session, bank)
        db.session.commit()
    page = client.get("/articles/rink?highlight=src-doors-1").get_data(as_text=True)
    assert re.search(r'<h1 id="p0">The Riverside rink <span class="anchor" id="src-doors-1"></span><mark>opens its doors in Ottawa</mark></h1>', page)
    assert '<p id="p1">' in page  # the body's paragraphs keep their numbers




def test_feedback_cites_the_article_without_a_headline_that_tells_an_answer_to_come(write_bank, app, client):
    with app.app_context():
        import_bank(db.session, load_bank(bank_file(write_bank, CLEAN + DOORS)))
        attempt = attempt_asking(["coach", "doors", "opened", "rebuilt"])
        answer_solo(attempt, 1)
        coach, _ = play.turn_feedback(db.session, turn_of(attempt, 1))
        assert [source.cite_headline for source in coach.sources] == [False]
        token, public_id = db.session.get(play.Player, attempt.player_id).token, attempt.public_id
        for position in (2, 3, 4):
            answer_solo(attempt, position)
        assert all(source.cite_headline for item in play.results(db.session, attempt).items for source in item.sources)
        db.session.commit()
    with client.session_transaction() as cookie:
        cookie["player"] = token
    page = client.get(f"/attempts/{public_id}/questions/1").get_data(as_text=True)
    assert "Ottawa" not in page and "its headline is kept back" in page
    # Nor do the pages before play name it: a question may ask what it says.
    for url in ("/", "/quizzes/rink"):
        assert "Ottawa" not in client.get(url).get_data(as_text=True)


TWO_QUOTES = """\
  - id: coach-years
    prompt: How long did the first coach teach at the rink?
    choices: [Thirty years, Ten years, Five years]
    correct: Thirty years
    explanation: She taught there from its opening.
    source: [The Riverside rink opened in 1990., taught there for thirty years]
"""


def test_two_quotes_of_one_paragraph_show_the_paragraph_once_with_both_highlighted(app, write_bank):
    bank = load_bank(bank_file(write_bank, TWO_QUOTES))
    article = bank.articles[0]
    quotable = articles.Quotable.of(article.title, article.text)
    first, second = bank.questions[0].quotes
    spans = [(quote.span_start, quote.span_end, quote.excerpt) for quote in (second, first)]
    highlights = ["The Riverside rink opened in 1990.", "taught there for thirty years"]
    paragraph = articles.passage_of(quotable, spans)
    assert [segment.text for segment in paragraph.segments if segment.highlighted] == highlights
    # Quotes of different paragraphs are no one passage.
    rebuilt = article.text.index("The rink was rebuilt")
    assert articles.passage(quotable, rebuilt, rebuilt + 8, "The rink") is not None
    assert articles.passage_of(quotable, [spans[0], (rebuilt, rebuilt + 8, "The rink")]) is None

    with app.app_context():
        import_bank(db.session, bank)
        db.session.commit()
        attempt = attempt_asking(["coach-years"])
        answer_solo(attempt, 1)
        (item,) = play.results(db.session, attempt).items
        (source,) = item.sources
        assert [segment.text for segment in source.paragraph.segments if segment.highlighted] == highlights
