"""Teachers' and admins' endpoints, with API tokens: who may see what, and the figures they get."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from quiz import accounts, stats, tokens
from quiz.bank.loader import parse_bank
from quiz.extensions import db
from quiz.models import Answer, ApiToken, Attempt, QuestionRevision, utcnow
from quiz.web.language import COOKIE
from tests.accounts.conftest import login
from tests.api.conftest import API, act, bearer, correct_numbers


def play_session(app, client, new_player, host_session, username: str = "host") -> int:
    """A one-question session that a student answers right, revealed and finished."""
    session_id, code = host_session(username, question_count=1)
    student = new_player()
    client.post(f"{API}/live/join", headers=student, json={"code": code, "nickname": "Ann"})
    act(app, session_id, "start")
    question = client.get(f"{API}/live/{session_id}", headers=student).get_json()["question"]
    right = next(choice["number"] for choice in question["choices"] if choice["text"] == "1990")
    client.post(f"{API}/live/{session_id}/answer", headers=student, json={"position": 1, "choices": [right]})
    act(app, session_id, "reveal")
    act(app, session_id, "finish")
    return session_id


def test_the_account_endpoint_names_the_tokens_account(rink, client, make_token):
    response = client.get(f"{API}/account", headers=make_token("teacher", "ana"))
    assert response.status_code == 200
    account = response.get_json()
    assert account["username"] == "ana" and account["role"] == "teacher"
    assert account["token"]["label"] == "ana's script" and account["token"]["prefix"].startswith("quiz_")
    assert account["token"]["last_used_at"] is not None


def test_tokens_stop_working_when_revoked_or_the_account_is_disabled(rink, client, make_token):
    revoked, disabled = make_token("teacher", "ana"), make_token("admin", "bob")
    with rink.app_context():
        ana_token = db.session.scalar(sa.select(ApiToken).join(ApiToken.user).where(ApiToken.label == "ana's script"))
        tokens.revoke_token(db.session, ana_token.id)
        accounts.disable_user(db.session, accounts.user_by_username(db.session, "bob"))
        db.session.commit()
    for headers in [revoked, disabled, {}, bearer("quiz_unknown"), bearer("x" * 500)]:
        response = client.get(f"{API}/sessions", headers=headers)
        assert response.status_code == 401
        assert response.get_json()["error"]["code"] == "unauthorized"


def test_a_player_token_is_not_an_api_token_nor_the_reverse(rink, client, make_token, new_player):
    assert client.get(f"{API}/account", headers=new_player()).status_code == 401
    assert client.get(f"{API}/player", headers=make_token()).status_code == 401


def test_an_admins_web_login_is_not_accepted(rink, client):
    with rink.app_context():
        accounts.create_user(db.session, "root", "correct horse battery", "admin")
        db.session.commit()
    assert login(client, "root").status_code == 303
    assert client.get("/admin/").status_code == 200
    assert client.get(f"{API}/bank").status_code == 401


def test_the_bank_exports_in_every_format_for_admins_only(rink, client, make_token):
    admin = make_token("admin")
    response = client.get(f"{API}/bank", headers=admin)
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.headers["Content-Disposition"] == 'attachment; filename="questions.yaml"'
    bank = parse_bank(response.get_data(), "questions.yaml", base_dir=None)
    assert [question.slug for question in bank.questions] == ["opened", "colours", "coach"]
    for name, mimetype in [("gift", "text/plain"), ("moodle-xml", "application/xml"), ("csv", "text/csv")]:
        response = client.get(f"{API}/bank", headers=admin, query_string={"format": name})
        assert response.status_code == 200 and response.mimetype == mimetype
        assert "When did the rink open?" in response.get_data(as_text=True)
    unknown = client.get(f"{API}/bank", headers=admin, query_string={"format": "kahoot"})
    assert unknown.status_code == 422 and unknown.get_json()["error"]["details"][0]["loc"] == ["query", "format"]
    refused = client.get(f"{API}/bank", headers=make_token("teacher"))
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "forbidden"


def test_teachers_see_their_own_sessions_and_admins_all(rink, client, make_token, new_player, host_session):
    own = play_session(rink, client, new_player, host_session, "ana")
    others = play_session(rink, client, new_player, host_session, "bob")
    ana, admin = make_token("teacher", "ana"), make_token("admin", "root")
    assert [row["id"] for row in client.get(f"{API}/sessions", headers=ana).get_json()["sessions"]] == [own]
    assert {row["id"] for row in client.get(f"{API}/sessions", headers=admin).get_json()["sessions"]} == {own, others}
    for path in ["", "/results", "/statistics"]:
        assert client.get(f"{API}/sessions/{others}{path}", headers=ana).status_code == 404
        assert client.get(f"{API}/sessions/{others}{path}", headers=admin).status_code == 200
    detail = client.get(f"{API}/sessions/{own}", headers=ana).get_json()
    assert detail["host"] == "ana" and detail["state"] == "finished" and detail["players"] == 1


def test_session_results_give_each_students_answers(rink, client, make_token, new_player, host_session):
    session_id = play_session(rink, client, new_player, host_session, "ana")
    results = client.get(f"{API}/sessions/{session_id}/results", headers=make_token("teacher", "ana")).get_json()
    assert results["questions"] == [
        {"position": 1, "question_id": "opened", "kind": "single", "prompt": "When did the rink open?", "expected": "1990"}
    ]
    [student] = results["students"]
    assert (student["nickname"], student["score"], student["correct"]) == ("Ann", 1, 1)
    assert student["answers"][0]["given"] == "1990" and student["answers"][0]["correct"] is True


def test_statistics_match_the_statistics_pages_json(rink, client, make_token, new_player, host_session):
    session_id = play_session(rink, client, new_player, host_session, "ana")
    headers = make_token("teacher", "ana")
    figures = client.get(f"{API}/quizzes/rink/statistics", headers=headers).get_json()
    assert figures["summary"]["attempts_finished"] == 1
    browser = rink.test_client()
    assert login(browser, "ana").status_code == 303
    assert figures == browser.get("/stats/quiz/rink.json").get_json()
    by_session = client.get(f"{API}/sessions/{session_id}/statistics", headers=headers).get_json()
    assert by_session == browser.get(f"/stats/sessions/{session_id}.json").get_json()
    assert by_session["students"][0]["answers"] == ["right"]


def test_statistics_filter_by_scope(rink, client, make_token, new_player, host_session):
    session_id = play_session(rink, client, new_player, host_session, "ana")
    player = new_player()
    attempt = client.post(f"{API}/quizzes/rink/attempts", headers=player, json={"length": "all"}).get_json()
    for position in (1, 2, 3):
        client.post(f"{API}/attempts/{attempt['id']}/questions/{position}/answer", headers=player,
                    json={"choices": correct_numbers(rink, attempt["id"], position)})
    headers = make_token("teacher", "ana")

    def finished(**query) -> int:
        response = client.get(f"{API}/quizzes/rink/statistics", headers=headers, query_string=query)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["summary"]["attempts_finished"]

    assert finished() == 2
    assert finished(solo_only="true") == 1
    assert finished(session_id=session_id) == 1
    tomorrow = (utcnow() + timedelta(days=1)).date().isoformat()
    assert finished(started_from=tomorrow) == 0 and finished(started_until=tomorrow) == 2
    others = play_session(rink, client, new_player, host_session, "bob")
    assert client.get(f"{API}/quizzes/rink/statistics", headers=headers, query_string={"session_id": others}).status_code == 404
    bad = client.get(f"{API}/quizzes/rink/statistics", headers=headers, query_string={"started_from": "yesterday"})
    assert bad.status_code == 422 and bad.get_json()["error"]["details"][0]["loc"] == ["query", "started_from"]


def test_a_questions_statistics_come_with_its_revision(rink, client, make_token, new_player, host_session):
    play_session(rink, client, new_player, host_session, "ana")
    headers = make_token("teacher", "ana")
    with rink.app_context():
        revisions = dict(db.session.execute(sa.select(QuestionRevision.prompt, QuestionRevision.id)).all())
    answered = client.get(
        f"{API}/quizzes/rink/statistics/questions/{revisions['When did the rink open?']}", headers=headers
    ).get_json()
    assert answered["revision"]["question_id"] == "opened"
    assert [choice["correct"] for choice in answered["revision"]["choices"]] == [True, False, False, False]
    assert answered["statistics"]["answers"] == 1 and answered["statistics"]["right"] == 1
    never = client.get(
        f"{API}/quizzes/rink/statistics/questions/{revisions['Which colours are the skates?']}", headers=headers
    ).get_json()
    assert never["statistics"] is None
    assert client.get(f"{API}/quizzes/rink/statistics/questions/999", headers=headers).status_code == 404



def play_solo(app, client, new_player, seconds: list[float]) -> None:
    """A solo attempt on all three questions, answered right, and taking ``seconds`` to answer
    each of them in turn."""
    player = new_player()
    attempt = client.post(f"{API}/quizzes/rink/attempts", headers=player, json={"length": "all"}).get_json()
    for position in (1, 2, 3):
        response = client.post(f"{API}/attempts/{attempt['id']}/questions/{position}/answer", headers=player,
                               json={"choices": correct_numbers(app, attempt["id"], position)})
        assert response.status_code == 200, response.get_json()
    with app.app_context():
        answers = db.session.scalars(
            sa.select(Answer).join(Attempt, Attempt.id == Answer.attempt_id)
            .where(Attempt.public_id == attempt["id"]).order_by(Answer.id)
        ).all()
        for answer, taken in zip(answers, seconds, strict=True):
            answer.elapsed_ms = int(taken * 1000)
        db.session.commit()


def test_statistics_give_answering_times_and_why_reliability_is_not_shown(
    rink, client, make_token, new_player, host_session
):
    headers = make_token("teacher", "ana")
    empty = client.get(f"{API}/quizzes/rink/statistics", headers=headers).get_json()["summary"]
    assert (empty["reliability_status"], empty["reliability_note"], empty["median_seconds"], empty["timed_attempts"]) == (
        "no_attempts", None, None, 0
    )

    # 15 s and 20 s of answering, and an attempt with a question left open for over ten minutes.
    for seconds in ([4, 6, 5], [5, 5, 10], [5, stats.INTERRUPTED_ANSWER_SECONDS + 100, 5]):
        play_solo(rink, client, new_player, seconds)
    summary = client.get(f"{API}/quizzes/rink/statistics", headers=headers).get_json()["summary"]
    assert {key: summary[key] for key in [
        "mean_seconds", "median_seconds", "timed_attempts", "untimed_attempts", "longest_answer_seconds",
        "reliability_kr20", "reliability_length", "reliability_attempts", "reliability_status",
        "reliability_min_attempts", "reliability_note", "min_answers_to_judge",
    ]} == {
        "mean_seconds": 17.5,
        "median_seconds": 17.5,
        "timed_attempts": 2,
        "untimed_attempts": 1,
        "longest_answer_seconds": stats.INTERRUPTED_ANSWER_SECONDS,
        "reliability_kr20": None,
        "reliability_length": 3,
        "reliability_attempts": 3,
        "reliability_status": "too_few_attempts",
        "reliability_min_attempts": stats.MIN_ATTEMPTS_FOR_RELIABILITY,
        "reliability_note": f"3 finished attempts of 3 questions so far: reliability is shown from "
                            f"{stats.MIN_ATTEMPTS_FOR_RELIABILITY} such attempts.",
        "min_answers_to_judge": stats.MIN_ANSWERS_TO_JUDGE,
    }

    # A session of one question: no reliability whatever the number of students.
    session_id = play_session(rink, client, new_player, host_session, "ana")
    by_session = client.get(f"{API}/sessions/{session_id}/statistics", headers=headers).get_json()["summary"]
    assert (by_session["reliability_status"], by_session["reliability_note"]) == (
        "too_short", "1 finished attempt of 1 question: reliability needs attempts of at least two questions."
    )
    assert (by_session["timed_attempts"], by_session["untimed_attempts"]) == (1, 0)


def test_the_api_answers_in_english_whatever_language_the_caller_prefers(rink, client, make_token, new_player):
    play_solo(rink, client, new_player, [4, 6, 5])
    headers = make_token("teacher")
    english = client.get(f"{API}/quizzes/rink/statistics", headers=headers).get_json()
    assert english["summary"]["reliability_note"].startswith("1 finished attempt of 3 questions so far")
    french = {**headers, "Accept-Language": "fr-CA"}
    assert client.get(f"{API}/quizzes/rink/statistics", headers=french).get_json() == english
    client.set_cookie(COOKIE, "fr_CA")
    assert client.get(f"{API}/quizzes/rink/statistics", headers=french).get_json() == english
    missing = client.get(f"{API}/sessions/99999", headers=french)
    assert missing.status_code == 404 and missing.get_json()["error"]["message"] == "No session with this id is yours."
