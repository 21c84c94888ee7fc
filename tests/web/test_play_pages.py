"""The solo play flow through the test client, with the checks a careful player would make."""

from __future__ import annotations

import re

import markupsafe
import pytest
import sqlalchemy as sa

from quiz.bank import load_bank
from quiz.extensions import db
from quiz.kinds import KINDS
from quiz.kinds.choice import ChoiceKind
from quiz.models import Answer, Attempt, Player, QuestionRevision
from quiz.paths import bundled_bank
from tests.conftest import csrf_token
from tests.answers import form_fields, right_answer, turn_of
from tests.web.helpers import (
    QUIZ,
    answer,
    answer_blindly,
    blind_fields,
    choice_labels,
    next_link,
    one_answer_question,
    start_attempt,
)


def right_fields(app, url: str) -> dict:
    """The form fields of the right answer to the question at ``url``, as only the server knows it."""
    public_id, position = re.search(r"/attempts/([^/]+)/questions/(\d+)", url).groups()
    with app.app_context():
        attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == public_id))
        turn = turn_of(attempt, int(position))
        return form_fields(right_answer(turn.revision, turn.order))


def test_home_lists_the_quiz_with_its_article(bundled, client):
    page = client.get("/").get_data(as_text=True)
    assert 'href="/quizzes/kiss-and-cry"' in page
    assert "Kiss &amp; Cry" in page
    quiz_page = client.get(QUIZ).get_data(as_text=True)
    assert 'href="/articles/kiss-and-cry"' in quiz_page


def test_a_whole_attempt_ends_on_results_with_score_review_and_sources(bundled, client):
    url = start_attempt(client)
    right = 0
    for position in range(1, 11):
        page = client.get(url).get_data(as_text=True)
        assert f"Question {position} of 10" in page
        fields = right_fields(bundled, url) if position % 2 else blind_fields(page)
        response = client.post(url, data={"csrf_token": csrf_token(page), **fields})
        assert response.status_code == 303 and response.location == url
        feedback = client.get(url).get_data(as_text=True)
        assert 'class="source"' in feedback and "<mark>" in feedback
        right += "<strong>Right!</strong>" in feedback
        url = next_link(feedback)
    results = client.get(url)
    assert results.status_code == 200
    text = results.get_data(as_text=True)
    assert f"<strong>{right}</strong> of 10 correct" in text
    assert text.count('class="source"') >= 10
    assert right >= 5


def test_questions_are_answered_in_order(bundled, client):
    first = start_attempt(client)
    third = first.replace("/questions/1", "/questions/3")
    response = client.get(third)
    assert response.status_code == 303 and response.location == first


def test_submitting_again_shows_the_first_answers_feedback(bundled, client):
    url = one_answer_question(client, start_attempt(client))
    page = client.get(url).get_data(as_text=True)
    token = csrf_token(page)
    first = client.post(url, data={"csrf_token": token, "choice": "1"})
    second = client.post(url, data={"csrf_token": token, "choice": "2"})
    assert first.status_code == second.status_code == 303
    feedback = client.get(url).get_data(as_text=True)
    picked = re.findall(r'<li class="[^"]*picked[^"]*">\s*<span class="choice-text">(.*?)</span>', feedback, re.S)
    assert picked == [choice_labels(page)[0]]
    with bundled.app_context():
        position = int(url.rsplit("/", 1)[1])
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Answer)) == position


def test_the_answer_clock_starts_when_the_question_is_first_shown(bundled, client):
    first = start_attempt(client)
    page = client.get(first).get_data(as_text=True)  # shown
    token = csrf_token(page)
    client.post(first, data={"csrf_token": token, **blind_fields(page)})
    # Answered without the page ever shown (a script, not a person): no time to measure.
    second = first.replace("/questions/1", "/questions/2")
    client.post(second, data={"csrf_token": token, **right_fields(bundled, second)})
    with bundled.app_context():
        times = db.session.scalars(sa.select(Answer.elapsed_ms).order_by(Answer.id)).all()
    assert len(times) == 2 and 0 <= times[0] < 10_000 and times[1] is None


def test_submitting_without_a_choice_re_renders_with_a_message(bundled, client):
    url = one_answer_question(client, start_attempt(client))
    page = client.get(url).get_data(as_text=True)
    response = client.post(url, data={"csrf_token": csrf_token(page)})
    assert response.status_code == 422
    assert "Choose an answer." in response.get_data(as_text=True)


@pytest.mark.parametrize("choice", ["0", "99", "abc", "-1"])
def test_a_forged_choice_is_refused_without_an_error_page(bundled, client, choice):
    url = one_answer_question(client, start_attempt(client))
    page = client.get(url).get_data(as_text=True)
    with bundled.app_context():
        before = db.session.scalar(sa.select(sa.func.count()).select_from(Answer))
    response = client.post(url, data={"csrf_token": csrf_token(page), "choice": choice})
    assert response.status_code == 422
    with bundled.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Answer)) == before


def test_question_pages_do_not_reveal_the_correct_choice(bundled, client):
    """Every choice's markup is the same but for its number and text, on every question."""
    url = start_attempt(client, length="all")
    checked = 0
    while "/questions/" in url:
        page = client.get(url).get_data(as_text=True)
        if 'name="choice"' not in page:  # typed answers and orderings show no choice to tell apart
            answer_blindly(client, url)
            url = next_link(client.get(url).get_data(as_text=True))
            continue
        checked += 1
        items = re.findall(r"<li>\s*<input.*?</li>", page, re.S)
        assert len(items) >= 2
        shapes = set()
        for number, (item, label) in enumerate(zip(items, choice_labels(page)), 1):
            shapes.add(item.replace(label, "TEXT").replace(str(number), "N"))
        assert len(shapes) == 1, shapes
        assert "correct" not in re.sub(r"Choose every correct answer\.", "", page).lower()
        assert "is_correct" not in str(client.get_cookie("quiz_session").value)
        answer(client, url, 1)
        url = next_link(client.get(url).get_data(as_text=True))
    # An attempt of "all" asks one question of each group, drawn at random; at the least, those
    # of groups whose every question shows choices.
    assert checked >= _slots_showing_choices()


def _slots_showing_choices() -> int:
    slots: dict[str, set[bool]] = {}
    for question in load_bank(bundled_bank()).questions:
        slots.setdefault(question.group or f"#{question.slug}", set()).add(isinstance(KINDS[question.kind], ChoiceKind))
    return sum(1 for shows_choices in slots.values() if shows_choices == {True})


def test_the_session_cookie_holds_only_the_player_token_and_csrf_secret(bundled, app, client):
    url = start_attempt(client)
    answer_blindly(client, url)
    cookie = client.get_cookie("quiz_session").value
    data = app.session_interface.get_signing_serializer(app).loads(cookie)
    assert set(data) <= {"player", "csrf_token", "_permanent", "_flashes"}
    with app.app_context():
        assert db.session.scalar(sa.select(Player.token)) == data["player"]


def test_a_tampered_cookie_is_ignored_and_the_attempt_stays_private(bundled, app, client):
    url = start_attempt(client)
    cookie = client.get_cookie("quiz_session").value
    client.set_cookie("quiz_session", cookie[:-3] + ("AAA" if not cookie.endswith("AAA") else "BBB"))
    assert client.get(url).status_code == 404
    assert client.get("/").status_code == 200


def test_another_player_cannot_open_my_attempt(bundled, app, client):
    url = start_attempt(client)
    stranger = app.test_client()
    assert stranger.get(url).status_code == 404
    assert stranger.get(url.replace("/questions/1", "/results")).status_code == 404


@pytest.mark.parametrize(
    "path",
    ["/quizzes/nope", "/attempts/nope", "/attempts/nope/questions/1", "/articles/nope", "/quizzes/nope/leaderboard"],
)
def test_unknown_ids_give_a_not_found_page(bundled, client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "There is nothing at this address" in response.get_data(as_text=True)


def test_a_position_beyond_the_attempt_is_not_found(bundled, client):
    url = start_attempt(client)
    assert client.get(url.replace("/questions/1", "/questions/11")).status_code == 404


def test_an_unfinished_attempt_can_be_resumed_from_the_quiz_page(bundled, client):
    url = start_attempt(client)
    answer_blindly(client, url)
    page = client.get(QUIZ).get_data(as_text=True)
    assert "You have answered 1 of 10 questions." in page
    resume = re.search(r'href="(/attempts/[^"/]+)">Resume', page).group(1)
    response = client.get(resume)
    assert response.location == url.replace("/questions/1", "/questions/2")


def finish(client, bundled) -> str:
    url = start_attempt(client)
    for _ in range(10):
        answer_blindly(client, url)
        url = next_link(client.get(url).get_data(as_text=True))
    return url


def test_results_offer_retry_of_the_missed_questions(bundled, client):
    results_url = finish(client, bundled)
    page = client.get(results_url).get_data(as_text=True)
    missed = int(re.search(r"Retry the (\d+) I missed", page).group(1))
    response = client.post(results_url.replace("/results", "/retry"), data={"csrf_token": csrf_token(page)})
    assert response.status_code == 303
    retry_page = client.get(response.location).get_data(as_text=True)
    assert f"Question 1 of {missed}" in retry_page


def test_a_nickname_puts_the_best_attempt_on_the_leaderboard_escaped(bundled, client):
    results_url = finish(client, bundled)
    page = client.get(results_url).get_data(as_text=True)
    response = client.post(
        f"/player?next={results_url}", data={"csrf_token": csrf_token(page), "nickname": "  O'Brien   Ana "}
    )
    assert response.status_code == 303 and response.location == results_url
    board = client.get(f"{QUIZ}/leaderboard").get_data(as_text=True)
    assert "O&#39;Brien Ana" in board and "(you)" in board


@pytest.mark.parametrize(
    "nickname, message",
    [
        ("<script>alert(1)</script>", "Use at most 20 characters."),
        ("a" * 21, "Use at most 20 characters."),
        ("right\u202eto-left", "Use letters, digits, punctuation and spaces only."),
        ("bell\x07", "Use letters, digits, punctuation and spaces only."),
        ("zero\u200bwidth", "Use letters, digits, punctuation and spaces only."),
    ],
)
def test_bad_nicknames_are_refused_with_a_message(bundled, client, nickname, message):
    page = client.get("/player").get_data(as_text=True)
    response = client.post("/player", data={"csrf_token": csrf_token(page), "nickname": nickname})
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert message in text
    assert "<script>alert(1)</script>" not in text
    with bundled.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player).where(Player.nickname.is_not(None))) == 0


@pytest.mark.parametrize("nickname", ["<b>bold</b>", "x'); DROP TABLE", '"><img src=x>'])
def test_markup_and_sql_in_nicknames_are_shown_literally(bundled, client, nickname):
    results_url = finish(client, bundled)
    page = client.get(results_url).get_data(as_text=True)
    client.post(f"/player?next={results_url}", data={"csrf_token": csrf_token(page), "nickname": nickname})
    board = client.get(f"{QUIZ}/leaderboard").get_data(as_text=True)
    assert str(markupsafe.escape(nickname)) in board
    assert nickname not in board
    with bundled.app_context():
        assert db.session.scalar(sa.select(Player.nickname).where(Player.nickname.is_not(None))) == nickname


def test_nicknames_in_other_scripts_are_welcome(bundled, client):
    page = client.get("/player").get_data(as_text=True)
    response = client.post("/player", data={"csrf_token": csrf_token(page), "nickname": "Zoë Łukasz 李"})
    assert response.status_code == 303
    assert 'value="Zoë Łukasz 李"' in client.get("/player").get_data(as_text=True)


def test_the_nickname_redirect_stays_on_this_site(bundled, client):
    page = client.get("/player").get_data(as_text=True)
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        response = client.post(f"/player?next={target}", data={"csrf_token": csrf_token(page), "nickname": "Ana"})
        assert response.status_code == 303 and response.location == "/player"


def test_the_reader_anchors_every_quoted_passage_and_highlights_one(bundled, client):
    with bundled.app_context():
        quotes = db.session.scalar(sa.select(sa.func.count()).select_from(QuestionRevision))
    page = client.get("/articles/kiss-and-cry").get_data(as_text=True)
    anchors = re.findall(r'<span class="anchor" id="(src-[a-z0-9-]+-\d+)"></span>', page)
    assert len(anchors) >= quotes and len(set(anchors)) == len(anchors)
    assert "<mark>" not in page
    highlighted = client.get("/articles/kiss-and-cry?highlight=src-streaming-service-1").get_data(as_text=True)
    assert re.search(r'id="src-streaming-service-1"></span><mark>[^<]*Netflix', highlighted)
