"""No correct answer in anything a player can read through the API before answering: every
player endpoint's JSON is walked, its headers read, and the explanations looked for in its text.
In a classroom session the same holds until the host reveals the answer."""

from __future__ import annotations

from quiz import live
from quiz.extensions import db
from quiz.models import LiveSession
from tests.api.conftest import API, EXPLANATIONS, act, correct_numbers, walk

#: Keys that would say which choice is right, or how the answer went.
TELLING = {"correct", "is_correct", "correct_choices", "explanation", "sources", "feedback", "reveal", "points"}


def assert_tells_nothing(response) -> None:
    """The response says nothing of which choice is right: no telling key with a value, no
    explanation, and no cookie."""
    assert "Set-Cookie" not in response.headers
    text = response.get_data(as_text=True)
    assert not [explanation for explanation in EXPLANATIONS if explanation in text]
    told = [(path, key, value) for path, key, value in walk(response.get_json()) if key in TELLING and value is not None]
    assert told == [], response.request.path


def test_solo_play_tells_nothing_before_each_answer(rink, client, new_player):
    headers = new_player("Ann")
    attempt_id = client.post(f"{API}/quizzes/rink/attempts", headers=headers, json={"length": "all"}).get_json()["id"]
    for position in (1, 2, 3):
        responses = [
            client.get(f"{API}/quizzes", headers=headers),
            client.get(f"{API}/quizzes/rink", headers=headers),
            client.get(f"{API}/quizzes/rink/leaderboard", headers=headers),
            client.get(f"{API}/player", headers=headers),
            client.get(f"{API}/attempts/{attempt_id}", headers=headers),
            client.get(f"{API}/attempts/{attempt_id}/question", headers=headers),
            client.get(f"{API}/attempts/{attempt_id}/questions/{position}", headers=headers),
            # Refusals must not give anything away either.
            client.get(f"{API}/attempts/{attempt_id}/questions/{position + 1}", headers=headers),
            client.get(f"{API}/attempts/{attempt_id}/results", headers=headers),
            client.post(f"{API}/attempts/{attempt_id}/retry", headers=headers),
            client.post(f"{API}/attempts/{attempt_id}/questions/{position}/answer", headers=headers, json={"choices": [6]}),
            client.post(f"{API}/attempts/{attempt_id}/questions/{position}/answer", headers=headers, json={"choices": [1, 2, 3, 4, 5, 6]}),
            client.post(f"{API}/attempts/{attempt_id}/questions/{position + 1}/answer", headers=headers, json={"choices": [1]}),
        ]
        for response in responses:
            assert_tells_nothing(response)
        answered = client.post(
            f"{API}/attempts/{attempt_id}/questions/{position}/answer", headers=headers,
            json={"choices": correct_numbers(rink, attempt_id, position)},
        )
        # Once answered, the feedback is there: the test above would have seen it.
        assert answered.get_json()["feedback"]["correct_choices"]


def test_the_correct_choice_is_not_always_at_the_same_number(rink, client, new_player):
    headers = new_player()
    numbers = set()
    for _ in range(12):
        attempt_id = client.post(f"{API}/quizzes/rink/attempts", headers=headers, json={"difficulty": "easy"}).get_json()["id"]
        numbers.update(correct_numbers(rink, attempt_id, 1))
    assert len(numbers) > 1


def test_a_classroom_session_tells_nothing_before_the_reveal(rink, client, new_player, host_session):
    session_id, code = host_session(question_count=2)
    first, second = new_player(), new_player()
    joined = client.post(f"{API}/live/join", headers=first, json={"code": code, "nickname": "Ann"})
    assert_tells_nothing(joined)
    client.post(f"{API}/live/join", headers=second, json={"code": code, "nickname": "Bea"})
    for position in (1, 2):
        act(rink, session_id, "start" if position == 1 else "next")
        assert_tells_nothing(client.get(f"{API}/live/{session_id}", headers=first))
        with rink.app_context():
            question = live.current_question(db.session, db.session.get(LiveSession, session_id))
            right = [number for number, choice in enumerate(question.order, 1) if choice.is_correct]
        answered = client.post(f"{API}/live/{session_id}/answer", headers=first, json={"position": position, "choices": right})
        assert_tells_nothing(answered)
        # The points of the questions revealed so far, not yet this one's.
        assert answered.get_json()["state"]["score"] == position - 1
        for response in [
            client.get(f"{API}/live/{session_id}", headers=first),
            client.get(f"{API}/live/{session_id}", headers=second),
            client.post(f"{API}/live/{session_id}/answer", headers=first, json={"position": position, "choices": right}),
        ]:
            assert_tells_nothing(response)
        act(rink, session_id, "close")
        assert_tells_nothing(client.get(f"{API}/live/{session_id}", headers=second))
        act(rink, session_id, "reveal")
        revealed = client.get(f"{API}/live/{session_id}", headers=second).get_json()
        assert revealed["reveal"]["correct_choices"] == right
        act(rink, session_id, "next")  # the leaderboard
        assert client.get(f"{API}/live/{session_id}", headers=first).get_json()["score"] == position
