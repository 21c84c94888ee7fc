"""A bank with a question of every kind, and an app that has it imported."""

from __future__ import annotations

import pytest

from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db

#: One question of each kind, in this order, on a short article.
KINDS_BANK = """\
version: 1
articles:
  - id: rink
    title: The Riverside rink
    text: |
      The Riverside rink opened in 1990 in Ottawa. Its first coach was Marie Tremblay.

      The rink was rebuilt in 2004, and a second sheet of ice was added in 2011. It holds 1,200 spectators.

      Skaters can choose a morning, an evening or a Saturday night session.
quizzes:
  - id: rink
    title: The rink
    article: rink
    settings: {questions_per_attempt: 10, shuffle_choices: true, time_limit: 30}
questions:
  - id: opened
    prompt: In which year did the Riverside rink open?
    choices: ["1988", "1990", "1994", "2004"]
    correct: "1990"
    explanation: It opened in 1990.
    source: The Riverside rink opened in 1990
  - id: timeline
    kind: ordering
    prompt: Put these events in the order they happened, earliest first.
    items: [The rink opens, The rink is rebuilt, A second sheet of ice is added]
    explanation: It opened in 1990, was rebuilt in 2004 and grew a second sheet in 2011.
    source: [opened in 1990, rebuilt in 2004, a second sheet of ice was added in 2011]
  - id: spectators
    kind: number
    prompt: How many spectators does the rink hold?
    answer: 1200
    tolerance: 50
    unit: spectators
    explanation: It holds 1,200.
    source: It holds 1,200 spectators.
  - id: coach
    kind: text
    prompt: Who was the rink's first coach?
    accept: [Marie Tremblay, Tremblay]
    fuzzy: true
    explanation: Marie Tremblay coached there first.
    source: Its first coach was Marie Tremblay.
  - id: favourite
    kind: poll
    prompt: Which session would you choose?
    choices: [Morning, Evening, Saturday night]
    explanation: Skaters can choose any of the three.
    source: Skaters can choose a morning, an evening or a Saturday night session.
  - id: city
    kind: true_false
    prompt: "True or false: the rink is in Ottawa."
    correct: true
    explanation: It opened in Ottawa.
    source: opened in 1990 in Ottawa
"""

KIND_ORDER = ["single", "ordering", "number", "text", "poll", "true_false"]


@pytest.fixture
def kinds_bank(write_bank):
    return load_bank(write_bank(KINDS_BANK))


@pytest.fixture
def kinds_app(app, kinds_bank):
    with app.app_context():
        import_bank(db.session, kinds_bank)
        db.session.commit()
    return app
