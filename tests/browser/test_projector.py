"""The host's screen on a projector, in Chromium at 1280x720 and at 1920x1080: a session with
three students on phones (and, in the lobby, 27 more) goes from the lobby to the podium, the
host pressing keys rather than buttons.

In every state the screen fits without scrolling, and axe finds nothing. A question reads from
the back of a room (48 px or more at 1280x720), its choices are tiles with a colour, a shape
and a number, the countdown is a bar with the seconds, and the join code and QR code stay in
a corner for latecomers. A question that everyone answered reveals itself; one the host closed
waits for the host. The podium puts the winner in the middle, on the highest step.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from quiz import accounts, live, play
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import LivePlayer, LiveSession, Quiz
from tests.browser.conftest import PHONE, Tab

TEACHER = "teacher"
PASSWORD = "a-long-password-1"
SCREENS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
#: The smallest question text readable from the back of a room, at 1280x720.
QUESTION_PX = 48
#: How long a change may take to reach a screen.
STEP = 5000

#: Two questions: the first with a long prompt, six long choices, a long explanation and a
#: long quoted paragraph (what is hardest to fit), the second short. Choices keep their order,
#: so that a test knows the right one: 3, then 1.
BANK = """\
version: 1
articles:
  - id: station
    title: The old station of Millbrook
    text: |
      The station first opened in 1871, when the line to the coast reached Millbrook.

      For a century the trains came and went. The last regular train left in 1968, and the building stood empty for decades, its windows boarded up and its platforms overgrown with weeds and young birch trees.

      After two years of meetings, letters to the local paper and a consultation that drew more replies than any before it, the council voted to restore the station as a working stop, with trains to the coast every hour during the summer months. Volunteers from the heritage society offered to staff the ticket office at weekends, and the county agreed to pay for new platforms, lighting and a footbridge that meets today's rules.
quizzes:
  - id: station
    title: The old station
    article: station
    settings: {questions_per_attempt: 2, shuffle_choices: false, time_limit: 120}
questions:
  - id: decision
    prompt: >-
      After the long public consultation, what did the town council finally decide to do with
      the old railway station of Millbrook?
    choices:
      - Turn it into a public library with a reading garden on the former platforms
      - Knock it down and build a multi-storey car park for the nearby shopping streets
      - Restore it as a working station with trains to the coast every hour in summer
      - Sell it to a private developer who would turn it into luxury flats and offices
      - Keep it closed and fenced off until the money for a full repair could be found
      - Move the whole building, brick by brick, to the open-air museum in the next valley
    correct: Restore it as a working station with trains to the coast every hour in summer
    explanation: >-
      The council chose to bring the trains back rather than to find the building another use.
      The article describes two years of meetings and a consultation that drew more replies than
      any before it, and it says who pays for what: volunteers from the heritage society staff the
      ticket office at weekends, while the county pays for new platforms, lighting and a footbridge.
      None of the other plans (a library, a car park, flats, a museum) is what the council voted for.
    source: >-
      the council voted to restore the station as a working stop, with trains to the coast every
      hour during the summer months
  - id: opened
    prompt: In which year did the station first open?
    choices: ["1871", "1902", "1925", "1968"]
    correct: "1871"
    explanation: The line to the coast reached Millbrook that year.
    source: The station first opened in 1871
"""
RIGHT = {1: 3, 2: 1}
STUDENTS = ("Ana", "Ben", "Cleo")
#: Students who join the lobby without a phone of their own here, to fill it to 30.
LATE_CROWD = 27

OpenPerson = Callable[..., Tab]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def station(bundled: Flask, write_bank) -> Flask:
    """The served app with the station quiz (in place of the bundled bank) and a teacher."""
    with bundled.app_context():
        import_bank(db.session, load_bank(write_bank(BANK)))
        accounts.create_user(db.session, TEACHER, PASSWORD, "teacher")
        db.session.commit()
    return bundled


@pytest.fixture
def open_person(browser: Browser, server_url: str) -> Iterator[OpenPerson]:
    """A fresh browser context per person, a phone unless a screen is given (and in the
    browser's language unless a ``locale`` is); the contexts close before the server stops, so
    that no event stream is cut while a page still listens."""
    contexts = []

    def open_person(*, viewport: dict[str, int] = PHONE, **options) -> Tab:
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(STEP)
        contexts.append(context)
        return Tab(context.new_page(), server_url, True)

    yield open_person
    for context in contexts:
        context.close()


# --------------------------------------------------------------------------- helpers


def new_session(app: Flask) -> tuple[int, str]:
    """A host-paced session of the station quiz, with a leaderboard and points for right answers."""
    with app.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "station"))
        teacher = accounts.user_by_username(db.session, TEACHER)
        session = live.create_session(db.session, teacher, quiz, live.Settings(scoring="plain", show_leaderboard=True))
        db.session.commit()
        return session.id, session.code


def crowd(app: Flask, session_id: int, count: int) -> list[int]:
    """Students who join without a browser here; their places' ids."""
    with app.app_context():
        session = db.session.get(LiveSession, session_id)
        seats = [
            live.join(db.session, session, play.create_player(db.session), f"Latecomer number {number:02d}").id
            for number in range(1, count + 1)
        ]
        db.session.commit()
        return seats


def send_home(app: Flask, session_id: int, seats: list[int]) -> None:
    with app.app_context():
        session = db.session.get(LiveSession, session_id)
        for seat in seats:
            live.remove_player(db.session, session, seat)
        db.session.commit()
        assert db.session.scalar(sa.select(sa.func.count()).select_from(LivePlayer).where(
            LivePlayer.session_id == session_id, LivePlayer.removed_at.is_(None))) == len(STUDENTS)


def log_in(host: Tab) -> None:
    page = host.page
    assert host.goto("/login").status == 200
    page.get_by_label("Username").fill(TEACHER)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Log in")).to_have_count(0)


def join(student: Tab, code: str, nickname: str, session_id: int) -> None:
    page = student.page
    assert student.goto(f"/join?code={code}").status == 200
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(student.url(f"/live/{session_id}"))
    expect(page.get_by_role("heading", level=1)).to_have_text("You're in!")


def answer(student: Tab, position: int, number: int) -> None:
    page = student.page
    expect(page.locator(".progress-label")).to_have_text(re.compile(rf"^Question {position} of"), timeout=STEP)
    page.locator(f'label[for="choice-{number}"]').click()
    page.get_by_role("button", name="Submit answer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Answer received")


def state_of(page: Page) -> str:
    return page.locator("[data-live-events]").get_attribute("data-state")


def key(page: Page, name: str, state: str) -> None:
    """Press a key on the host's screen and wait for the state it leads to."""
    with page.expect_navigation():
        page.keyboard.press(name)
    page.wait_for_load_state("load")
    assert state_of(page) == state, f"{name} led to {state_of(page)}, not {state}"


def box_of(locator) -> dict:
    """Where ``locator`` is on screen, read again for a few seconds while the screen is between
    two drawings (an event redraws it; an action loads the next page)."""
    deadline = time.monotonic() + 5
    while (box := locator.bounding_box()) is None:
        assert time.monotonic() < deadline, f"{locator} is not on the page"
        time.sleep(0.1)
    return box


def assert_fits(page: Page, what: str) -> None:
    """The whole screen is the page: nothing scrolls, and the host's buttons are in sight."""
    height, screen_height, width, screen_width = page.evaluate(
        "[document.scrollingElement.scrollHeight, innerHeight, document.scrollingElement.scrollWidth, innerWidth]"
    )
    assert height <= screen_height, f"{what}: {height} px tall on a {screen_height} px screen"
    assert width <= screen_width, f"{what}: {width} px wide on a {screen_width} px screen"
    # Measured in one go in the page, so that a redraw between two buttons cannot detach one; and
    # read again for a few seconds while the screen is between two drawings (an event redraws it,
    # and a button not laid out yet has no box).
    deadline = time.monotonic() + 5
    while not (buttons := page.locator(".projector button, .projector a.button").evaluate_all("""elements => elements
        .filter(element => element.getClientRects().length > 0)
        .map(element => {
            const box = element.getBoundingClientRect();
            return {text: element.innerText.trim(), top: box.top, bottom: box.bottom};
        })""")):
        assert time.monotonic() < deadline, f"{what}: no button in sight"
        page.wait_for_timeout(100)
    for button in buttons:
        assert button["top"] >= 0 and button["bottom"] <= screen_height, f"{what}: {button['text']} is out of sight"


def assert_whole(page: Page, selector: str, what: str) -> None:
    """The part at ``selector`` shows all it holds, without scrolling inside itself."""
    inside, shown = page.locator(selector).evaluate("element => [element.scrollHeight, element.clientHeight]")
    assert inside <= shown + 1, f"{what}: {selector} holds {inside} px in {shown} px"


def question_px(page: Page) -> float:
    return float(page.evaluate('getComputedStyle(document.querySelector("h1")).fontSize').removesuffix("px"))


def assert_question_readable(page: Page, screen: str, what: str) -> None:
    size = question_px(page)
    assert size >= QUESTION_PX, f"{what}: the question is {size} px"
    if screen == "1080p":
        assert size >= QUESTION_PX * 1.4, f"{what}: the question does not grow with the screen ({size} px)"


def assert_join_corner(page: Page, code: str, what: str) -> None:
    """The join code and the QR code, small, in the bottom right corner."""
    corner = page.locator(".join-corner")
    expect(corner).to_be_visible()
    expect(corner.locator(".corner-code")).to_have_text(code)
    qr = corner.locator("img.corner-qr")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    box = box_of(corner)
    width, height = page.evaluate("[innerWidth, innerHeight]")
    assert box["x"] + box["width"] >= width - 40 and box["y"] + box["height"] >= height - 40, f"{what}: {box}"
    assert box["width"] < width / 3 and box["height"] < height / 5, f"{what}: the join corner is not small: {box}"


def assert_hint(page: Page, *keys: str) -> None:
    hint = page.locator(".shortcuts")
    expect(hint).to_be_visible()
    assert [text.strip() for text in hint.locator("kbd").all_inner_texts()] == list(keys)


def tiles_of(page: Page) -> list[dict]:
    """Each tile's number, shape (its clip path), colour and shape's size."""
    return page.locator(".tiles > li").evaluate_all("""tiles => tiles.map(tile => {
        const shape = getComputedStyle(tile, "::before");
        return {number: tile.querySelector(".number").textContent.trim(), shape: shape.clipPath,
                size: parseFloat(shape.width), colour: getComputedStyle(tile).backgroundColor,
                visible: tile.getBoundingClientRect().bottom <= innerHeight};
    })""")


def assert_tiles(page: Page, count: int, what: str) -> None:
    # The screen redraws itself when an event arrives (a student answering): tiles read in the
    # middle of a redraw have no styles yet, so they are read again for a few seconds.
    deadline = time.monotonic() + 5
    while True:
        tiles = tiles_of(page)
        try:
            assert [tile["number"] for tile in tiles] == [str(number) for number in range(1, count + 1)], what
            assert all(tile["shape"] not in ("none", "") and tile["size"] >= 16 and tile["visible"] for tile in tiles), tiles
            assert len({tile["shape"] for tile in tiles}) == count, f"{what}: shapes repeat: {tiles}"
            assert len({tile["colour"] for tile in tiles}) == count, f"{what}: colours repeat: {tiles}"
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            page.wait_for_timeout(100)


def check(host: Tab, screen: str, what: str) -> None:
    """What every state gets: it fits the screen, and axe finds nothing."""
    assert_fits(host.page, f"{what} at {screen}")
    host.assert_accessible(f"{what} at {screen}")


# --------------------------------------------------------------------------- the test


@pytest.mark.parametrize("screen", SCREENS)
def test_a_session_on_the_projector(open_person: OpenPerson, station: Flask, screen: str) -> None:
    session_id, code = new_session(station)
    host = open_person(viewport=SCREENS[screen])
    hp = host.page
    log_in(host)
    assert host.goto(f"/host/sessions/{session_id}").status == 200
    # No site menu or footer: the whole screen is the session's.
    expect(hp.locator(".site-header")).to_be_hidden()
    expect(hp.locator(".site-footer")).to_be_hidden()

    # The lobby, with 30 students: the code and QR code large, every name in sight.
    students = [open_person() for _ in STUDENTS]
    for student, nickname in zip(students, STUDENTS):
        join(student, code, nickname, session_id)
    latecomers = crowd(station, session_id, LATE_CROWD)
    expect(hp.get_by_role("heading", name="30 students joined")).to_be_visible(timeout=STEP)
    expect(hp.locator("ul.players > li")).to_have_count(30)
    expect(hp.locator(".code")).to_have_text(code)
    qr = hp.locator("img.qr")
    expect(qr).to_be_visible()
    assert box_of(qr)["width"] >= SCREENS[screen]["height"] / 4, "the lobby's QR code is small"
    assert hp.locator(".join-corner").count() == 0
    assert_whole(hp, ".people", "lobby")
    assert_hint(hp, "N", "→")
    check(host, screen, "lobby with 30 students")
    send_home(station, session_id, latecomers)
    expect(hp.get_by_role("heading", name="3 students joined")).to_be_visible(timeout=STEP)

    # N starts the first question: six long choices as tiles under a large question.
    key(hp, "n", "question_open")
    assert_question_readable(hp, screen, "question 1")
    assert_tiles(hp, 6, "question 1")
    assert_whole(hp, ".stage-body", "question 1")
    bar = hp.locator("progress.countdown-bar")
    expect(bar).to_be_visible()
    box = box_of(bar)
    assert box["width"] >= SCREENS[screen]["width"] / 2 and box["height"] >= 20, f"the countdown bar is small: {box}"
    expect(hp.locator(".countdown")).to_have_text(re.compile(r"^\s*1[0-2]\d s left\s*$"))
    before = float(bar.evaluate("bar => bar.value"))
    # The bar shrinks as time passes (it is redrawn ten times a second).
    hp.wait_for_function("before => document.querySelector('progress.countdown-bar').value < before", arg=before, timeout=2000)
    expect(hp.locator(".answered")).to_have_text("0 of 3 answered")
    assert_join_corner(hp, code, "question 1")
    assert_hint(hp, "N", "→", "R", "C")
    check(host, screen, "question open with six long choices")

    # Keys do nothing while the host types in a field.
    hp.evaluate("""() => {
        const field = document.createElement("input");
        field.type = "text"; field.id = "typing"; field.setAttribute("aria-label", "Notes");
        document.querySelector(".stage-top").append(field);
    }""")
    hp.locator("#typing").press_sequentially("ncrl")
    hp.keyboard.press("ArrowRight")
    hp.wait_for_timeout(500)
    expect(hp.locator("#typing")).to_have_value("ncrl")
    assert state_of(hp) == "question_open"
    hp.locator("#typing").evaluate("field => field.remove()")

    ana, ben, cleo = students
    answer(ana, 1, RIGHT[1])
    answer(ben, 1, 1)
    expect(hp.locator(".answered")).to_have_text("2 of 3 answered", timeout=STEP)

    # C closes the question; closed by the host, it waits for the host to reveal it.
    key(hp, "c", "question_closed")
    expect(hp.locator(".verdict")).to_have_text("Closed: 2 of 3 answered.")
    assert_question_readable(hp, screen, "question 1 closed")
    assert_tiles(hp, 6, "question 1 closed")
    assert_join_corner(hp, code, "question 1 closed")
    assert_hint(hp, "N", "→", "R")
    check(host, screen, "question closed")
    hp.wait_for_timeout(3000)  # longer than the pause before a reveal of its own
    assert state_of(hp) == "question_closed", "a question the host closed revealed itself"

    # R reveals: bars with counts and percentages, the right one ticked; why scrolls inside.
    key(hp, "r", "reveal")
    assert_question_readable(hp, screen, "reveal")
    rows = hp.locator("table.projector-chart tbody tr")
    expect(rows).to_have_count(6)
    expect(hp.locator("table.projector-chart caption")).to_have_text("How the class answered (2 of 3)")
    for number in range(1, 7):
        row = rows.nth(number - 1)
        expect(row.locator(".number")).to_have_text(str(number))
        shape = row.locator("th").evaluate('th => getComputedStyle(th, "::before").clipPath')
        assert shape != "none", f"row {number} has no shape"
        counted = number in (RIGHT[1], 1)
        expect(row.locator("td").first).to_have_text("1" if counted else "0")
        expect(row.locator(".percent")).to_have_text("50%" if counted else "0%")
        expect(row.locator("meter")).to_be_visible()
    correct = hp.locator("table.projector-chart tr.correct")
    expect(correct).to_have_count(1)
    expect(correct.locator(".number")).to_have_text(str(RIGHT[1]))
    expect(correct.locator(".tag-correct")).to_have_text("Correct answer")
    tick = correct.locator(".tag-correct").evaluate('tag => getComputedStyle(tag, "::before").borderRightWidth')
    assert float(tick.removesuffix("px")) > 0, "the right answer has no tick"
    assert_whole(hp, ".chart-panel", "reveal")
    why = hp.locator("section.why")
    expect(why.locator(".source mark").first).to_be_visible()
    assert why.evaluate("why => getComputedStyle(why).overflowY") == "auto"
    assert_join_corner(hp, code, "reveal")
    assert_hint(hp, "N", "→", "L")
    check(host, screen, "reveal with the explanation and the quote")

    # L shows the leaderboard.
    key(hp, "l", "leaderboard")
    expect(hp.locator("table.standings tbody tr")).to_have_count(3)
    expect(hp.locator("table.standings tbody tr").first.locator("th")).to_have_text("Ana")
    assert_join_corner(hp, code, "leaderboard")
    assert_hint(hp, "N", "→")
    check(host, screen, "leaderboard")

    # → opens the second question; everyone answers, and it reveals itself.
    key(hp, "ArrowRight", "question_open")
    assert_tiles(hp, 4, "question 2")
    check(host, screen, "question open with four short choices")
    # It says why it closed for a moment, then reveals: the screen loads its reveal page. An
    # event may redraw the screen as the reveal before that page comes: wait for the page itself,
    # not to measure a screen that is about to be replaced.
    with hp.expect_navigation(timeout=2 * STEP):
        answer(ana, 2, RIGHT[2])
        answer(ben, 2, RIGHT[2])
        answer(cleo, 2, 2)
    expect(hp.locator("[data-live-events]")).to_have_attribute("data-state", "reveal", timeout=2 * STEP)
    expect(hp.locator(".verdict")).to_have_text("Everyone answered: 3 of 3.")
    expect(hp.locator("table.projector-chart tr.correct .percent")).to_have_text("67%")
    for student in students:
        expect(student.page.locator(".verdict")).to_contain_text(re.compile(r"Right!|Not quite\."), timeout=STEP)
    check(host, screen, "reveal of a short question")

    # N twice: the leaderboard, then the podium.
    key(hp, "n", "leaderboard")
    key(hp, "n", "finished")
    places = hp.locator("ol.podium > li")
    expect(places).to_have_count(3)
    podium = places.evaluate_all("""places => places.map(place => {
        const box = place.getBoundingClientRect(), step = place.querySelector(".place").getBoundingClientRect();
        return {text: place.textContent.replace(/\\s+/g, " ").trim(), centre: box.left + box.width / 2, step: step.height,
                name: parseFloat(getComputedStyle(place).fontSize)};
    })""")
    assert [place["text"] for place in podium] == ["1 Ana 2 points", "2 Ben 1 point", "3 Cleo 0 points"]
    first, second, third = podium
    assert second["centre"] < first["centre"] < third["centre"], "the winner is not in the middle"
    # The steps rise: measure them once their animations are over.
    places.locator(".place").evaluate_all("steps => Promise.all(steps.flatMap(step => step.getAnimations().map(a => a.finished)))")
    steps = places.locator(".place").evaluate_all("steps => steps.map(step => step.getBoundingClientRect().height)")
    assert steps[0] > steps[1] > steps[2], f"the steps are not first, second, third in height: {steps}"
    assert first["name"] >= QUESTION_PX * 0.75, "the names on the podium are small"
    expect(hp.locator(".join-corner")).to_have_count(0)
    check(host, screen, "podium")

    host.assert_clean()
    for student in students:
        student.assert_clean()
