"""Groups: questions that tell each other's answers are never asked together, in an attempt or
in a classroom session, and ``quiz lint`` leaves what they tell each other alone."""

from __future__ import annotations

import random

import pytest
import sqlalchemy as sa

from quiz import giveaways, live, play
from quiz.bank import load_bank
from quiz.bank.diff import preview_import
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Question, QuestionRevision, Quiz, User

BANK = """\
version: 1
articles:
  - id: rink
    title: The rink
    text: The Riverside rink opened in 1990, and it was rebuilt in 2004. Its coach was Marie Tremblay.
quizzes:
  - id: rink
    title: The rink
    article: rink
    settings: {{questions_per_attempt: 3}}
questions:
  - id: opened
    prompt: When did the rink open?
    choices: ["1990", "2004", "1985"]
    correct: "1990"
    explanation: It opened that year.
    source: opened in 1990
    group: {group}
  - id: rebuilt
    prompt: How many years after it opened was the rink rebuilt, if it opened in 1990?
    choices: ["14", "10", "20"]
    correct: "14"
    explanation: In 2004.
    source: rebuilt in 2004
    group: {group}
  - id: coach
    prompt: Who was the coach?
    choices: [Marie Tremblay, Anne Roy, Julie Paquette]
    correct: Marie Tremblay
    explanation: She coached there.
    source: Its coach was Marie Tremblay.
  - id: city
    prompt: Which rink is it?
    choices: [Riverside, Lakeside, Hillside]
    correct: Riverside
    explanation: The article names it.
    source: The Riverside rink
"""


@pytest.fixture
def grouped(app, write_bank):
    with app.app_context():
        import_bank(db.session, load_bank(write_bank(BANK.format(group="when"))))
        db.session.commit()
    return app


def asked(attempt_or_session) -> set[str]:
    rows = attempt_or_session.slots if hasattr(attempt_or_session, "slots") else attempt_or_session.questions
    return {row.question.slug for row in rows}


def test_the_group_is_kept_on_the_question_not_its_revision(grouped):
    with grouped.app_context():
        groups = dict(db.session.execute(sa.select(Question.slug, Question.group_name)).all())
        assert groups == {"opened": "when", "rebuilt": "when", "coach": None, "city": None}
        entries = {entry["id"]: entry for entry in export_document(db.session)["questions"]}
        assert entries["opened"]["group"] == "when" and "group" not in entries["coach"]


def test_an_attempt_never_asks_two_questions_of_one_group(grouped):
    with grouped.app_context():
        quiz = db.session.scalar(sa.select(Quiz))
        for seed in range(40):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, rng=random.Random(seed))
            assert len(attempt.slots) == 3 and len(asked(attempt) & {"opened", "rebuilt"}) == 1
        # All the questions: every one of each group but one, in turn.
        whole = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL)
        assert len(whole.slots) == 3 and {"coach", "city"} <= asked(whole)


def test_a_session_asks_one_question_of_each_group(grouped):
    with grouped.app_context():
        quiz = db.session.scalar(sa.select(Quiz))
        host = User(username="teacher", password_hash="x", role="teacher")
        db.session.add(host)
        in_order = live.create_session(db.session, host, quiz, live.Settings())
        assert [question.question.slug for question in in_order.questions] == ["opened", "coach", "city"]
        shuffled = live.create_session(db.session, host, quiz, live.Settings(shuffle=True), rng=random.Random(2))
        assert len(asked(shuffled) & {"opened", "rebuilt"}) == 1 and shuffled.question_count == 3


def test_lint_reports_what_two_questions_tell_each_other_unless_they_share_a_group(write_bank):
    apart = giveaways.placed(load_bank(write_bank(BANK.replace("    group: {group}\n", "").format(), "apart.yaml")))
    assert [item.finding.message for item in apart] == [
        "its prompt gives away questions[0] (opened): “1990”"
    ]
    assert giveaways.placed(load_bank(write_bank(BANK.format(group="when"), "grouped.yaml"))) == []


def test_changing_a_group_is_no_new_revision(grouped, write_bank):
    with grouped.app_context():
        bank = load_bank(write_bank(BANK.format(group="dates")))
        preview = preview_import(db.session, bank)
        assert [(entry.slug, [(change.field, change.old, change.new) for change in entry.changes], entry.new_revision)
                for entry in preview.questions.changed] == [
            ("opened", [("group", "when", "dates")], None), ("rebuilt", [("group", "when", "dates")], None)
        ]
        report = import_bank(db.session, bank)
        assert report.questions.changed == ["opened", "rebuilt"]
        assert db.session.scalar(sa.select(sa.func.max(QuestionRevision.number))) == 1
        assert db.session.scalar(sa.select(Question.group_name).where(Question.slug == "opened")) == "dates"


def test_a_group_is_an_identifier(write_bank):
    from quiz.bank import BankInvalid

    with pytest.raises(BankInvalid) as refused:
        load_bank(write_bank(BANK.format(group="Not An Id")))
    assert "questions[0].group" in str(refused.value)
