"""A classroom live session in real browsers: a host on a wide screen and three students on
360 px phones, each in their own browser context, play a host-paced session to the podium;
and a phone without JavaScript that follows the session by reloading itself."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from playwright.sync_api import APIResponse, Browser, Page, Route, expect

from quiz import accounts
from quiz.extensions import db
from tests.browser.conftest import PHONE, Tab

QUIZ_TITLE = "Kiss & Cry: how well do you know it?"
TEACHER = "teacher"
PASSWORD = "a-long-password-1"
WIDE = {"width": 1280, "height": 800}
QUESTIONS = 2
MARKUP_NICKNAME = "<b>x</b>"
NICKNAMES = ("Ana", "Ben", MARKUP_NICKNAME)
#: How long a phone may take to show what the host just did, without reloading.
LIVE = 2000
#: How long any other step may take.
STEP = 5000
_SESSION_PATH = re.compile(r"/host/sessions/(\d+)$")

OpenPerson = Callable[..., Tab]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def open_person(browser: Browser, server_url: str) -> Iterator[OpenPerson]:
    """A fresh browser context per person (a phone by default), with one watched page.

    conftest's ``open_tab`` always uses the phone viewport; the host needs a wide screen.
    Contexts close before the server stops (this fixture depends on ``server_url``), so no
    event stream is cut while a page still listens to it.
    """
    contexts = []

    def open_person(*, viewport: dict[str, int] = PHONE, javascript: bool = True) -> Tab:
        context = browser.new_context(viewport=viewport, java_script_enabled=javascript)
        context.set_default_timeout(STEP)
        contexts.append(context)
        return Tab(context.new_page(), server_url, javascript)

    yield open_person
    for context in contexts:
        context.close()


@pytest.fixture
def teacher(bundled: Flask) -> str:
    with bundled.app_context():
        accounts.create_user(db.session, TEACHER, PASSWORD, "teacher")
        db.session.commit()
    return TEACHER


# --------------------------------------------------------------------------- helpers


def left(deadline: float) -> float:
    """Milliseconds until ``deadline`` (a ``time.monotonic()``), for an ``expect`` timeout:
    every phone must show a change within the same two seconds, not two seconds each."""
    return max((deadline - time.monotonic()) * 1000, 1.0)


def mark_page(page: Page) -> None:
    """Tag the current document, so that a later check can tell it was not reloaded."""
    page.evaluate("window.__notReloaded = true")


def assert_not_reloaded(page: Page, what: str) -> None:
    assert page.evaluate("window.__notReloaded === true"), f"{what}: the page was reloaded"


def press(page: Page, label: str) -> None:
    """Click one of the host's buttons and wait for the host screen it leads to."""
    with page.expect_navigation():
        page.get_by_role("button", name=label, exact=True).click()
    page.wait_for_load_state("load")


def host_logs_in_and_creates_session(host: Tab, username: str) -> tuple[int, str]:
    """Log in, open /host, host the Kiss & Cry quiz with 2 questions; return (id, code)."""
    page = host.page
    assert host.goto("/login").status == 200
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Log in")).to_have_count(0)

    assert host.goto("/host").status == 200
    expect(page.get_by_role("heading", level=1)).to_have_text("Host a session")
    page.get_by_role("link", name=f"Host “{QUIZ_TITLE}”").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New session")
    expect(page.get_by_label("I pace the questions (live, projected)")).to_be_checked()
    expect(page.get_by_label(re.compile(r"^Faster right answers earn more"))).to_be_checked()
    expect(page.get_by_label("Show the leaderboard between questions")).to_be_checked()
    page.get_by_label("Number of questions").fill(str(QUESTIONS))
    page.get_by_role("button", name="Create the session").click()

    page.wait_for_url(_SESSION_PATH)
    page.wait_for_load_state("load")
    session_id = int(_SESSION_PATH.search(page.url).group(1))
    code = page.locator(".code").inner_text().strip()
    assert re.fullmatch(r"\d{6}", code), code
    qr = page.locator("img.qr")
    expect(qr).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    return session_id, code


def join(student: Tab, code: str, nickname: str, session_id: int) -> None:
    """Open /join?code=CODE (prefilled), type a nickname, join; the lobby page shows."""
    page = student.page
    assert student.goto(f"/join?code={code}").status == 200
    expect(page.get_by_label("Session code")).to_have_value(code)
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(student.url(f"/live/{session_id}"))
    expect(page.get_by_role("heading", level=1)).to_have_text("You're in!")
    expect(page.locator(".meta strong")).to_have_text(nickname)


def expect_question(page: Page, position: int, timeout: float = LIVE) -> None:
    """The question form: choices as radios or check-boxes in labels, and a submit button."""
    expect(page.locator(".progress-label")).to_have_text(f"Question {position} of {QUESTIONS}", timeout=timeout)
    form = page.locator("form").filter(has=page.locator('input[name="choice"]'))
    expect(form).to_have_count(1, timeout=timeout)
    expect(form.get_by_role("button", name="Submit answer")).to_be_visible(timeout=timeout)
    expect(form.get_by_role("heading", level=1)).not_to_be_empty(timeout=timeout)
    labels = form.locator("label").filter(has_text=re.compile(r"\S"))
    expect(labels.first).to_be_visible(timeout=timeout)
    assert page.locator('input[name="choice"]').count() >= 2


def answer(page: Page, number: int = 1) -> None:
    """Tap the label of choice ``number`` and submit; the page says the answer was received."""
    choice = page.locator('input[name="choice"]').nth(number - 1)
    # The input's own label, whether it wraps the input or points at it with for=.
    label = choice.evaluate_handle("input => input.labels[0]").as_element()
    assert label is not None, "a choice without a label"
    label.click()
    expect(choice).to_be_checked()
    page.get_by_role("button", name="Submit answer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Answer received")


def fit_phones(students: list[Tab], what: str) -> None:
    for student in students:
        student.assert_fits_phone(what)


def expect_reveal(page: Page) -> None:
    expect(page.locator("table.distribution")).to_be_visible(timeout=LIVE)
    marks = page.locator(".source mark")
    expect(marks.first).to_be_visible(timeout=LIVE)
    assert marks.first.inner_text().strip(), "the highlighted source passage is empty"


# --------------------------------------------------------------------------- tests


def test_host_paced_session_with_three_phones(open_person: OpenPerson, teacher: str) -> None:
    host = open_person(viewport=WIDE)
    hp = host.page
    session_id, code = host_logs_in_and_creates_session(host, teacher)
    host_path = f"/host/sessions/{session_id}"
    expect(hp.get_by_role("heading", name="0 students joined")).to_be_visible()
    host.assert_accessible("host lobby (empty)")
    mark_page(hp)

    students = [open_person() for _ in NICKNAMES]
    ana, ben, markup = students
    phones = [student.page for student in students]

    # A wrong code first: an accessible error, and the form kept.
    wrong = "000000" if code != "000000" else "999999"
    assert ana.goto(f"/join?code={code}").status == 200
    ana.check("join page")
    ana.page.get_by_label("Session code").fill(wrong)
    ana.page.get_by_label("Nickname").fill("Ana")
    with ana.page.expect_response(lambda r: r.request.method == "POST") as posted:
        ana.page.get_by_role("button", name="Join").click()
    assert posted.value.status == 404
    expect(ana.page.get_by_text("No open session has this code.")).to_be_visible()
    code_field = ana.page.get_by_label("Session code")
    expect(code_field).to_have_attribute("aria-invalid", "true")
    expect(code_field).to_have_attribute("aria-describedby", re.compile(r"\S"))
    ana.check("join page with a wrong code")

    for student, nickname in zip(students, NICKNAMES):
        join(student, code, nickname, session_id)
    ana.check("student lobby")
    fit_phones(students, "student lobby")
    for phone in phones:
        mark_page(phone)

    # The host's lobby lists everyone without reloading; markup in a nickname is text.
    players = hp.locator("ul.players > li")
    expect(hp.get_by_role("heading", name="3 students joined")).to_be_visible(timeout=STEP)
    expect(players).to_have_count(3)
    names = [" ".join(text.split()) for text in hp.locator("ul.players > li > span").all_text_contents()]
    assert sorted(names) == sorted(NICKNAMES), names
    expect(hp.locator("ul.players b")).to_have_count(0)
    assert_not_reloaded(hp, "host lobby")
    host.assert_accessible("host lobby")

    # Question 1: every phone shows it within 2 s, without reloading.
    press(hp, "Start the first question")
    expect(hp.locator(".progress-label")).to_have_text(f"Question 1 of {QUESTIONS}")
    mark_page(hp)
    shown_by = time.monotonic() + LIVE / 1000
    for phone in phones:
        expect_question(phone, 1, timeout=left(shown_by))
    for phone, nickname in zip(phones, NICKNAMES):
        assert_not_reloaded(phone, f"{nickname}'s question 1")
    ana.check("student question")
    fit_phones(students, "student question")
    expect(hp.locator("[data-answered]")).to_have_text("0")
    expect(hp.locator(".answered")).to_have_text("0 of 3 answered")
    host.assert_accessible("host question open")

    answer(ana.page, 1)
    answer(ben.page, 2)
    ana.check("student answered")
    fit_phones(students, "student answered")
    expect(hp.locator("[data-answered]")).to_have_text("2", timeout=STEP)
    expect(hp.locator(".answered")).to_have_text("2 of 3 answered")
    assert_not_reloaded(hp, "host question open")
    expect(markup.page.get_by_role("button", name="Submit answer")).to_be_visible()

    press(hp, "Close the question")
    expect(hp.locator(".verdict")).to_have_text("Closed: 2 of 3 answered.")
    expect(markup.page.get_by_role("heading", level=1)).to_have_text("The question is closed", timeout=LIVE)
    for phone in phones:
        mark_page(phone)
    press(hp, "Reveal the answer")
    expect_reveal(hp)
    expect(hp.locator("table.distribution caption")).to_have_text("How the class answered (2 of 3)")
    host.assert_accessible("host reveal")
    for phone in phones:
        expect_reveal(phone)
    for student in (ana, ben):
        expect(student.page.locator(".verdict")).to_contain_text(re.compile(r"Right!|Not quite\."))
    expect(markup.page.locator(".verdict")).to_contain_text("No answer.")
    for phone, nickname in zip(phones, NICKNAMES):
        assert_not_reloaded(phone, f"{nickname}'s reveal")
    ana.check("student reveal (answered)")
    markup.check("student reveal (no answer)")
    fit_phones(students, "student reveal")

    press(hp, "Show the leaderboard")
    expect(hp.get_by_role("heading", level=1)).to_have_text("Leaderboard after question 1")
    expect(hp.locator("table.standings tbody tr")).to_have_count(3)
    expect(hp.locator("table.standings b")).to_have_count(0)
    host.assert_accessible("host leaderboard")
    for phone in phones:
        expect(phone.locator(".score")).to_have_text(re.compile(r"^You are number [1-3]\b"), timeout=LIVE)
    ana.check("student leaderboard")
    fit_phones(students, "student leaderboard")

    # Question 2: everyone answers, so it closes by itself, and the host's screen reveals it.
    press(hp, "Next question")
    expect(hp.locator(".progress-label")).to_have_text(f"Question 2 of {QUESTIONS}")
    shown_by = time.monotonic() + LIVE / 1000
    for phone in phones:
        expect_question(phone, 2, timeout=left(shown_by))
    # The host's screen loads its reveal page. An event may redraw the screen as the reveal before
    # that page comes: wait for the page itself, which the next press must not mistake for its own.
    with hp.expect_navigation(timeout=2 * STEP):
        for phone in phones:
            answer(phone, 1)
    expect(hp.locator("[data-live-events]")).to_have_attribute("data-state", "reveal", timeout=2 * STEP)
    expect(hp.locator(".verdict")).to_have_text("Everyone answered: 3 of 3.")
    expect_reveal(hp)
    for phone in phones:
        expect_reveal(phone)
        expect(phone.locator(".verdict")).to_contain_text(re.compile(r"Right!|Not quite\."))
    press(hp, "Show the leaderboard")
    expect(hp.get_by_role("heading", level=1)).to_have_text("Leaderboard after question 2")
    for phone in phones:
        expect(phone.locator(".score")).to_have_text(re.compile(r"^You are number [1-3]\b"), timeout=LIVE)

    press(hp, "Finish and show the podium")
    expect(hp.get_by_role("heading", level=1)).to_have_text("Podium")
    expect(hp.locator("ol.podium > li")).to_have_count(3)
    expect(hp.locator("ol.podium b")).to_have_count(0)
    host.assert_accessible("host podium")
    for phone in phones:
        expect(phone.get_by_role("heading", level=1)).to_have_text("The end", timeout=LIVE)
        expect(phone.get_by_role("link", name="Your answers with their sources")).to_be_visible()
    expect(markup.page.locator("main b")).to_have_count(0)
    ana.check("student end")
    fit_phones(students, "student end")

    # The host's results page; a student's review of their answers.
    assert host.goto(f"{host_path}/results").status == 200
    expect(hp.get_by_role("heading", level=1)).to_have_text("Results")
    expect(hp.locator("table.results tbody tr")).to_have_count(3)
    host.assert_accessible("host results")

    ben.page.get_by_role("link", name="Your answers with their sources").click()
    expect(ben.page.get_by_role("heading", level=1)).to_have_text("Your results")
    expect(ben.page.locator("ol.review > li")).to_have_count(QUESTIONS)
    ben.check("student review")

    host.assert_clean()
    ana.assert_clean(expected_error_documents={ana.url("/join")})
    ben.assert_clean()
    markup.assert_clean()


class HeldRedraw:
    """The first page a live page fetches to redraw itself from a path matching ``pattern``,
    held back until :meth:`deliver`: the page as the server drew it then, arriving after later
    ones. It counts the pages the live page has read, to know when the late one has come."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.page = page
        self.held: list[tuple[Route, APIResponse]] = []
        page.evaluate("""() => {
            const parse = DOMParser.prototype.parseFromString;
            window.__pagesRead = 0;
            DOMParser.prototype.parseFromString = function (...args) { window.__pagesRead += 1; return parse.apply(this, args); };
        }""")
        page.route(re.compile(pattern), self._hold_the_first)

    def _hold_the_first(self, route: Route) -> None:
        if route.request.resource_type == "fetch" and not self.held:
            self.held.append((route, route.fetch()))
        else:
            route.continue_()

    def wait_until_held(self, failure: str) -> None:
        deadline = time.monotonic() + STEP / 1000
        while not self.held:  # Playwright runs the handler while the test waits on the page
            assert time.monotonic() < deadline, failure
            self.page.wait_for_timeout(50)

    def deliver(self, pages_read: int) -> None:
        """Let the held page come, and wait until the live page has read ``pages_read`` pages."""
        route, response = self.held[0]
        route.fulfill(response=response)
        self.page.wait_for_function(f"() => window.__pagesRead >= {pages_read}", timeout=STEP)


def test_the_host_screen_never_goes_back_to_an_older_page(open_person: OpenPerson, teacher: str) -> None:
    """Two students join in quick succession: the host's screen redraws twice, and the answer to
    the first redraw comes back last. The screen keeps the newer page."""
    host = open_person(viewport=WIDE)
    hp = host.page
    session_id, code = host_logs_in_and_creates_session(host, teacher)
    redraw = HeldRedraw(hp, rf"/host/sessions/{session_id}$")  # the page then: one student
    join(open_person(), code, "Ana", session_id)
    redraw.wait_until_held("the host's screen did not redraw when a student joined")
    join(open_person(), code, "Ben", session_id)
    expect(hp.get_by_role("heading", name="2 students joined")).to_be_visible(timeout=STEP)

    redraw.deliver(pages_read=2)
    expect(hp.get_by_role("heading", name="2 students joined")).to_be_visible()
    expect(hp.locator("ul.players > li")).to_have_count(2)


def test_a_phone_never_goes_back_to_an_older_page(open_person: OpenPerson, teacher: str) -> None:
    """The host shows the leaderboard and at once the next question: the phone redraws for the
    leaderboard, draws the question itself, and the redraw's answer comes back last. The phone
    keeps the question."""
    host = open_person(viewport=WIDE)
    hp = host.page
    session_id, code = host_logs_in_and_creates_session(host, teacher)
    student = open_person()
    page = student.page
    join(student, code, "Ana", session_id)
    press(hp, "Start the first question")
    expect_question(page, 1, timeout=STEP)
    press(hp, "Close the question")
    press(hp, "Reveal the answer")
    expect(page.locator("[data-live-events]")).to_have_attribute("data-state", "reveal", timeout=STEP)
    redraw = HeldRedraw(page, rf"/live/{session_id}$")  # the page then: the leaderboard
    press(hp, "Show the leaderboard")
    redraw.wait_until_held("the phone did not redraw for the leaderboard")
    press(hp, "Next question")
    expect_question(page, 2, timeout=STEP)

    redraw.deliver(pages_read=1)
    expect_question(page, 2)
    expect(page.locator(".score")).to_have_count(0)


def test_phone_without_javascript_follows_the_session(open_person: OpenPerson, teacher: str) -> None:
    host = open_person(viewport=WIDE)
    hp = host.page
    session_id, code = host_logs_in_and_creates_session(host, teacher)
    student = open_person(javascript=False)
    page = student.page

    join(student, code, "Noscript", session_id)
    student.assert_fits_phone("student lobby without JavaScript")
    expect(hp.get_by_role("heading", name="1 student joined")).to_be_visible(timeout=STEP)

    press(hp, "Start the first question")
    # The lobby reloads itself every 3 s (<noscript><meta http-equiv="refresh">).
    expect_question(page, 1, timeout=STEP)
    student.assert_fits_phone("student question without JavaScript")
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        answer(page, 1)
    assert posted.value.status == 303, posted.value.status
    assert page.url == student.url(f"/live/{session_id}")
    student.assert_fits_phone("student answered without JavaScript")
    # The only student answered: the question closed by itself, and the host's screen revealed it.
    expect(hp.locator("[data-live-events]")).to_have_attribute("data-state", "reveal", timeout=2 * STEP)
    expect(hp.locator(".verdict")).to_have_text("Everyone answered: 1 of 1.")

    host.assert_clean()
    student.assert_clean()
