"""Browser fixtures: the bundled app on a real HTTP server, Debian's Chromium through Playwright.

No pytest-playwright: ``playwright.sync_api`` is driven directly. Never run ``playwright install``:
the browser is Debian's ``/usr/bin/chromium``.

axe is injected with ``page.evaluate`` (that is how axe-playwright-python does it), which the
page's Content-Security-Policy does not govern, so contexts keep the CSP (no ``bypass_csp``);
``test_csp_is_enforced`` proves the policy is in force. ``axe.run`` is asynchronous and never
settles in a context with JavaScript disabled, so axe only runs in JavaScript contexts.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import sqlalchemy as sa
from axe_playwright_python.sync_playwright import Axe
from flask import Flask
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, Response, expect, sync_playwright
from werkzeug.serving import make_server

from quiz.extensions import db
from quiz.models import Attempt
from quiz.kinds import Submission
from tests.answers import right_answer, turn_of, wrong_answer

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_MISSING = "Debian's chromium is not installed (apt-get install chromium)"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 360, "height": 780}

_AXE = Axe()
_FAILED_TO_LOAD = "Failed to load resource"
_QUESTION_PATH = re.compile(r"/attempts/(?P<public_id>[^/]+)/questions/(?P<position>\d+)$")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of this folder (and only those) as ``browser``."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


# --------------------------------------------------------------------------- server


#: Seconds the test server gives its requests under way to finish when a test ends.
REQUESTS_FINISH_SECONDS = 2.0


def _closing_responses(app: Flask) -> Callable[..., Iterator[bytes]]:
    """``app``, each response closed however its request ends. When the browser drops a
    connection (the icon of a page it has moved on from), the development server can stop
    before it closes the response, and the file it was sending is left open for the garbage
    collector to find in the middle of a later test; a generator is closed when dropped."""

    def app_closing_its_responses(environ: dict, start_response: Callable) -> Iterator[bytes]:
        response = app(environ, start_response)
        try:
            yield from response
        finally:
            if hasattr(response, "close"):
                response.close()

    return app_closing_its_responses


@pytest.fixture
def server_url(bundled: Flask) -> Iterator[str]:
    """The bundled app served over real HTTP on a free port of 127.0.0.1; yields the base URL."""
    server = make_server("127.0.0.1", 0, _closing_responses(bundled), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="browser-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        # Requests the browser left under way (a static file of a page it moved on from) finish
        # and close their files now, not in the middle of a later test; an event stream that
        # outlives the wait is left to end by itself.
        deadline = time.monotonic() + REQUESTS_FINISH_SECONDS
        for request in threading.enumerate():
            if request.name.endswith("(process_request_thread)"):
                request.join(timeout=max(deadline - time.monotonic(), 0))
        server.server_close()
        thread.join(timeout=5)


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        if _in_ci():  # in CI a skipped browser test is a failure
            pytest.fail(CHROMIUM_MISSING, pytrace=False)
        pytest.skip(CHROMIUM_MISSING)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Tab:
    """A page in its own browser context, with a record of what it should never do.

    Records every request that does not go to the app (third-party), every console error
    and every uncaught page error. A "Failed to load resource" console error for a *document*
    the app answered with 4xx/5xx (a 404 page, a 422 form error) is the browser reporting a
    status the test asked for and asserts itself; it is kept apart, in ``error_documents``.
    The console error of Chromium's automatic ``/favicon.ico`` request is left out too: the
    browser makes that request once per browser, not per test, so it would fail whichever
    test happened to run first; ``test_site_has_a_favicon`` checks the icon deterministically.
    """

    page: Page
    base_url: str
    javascript: bool
    third_party_requests: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console: list[tuple[str, str]] = field(default_factory=list)  # (text, url) of errors
    error_documents: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.page.context.on("request", self._on_request)
        self.page.on("response", self._on_response)
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda error: self.page_errors.append(str(error)))

    def _on_request(self, request: Request) -> None:
        if not request.url.startswith(self.base_url + "/"):
            self.third_party_requests.append(request.url)

    def _on_response(self, response: Response) -> None:
        if response.request.resource_type == "document" and response.status >= 400:
            self.error_documents.add(response.url)

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console.append((message.text, (message.location or {}).get("url", "")))

    # ------------------------------------------------------------------ navigation

    def url(self, path: str) -> str:
        return self.base_url + path

    def goto(self, path: str) -> Response:
        response = self.page.goto(self.url(path))
        assert response is not None, path
        return response

    # ------------------------------------------------------------------ records

    def _is_status_of_error_document(self, text: str, url: str) -> bool:
        return text.startswith(_FAILED_TO_LOAD) and url in self.error_documents

    @property
    def console_errors(self) -> list[str]:
        return [
            f"{text} [{url}]"
            for text, url in self.console
            if url != self.url("/favicon.ico") and not self._is_status_of_error_document(text, url)
        ]

    def assert_clean(self, expected_error_documents: Iterable[str] = ()) -> None:
        """No third-party request, no console error, no page error happened in this tab, and
        the only documents answered with an error status are the ``expected`` URLs."""
        assert self.third_party_requests == [], "third-party requests were made"
        assert self.console_errors == [], "console errors were logged"
        assert self.page_errors == [], "uncaught errors in the page"
        assert self.error_documents == set(expected_error_documents), "unexpected error statuses"

    # ------------------------------------------------------------------ page checks

    def wait_until_loaded(self) -> None:
        """A click that navigates returns once the next page is under way, and ``expect`` on
        its first elements passes before its styles and deferred scripts (which enhance the
        page on DOMContentLoaded) are in: measure and check the page once it has loaded."""
        self.page.wait_for_load_state("load")

    def assert_fits_phone(self, what: str) -> None:
        """No horizontal scrolling on the 360 px viewport."""
        self.wait_until_loaded()
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{what}: the page is {width} px wide on a {PHONE['width']} px phone"

    def assert_accessible(self, what: str) -> None:
        assert self.javascript, "axe needs JavaScript: use a tab with JavaScript enabled"
        self.wait_until_loaded()
        assert_no_axe_violations(self.page, what)

    def check(self, what: str) -> None:
        """The checks every page type gets: axe (with JavaScript) and no horizontal scroll."""
        self.assert_fits_phone(what)
        if self.javascript:
            self.assert_accessible(what)


def assert_no_axe_violations(page: Page, what: str = "page") -> None:
    """Run axe-core on ``page`` (JavaScript must be enabled) and require zero violations."""
    results = _AXE.run(page)
    assert results.violations_count == 0, f"{what} ({page.url}):\n{results.generate_report()}"


@pytest.fixture
def open_tab(browser: Browser, server_url: str) -> Iterator[Callable[..., Tab]]:
    """Open a fresh context (phone viewport) with one watched page; closed after the test."""
    contexts = []

    def open_tab(*, javascript: bool = True, **options) -> Tab:
        context = browser.new_context(viewport=PHONE, java_script_enabled=javascript, **options)
        contexts.append(context)
        return Tab(context.new_page(), server_url, javascript)

    yield open_tab
    for context in contexts:
        context.close()


@pytest.fixture
def tab(open_tab: Callable[..., Tab]) -> Tab:
    """A phone-sized page with JavaScript, in a new context."""
    return open_tab()


@pytest.fixture
def nojs_tab(open_tab: Callable[..., Tab]) -> Tab:
    """A phone-sized page with JavaScript disabled, in a new context."""
    return open_tab(javascript=False)


# --------------------------------------------------------------------------- answer oracle


@pytest.fixture
def correct_numbers(bundled: Flask) -> Callable[[str], list[int]]:
    """The on-screen numbers of the correct choices of the question page at ``url``.

    Read from the database, as the app shuffles choices per attempt; lets a test pick a
    right or a wrong answer on purpose.
    """

    def correct_numbers(url: str) -> list[int]:
        match = _QUESTION_PATH.search(url.split("?")[0].split("#")[0])
        assert match, f"not a question page: {url}"
        with bundled.app_context():
            attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == match["public_id"]))
            assert attempt is not None
            order = turn_of(attempt, int(match["position"])).order
            return [number for number, choice in enumerate(order, 1) if choice.is_correct]

    return correct_numbers


@dataclass(frozen=True)
class Expected:
    """What a question page asks, and a right and a wrong answer to it."""

    kind: str
    right: Submission
    wrong: Submission
    #: The choices' or items' texts as shown, in their on-screen order.
    shown: list[str]

    @property
    def picks(self) -> bool:
        return self.kind in ("single", "multi", "true_false", "poll")


@pytest.fixture
def expected(bundled: Flask) -> Callable[[str], Expected]:
    """:class:`Expected` of the question page at ``url``, read from the database."""

    def read(url: str) -> Expected:
        match = _QUESTION_PATH.search(url.split("?")[0].split("#")[0])
        assert match, f"not a question page: {url}"
        with bundled.app_context():
            attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == match["public_id"]))
            assert attempt is not None
            turn = turn_of(attempt, int(match["position"]))
            return Expected(
                turn.revision.kind, right_answer(turn.revision, turn.order), wrong_answer(turn.revision, turn.order),
                [choice.text for choice in turn.order],
            )

    return read


def give(page: Page, expected: Expected, answer: Submission, *, javascript: bool) -> None:
    """Fill the question page's form with ``answer`` as a person on a phone does: tapping
    choices, typing, and ordering with the selects (without JavaScript) or the keyboard."""
    if answer.choices:
        for number in answer.choices:
            page.locator(f'label[for="choice-{number}"]').click()
            expect(page.locator(f"#choice-{number}")).to_be_checked()
    elif answer.order and javascript:
        order_with_the_keyboard(page, [expected.shown[number - 1] for number in answer.order])
    elif answer.order:
        for place, number in enumerate(answer.order, 1):
            page.locator(f"#place-{number}").select_option(str(place))
    elif answer.number is not None:
        page.locator('input[name="number"]').fill(answer.number)
    else:
        page.locator('input[name="text"]').fill(answer.text or "")


def shown_items(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(".ordering-item .item-text").all_inner_texts()]


def order_with_the_keyboard(page: Page, order: list[str]) -> None:
    """Sort the list as a keyboard user would: focus an item's button, Alt+Up or Alt+Down
    until it is in place."""
    # ordering.js adds the buttons (and may reorder the list) on DOMContentLoaded: read the
    # list once it has done so.
    expect(page.locator("[data-ordering]")).to_have_class(re.compile(r"\benhanced\b"))
    for place, text in enumerate(order):
        while (at := shown_items(page).index(text)) != place:
            item = page.locator(".ordering-item", has_text=text)
            direction = "up" if at > place else "down"
            item.get_by_role("button", name=f"Move “{text}” {direction}").focus()
            page.keyboard.press("Alt+ArrowUp" if at > place else "Alt+ArrowDown")
            # Each move is announced to screen readers.
            expect(page.locator("[data-ordering-status]")).to_have_text(re.compile(rf"“{re.escape(text)}” is now"))
    assert shown_items(page) == order
