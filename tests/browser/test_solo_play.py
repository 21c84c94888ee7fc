"""Solo play in a real browser on a 360 px phone: without JavaScript, with the keyboard, and
axe on every page type."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.answers import form_fields
from tests.browser.conftest import Expected, give

if TYPE_CHECKING:
    from tests.browser.conftest import Tab

QUIZ = "kiss-and-cry"
QUIZ_TITLE = "Kiss & Cry: how well do you know it?"
ARTICLE = "kiss-and-cry"
LENGTH = 10
NICKNAME = "Carley Fan"
BAD_NICKNAME = "Carley\u202eFan"  # a right-to-left override: a format character
MARKUP_NICKNAME = "<b>Carley</b>"

Oracle = Callable[[str], Expected]


# --------------------------------------------------------------------------- helpers


def progress(page: Page) -> str:
    return page.locator(".progress-label").inner_text().strip()


def start_standard_quiz(page: Page) -> None:
    """On the quiz page: the standard length (10 questions) is the default; start it."""
    standard = page.get_by_label(f"{LENGTH} questions", exact=True)
    expect(standard).to_be_checked()
    page.get_by_role("button", name="Start the quiz").click()
    expect(page.locator(".progress-label")).to_have_text(f"Question 1 of {LENGTH}")


def expect_feedback(page: Page, position: int, right: bool) -> None:
    """A feedback page: verdict, explanation, a source with its highlighted passage."""
    expect(page.locator(".progress-label")).to_have_text(f"Question {position} of {LENGTH}")
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Right!" if right else "Not quite.")
    explanation = page.locator('section[aria-labelledby="why-heading"] > p').first
    expect(explanation).not_to_be_empty()
    marks = page.locator(".source mark")
    expect(marks.first).to_be_visible()
    assert marks.first.inner_text().strip(), "the highlighted source passage is empty"
    expect(page.locator(".source").first.get_by_role("link", name="Read it in the article")).to_be_visible()


def go_on(page: Page, position: int) -> None:
    """From feedback, click Next (or See your results after the last question)."""
    name = "See your results" if position == LENGTH else "Next question"
    # In reach at once on a phone, however long the explanation above it.
    expect(page.get_by_role("link", name=name)).to_be_in_viewport()
    page.get_by_role("link", name=name).click()
    if position < LENGTH:
        expect(page.locator(".progress-label")).to_have_text(f"Question {position + 1} of {LENGTH}")
    else:
        expect(page.get_by_role("heading", level=1)).to_have_text("Your results")


def answer_over_http(tab: Tab, expected: Oracle, positions: range) -> str:
    """Answer questions ``positions`` right, posting the form with the page's cookies.
    Returns the path of the attempt's results page."""
    attempt = re.search(r"/attempts/[^/]+/", tab.page.url)
    assert attempt, tab.page.url
    for k in positions:
        url = tab.url(f"{attempt.group(0)}questions/{k}")
        question = tab.page.request.get(url)
        assert question.status == 200, (url, question.status)
        token = re.search(r'name="csrf_token" value="([^"]+)"', question.text())
        assert token, url
        right = form_fields(expected(url).right)
        form = [("csrf_token", token.group(1))] + [(name, value) for name, values in right.items() for value in values]
        answered = tab.page.request.post(
            url, data=urlencode(form), headers={"Content-Type": "application/x-www-form-urlencoded"}
        )
        assert answered.ok and "Right!" in answered.text(), (url, answered.status)
    return f"{attempt.group(0)}results"


def expect_results(page: Page, score: int) -> None:
    expect(page.get_by_role("heading", level=1)).to_have_text("Your results")
    text = " ".join(page.locator(".score").inner_text().split())
    assert re.match(rf"^{score} of {LENGTH} correct\b", text), text
    expect(page.locator("ol.review > li")).to_have_count(LENGTH)


def follow_link_to_reader(tab: Tab) -> None:
    """On a feedback page: follow "Read it in the article"; the quote is highlighted there."""
    page = tab.page
    quote = " ".join(page.locator(".source mark").first.inner_text().split())
    page.locator(".source").first.get_by_role("link", name="Read it in the article").click()
    page.wait_for_url(re.compile(rf"/articles/{ARTICLE}\?highlight=[^#]+#.+"))
    parts = urlsplit(page.url)
    fragment = parts.fragment
    assert parse_qs(parts.query)["highlight"] == [fragment]
    target = page.locator(f'[id="{fragment}"]')
    expect(target).to_have_count(1)
    mark = page.locator("article.reader mark")
    expect(mark.first).to_be_visible()
    highlighted = " ".join(" ".join(mark.all_inner_texts()).split())
    assert quote in highlighted, (quote, highlighted)
    expect(page.get_by_text("The highlighted passage is the source of the answer.")).to_be_visible()
    # The fragment brought the passage on screen, away from its top edge.
    expect(mark.first).to_be_in_viewport()
    box, height = mark.first.bounding_box(), page.viewport_size["height"]
    assert box["y"] > height * 0.2 or page.evaluate("window.scrollY") == 0, (box, height)
    # And the way back to the question is there.
    feedback = parse_qs(parts.query)["back"][0]
    page.get_by_role("link", name="Back to the question").first.click()
    page.wait_for_url(re.compile(rf"{re.escape(feedback)}$"))


# --------------------------------------------------------------------------- tests


def test_whole_quiz_without_javascript(nojs_tab: Tab, expected: Oracle) -> None:
    tab, page = nojs_tab, nojs_tab.page

    assert tab.goto("/").status == 200
    expect(page.get_by_role("heading", level=1)).to_have_text("Quizzes")
    tab.check("home")
    page.get_by_role("link", name=QUIZ_TITLE).click()

    expect(page.get_by_role("heading", level=1)).to_have_text(QUIZ_TITLE)
    tab.check("quiz page")
    start_standard_quiz(page)
    question_1 = page.url
    tab.check("question page")
    expect(page.locator(".keyboard-hint")).to_be_hidden()  # the hint needs quiz.js

    # Right, wrong, then alternate: both verdicts show up, the score is known.
    score = 0
    for k in range(1, LENGTH + 1):
        assert progress(page) == f"Question {k} of {LENGTH}"
        question = expected(page.url)
        right = k % 2 == 1
        give(page, question, question.right if right else question.wrong, javascript=False)
        page.get_by_role("button", name="Submit answer").click()
        expect_feedback(page, k, right)
        if k <= 2:
            tab.check(f"feedback page ({'right' if right else 'wrong'})")
        score += right
        go_on(page, k)

    expect_results(page, score)
    tab.check("results page")

    page.get_by_label("Nickname").fill(NICKNAME)
    page.get_by_role("button", name="Save nickname").click()
    expect(page.get_by_role("status")).to_contain_text("Nickname saved.")
    expect_results(page, score)
    expect(page.get_by_role("button", name="Save nickname")).to_have_count(0)

    page.get_by_role("link", name="Leaderboard", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Leaderboard")
    row = page.locator("tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text(f"{NICKNAME} (you)")
    expect(row.locator("td").nth(1)).to_have_text(f"{score} / {LENGTH}")
    tab.check("leaderboard with a row")

    # A question answered earlier shows its feedback again; its source links to the reader.
    page.goto(question_1)
    expect_feedback(page, 1, right=True)
    follow_link_to_reader(tab)
    tab.check("article reader with a highlight")

    tab.assert_clean()


def test_keyboard_play_with_javascript(tab: Tab, expected: Oracle) -> None:
    page = tab.page
    tab.goto(f"/quizzes/{QUIZ}")
    start_standard_quiz(page)

    keyed = 0
    for k in range(1, LENGTH):
        page.wait_for_load_state("load")  # quiz.js listens from DOMContentLoaded on
        assert progress(page) == f"Question {k} of {LENGTH}"
        question = expected(page.url)
        if not question.picks:  # typed and ordered answers: the keyboard moves on all the same
            give(page, question, question.right, javascript=True)
            page.get_by_role("button", name="Submit answer").click()
            expect_feedback(page, k, right=True)
            page.wait_for_load_state("load")
            page.keyboard.press("Enter")
            expect(page.locator(".progress-label")).to_have_text(f"Question {k + 1} of {LENGTH}")
            continue
        keyed += 1
        if keyed > 3:
            break
        expect(page.locator(".keyboard-hint")).to_be_visible()
        inputs = page.locator('input[name="choice"]')
        checkbox = inputs.first.get_attribute("type") == "checkbox"
        expect(page.locator('input[name="choice"]:checked')).to_have_count(0)

        page.keyboard.press("2")
        expect(page.locator("#choice-2")).to_be_checked()
        expect(page.locator("#choice-2")).to_be_focused()
        page.keyboard.press("1")
        expect(page.locator("#choice-1")).to_be_checked()
        if checkbox:  # number keys toggle checkboxes
            expect(page.locator("#choice-2")).to_be_checked()
            picked = [1, 2]
        else:
            expect(page.locator("#choice-2")).not_to_be_checked()
            picked = [1]

        right = sorted(question.right.choices) == picked
        page.keyboard.press("Enter")
        expect_feedback(page, k, right)
        revealed = page.locator("ul.revealed > li")
        for number in picked:  # what the keys picked is what was recorded
            expect(revealed.nth(number - 1)).to_contain_text("Your answer")

        page.wait_for_load_state("load")
        page.keyboard.press("Enter")
        expect(page.locator(".progress-label")).to_have_text(f"Question {k + 1} of {LENGTH}")
        expect(page.locator("form.question")).to_be_visible()
    assert keyed > 3, "fewer than three questions to pick answers with keys"

    tab.assert_clean()


def test_every_page_type_is_accessible(tab: Tab, expected: Oracle) -> None:
    page = tab.page

    assert tab.goto("/").status == 200
    tab.check("home")

    assert tab.goto(f"/quizzes/{QUIZ}/leaderboard").status == 200
    expect(page.get_by_text("No one is on the leaderboard yet.")).to_be_visible()
    tab.check("empty leaderboard")

    assert tab.goto(f"/quizzes/{QUIZ}").status == 200
    tab.check("quiz page")
    start_standard_quiz(page)
    # The checks of an empty answer below need a question that asks to pick (an ordering
    # always sends an order): start again until the first question is one.
    while not expected(page.url).picks:
        tab.goto(f"/quizzes/{QUIZ}")
        page.get_by_role("button", name="Start the quiz").click()
        expect(page.locator(".progress-label")).to_have_text(f"Question 1 of {LENGTH}")
    question_1 = page.url
    tab.check("question page")

    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.get_by_role("button", name="Submit answer").click()
    assert posted.value.status == 422
    errors = page.locator("ul.errors")
    expect(errors).to_contain_text(re.compile(r"Choose (an|at least one) answer\."))
    expect(page.locator("fieldset")).to_have_attribute("aria-describedby", "answer-errors")
    tab.check("question page with a validation error")

    give(page, expected(page.url), expected(page.url).right, javascript=True)
    page.get_by_role("button", name="Submit answer").click()
    expect_feedback(page, 1, right=True)
    feedback_1 = page.url
    tab.check("feedback page (right)")
    go_on(page, 1)

    question = expected(page.url)
    give(page, question, question.wrong, javascript=True)
    page.get_by_role("button", name="Submit answer").click()
    expect_feedback(page, 2, right=False)
    tab.check("feedback page (wrong)")
    go_on(page, 2)

    # Questions 3 to 10 only lead to the results page, and the clicking is covered by the
    # other tests: answer them over HTTP with the context's cookies, which is much faster.
    assert tab.goto(answer_over_http(tab, expected, range(3, LENGTH + 1))).status == 200
    score = 1 + (LENGTH - 2)
    results = page.url
    expect_results(page, score)
    tab.check("results page")

    # A nickname with a control character (a right-to-left override) is refused, with an
    # accessible error, and shown back in the field.
    page.get_by_label("Nickname").fill(BAD_NICKNAME)
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        page.get_by_role("button", name="Save nickname").click()
    assert posted.value.status == 422
    expect(page.get_by_role("heading", level=1)).to_have_text("Your nickname")
    nickname_error = page.url
    nickname = page.get_by_label("Nickname")
    expect(nickname).to_have_value(BAD_NICKNAME)
    expect(nickname).to_have_attribute("aria-invalid", "true")
    errors = page.locator("#nickname-errors")
    expect(errors).not_to_be_empty()
    described_by = (nickname.get_attribute("aria-describedby") or "").split()
    assert "nickname-errors" in described_by, described_by
    tab.check("nickname page with an error")

    # Markup is allowed in a nickname and always shown as text.
    nickname.fill(MARKUP_NICKNAME)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(results)
    expect(page.get_by_role("status")).to_contain_text("Nickname saved.")

    assert tab.goto("/player").status == 200
    expect(page.get_by_label("Nickname")).to_have_value(MARKUP_NICKNAME)
    tab.check("nickname page")

    assert tab.goto(f"/quizzes/{QUIZ}/leaderboard").status == 200
    row = page.locator("tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text(f"{MARKUP_NICKNAME} (you)")
    expect(page.locator("main b")).to_have_count(0)
    tab.check("leaderboard with a row")

    assert tab.goto(f"/articles/{ARTICLE}").status == 200
    expect(page.locator("article.reader p").first).to_be_visible()
    expect(page.locator("article.reader mark")).to_have_count(0)
    tab.check("article reader")

    page.goto(feedback_1)
    follow_link_to_reader(tab)
    tab.check("article reader with a highlight")

    response = tab.goto("/quizzes/nope")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Not Found")
    expect(page.get_by_role("link", name="Go to the quizzes")).to_be_visible()
    tab.check("error page (404)")

    # The only documents answered with an error status are the three asked for.
    tab.assert_clean(expected_error_documents={question_1, nickname_error, tab.url("/quizzes/nope")})


def test_csp_is_enforced(tab: Tab) -> None:
    """A normal context (no bypass_csp): the policy is sent and an inline script is refused."""
    page = tab.page
    response = tab.goto("/")
    policy = response.headers.get("content-security-policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("script-src") == ["'self'"], policy
    assert directives.get("object-src") == ["'none'"], policy

    with pytest.raises(PlaywrightError, match="Content Security Policy"):
        page.add_script_tag(content="window.cspProbe = 1")
    assert page.evaluate("typeof window.cspProbe") == "undefined"
    assert any("Content Security Policy" in error for error in tab.console_errors)
    assert tab.third_party_requests == []
    assert tab.page_errors == []


def test_site_has_a_favicon(tab: Tab) -> None:
    """Browsers fetch an icon for every site; a missing one is a 404 and a console error."""
    page = tab.page
    tab.goto("/")
    icon = page.locator('link[rel~="icon"]')
    href = icon.first.get_attribute("href") if icon.count() else "/favicon.ico"
    assert href and href.startswith("/"), f"the icon must be served by the app: {href!r}"
    response = page.request.get(tab.url(href))
    assert response.ok, (
        f"{href} answers {response.status}: every browser's first visit logs a console error"
        " (add static/favicon.svg and <link rel=\"icon\"> to templates/base.html)"
    )
    assert response.headers.get("content-type", "").startswith("image/"), response.headers
