"""Solo play through the API, as a phone app plays: quizzes, players, attempts, answers, results."""

from __future__ import annotations

import sqlalchemy as sa

from quiz.extensions import db
from quiz.models import Answer, Player
from tests.api.conftest import API, bearer, correct_numbers, wrong_number
from tests.conftest import csrf_token


def start(client, headers, **body) -> dict:
    response = client.post(f"{API}/quizzes/rink/attempts", headers=headers, json=body or None)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def answer(client, headers, attempt_id: str, position: int, choices: list[int]):
    return client.post(f"{API}/attempts/{attempt_id}/questions/{position}/answer", headers=headers, json={"choices": choices})


# Quizzes ---------------------------------------------------------------------------------------


def test_quizzes_are_listed_without_a_token(rink, client):
    response = client.get(f"{API}/quizzes")
    assert response.status_code == 200
    [quiz] = response.get_json()["quizzes"]
    assert quiz["id"] == "rink" and quiz["question_count"] == 3
    assert quiz["article"] == {"id": "rink", "title": "Rink notes", "url": None, "reader_url": "/articles/rink"}


def test_a_quiz_counts_its_questions_by_difficulty(rink, client):
    quiz = client.get(f"{API}/quizzes/rink").get_json()
    assert quiz["difficulties"] == {"easy": 1, "medium": 1, "hard": 1}
    assert quiz["questions_per_attempt"] == 10 and quiz["time_limit"] == 30


def test_an_unknown_quiz_is_a_404_in_the_error_shape(rink, client):
    response = client.get(f"{API}/quizzes/nope")
    assert response.status_code == 404
    assert response.get_json() == {"error": {"status": 404, "code": "not_found", "message": "No quiz in play has this id."}}


# Players ---------------------------------------------------------------------------------------


def test_a_player_token_is_issued_and_identifies_the_player(rink, client, new_player):
    headers = new_player("Zoé")
    assert client.get(f"{API}/player", headers=headers).get_json() == {"nickname": "Zoé"}
    response = client.put(f"{API}/player", headers=headers, json={"nickname": "  Zoé   B  "})
    assert response.get_json() == {"nickname": "Zoé B"}
    response = client.put(f"{API}/player", headers=headers, json={"nickname": None})
    assert response.status_code == 200 and response.get_json() == {"nickname": None}
    with rink.app_context():
        assert db.session.scalar(sa.select(Player.nickname)) is None  # committed, not just flushed


def test_a_nickname_is_checked_as_the_web_form_checks_it(rink, client, new_player):
    headers = new_player()
    for nickname in ["x" * 21, "bad\u202enick", "nul\x00byte", "   "]:
        response = client.put(f"{API}/player", headers=headers, json={"nickname": nickname})
        assert response.status_code == 422, nickname
        assert response.get_json()["error"]["details"][0]["loc"][:2] == ["body", "nickname"]
    # Whitespace, tabs included, folds to single spaces, as on the web form.
    assert client.put(f"{API}/player", headers=headers, json={"nickname": "tab\there"}).get_json() == {"nickname": "tab here"}


def test_player_endpoints_refuse_a_missing_or_unknown_token(rink, client):
    for headers in [{}, bearer("not-a-token"), {"Authorization": "Basic abc"}]:
        response = client.get(f"{API}/player", headers=headers)
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == 'Bearer realm="quiz"'
        assert response.get_json()["error"]["code"] == "unauthorized"


def test_the_web_cookie_is_not_accepted_and_no_cookie_is_set(rink, client):
    """A browser that played on the web pages has a player cookie: the API ignores it, so a
    page on another site cannot act through the API with it."""
    page = client.get("/quizzes/rink").get_data(as_text=True)
    response = client.post("/quizzes/rink/attempts", data={"csrf_token": csrf_token(page), "length": "all"})
    assert response.status_code == 303
    attempt_id = response.location.split("/")[2]
    assert client.get(response.location).status_code == 200
    assert client.get(f"{API}/attempts/{attempt_id}").status_code == 401
    assert client.post(f"{API}/quizzes/rink/attempts").status_code == 401
    response = client.post(f"{API}/players")
    assert response.status_code == 201
    assert "Set-Cookie" not in response.headers


def test_json_posts_need_no_csrf_token(rink, client, new_player):
    assert rink.config.get("WTF_CSRF_ENABLED", True)
    attempt = start(client, new_player())
    assert attempt["next_position"] == 1


# Attempts --------------------------------------------------------------------------------------


def test_an_attempt_is_played_through_to_its_results(rink, client, new_player):
    headers = new_player("Ann")
    attempt = start(client, headers)
    assert attempt["question_count"] == 3 and attempt["answered_count"] == 0 and attempt["finished_at"] is None
    attempt_id = attempt["id"]
    for position in (1, 2, 3):
        question = client.get(f"{API}/attempts/{attempt_id}/question", headers=headers).get_json()
        assert question["position"] == position and question["feedback"] is None
        right = correct_numbers(rink, attempt_id, position)
        response = answer(client, headers, attempt_id, position, right)
        assert response.status_code == 200, response.get_json()
        result = response.get_json()
        assert result["already_answered"] is False
        assert result["feedback"]["correct"] is True
        assert result["feedback"]["correct_choices"] == right == result["feedback"]["picked"]
        assert result["attempt"]["answered_count"] == position
    assert result["attempt"]["finished_at"] is not None and result["attempt"]["next_position"] is None
    results = client.get(f"{API}/attempts/{attempt_id}/results", headers=headers).get_json()
    assert results["missed"] == 0 and len(results["answers"]) == 3
    assert results["best"]["score"] == 3 and results["best"]["rank"] == 1
    board = client.get(f"{API}/quizzes/rink/leaderboard").get_json()
    assert [(row["rank"], row["nickname"], row["score"]) for row in board["rows"]] == [(1, "Ann", 3)]
    response = client.get(f"{API}/attempts/{attempt_id}/question", headers=headers)
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "attempt_finished"


def test_feedback_gives_the_explanation_and_the_sources_with_their_reader_anchors(rink, client, new_player):
    headers = new_player()
    attempt = start(client, headers, length="all", difficulty="medium")
    assert attempt["question_count"] == 1 and attempt["difficulty"] == "medium"
    question = client.get(f"{API}/attempts/{attempt['id']}/question", headers=headers).get_json()
    assert question["kind"] == "multi" and question["multiple"] is True
    assert sorted(choice["text"] for choice in question["choices"]) == ["Blue", "Green", "Red"]
    feedback = answer(client, headers, attempt["id"], 1, [wrong_number(rink, attempt["id"], 1)]).get_json()["feedback"]
    assert feedback["correct"] is False and feedback["points"] == 0
    assert feedback["explanation"] == "Two colours are named in the second paragraph."
    [source] = feedback["sources"]
    assert source["excerpt"] == "Skates there are red and blue."
    assert source["anchor"] == "src-colours-1"
    assert source["reader_url"] == "/articles/rink?highlight=src-colours-1#src-colours-1"
    assert source["passage"] == {
        "paragraph": 2, "before": "The coach is called Ann. ", "quote": "Skates there are red and blue.", "after": "",
    }
    assert client.get(source["reader_url"]).status_code == 200


def test_answering_again_keeps_the_first_answer_and_returns_its_feedback(rink, client, new_player):
    headers = new_player()
    attempt_id = start(client, headers)["id"]
    wrong = wrong_number(rink, attempt_id, 1)
    first = answer(client, headers, attempt_id, 1, [wrong]).get_json()
    again = answer(client, headers, attempt_id, 1, correct_numbers(rink, attempt_id, 1))
    assert again.status_code == 200
    assert again.get_json()["already_answered"] is True
    assert again.get_json()["feedback"] == first["feedback"]
    assert again.get_json()["attempt"]["answered_count"] == 1
    with rink.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Answer)) == 1


def test_questions_are_answered_in_order(rink, client, new_player):
    headers = new_player()
    attempt_id = start(client, headers)["id"]
    for response in [
        answer(client, headers, attempt_id, 2, [1]),
        client.get(f"{API}/attempts/{attempt_id}/questions/3", headers=headers),
    ]:
        assert response.status_code == 409
        assert response.get_json()["error"]["code"] == "not_current_question"
    assert client.get(f"{API}/attempts/{attempt_id}/questions/4", headers=headers).status_code == 404
    answer(client, headers, attempt_id, 1, [1])
    review = client.get(f"{API}/attempts/{attempt_id}/questions/1", headers=headers).get_json()
    assert review["feedback"]["position"] == 1


def test_choices_the_question_does_not_have_are_refused(rink, client, new_player):
    headers = new_player()
    attempt_id = start(client, headers, difficulty="easy")["id"]
    for choices, where in [([5], ["body", "choices"]), ([1, 2], ["body", "choices"])]:
        response = answer(client, headers, attempt_id, 1, choices)
        assert response.status_code == 422
        error = response.get_json()["error"]
        assert error["code"] == "invalid_answer" and error["details"][0]["loc"] == where
    for body in [{"choices": []}, {"choices": ["1"]}, {"choices": [0]}, {"choice": [1]}, {}]:
        response = client.post(f"{API}/attempts/{attempt_id}/questions/1/answer", headers=headers, json=body)
        assert response.status_code == 422, body
        assert response.get_json()["error"]["code"] == "invalid_request"
    assert client.get(f"{API}/attempts/{attempt_id}", headers=headers).get_json()["answered_count"] == 0


def test_an_empty_difficulty_is_a_422_with_its_own_code(rink, client, write_bank, new_player):
    response = client.post(f"{API}/quizzes/rink/attempts", headers=new_player(), json={"difficulty": "impossible"})
    assert response.status_code == 422
    assert response.get_json()["error"]["details"][0]["loc"] == ["body", "difficulty"]


def test_another_players_attempt_does_not_exist_for_them(rink, client, new_player):
    owner, other = new_player(), new_player()
    attempt_id = start(client, owner)["id"]
    for response in [
        client.get(f"{API}/attempts/{attempt_id}", headers=other),
        client.get(f"{API}/attempts/{attempt_id}/question", headers=other),
        answer(client, other, attempt_id, 1, [1]),
        client.get(f"{API}/attempts/{attempt_id}/results", headers=other),
        client.post(f"{API}/attempts/{attempt_id}/retry", headers=other),
    ]:
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "not_found"


def test_results_wait_for_the_end_and_retry_asks_the_missed_questions(rink, client, new_player):
    headers = new_player()
    attempt_id = start(client, headers, length="all")["id"]
    assert client.get(f"{API}/attempts/{attempt_id}/results", headers=headers).status_code == 409
    assert client.post(f"{API}/attempts/{attempt_id}/retry", headers=headers).status_code == 409
    answer(client, headers, attempt_id, 1, [wrong_number(rink, attempt_id, 1)])
    for position in (2, 3):
        answer(client, headers, attempt_id, position, correct_numbers(rink, attempt_id, position))
    results = client.get(f"{API}/attempts/{attempt_id}/results", headers=headers).get_json()
    assert results["missed"] == 1 and results["best"]["score"] == 2
    assert results["best"]["rank"] is None  # no nickname: not on the leaderboard
    response = client.post(f"{API}/attempts/{attempt_id}/retry", headers=headers)
    assert response.status_code == 201
    retry = response.get_json()
    assert retry["question_count"] == 1 and retry["retry"] is True
    answer(client, headers, retry["id"], 1, correct_numbers(rink, retry["id"], 1))
    response = client.post(f"{API}/attempts/{retry['id']}/retry", headers=headers)
    assert response.status_code == 409 and response.get_json()["error"]["code"] == "nothing_to_retry"
