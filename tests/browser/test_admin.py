"""The admin's pages for drafting a quiz from an article and adding questions from a GIFT file,
in Chromium on a 360 px phone: the whole way from the article to playing the new quiz, with
axe on every page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from quiz import accounts
from quiz.extensions import db
from tests.admin.test_drafts import ARTICLE
from tests.conftest import BUNDLED_QUESTIONS

if TYPE_CHECKING:
    from tests.browser.conftest import Tab

PASSWORD = "admin pages password 42"
TITLE = "The Lighthouse of Port Elm"
EDITED_PROMPT = "When was the lighthouse of Port Elm built?"
GIFT = """\
::Port Elm keeper:: Who was the last keeper of the Port Elm lighthouse? {=Thomas Reid ~Margaret Hale ~Paul Ajegba}
"""


@pytest.fixture
def admin(bundled: Flask) -> str:
    with bundled.app_context():
        accounts.create_user(db.session, "admin", PASSWORD, "admin")
        db.session.commit()
    return "admin"


def log_in(tab: Tab, username: str) -> None:
    page = tab.page
    tab.goto("/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="Admin")).to_be_visible()


def draft(page: Page, number: int):
    """The fieldset of drafted question ``number`` on the review page."""
    return page.get_by_role("group", name=re.compile(rf"^Question {number}\b"))


def test_an_article_becomes_a_quiz_through_review_preview_and_apply(
    tab: Tab, admin: str, correct_numbers: Callable[[str], list[int]],
) -> None:
    page = tab.page
    log_in(tab, admin)
    tab.goto("/admin/")
    tab.check("admin index")
    page.get_by_role("link", name="Draft a quiz from an article").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Draft a quiz from an article")
    tab.check("article form")

    page.get_by_label("Or paste the article").fill(ARTICLE)
    page.get_by_role("button", name="Draft questions").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Review the drafts")
    tab.check("review form")
    # The button comes after the last draft: every draft is on the page before they are counted.
    expect(page.get_by_role("button", name="Preview the new quiz")).to_be_visible()
    drafts = page.locator("fieldset.card")
    count = drafts.count()
    assert count >= 2, "the test article should give at least two drafts"
    for number in range(1, count + 1):
        expect(draft(page, number).get_by_label("Include this question")).to_be_checked()
    prompts = [draft(page, number).get_by_label("Question", exact=True).input_value() for number in range(1, count + 1)]

    # Drop the second draft, reword the first, and break its quote on the way.
    draft(page, 2).get_by_label("Include this question").uncheck()
    first = draft(page, 1)
    first.get_by_label("Question", exact=True).fill(EDITED_PROMPT)
    quote = first.get_by_label("Source quote").input_value()
    assert quote in ARTICLE
    first.get_by_label("Source quote").fill("A sentence the article never had.")
    page.get_by_role("button", name="Preview the new quiz").click()
    expect(page.get_by_role("alert")).to_contain_text("Nothing was added. Correct the marked questions.")
    source = draft(page, 1).get_by_label("Source quote")
    expect(source).to_have_attribute("aria-invalid", "true")
    expect(draft(page, 1).locator(".errors")).to_contain_text("Quote not found in article")
    expect(draft(page, 2).get_by_label("Include this question")).not_to_be_checked()
    tab.check("review form with an error")

    source.fill(quote)
    page.get_by_role("button", name="Preview the new quiz").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Preview: new quiz "))
    expect(page.get_by_role("heading", name=f"Added ({count - 1})")).to_be_visible()
    tab.check("preview of the drafted quiz")
    page.get_by_role("button", name="Apply these changes").click()
    expect(page.get_by_role("status")).to_contain_text("Imported.")
    tab.goto("/admin/questions?quiz=the-lighthouse-of-port-elm")
    expect(page.get_by_role("link", name=EDITED_PROMPT)).to_be_visible()
    expect(page.get_by_role("link", name=prompts[1], exact=True)).to_have_count(0)
    expect(page.locator(".question-list tbody tr")).to_have_count(count - 1)

    # The new quiz is on the home page, with the picked questions (one edited) and their quotes.
    tab.goto("/")
    page.get_by_role("link", name=TITLE).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)
    page.get_by_label(f"All {count - 1} questions").check()
    page.get_by_role("button", name="Start the quiz").click()
    expect(page.locator(".progress-label")).to_have_text(f"Question 1 of {count - 1}")
    asked = page.get_by_role("heading", level=1).inner_text().strip()
    assert asked in [EDITED_PROMPT, *prompts[2:]], f"{asked!r} was not picked"
    for number in correct_numbers(page.url):
        page.locator(f'label[for="choice-{number}"]').click()
    page.get_by_role("button", name="Submit answer").click()
    expect(page.locator(".verdict")).to_contain_text("Right!")
    mark = page.locator(".source mark").first
    expect(mark).to_be_visible()
    assert " ".join(mark.inner_text().split()) in " ".join(ARTICLE.split())
    tab.check("feedback on a drafted question")

    tab.assert_clean(expected_error_documents={tab.url("/admin/generate/review")})


def test_a_gift_file_is_added_to_a_quiz_through_the_preview(tab: Tab, admin: str) -> None:
    page = tab.page
    log_in(tab, admin)
    tab.goto("/admin/")
    expect(page.locator(".lead")).to_contain_text(f"{BUNDLED_QUESTIONS} questions in play")
    page.get_by_role("link", name="Add questions from another quiz tool").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Add questions from another quiz tool")
    tab.check("question file form")

    page.get_by_label("A question file").set_input_files(
        files=[{"name": "keeper.gift", "mimeType": "text/plain", "buffer": GIFT.encode()}]
    )
    page.get_by_role("button", name="Preview the import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Preview: keeper.gift (GIFT)")
    expect(page.get_by_text("port-elm-keeper", exact=True)).to_be_visible()
    tab.check("preview of read questions")
    page.get_by_role("button", name="Apply these changes").click()
    expect(page.get_by_role("status")).to_contain_text("Imported.")
    expect(page.locator(".lead")).to_contain_text(f"{BUNDLED_QUESTIONS + 1} questions in play")

    # A broken file lists its problems with their lines.
    page.get_by_role("link", name="Add questions from another quiz tool").click()
    page.get_by_label("A question file").set_input_files(
        files=[{"name": "broken.gift", "mimeType": "text/plain", "buffer": b"::a:: Which? {=Yes ~No\n"}]
    )
    page.get_by_role("button", name="Preview the import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("1 problem in broken.gift")
    expect(page.get_by_text("Line 1, column 14")).to_be_visible()
    tab.check("problems in a question file")

    tab.assert_clean(expected_error_documents={tab.url("/admin/import-questions")})
