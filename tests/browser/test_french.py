"""The app in French, in Chromium set to Canadian French: a solo quiz on a phone, the admin's
and teacher's pages, and a classroom session on a projector (1280x720 and 1920x1080) with a
student's phone. Every screen is in French (``<html lang="fr-CA">``), axe finds nothing on
it, and the projector's screens fit without scrolling with a question of 48 px or more at
1280x720, French being longer than English."""

from __future__ import annotations

import functools
import re

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import Page, expect

from quiz import accounts
from quiz.extensions import db
from quiz.models import Question
from tests.browser.conftest import Tab
from tests.browser.test_projector import (  # noqa: F401  (open_person and station are fixtures)
    PASSWORD, RIGHT, SCREENS, STEP, TEACHER, assert_fits, assert_question_readable, key, new_session, open_person, station,
)

FRENCH = "fr-CA"
QUIZ = "kiss-and-cry"
ADMIN = "admin"


@pytest.fixture
def open_french(open_person):
    """A browser context whose Accept-Language is Canadian French."""
    return functools.partial(open_person, locale=FRENCH)


def check_french(tab: Tab, what: str, *, phone: bool = True) -> None:
    page = tab.page
    assert page.evaluate("document.documentElement.lang") == FRENCH, what
    if phone:
        tab.assert_fits_phone(what)
    tab.assert_accessible(f"{what} (fr-CA)")


def log_in(tab: Tab, username: str, password: str) -> None:
    page = tab.page
    assert tab.goto("/login").status == 200
    page.locator('input[name="username"]').fill(username)
    page.locator('input[name="password"]').fill(password)
    page.locator('form button[type="submit"]').click()
    expect(page.locator('input[name="password"]')).to_have_count(0)


def submit(page: Page) -> None:
    page.locator('main form button[type="submit"]').last.click()


def test_a_solo_quiz_in_french(open_french, bundled: Flask, correct_numbers) -> None:
    tab = open_french()
    page = tab.page
    assert tab.goto("/").status == 200
    expect(page.locator(".site-footer")).to_contain_text("Chaque réponse")
    check_french(tab, "home")

    assert tab.goto(f"/quizzes/{QUIZ}").status == 200
    check_french(tab, "quiz page")
    page.locator("main form").first.locator('button[type="submit"]').click()
    position = 1
    expect_question(page, position)
    # A question that asks to pick: sent empty, it is refused in French.
    while not page.locator('input[name="choice"]').count():
        submit_any(page)
        position += 1
        expect_question(page, position)
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        submit(page)
    assert posted.value.status == 422
    refused = page.url
    expect(page.locator("ul.errors")).to_contain_text(re.compile(r"Choisissez"))
    check_french(tab, "question page with an error")

    for number in correct_numbers(page.url):
        page.locator(f'label[for="choice-{number}"]').click()
    submit(page)
    expect(page.locator("main")).to_contain_text("Bonne réponse")
    check_french(tab, "feedback page")

    assert tab.goto(f"/quizzes/{QUIZ}/leaderboard").status == 200
    check_french(tab, "leaderboard")
    assert tab.goto("/player").status == 200
    check_french(tab, "nickname page")
    assert tab.goto(f"/articles/{QUIZ}").status == 200
    check_french(tab, "article reader")
    assert tab.goto("/join").status == 200
    check_french(tab, "join page")
    assert tab.goto("/quizzes/nope").status == 404
    check_french(tab, "error page")
    tab.assert_clean(expected_error_documents={refused, tab.url("/quizzes/nope")})


def expect_question(page: Page, position: int) -> None:
    """Question ``position``'s page, with all of its form: its fields are on the page before
    they are counted (a feedback page has its question's number, but no form)."""
    expect(page.locator(".progress-label")).to_have_text(re.compile(rf"^Question {position} sur \d+$"))
    expect(page.locator('main form.question button[type="submit"]')).to_be_visible()


def submit_any(page: Page) -> None:
    """Answer a question that is not one of picking, to reach one that is (an ordering always
    sends an order; a number or text question needs something typed)."""
    typed = page.locator('input[name="number"], input[name="text"]')
    if typed.count():
        typed.fill("1")
    submit(page)
    # The feedback page, not the question's page that is still there while the answer is sent.
    next_question = page.locator("main a[data-next]")
    expect(next_question).to_be_visible()
    next_question.click()


def test_the_admin_and_teacher_pages_in_french(open_french, bundled: Flask) -> None:
    with bundled.app_context():
        accounts.create_user(db.session, ADMIN, PASSWORD, "admin")
        slug = db.session.scalar(sa.select(Question.slug).order_by(Question.id).limit(1))
        db.session.commit()
    tab = open_french(viewport={"width": 1280, "height": 800})
    log_in(tab, ADMIN, PASSWORD)
    for path in (
        "/host", f"/host/new/{QUIZ}", "/stats/", f"/stats/quiz/{QUIZ}",
        "/admin/", "/admin/import", "/admin/import-questions", "/admin/generate", "/admin/questions",
        f"/admin/questions/{slug}",
    ):
        assert tab.goto(path).status == 200, path
        check_french(tab, path, phone=False)
    tab.assert_clean()


@pytest.mark.parametrize("screen", SCREENS)
def test_a_classroom_session_in_french_on_the_projector(open_french, station: Flask, screen: str) -> None:  # noqa: F811
    session_id, code = new_session(station)
    host = open_french(viewport=SCREENS[screen])
    hp = host.page
    log_in(host, TEACHER, PASSWORD)
    assert host.goto(f"/host/sessions/{session_id}").status == 200
    assert hp.evaluate("document.documentElement.lang") == FRENCH

    student = open_french()
    sp = student.page
    assert student.goto(f"/join?code={code}").status == 200
    sp.locator('input[name="nickname"]').fill("Ana")
    submit(sp)
    sp.wait_for_url(student.url(f"/live/{session_id}"))
    check_french(student, "student in the lobby")
    expect(hp.locator("ul.players > li")).to_have_count(1, timeout=STEP)
    assert_fits(hp, "lobby")
    host.assert_accessible("lobby (fr-CA)")

    key(hp, "n", "question_open")
    assert_question_readable(hp, screen, "question 1 in French")
    assert_fits(hp, "question 1 in French")
    expect(hp.locator(".countdown")).to_contain_text("s")
    host.assert_accessible("question open (fr-CA)")

    expect(sp.locator(".progress-label")).to_have_text(re.compile(r"^Question 1 sur 2$"), timeout=STEP)
    check_french(student, "student's question")
    sp.locator(f'label[for="choice-{RIGHT[1]}"]').click()
    # The only student answered: the question closes by itself, and the host's screen reveals it
    # by loading its reveal page. An event may redraw the screen as the reveal before that page
    # comes: wait for the page itself, not to measure a screen that is about to be replaced.
    with hp.expect_navigation(timeout=2 * STEP):
        submit(sp)
        # Said in French (not "Answer received"); the page the server draws for the closed
        # question says it too, and redraws nothing more until the reveal.
        expect(sp.locator("h1")).to_have_text("Réponse reçue", timeout=STEP)
        expect(sp.locator("[data-live-events]")).to_have_attribute("data-state", "question_closed", timeout=STEP)
        check_french(student, "student's answer received")

    expect(hp.locator("[data-live-events]")).to_have_attribute("data-state", "reveal", timeout=2 * STEP)
    assert_fits(hp, "reveal in French")
    assert_question_readable(hp, screen, "reveal in French")
    host.assert_accessible("reveal (fr-CA)")
    expect(sp.locator("[data-live-events]")).to_have_attribute("data-state", "reveal", timeout=STEP)
    check_french(student, "student's reveal")

    key(hp, "l", "leaderboard")
    assert_fits(hp, "leaderboard in French")
    host.assert_accessible("leaderboard (fr-CA)")
    key(hp, "n", "question_open")
    key(hp, "c", "question_closed")
    assert_fits(hp, "question closed in French")
    host.assert_accessible("question closed (fr-CA)")
    key(hp, "r", "reveal")
    key(hp, "l", "leaderboard")
    key(hp, "n", "finished")
    expect(hp.locator("ol.podium")).to_be_visible()
    assert_fits(hp, "podium in French")
    host.assert_accessible("podium (fr-CA)")
    expect(sp.locator("[data-live-events]")).to_have_attribute("data-state", "finished", timeout=STEP)
    expect(sp.locator("main")).to_contain_text("Ana")
    check_french(student, "student's end page")
    host.assert_clean()
    student.assert_clean()
