"""The statistics pages in Chromium: accessible, phone-sized, nothing fetched from elsewhere."""

from __future__ import annotations

import random
import re

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import expect

from quiz import accounts, play
from quiz.extensions import db
from quiz.models import Quiz
from tests.answers import answer_solo
from tests.browser.conftest import Tab

PASSWORD = "statistics password 42"


@pytest.fixture
def teacher(bundled: Flask) -> str:
    rng = random.Random(5)
    with bundled.app_context():
        accounts.create_user(db.session, "teacher", PASSWORD, "teacher")
        quiz = db.session.scalar(sa.select(Quiz))
        for _ in range(30):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, rng=rng)
            for position in range(1, attempt.question_count + 1):
                answer_solo(attempt, position, right=rng.random() < 0.6)
        db.session.commit()
    return "teacher"


def test_statistics_pages_are_accessible_and_fit_a_phone(tab: Tab, teacher: str) -> None:
    page = tab.page
    tab.goto("/login")
    page.get_by_label("Username").fill(teacher)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # Logged in (the session cookie is set) before going on: a goto now would cut the login short.
    expect(page.get_by_role("heading", name="Log in")).to_have_count(0)

    tab.goto("/stats/")
    tab.check("statistics index")
    page.get_by_role("link", name="Statistics for").first.click()
    page.get_by_role("heading", name="Questions to review").wait_for()
    expect(page.get_by_role("img", name="Scores of finished attempts")).to_have_count(1)
    tab.check("quiz statistics")

    page.get_by_label("Started on or after").fill("2020-01-01")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"started_from=2020-01-01"))
    page.locator(".item-table a").first.click()
    page.get_by_role("heading", name="Choices").wait_for()
    tab.check("question statistics")
    tab.assert_clean()
