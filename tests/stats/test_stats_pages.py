"""The statistics pages: who may see them, what they show, their CSV and JSON."""

from __future__ import annotations

import csv
import io
import random

import pytest
import sqlalchemy as sa

from quiz import play
from quiz.extensions import db
from quiz.models import Quiz
from tests.answers import answer_solo
from tests.web.live_helpers import (
    QUIZ_SLUG,
    correct_number,
    create_session,
    join_code,
    joined,
    log_in,
    phone_page,
    press,
    submit,
)


@pytest.fixture
def played(bundled):
    """Forty finished solo attempts on the bundled quiz, answered at random but reproducibly."""
    rng = random.Random(3)
    with bundled.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == QUIZ_SLUG))
        for _ in range(40):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, rng=rng)
            for position in range(1, attempt.question_count + 1):
                answer_solo(attempt, position, right=rng.random() < 0.6)
        db.session.commit()
    return bundled


def test_statistics_need_a_teacher_or_admin_login(played):
    anonymous = played.test_client()
    for path in ("/stats/", f"/stats/quiz/{QUIZ_SLUG}", f"/stats/quiz/{QUIZ_SLUG}/questions.csv", f"/stats/quiz/{QUIZ_SLUG}.json"):
        response = anonymous.get(path)
        assert response.status_code == 302 and "/login" in response.location, path
    teacher = log_in(played, "teacher")
    assert teacher.get("/stats/").status_code == 200
    assert log_in(played, "admin", "admin").get(f"/stats/quiz/{QUIZ_SLUG}").status_code == 200


def test_quiz_page_shows_the_figures_charts_and_tables(played):
    page = log_in(played, "teacher").get(f"/stats/quiz/{QUIZ_SLUG}").get_data(as_text=True)
    assert "<dt>Finished attempts</dt><dd>40</dd>" in page
    assert "<dt>Answers counted</dt><dd>400</dd>" in page
    # Two charts, each an image with a title and a description, plus the same data in tables.
    assert page.count('role="img"') == 2
    assert '<title id="chart-scores-title">' in page and '<desc id="chart-facility-desc">' in page
    assert "<caption id=\"scores-caption\">" in page and "<caption id=\"questions-caption\">" in page
    assert "Questions to review" in page
    assert "style=" not in page and "<script>" not in page


def test_question_page_links_to_the_source_and_shows_choices(played):
    teacher = log_in(played, "teacher")
    figures = teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json").get_json()
    item = figures["questions"][0]
    page = teacher.get(f"/stats/quiz/{QUIZ_SLUG}/questions/{item['revision_id']}").get_data(as_text=True)
    assert f"/articles/{QUIZ_SLUG}?highlight=src-{item['question']}-1#src-{item['question']}-1" in page
    assert "Correct answer" in page and '<caption id="choices-caption">' in page
    assert teacher.get(f"/stats/quiz/{QUIZ_SLUG}/questions/999999").status_code == 404
    assert teacher.get("/stats/quiz/no-such-quiz").status_code == 404


def test_json_and_csv_carry_the_same_numbers(played):
    teacher = log_in(played, "teacher")
    figures = teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json").get_json()
    assert figures["summary"]["attempts_finished"] == 40
    assert sum(bin["attempts"] for bin in figures["scores"]) == 40
    assert sum(item["answers"] for item in figures["questions"]) == 400
    for item in figures["questions"]:
        if item["kind"] == "ordering":  # how many put each item in its place
            assert all(row["count"] <= item["answers"] for row in item["tally"]["rows"])
            continue
        if item["tally"] is not None:  # typed answers and numbers: each answer in one row, or among the others
            assert sum(row["count"] for row in item["tally"]["rows"]) + item["tally"]["others"] == item["answers"]
            continue
        picks = sum(choice["picks"] for choice in item["choices"])
        assert picks >= item["answers"] if item["kind"] == "multi" else picks == item["answers"]

    response = teacher.get(f"/stats/quiz/{QUIZ_SLUG}/questions.csv")
    assert response.mimetype == "text/csv" and "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).removeprefix("\ufeff"))))
    assert rows[0][:6] == ["question", "revision", "prompt", "answers", "right", "facility"]
    assert {row[0]: int(row[3]) for row in rows[1:]} == {item["question"]: item["answers"] for item in figures["questions"]}
    for table in ("summary", "scores", "choices", "review"):
        assert teacher.get(f"/stats/quiz/{QUIZ_SLUG}/{table}.csv").status_code == 200
    assert teacher.get(f"/stats/quiz/{QUIZ_SLUG}/secrets.csv").status_code == 404


def test_filters_narrow_the_plays_and_a_bad_range_is_explained(played):
    teacher = log_in(played, "teacher")
    solo = teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json", query_string={"plays": "solo"}).get_json()
    assert solo["scope"]["solo_only"] is True and solo["summary"]["attempts_finished"] == 40
    future = teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json", query_string={"started_from": "2099-01-01"}).get_json()
    assert future["summary"]["attempts_finished"] == 0 and future["questions"] == []

    page = teacher.get(
        f"/stats/quiz/{QUIZ_SLUG}", query_string={"started_from": "2026-05-02", "started_until": "2026-05-01"}
    ).get_data(as_text=True)
    assert "The end date comes before the start date." in page
    assert "<dt>Finished attempts</dt><dd>40</dd>" in page  # the bad filter is not applied
    bad = teacher.get(f"/stats/quiz/{QUIZ_SLUG}", query_string={"plays": "session-99999", "started_from": "soon"})
    assert bad.status_code == 200 and "Not a valid" in bad.get_data(as_text=True)


def test_session_statistics_for_its_host_only(bundled):
    host = log_in(bundled, "host")
    session_id = create_session(host, question_count=2, show_leaderboard=False)
    code = join_code(host, session_id)
    phones = [joined(bundled, code, name, session_id) for name in ("ana", "ben", "=cmd")]
    press(host, session_id, "start")
    for round_ in range(2):
        for index, phone in enumerate(phones):
            page = phone_page(phone, session_id)
            right = correct_number(bundled, session_id, page)
            number = right if index < 2 - round_ else (right % 4) + 1
            assert submit(phone, session_id, number, page).status_code == 303
        press(host, session_id, "reveal")
        press(host, session_id, "next")  # after the last question: the end

    page = host.get(f"/stats/sessions/{session_id}").get_data(as_text=True)
    assert "<dt>Finished attempts</dt><dd>3</dd>" in page
    assert "ana" in page and "ben" in page
    # Three students are far too few for a reliability coefficient: a sentence says so instead.
    assert "3 finished attempts of 2 questions so far: reliability is shown from 30 such attempts." in page
    assert host.get(f"/stats/sessions/{session_id}.json").get_json()["summary"]["reliability_kr20"] is None

    students = host.get(f"/stats/sessions/{session_id}/students.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(students.removeprefix("\ufeff"))))
    assert rows[0][:3] == ["student", "points", "right"]
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["ana"][2] == "2" and by_name["ben"][2] == "1"
    assert "'=cmd" in by_name  # a spreadsheet would run "=cmd" as a formula
    document = host.get(f"/stats/sessions/{session_id}.json").get_json()
    assert document["scope"]["session_id"] == session_id
    assert sorted(student["right"] for student in document["students"]) == [0, 1, 2]

    other = log_in(bundled, "other")
    assert other.get(f"/stats/sessions/{session_id}").status_code == 404
    assert log_in(bundled, "boss", "admin").get(f"/stats/sessions/{session_id}").status_code == 200


POLL = """\
  - id: favourite
    kind: poll
    prompt: Which session would you choose?
    choices: [Morning, Evening]
    explanation: Skaters can choose either.
"""


def test_a_quiz_with_a_poll_has_statistics_pages(app, write_bank):
    from quiz.bank import load_bank
    from quiz.bank.importer import import_bank
    from tests.answers import play_through
    from tests.stats.conftest import BANK

    with app.app_context():
        import_bank(db.session, load_bank(write_bank(BANK + POLL)))
        quiz = db.session.scalar(sa.select(Quiz))
        for right in (4, 2):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL)
            play_through(attempt, right=right)
        db.session.commit()
        slug = quiz.slug
    teacher = log_in(app, "teacher")
    assert teacher.get(f"/stats/quiz/{slug}").status_code == 200
