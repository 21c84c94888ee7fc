"""Every kind of question in a real browser: solo play on a phone with JavaScript (ordering by
keyboard and buttons, typed answers) and without it (ordering by selects), and a classroom
session whose phone follows the questions without reloading. axe checks every page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import Browser, expect

from quiz import accounts
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Attempt
from tests.answers import right_answer, turn_of
from tests.browser.conftest import PHONE, Tab, order_with_the_keyboard, shown_items
from tests.kinds.conftest import KIND_ORDER, KINDS_BANK

PASSWORD = "a-long-password-1"
WIDE = {"width": 1280, "height": 800}
_QUESTION = re.compile(r"/attempts/([^/]+)/questions/(\d+)$")


@pytest.fixture
def bundled(app: Flask, write_bank) -> Flask:
    """This module's app holds the bank of every kind instead of the bundled bank."""
    with app.app_context():
        import_bank(db.session, load_bank(write_bank(KINDS_BANK)))
        accounts.create_user(db.session, "teacher", PASSWORD, "teacher")
        db.session.commit()
    return app


@pytest.fixture
def oracle(bundled: Flask) -> Callable[[str], tuple[str, object, list[str]]]:
    """For a question page's URL: its kind, the right answer, and its items in the right order."""

    def read(url: str):
        public_id, position = _QUESTION.search(url).groups()
        with bundled.app_context():
            attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == public_id))
            turn = turn_of(attempt, int(position))
            right_order = [choice.text for choice in sorted(turn.order, key=lambda choice: choice.position)]
            return turn.revision.kind, right_answer(turn.revision, turn.order), right_order

    return read


def play_solo(tab: Tab, oracle, *, javascript: bool) -> None:
    page = tab.page
    tab.goto("/quizzes/rink")
    page.get_by_role("button", name="Start the quiz").click()
    seen = []
    for position in range(1, len(KIND_ORDER) + 1):
        expect(page.locator(".progress-label")).to_have_text(f"Question {position} of {len(KIND_ORDER)}")
        kind, answer, right_order = oracle(page.url)
        seen.append(kind)
        if javascript:
            tab.check(f"{kind} question")
        if kind == "ordering" and javascript:
            expect(page.locator("[data-ordering]")).to_have_class(re.compile(r"\benhanced\b"))
            order_with_the_keyboard(page, right_order)
        elif kind == "ordering":
            for place, text in enumerate(right_order, 1):
                page.get_by_label(f"Place of “{text}”").select_option(str(place))
        elif kind == "number":
            page.get_by_label("Your answer (in spectators)").fill("1 210")
        elif kind == "text":
            page.get_by_label("Your answer").fill("Marie Trembley")  # one typo, forgiven
        else:
            for number in answer.choices:
                page.locator(f'label[for="choice-{number}"]').click()
        page.get_by_role("button", name="Submit answer").click()
        expect(page.locator(".verdict")).to_contain_text("Thanks for voting." if kind == "poll" else "Right!")
        if javascript:
            tab.check(f"{kind} feedback")
        page.locator("a[data-next]").click()
    assert sorted(seen) == sorted(KIND_ORDER)
    expect(page.locator(".score")).to_contain_text("5 of 5 correct")
    tab.assert_clean()


def test_every_kind_on_a_phone_with_javascript(tab: Tab, oracle) -> None:
    play_solo(tab, oracle, javascript=True)


def test_every_kind_on_a_phone_without_javascript(nojs_tab: Tab, oracle) -> None:
    play_solo(nojs_tab, oracle, javascript=False)


def test_ordering_items_move_with_buttons_and_keep_the_focus(tab: Tab, oracle) -> None:
    page = tab.page
    tab.goto("/quizzes/rink")
    page.get_by_role("button", name="Start the quiz").click()
    position = 1
    # A feedback page has its question's URL: wait for each question's own label before reading it.
    expect(page.locator(".progress-label")).to_have_text(f"Question {position} of {len(KIND_ORDER)}")
    while (question := oracle(page.url))[0] != "ordering":
        kind, answer, _ = question
        if kind == "number":
            page.get_by_label("Your answer (in spectators)").fill("1200")
        elif kind == "text":
            page.get_by_label("Your answer").fill("Tremblay")
        else:
            page.locator(f'label[for="choice-{answer.choices[0]}"]').click()
        page.get_by_role("button", name="Submit answer").click()
        page.locator("a[data-next]").click()
        position += 1
        expect(page.locator(".progress-label")).to_have_text(f"Question {position} of {len(KIND_ORDER)}")
    expect(page.locator("[data-ordering]")).to_have_class(re.compile(r"\benhanced\b"))
    first = shown_items(page)[0]
    down = page.get_by_role("button", name=f"Move “{first}” down")
    down.click()
    assert shown_items(page)[1] == first
    expect(down).to_be_focused()
    expect(page.get_by_role("button", name=f"Move “{first}” up")).to_be_enabled()
    # The hidden selects follow the list: what the form sends is the order shown.
    places = page.evaluate(
        "() => Array.from(document.querySelectorAll('.ordering-item')).map(item => item.querySelector('select').value)"
    )
    assert places == ["1", "2", "3"]


# Classroom ------------------------------------------------------------------------------------------


@pytest.fixture
def open_person(browser: Browser, server_url: str) -> Iterator[Callable[..., Tab]]:
    contexts = []

    def open_person(*, viewport: dict[str, int] = PHONE, javascript: bool = True) -> Tab:
        context = browser.new_context(viewport=viewport, java_script_enabled=javascript)
        context.set_default_timeout(5000)
        contexts.append(context)
        return Tab(context.new_page(), server_url, javascript)

    yield open_person
    for context in contexts:
        context.close()


def test_a_classroom_phone_follows_every_kind_without_reloading(open_person, bundled: Flask) -> None:
    host, phone = open_person(viewport=WIDE), open_person()
    page = host.page
    host.goto("/login")
    page.get_by_label("Username").fill("teacher")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # Logged in (the session cookie is set) before going on: a goto now would cut the login short.
    expect(page.get_by_role("heading", name="Log in")).to_have_count(0)
    host.goto("/host/new/rink")
    page.get_by_label("Show the leaderboard between questions").uncheck()
    page.get_by_role("button", name="Create the session").click()
    code = page.locator(".code").inner_text().strip()

    phone.goto(f"/join?code={code}")
    phone.page.get_by_label("Nickname").fill("Ana")
    phone.page.get_by_role("button", name="Join").click()
    expect(phone.page.get_by_role("heading", name="You're in!")).to_be_visible()
    phone.page.evaluate("window.__notReloaded = true")
    for position in range(1, len(KIND_ORDER) + 1):
        with page.expect_navigation():
            page.get_by_role("button", name="Start the first question" if position == 1 else "Next question").click()
        expect(phone.page.locator(".progress-label")).to_have_text(f"Question {position} of {len(KIND_ORDER)}")
        with bundled.app_context():
            attempt = db.session.scalar(sa.select(Attempt).where(Attempt.live_session_id.is_not(None)))
            turn = turn_of(attempt, position)
            kind, answer = turn.revision.kind, right_answer(turn.revision, turn.order)
            right_order = [choice.text for choice in sorted(turn.order, key=lambda choice: choice.position)]
        phone.check(f"live {kind} question")
        if kind == "ordering":
            order_with_the_keyboard(phone.page, right_order)
        elif kind == "number":
            phone.page.get_by_label("Your answer (in spectators)").fill("1200")
        elif kind == "text":
            phone.page.get_by_label("Your answer").fill("tremblay")
        else:
            phone.page.locator(f'label[for="choice-{answer.choices[0]}"]').click()
        # The only student answered: the question closes by itself, and the screen reveals it by
        # loading its reveal page. An event may redraw the screen as the reveal before that page
        # comes: wait for the page itself, not to check a screen that is about to be replaced.
        with page.expect_navigation(timeout=10_000):
            phone.page.get_by_role("button", name="Submit answer").click()
            expect(phone.page.get_by_role("heading", name="Answer received")).to_be_visible()
        expect(page.locator('.live.host[data-state="reveal"]')).to_have_count(1, timeout=10_000)
        expect(phone.page.locator(".verdict")).to_contain_text("Thanks for voting." if kind == "poll" else "Right!")
        host.assert_accessible(f"projector reveal of {kind}")
        phone.check(f"live {kind} reveal")
    assert phone.page.evaluate("window.__notReloaded === true")
    phone.assert_clean()
