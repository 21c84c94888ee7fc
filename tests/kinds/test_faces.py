"""Every kind of question through every face: solo pages without JavaScript, the JSON API, and
a classroom session's pages and API, all answering through the one answering core."""

from __future__ import annotations

import json
import random
import re

import pytest
import sqlalchemy as sa

from quiz import play
from quiz.extensions import db
from quiz.models import Answer, Attempt, Quiz
from tests.answers import api_fields, form_fields, right_answer, turn_of, wrong_answer
from tests.conftest import csrf_token
from tests.kinds.conftest import KIND_ORDER
from tests.web.live_helpers import create_session, join_code, joined, log_in, phone_page, press

API = "/api/v1"
#: What a page says of each kind's widget, so that a test can tell which question it is on.
WIDGETS = {"choice": 'name="choice"', "ordering": 'name="place-1"', "number": 'name="number"', "text": 'name="text"'}


def kind_of_page(page: str) -> str:
    return next(name for name, mark in WIDGETS.items() if mark in page)


def start(client) -> str:
    page = client.get("/quizzes/rink").get_data(as_text=True)
    response = client.post("/quizzes/rink/attempts", data={"csrf_token": csrf_token(page), "length": "all"})
    assert response.status_code == 303
    return response.location


def attempt_of(app, url: str) -> tuple[str, int]:
    public_id, position = re.search(r"/attempts/([^/]+)/questions/(\d+)", url).groups()
    return public_id, int(position)


def answer_key(app, public_id: str, position: int, *, right: bool = True):
    """What a player who knows (or who does not) would answer, read from the database."""
    with app.app_context():
        attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == public_id))
        turn = turn_of(attempt, position)
        return (right_answer if right else wrong_answer)(turn.revision, turn.order), turn.revision.kind


def stored_answers(app) -> list[Answer]:
    with app.app_context():
        return list(db.session.scalars(sa.select(Answer).order_by(Answer.id)))


# Solo pages, without JavaScript ------------------------------------------------------------------


def test_every_kind_is_played_on_the_pages_without_javascript(kinds_app, client):
    url = start(client)
    public_id, _ = attempt_of(kinds_app, url)
    seen = []
    for position in range(1, len(KIND_ORDER) + 1):
        url = f"/attempts/{public_id}/questions/{position}"
        page = client.get(url).get_data(as_text=True)
        submission, kind = answer_key(kinds_app, public_id, position)
        seen.append(kind)
        assert kind_of_page(page) == ("choice" if kind in ("single", "true_false", "poll") else kind)
        response = client.post(url, data={"csrf_token": csrf_token(page), **form_fields(submission)})
        assert response.status_code == 303 and response.location == url
        feedback = client.get(url).get_data(as_text=True)
        assert ("Thanks for voting." if kind == "poll" else "Right!") in feedback, kind
    assert sorted(seen) == sorted(KIND_ORDER)
    results = client.get(f"/attempts/{public_id}/results").get_data(as_text=True)
    # The poll counts as a question asked, never as one right or wrong.
    assert "<strong>5</strong> of 5 correct" in results


@pytest.mark.parametrize("kind, message", [
    ("single", "Choose an answer."), ("ordering", "Give every item a place."), ("number", "Type a number."),
    ("text", "Type an answer."), ("poll", "Choose an answer."),
])
def test_an_empty_answer_is_refused_with_the_kinds_own_message(kinds_app, client, kind, message):
    public_id, _ = attempt_of(kinds_app, start(client))
    for position in range(1, len(KIND_ORDER) + 1):
        if answer_key(kinds_app, public_id, position)[1] == kind:
            break
        page = client.get(f"/attempts/{public_id}/questions/{position}").get_data(as_text=True)
        submission, _ = answer_key(kinds_app, public_id, position)
        client.post(f"/attempts/{public_id}/questions/{position}", data={"csrf_token": csrf_token(page), **form_fields(submission)})
    url = f"/attempts/{public_id}/questions/{position}"
    page = client.get(url).get_data(as_text=True)
    answered = len(stored_answers(kinds_app))
    response = client.post(url, data={"csrf_token": csrf_token(page)})
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    assert message in refused and 'aria-describedby="answer-errors"' in refused
    assert len(stored_answers(kinds_app)) == answered


def test_a_refused_number_keeps_what_was_typed(kinds_app, client):
    public_id, _ = attempt_of(kinds_app, start(client))
    for position in range(1, len(KIND_ORDER) + 1):
        submission, kind = answer_key(kinds_app, public_id, position)
        url = f"/attempts/{public_id}/questions/{position}"
        page = client.get(url).get_data(as_text=True)
        if kind == "number":
            response = client.post(url, data={"csrf_token": csrf_token(page), "number": "twelve hundred"})
            assert response.status_code == 422
            page = response.get_data(as_text=True)
            assert "“twelve hundred” is not a number" in page and 'value="twelve hundred"' in page
            return
        client.post(url, data={"csrf_token": csrf_token(page), **form_fields(submission)})
    pytest.fail("no number question")


def test_partial_credit_shows_on_the_feedback_of_an_ordering(kinds_app, client):
    public_id, _ = attempt_of(kinds_app, start(client))
    for position in range(1, len(KIND_ORDER) + 1):
        submission, kind = answer_key(kinds_app, public_id, position, right=False)
        url = f"/attempts/{public_id}/questions/{position}"
        page = client.get(url).get_data(as_text=True)
        client.post(url, data={"csrf_token": csrf_token(page), **form_fields(submission)})
        if kind == "ordering":
            feedback = client.get(url).get_data(as_text=True)
            assert "Not quite." in feedback and "0 of 3 in the right place" in feedback
            assert feedback.count("tag-wrong") == 3
            return


# The JSON API ------------------------------------------------------------------------------------


@pytest.fixture
def player(client):
    return {"Authorization": f"Bearer {client.post(f'{API}/players').get_json()['token']}"}


def test_every_kind_is_played_through_the_api(kinds_app, client, player):
    attempt = client.post(f"{API}/quizzes/rink/attempts", headers=player, json={"length": "all"}).get_json()
    for position in range(1, attempt["question_count"] + 1):
        question = client.get(f"{API}/attempts/{attempt['id']}/questions/{position}", headers=player).get_json()
        submission, kind = answer_key(kinds_app, attempt["id"], position)
        assert (question["kind"], question["feedback"]) == (kind, None)
        assert question["answer_with"] == {"ordering": "order", "number": "number", "text": "text"}.get(kind, "choices")
        assert question["unit"] == ("spectators" if kind == "number" else None)
        # Nothing in the question gives its answer away.
        assert not {"answer", "accept", "tolerance", "correct", "items"} & set(question)
        assert "1200" not in json.dumps(question) and "Tremblay" not in json.dumps(question)
        body = api_fields(submission)
        result = client.post(f"{API}/attempts/{attempt['id']}/questions/{position}/answer", headers=player, json=body)
        assert result.status_code == 200, result.get_json()
        feedback = result.get_json()["feedback"]
        if kind == "poll":
            assert (feedback["correct"], feedback["credit"]) == (False, None)
            assert sum(row["count"] for row in feedback["votes"]) == 1
        else:
            assert (feedback["correct"], feedback["credit"], feedback["votes"]) == (True, 1.0, None)
        if kind == "number":
            assert (feedback["given"], feedback["expected"]) == ("1200", "1200 spectators (give or take 50)")
        if kind == "ordering":
            assert [item["placed"] for item in feedback["choices"]] == [1, 2, 3]
    done = client.get(f"{API}/attempts/{attempt['id']}", headers=player).get_json()
    assert (done["score"], done["correct_count"], done["finished_at"] is not None) == (5, 5, True)


def test_the_api_refuses_an_answer_in_another_kinds_field(kinds_app, client, player):
    attempt = client.post(f"{API}/quizzes/rink/attempts", headers=player, json={"length": "all"}).get_json()
    kind = answer_key(kinds_app, attempt["id"], 1)[1]
    body = {"text": "1990"} if kind != "text" else {"choices": [1]}
    response = client.post(f"{API}/attempts/{attempt['id']}/questions/1/answer", headers=player, json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "invalid_answer" and "is answered with" in error["message"]
    assert stored_answers(kinds_app) == []


# The page and the API agree -------------------------------------------------------------------------


def test_the_same_answer_gives_the_same_feedback_on_the_page_and_through_the_api(kinds_app, client, player):
    """Two players with the same attempt (same questions, same order) give the same answers,
    one on the pages, one through the API; the API then reads back the same feedback for both."""
    page_token = None
    with kinds_app.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "rink"))
        api_player = play.player_by_token(db.session, player["Authorization"].split()[1])
        page_player = play.create_player(db.session)
        page_token = page_player.token
        attempts = [
            play.start_attempt(db.session, owner, quiz, length=play.LENGTH_ALL, rng=random.Random(9)).public_id
            for owner in (page_player, api_player)
        ]
        db.session.commit()
    with client.session_transaction() as cookie:
        cookie["player"] = page_token
    page_headers = {"Authorization": f"Bearer {page_token}"}
    rng = random.Random(4)
    for position in range(1, len(KIND_ORDER) + 1):
        submission, _kind = answer_key(kinds_app, attempts[0], position, right=rng.random() < 0.5)
        url = f"/attempts/{attempts[0]}/questions/{position}"
        page = client.get(url).get_data(as_text=True)
        assert client.post(url, data={"csrf_token": csrf_token(page), **form_fields(submission)}).status_code == 303
        client.get(f"{API}/attempts/{attempts[1]}/questions/{position}", headers=player)
        answered = client.post(f"{API}/attempts/{attempts[1]}/questions/{position}/answer", headers=player,
                               json=api_fields(submission))
        by_api = answered.get_json()["feedback"]
        by_page = client.get(f"{API}/attempts/{attempts[0]}/questions/{position}", headers=page_headers).get_json()["feedback"]
        for feedback in (by_api, by_page):
            feedback.pop("answered_at"), feedback.pop("elapsed_ms")
            if feedback["votes"]:  # the second vote counts the first
                feedback.pop("votes")
        assert by_page == by_api, position


# Classroom sessions ---------------------------------------------------------------------------------


def test_every_kind_is_played_in_a_classroom_without_javascript(kinds_app):
    host = log_in(kinds_app, "teacher")
    session_id = create_session(host, quiz="rink", question_count=None, show_leaderboard=False)
    code = join_code(host, session_id)
    ana, ben = joined(kinds_app, code, "Ana", session_id), joined(kinds_app, code, "Ben", session_id)
    press(host, session_id, "start")
    for position in range(1, len(KIND_ORDER) + 1):
        pages = [phone_page(phone, session_id) for phone in (ana, ben)]
        assert f'name="position" value="{position}"' in pages[0]
        projector = host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
        assert 'name="place-1"' not in projector and 'name="number"' not in projector
        with kinds_app.app_context():
            attempt = db.session.scalar(sa.select(Attempt).where(Attempt.live_session_id == session_id))
            turn = turn_of(attempt, position)
            kind = turn.revision.kind
            answers = [right_answer(turn.revision, turn.order), wrong_answer(turn.revision, turn.order)]
        for phone, page, submission in zip((ana, ben), pages, answers):
            data = {"csrf_token": csrf_token(page), "position": str(position), **form_fields(submission)}
            response = phone.post(f"/live/{session_id}/answer", data=data)
            assert response.status_code == 303, (kind, response.get_data(as_text=True)[:2000])
        press(host, session_id, "reveal")
        reveal = host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
        assert "How the class answered (2 of 2)" in reveal, kind
        mine = phone_page(ana, session_id)
        assert ("Thanks for voting." if kind == "poll" else "Right!") in mine, kind
        if kind == "text":  # typed answers are grouped, the accepted one marked
            assert "Marie Tremblay" in reveal and "certainly not this" in reveal
        press(host, session_id, "next")
    with kinds_app.app_context():
        scores = dict(db.session.execute(
            sa.select(Attempt.id, Attempt.score).where(Attempt.live_session_id == session_id)).all())
    assert sorted(scores.values()) == [0, 5]


def test_every_kind_is_answered_through_the_live_api(kinds_app, client, player, make_token=None):
    host = log_in(kinds_app, "teacher")
    session_id = create_session(host, quiz="rink", question_count=None, show_leaderboard=False)
    code = join_code(host, session_id)
    assert client.post(f"{API}/live/join", headers=player, json={"code": code, "nickname": "Api"}).status_code == 201
    press(host, session_id, "start")
    for position in range(1, len(KIND_ORDER) + 1):
        state = client.get(f"{API}/live/{session_id}", headers=player).get_json()
        with kinds_app.app_context():
            attempt = db.session.scalar(sa.select(Attempt).where(Attempt.live_session_id == session_id))
            turn = turn_of(attempt, position)
            submission = right_answer(turn.revision, turn.order)
        assert state["question"]["kind"] == turn.revision.kind
        body = {"position": position, **api_fields(submission)}
        result = client.post(f"{API}/live/{session_id}/answer", headers=player, json=body)
        assert result.status_code == 200 and result.get_json()["recorded"], result.get_json()
        press(host, session_id, "reveal")
        revealed = client.get(f"{API}/live/{session_id}", headers=player).get_json()
        assert revealed["answer"]["correct"] is (None if turn.revision.kind == "poll" else True)
        assert revealed["reveal"]["choices"], turn.revision.kind
        press(host, session_id, "next")


def _submissions(kind: str, count: int):
    """Answers of every sort a player might send for a question of ``kind`` with ``count``
    choices or items: right, wrong, partial and invalid alike."""
    from hypothesis import strategies as st

    from quiz.kinds import Submission

    if kind == "ordering":
        orders = st.one_of(st.permutations(list(range(1, count + 1))),
                           st.lists(st.integers(1, count), min_size=count, max_size=count))
        return orders.map(lambda order: Submission(order=tuple(order)))
    if kind == "number":
        numbers = st.one_of(st.integers(-10**6, 10**6), st.decimals(-10**4, 10**4, places=2).map(float),
                            st.sampled_from([1150, 1200, 1250, 1251]))
        return numbers.map(lambda value: Submission(number=value))
    if kind == "text":
        texts = st.one_of(st.sampled_from(["Marie Tremblay", "tremblay!", "Trembley", "Ottawa", " "]),
                          st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "Zs"]), min_size=1, max_size=30))
        return texts.map(lambda text: Submission(text=text))
    picks = st.lists(st.integers(1, count + 1), min_size=1, max_size=3, unique=True)
    return picks.map(lambda numbers: Submission(choices=tuple(numbers)))


def test_any_answer_gets_the_same_outcome_on_the_page_and_through_the_api(kinds_app):
    """Property: whatever is sent, the page and the API record the same answer with the same
    feedback, or both refuse it, each saying why in terms of its own input (a form's places for
    an ordering, the body's item numbers through the API)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(seed=st.integers(0, 10**6), data=st.data())
    def check(seed, data):
        client = kinds_app.test_client()
        with kinds_app.app_context():
            quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "rink"))
            owners = [play.create_player(db.session) for _ in range(2)]
            attempts = [play.start_attempt(db.session, owner, quiz, rng=random.Random(seed)) for owner in owners]
            turn = turn_of(attempts[0], 1)
            ids, tokens = [attempt.public_id for attempt in attempts], [owner.token for owner in owners]
            kind, count = turn.revision.kind, len(turn.order)
            db.session.commit()
        submission = data.draw(_submissions(kind, count))
        with client.session_transaction() as cookie:
            cookie["player"] = tokens[0]
        url = f"/attempts/{ids[0]}/questions/1"
        page = client.get(url).get_data(as_text=True)
        on_page = client.post(url, data={"csrf_token": csrf_token(page), **form_fields(submission)})
        api = {"Authorization": f"Bearer {tokens[1]}"}
        client.get(f"{API}/attempts/{ids[1]}/questions/1", headers=api)
        by_api = client.post(f"{API}/attempts/{ids[1]}/questions/1/answer", headers=api, json=api_fields(submission))
        if by_api.status_code == 200:
            assert on_page.status_code == 303, (kind, submission)
            read = client.get(f"{API}/attempts/{ids[0]}/questions/1", headers={"Authorization": f"Bearer {tokens[0]}"})
            feedbacks = [read.get_json()["feedback"], by_api.get_json()["feedback"]]
            for feedback in feedbacks:
                for varies in ("answered_at", "elapsed_ms", "votes"):
                    feedback.pop(varies)
            assert feedbacks[0] == feedbacks[1], (kind, submission)
        else:
            assert (on_page.status_code, by_api.status_code) == (422, 422), (kind, submission)
            assert by_api.get_json()["error"]["code"] == "invalid_answer"
            assert 'id="answer-errors"' in on_page.get_data(as_text=True)

    check()
