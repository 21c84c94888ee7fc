"""Classroom sessions through the API, for students; the host's buttons are pressed through the
domain, as the host's screen would."""

from __future__ import annotations

import sqlalchemy as sa

from quiz import live
from quiz.extensions import db
from quiz.models import LivePlayer, LiveSession
from tests.api.conftest import API, act, bearer


def join(client, headers, code: str, nickname: str = "Zoé"):
    return client.post(f"{API}/live/join", headers=headers, json={"code": code, "nickname": nickname})


def state(client, headers, session_id: int) -> dict:
    response = client.get(f"{API}/live/{session_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def right_and_wrong(app, session_id: int) -> tuple[int, int]:
    """The number of the current question's right choice, and of a wrong one (single answer)."""
    with app.app_context():
        question = live.current_question(db.session, db.session.get(LiveSession, session_id))
        numbers = {choice.is_correct: number for number, choice in enumerate(question.order, 1)}
        return numbers[True], numbers[False]


def test_a_student_joins_plays_and_sees_the_reveal(rink, client, new_player, host_session):
    session_id, code = host_session(question_count=1)
    headers = new_player()
    response = join(client, headers, code)
    assert response.status_code == 201
    lobby = response.get_json()
    assert lobby["session_id"] == session_id and lobby["state"] == "lobby" and lobby["nickname"] == "Zoé"
    assert lobby["question"] is None and lobby["score"] == 0
    # Joining again is coming back: same place, 200.
    again = join(client, headers, code, "Other")
    assert again.status_code == 200 and again.get_json()["nickname"] == "Zoé"

    act(rink, session_id, "start")
    opened = state(client, headers, session_id)
    assert opened["state"] == "question_open" and opened["position"] == 1
    assert opened["question"]["prompt"] == "When did the rink open?"
    assert [choice["number"] for choice in opened["question"]["choices"]] == [1, 2, 3, 4]
    assert 0 < opened["question"]["seconds_left"] <= 60
    assert opened["answer"] is None and opened["reveal"] is None

    right, _wrong = right_and_wrong(rink, session_id)
    response = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 1, "choices": [right]})
    assert response.status_code == 200
    answered = response.get_json()
    assert answered["recorded"] is True
    # The only student answered: the question closed. Still nothing says right or wrong.
    assert answered["state"]["state"] == "question_closed"
    assert answered["state"]["answer"] == {
        "picked": [right], "given": answered["state"]["question"]["choices"][right - 1]["text"], "correct": None,
        "credit": None, "points": None,
    }
    assert answered["state"]["score"] == 0 and answered["state"]["reveal"] is None

    act(rink, session_id, "reveal")
    revealed = state(client, headers, session_id)
    assert revealed["answer"] == {
        "picked": [right], "given": revealed["question"]["choices"][right - 1]["text"], "correct": True, "credit": 1.0,
        "points": 1,
    }
    assert revealed["score"] == 1
    assert revealed["reveal"]["correct_choices"] == [right]
    assert revealed["reveal"]["explanation"] == "The notes open with the year of the opening."
    assert [choice["count"] for choice in revealed["reveal"]["choices"] if choice["correct"]] == [1]
    assert revealed["reveal"]["sources"][0]["anchor"] == "src-opened-1"

    act(rink, session_id, "next")
    board = state(client, headers, session_id)
    assert board["state"] == "leaderboard" and board["rank"] == 1
    assert board["standings"] == [{"rank": 1, "nickname": "Zoé", "score": 1}]


def test_the_score_hides_the_current_questions_points_until_the_reveal(rink, client, new_player, host_session):
    session_id, code = host_session(question_count=2)
    first, second = new_player(), new_player()
    join(client, first, code, "Ann")
    join(client, second, code, "Bea")
    act(rink, session_id, "start")
    right, _ = right_and_wrong(rink, session_id)
    answered = client.post(f"{API}/live/{session_id}/answer", headers=first, json={"position": 1, "choices": [right]})
    assert answered.get_json()["state"]["state"] == "question_open"
    assert answered.get_json()["state"]["score"] == 0
    act(rink, session_id, "reveal")
    assert state(client, first, session_id)["score"] == 1


def test_an_answer_outside_the_open_question_is_refused(rink, client, new_player, host_session):
    session_id, code = host_session(question_count=2)
    headers = new_player()
    join(client, headers, code)
    not_yet = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 1, "choices": [1]})
    assert not_yet.status_code == 409 and not_yet.get_json()["error"]["code"] == "question_closed"
    act(rink, session_id, "start")
    stale = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 2, "choices": [1]})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "not_current_question"
    too_many = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 1, "choices": [1, 2]})
    assert too_many.status_code == 422 and too_many.get_json()["error"]["code"] == "invalid_answer"
    first = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 1, "choices": [1]})
    assert first.get_json()["recorded"] is True
    act(rink, session_id, "reveal")
    late = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 1, "choices": [2]})
    assert late.status_code == 409
    assert state(client, headers, session_id)["answer"]["picked"] == [1]


def test_a_second_answer_to_the_open_question_changes_nothing(rink, client, new_player, host_session):
    session_id, code = host_session(question_count=1)
    first, second = new_player(), new_player()
    join(client, first, code, "Ann")
    join(client, second, code, "Bea")
    act(rink, session_id, "start")
    client.post(f"{API}/live/{session_id}/answer", headers=first, json={"position": 1, "choices": [1]})
    again = client.post(f"{API}/live/{session_id}/answer", headers=first, json={"position": 1, "choices": [2]})
    assert again.status_code == 200 and again.get_json()["recorded"] is False
    assert again.get_json()["state"]["answer"]["picked"] == [1]


def test_joining_is_refused_with_reasons(rink, client, new_player, host_session):
    session_id, code = host_session()
    join(client, new_player(), code, "Zoé")
    taken = join(client, new_player(), code, "ZOE")
    assert taken.status_code == 409 and taken.get_json()["error"]["code"] == "join_refused"
    wrong = join(client, new_player(), "000000" if code != "000000" else "000001")
    assert wrong.status_code == 404 and wrong.get_json()["error"]["code"] == "no_session"
    badly_typed = client.post(f"{API}/live/join", headers=new_player(), json={"code": "12 34 56", "nickname": "Al"})
    assert badly_typed.status_code == 422
    assert join(client, {}, code).status_code == 401
    act(rink, session_id, "finish")
    ended = join(client, new_player(), code)
    error = ended.get_json()["error"]
    assert (ended.status_code, error["code"], error["message"]) == (404, "no_session", "The session with this code has ended.")


def test_wrong_codes_are_limited_per_player(make_app):
    app = make_app(JOIN_LIMIT_WRONG_CODES="3 per minute")
    client = app.test_client()
    token = client.post(f"{API}/players").get_json()["token"]
    statuses = [join(client, bearer(token), "999999").status_code for _ in range(4)]
    assert statuses == [404, 404, 404, 429]
    limited = join(client, bearer(token), "999999")
    assert limited.get_json()["error"] == {
        "status": 429, "code": "too_many_requests", "message": "Too many requests. Wait a moment and try again.",
    }
    other = client.post(f"{API}/players").get_json()["token"]
    assert join(client, bearer(other), "999999").status_code == 404


def test_only_members_see_a_sessions_state(rink, client, new_player, host_session):
    session_id, code = host_session()
    join(client, new_player(), code)
    outsider = client.get(f"{API}/live/{session_id}", headers=new_player())
    assert outsider.status_code == 404
    assert client.get(f"{API}/live/{session_id + 1}", headers=new_player()).status_code == 404


def test_a_removed_student_cannot_come_back(rink, client, new_player, host_session):
    session_id, code = host_session()
    headers = new_player()
    join(client, headers, code, "Zoé")
    with rink.app_context():
        member = db.session.scalar(sa.select(LivePlayer))
        live.remove_player(db.session, db.session.get(LiveSession, session_id), member.id)
        db.session.commit()
    assert client.get(f"{API}/live/{session_id}", headers=headers).status_code == 404
    refused = join(client, headers, code, "Zoé")
    assert refused.status_code == 409 and "removed" in refused.get_json()["error"]["message"]


def test_a_self_paced_session_is_played_through_its_attempt(rink, client, new_player, host_session):
    session_id, code = host_session(pacing=live.SELF_PACED)
    headers = new_player()
    joined = join(client, headers, code).get_json()
    assert joined["state"] == "open" and joined["pacing"] == "self" and joined["deadline"].endswith("Z")
    attempt_id = joined["attempt_id"]
    refused = client.post(f"{API}/live/{session_id}/answer", headers=headers, json={"position": 1, "choices": [1]})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "answer_elsewhere"
    question = client.get(f"{API}/attempts/{attempt_id}/question", headers=headers).get_json()
    assert question["position"] == 1
    response = client.post(f"{API}/attempts/{attempt_id}/questions/1/answer", headers=headers, json={"choices": [1]})
    assert response.status_code == 200
    act(rink, session_id, "finish")
    closed = client.post(f"{API}/attempts/{attempt_id}/questions/2/answer", headers=headers, json={"choices": [1]})
    assert closed.status_code == 409 and closed.get_json()["error"]["code"] == "attempt_finished"


def test_a_host_paced_attempt_is_not_played_through_the_attempt_endpoints(rink, client, new_player, host_session):
    session_id, code = host_session()
    headers = new_player()
    join(client, headers, code)
    with rink.app_context():
        attempt_id = db.session.scalar(sa.select(LivePlayer)).attempt.public_id
    for response in [
        client.get(f"{API}/attempts/{attempt_id}/question", headers=headers),
        client.get(f"{API}/attempts/{attempt_id}/questions/1", headers=headers),
        client.post(f"{API}/attempts/{attempt_id}/questions/1/answer", headers=headers, json={"choices": [1]}),
    ]:
        assert response.status_code == 409
        assert response.get_json()["error"]["code"] == "answer_elsewhere"
