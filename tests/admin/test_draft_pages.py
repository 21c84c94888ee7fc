"""Drafting a quiz from an article in the admin pages, through the test client: the article
form, the review form, then the import preview and apply."""

from __future__ import annotations

import html
import io
import os
import re
from html.parser import HTMLParser

import pytest
import sqlalchemy as sa

from quiz.extensions import db
from quiz.drafts import MAX_ARTICLE_BYTES
from quiz.models import Article, Question, Quiz
from tests.admin.test_drafts import ARTICLE
from tests.admin.test_pages import hidden_fields, token
from tests.generator.test_drafting import RINK
from tests.generator.test_unseen_articles import PEOPLE

QUIZ_ID = "the-lighthouse-of-port-elm"
REVIEW = "/admin/generate/review"


class _FormFields(HTMLParser):
    """The fields a browser would send for the form posting to ``action``, as (name, value) pairs."""

    def __init__(self, action: str):
        super().__init__(convert_charrefs=True)
        self.action, self.inside, self.fields = action, False, []
        self._textarea: list | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.inside = attributes.get("action") == self.action
        elif not self.inside:
            return
        elif tag == "input":
            kind = attributes.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            self.fields.append([attributes["name"], attributes.get("value", "")])
        elif tag == "textarea":
            self._textarea = [attributes["name"], ""]
            self.fields.append(self._textarea)
        elif tag == "select":
            self._select = attributes["name"]
        elif tag == "option" and self._select and "selected" in attributes:
            self.fields.append([self._select, attributes["value"]])

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "textarea" and self._textarea is not None:
            # A browser drops the line break that follows <textarea>.
            self._textarea[1] = self._textarea[1].removeprefix("\r\n").removeprefix("\n")
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form":
            self.inside = False


def review_fields(page: str) -> dict[str, str]:
    parser = _FormFields(REVIEW)
    parser.feed(page)
    return dict(parser.fields)


def draft(client, *, follow_redirects: bool = False, **fields):
    data = {"csrf_token": token(client, "/admin/generate"), "text": ARTICLE, **fields}
    return client.post("/admin/generate", data=data, content_type="multipart/form-data", follow_redirects=follow_redirects)


def review(client, **fields) -> dict[str, str]:
    response = draft(client, **fields)
    assert response.status_code == 200, response.get_data(as_text=True)
    return review_fields(response.get_data(as_text=True))


def question_numbers(fields: dict[str, str]) -> list[int]:
    return sorted({int(name.split("-")[1]) for name in fields if name.startswith("questions-") and name.endswith("-slug")})


def new_quiz_questions(app, quiz_id: str = QUIZ_ID) -> list[tuple[str, str, list[str]]]:
    """(id, prompt, quotes) of each question of the quiz, in order."""
    with app.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == quiz_id))
        if quiz is None:
            return []
        questions = db.session.scalars(sa.select(Question).where(Question.quiz_id == quiz.id).order_by(Question.position))
        return [
            (q.slug, q.current_revision.prompt, [quote.excerpt for quote in q.current_revision.quotes]) for q in questions
        ]


def errors_of(page: str, field_id: str) -> str:
    """The error list shown under the field ``field_id``."""
    start = page.index(f'id="{field_id}-errors"')
    return html.unescape(page[start : page.index("</ul>", start)])


# The article form ----------------------------------------------------------------------------


def test_the_article_form_is_shown(admin_client):
    page = admin_client.get("/admin/generate").get_data(as_text=True)
    for name in ("file", "text", "title", "article_id", "quiz_id"):
        assert f'name="{name}"' in page


def test_a_pasted_article_gives_a_review_form_with_every_draft_included(admin_client, bundled):
    response = draft(admin_client)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    fields = review_fields(page)
    numbers = question_numbers(fields)
    assert len(numbers) >= 2
    assert all(fields[f"questions-{n}-include"] == "y" for n in numbers)
    assert (fields["title"], fields["article_id"], fields["quiz_id"]) == ("The Lighthouse of Port Elm", QUIZ_ID, QUIZ_ID)
    assert fields["quiz_title"] == "The Lighthouse of Port Elm"  # it states none of the answers
    assert fields["text"].startswith("The lighthouse of Port Elm was built in 1872")
    for n in numbers:
        assert fields[f"questions-{n}-source"] in fields["text"]
        assert fields[f"questions-{n}-correct"]
    assert f"{len(numbers)} questions drafted from <cite>The Lighthouse of Port Elm</cite>" in page
    assert new_quiz_questions(bundled) == []


def test_names_are_drafted_for_typing_unless_the_box_is_unticked(admin_client, bundled):
    assert re.search(r'<input checked[^>]*name="names"', admin_client.get("/admin/generate").get_data(as_text=True))
    plain = review(admin_client, text=PEOPLE, title="Doris Day")  # a box left unticked sends nothing
    assert all(plain[f"questions-{n}-kind"] != "text" for n in question_numbers(plain))

    named = review(admin_client, text=PEOPLE, title="Doris Day", names="y")
    person = next(n for n in question_numbers(named) if named[f"questions-{n}-slug"] == "person-sara-amundson")
    assert named[f"questions-{person}-kind"] == "text" and f"questions-{person}-correct" not in named
    assert (named[f"questions-{person}-accept"], named[f"questions-{person}-fuzzy"]) == ("Sara Amundson\nAmundson", "y")
    named[f"questions-{person}-accept"] = "Sara Amundson\nAmundson\nMs Amundson"
    page = post_review(admin_client, named).get_data(as_text=True)
    assert admin_client.post("/admin/import/apply", data=hidden_fields(page)).status_code == 303
    with bundled.app_context():
        revision = db.session.scalar(sa.select(Question).where(Question.slug == "person-sara-amundson")).current_revision
        assert (revision.kind, revision.answer_key) == ("text", {"accept": ["Sara Amundson", "Amundson", "Ms Amundson"], "fuzzy": True})


def test_an_uploaded_article_with_a_title_and_ids_of_ones_choosing(admin_client):
    fields = review(
        admin_client, text="", file=(io.BytesIO(ARTICLE.encode()), "port-elm.md"),
        title="Port Elm's light", article_id="port-elm", quiz_id="port-elm-quiz",
    )
    assert (fields["title"], fields["article_id"], fields["quiz_id"]) == ("Port Elm's light", "port-elm", "port-elm-quiz")


def test_a_used_id_is_refused_on_its_field(admin_client, bundled):
    response = draft(admin_client, article_id="kiss-and-cry")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "The id 'kiss-and-cry' is already used by an article" in errors_of(page, "article_id")


def test_a_default_id_skips_a_used_one(admin_client):
    assert review(admin_client, title="Kiss & Cry")["quiz_id"] == "kiss-cry"
    assert review(admin_client, title="Kiss and Cry")["quiz_id"] == "kiss-and-cry-2"


def test_an_article_without_a_title_line_asks_for_a_title(admin_client):
    response = draft(admin_client, text=ARTICLE.split("\n", 2)[2])
    assert response.status_code == 422
    assert "The article has no title line: give it a title." in errors_of(response.get_data(as_text=True), "title")


@pytest.mark.parametrize(("data", "message"), [
    (b"A title\n\nThe caf\xe9 opened in 1999.\n", "Line 3, column 8: invalid UTF-8 (byte 0xe9)"),
    (b"", "Line 1, column 1: the article has no text"),
    (b"\x00\x01\x02" * 10, "No question could be drafted from this article."),
])
def test_a_broken_upload_is_refused_on_the_file_field(admin_client, data, message):
    response = draft(admin_client, text="", file=(io.BytesIO(data), "article.txt"), title="An article")
    assert response.status_code == 422
    assert message in errors_of(response.get_data(as_text=True), "file")


def test_binary_junk_is_refused_without_an_error_page(admin_client):
    response = draft(admin_client, text="", file=(io.BytesIO(os.urandom(5000)), "junk.txt"))
    assert response.status_code == 422
    assert "invalid UTF-8" in errors_of(response.get_data(as_text=True), "file")


@pytest.mark.parametrize("how", ["file", "text"])
def test_an_article_over_the_size_cap_is_refused(admin_client, how):
    big = (ARTICLE * (MAX_ARTICLE_BYTES // len(ARTICLE) + 1))[: MAX_ARTICLE_BYTES + 1]
    fields = {"text": "", "file": (io.BytesIO(big.encode()), "big.txt")} if how == "file" else {"text": big}
    response = draft(admin_client, **fields)
    assert response.status_code == 422
    assert f"drafting here takes up to {MAX_ARTICLE_BYTES:,}" in errors_of(response.get_data(as_text=True), how)


@pytest.mark.parametrize("fields", [
    {"text": ""}, {"title": "x" * 5000}, {"article_id": "Not An Id"}, {"quiz_id": "-"},
])
def test_bad_article_form_input_is_refused_with_a_message(admin_client, fields):
    response = draft(admin_client, **fields)
    assert response.status_code == 422
    assert "No questions were drafted. Correct the marked fields." in response.get_data(as_text=True)


# Review, preview, apply ----------------------------------------------------------------------


def post_review(client, fields: dict[str, str]):
    return client.post(REVIEW, data=fields)


def test_picked_and_edited_drafts_become_a_new_playable_quiz(admin_client, bundled):
    fields = review(admin_client)
    first, *rest = question_numbers(fields)
    dropped = rest[0]
    del fields[f"questions-{dropped}-include"]
    fields[f"questions-{first}-prompt"] = "When was the lighthouse of Port Elm built?"
    kept = [n for n in [first, *rest] if n != dropped]

    response = post_review(admin_client, fields)
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page
    assert f"<h1>Preview: new quiz {QUIZ_ID}</h1>" in page
    assert page.count("<h3>Added (1)</h3>") == 2  # the article and the quiz
    assert f"<h3>Added ({len(kept)})</h3>" in page
    assert fields[f"questions-{dropped}-slug"] not in page[page.index('id="section-3"'):]
    assert new_quiz_questions(bundled) == []

    response = admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert response.status_code == 303
    questions = new_quiz_questions(bundled)
    assert [slug for slug, _, _ in questions] == [fields[f"questions-{n}-slug"] for n in kept]
    assert questions[0][1] == "When was the lighthouse of Port Elm built?"
    assert all(quotes == [fields[f"questions-{n}-source"]] for (_, _, quotes), n in zip(questions, kept, strict=True))
    assert "The Lighthouse of Port Elm" in admin_client.get("/").get_data(as_text=True)


def test_a_typed_figure_is_reviewed_and_imported_as_a_number_question(admin_client, bundled):
    fields = review(admin_client, text=RINK, title="The Halden Ice Centre", article_id="halden", quiz_id="halden")
    typed = [n for n in question_numbers(fields) if fields[f"questions-{n}-kind"] == "number"]
    assert typed, fields
    months = next(n for n in typed if fields[f"questions-{n}-number_answer"] == "14")
    assert fields[f"questions-{months}-unit"] == "months" and f"questions-{months}-correct" not in fields
    fields[f"questions-{months}-tolerance"] = "1"

    fields[f"questions-{months}-number_answer"] = "fourteen"
    response = post_review(admin_client, fields)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Give the answer as a number" in errors_of(page, f"questions-{months}-number_answer")

    fields[f"questions-{months}-number_answer"] = "14"
    page = post_review(admin_client, fields).get_data(as_text=True)
    assert admin_client.post("/admin/import/apply", data=hidden_fields(page)).status_code == 303
    with bundled.app_context():
        slug = fields[f"questions-{months}-slug"]
        revision = db.session.scalar(sa.select(Question).where(Question.slug == slug)).current_revision
        assert (revision.kind, revision.answer_key) == ("number", {"answer": 14, "tolerance": 1, "unit": "months"})


def test_the_quiz_is_titled_without_the_figure_its_headline_states_and_asks(admin_client, bundled):
    headline = "The Halden Ice Centre opens after 14 months"
    response = draft(admin_client, text=RINK, title=headline, article_id="halden", quiz_id="halden")
    page = html.unescape(response.get_data(as_text=True))
    fields = review_fields(page)
    assert "14" in [fields[f"questions-{n}-number_answer"] for n in question_numbers(fields) if f"questions-{n}-number_answer" in fields]
    assert (fields["title"], fields["quiz_title"]) == (headline, "The Halden Ice Centre opens")
    lead = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert "for the new quiz halden, “The Halden Ice Centre opens”, on the article halden." in lead

    page = post_review(admin_client, fields).get_data(as_text=True)
    assert admin_client.post("/admin/import/apply", data=hidden_fields(page)).status_code == 303
    with bundled.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "halden"))
        assert (quiz.title, quiz.article.title) == ("The Halden Ice Centre opens", headline)


def test_a_drafted_id_already_used_is_renamed(admin_client, bundled):
    fields = review(admin_client)
    first = question_numbers(fields)[0]
    fields[f"questions-{first}-slug"] = "streaming-service"
    page = post_review(admin_client, fields).get_data(as_text=True)
    assert "<code>streaming-service</code> becomes <code>streaming-service-2</code>" in page
    admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert new_quiz_questions(bundled)[0][0] == "streaming-service-2"


def test_each_problem_shows_on_its_question_and_nothing_is_added(admin_client, bundled):
    fields = review(admin_client)
    first, second = question_numbers(fields)[:2]
    fields[f"questions-{first}-source"] = "A sentence the article never had."
    fields[f"questions-{second}-choices-1"] = fields[f"questions-{second}-choices-0"].upper() + " "
    response = post_review(admin_client, fields)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Nothing was added. Correct the marked questions." in page
    assert f"Quote 1: Quote not found in article '{QUIZ_ID}'" in errors_of(page, f"questions-{first}-source")
    assert "Duplicate of choice 1" in errors_of(page, f"questions-{second}-choices-1")
    assert f'<a href="#questions-{first}">Question {first + 1}</a>' in page
    assert f'<a href="#questions-{second}">Question {second + 1}</a>' in page
    # What the admin typed comes back to be corrected.
    assert review_fields(page)[f"questions-{first}-source"] == "A sentence the article never had."
    assert new_quiz_questions(bundled) == []


def test_a_dropped_question_is_not_checked(admin_client, bundled):
    fields = review(admin_client)
    first, second = question_numbers(fields)[:2]
    del fields[f"questions-{first}-include"]
    fields[f"questions-{first}-prompt"] = ""
    fields[f"questions-{first}-correct"] = "9"
    assert post_review(admin_client, fields).status_code == 200


def test_picking_nothing_is_refused(admin_client, bundled):
    fields = {name: value for name, value in review(admin_client).items() if not name.endswith("-include")}
    response = post_review(admin_client, fields)
    assert response.status_code == 422
    assert "Pick at least one question" in response.get_data(as_text=True)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("kind", "bogus", "Not a valid choice."),
    ("correct", "9", "Mark the correct choice."),
    ("difficulty", "extreme", "Not a valid choice."),
    ("prompt", "", "String should have at least 1 character"),
    ("prompt", "x" * 5000, "at most 1000 characters"),
])
def test_bad_question_input_is_refused_on_the_review_form(admin_client, bundled, field, value, message):
    fields = review(admin_client)
    first = question_numbers(fields)[0]
    fields[f"questions-{first}-{field}"] = value
    response = post_review(admin_client, fields)
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "Nothing was added. Correct the marked questions." in page
    assert message in page[page.index(f'id="questions-{first}"'):]
    assert new_quiz_questions(bundled) == []


@pytest.mark.parametrize("change", [
    {"text": ""}, {"article_id": "Not An Id"}, {"quiz_id": ""}, {"title": ""}, {"quiz_title": ""},
])
def test_a_review_without_its_article_or_ids_is_a_bad_request(admin_client, change):
    fields = {**review(admin_client), **change}
    assert post_review(admin_client, fields).status_code == 400


def test_many_question_numbers_are_capped(admin_client):
    fields = review(admin_client)
    first = question_numbers(fields)[0]
    fields.update({f"questions-{10**12 + n}-{name[len(f'questions-{first}-'):]}": value
                   for n in range(3) for name, value in fields.items() if name.startswith(f"questions-{first}-")})
    assert post_review(admin_client, fields).status_code == 200


def test_ids_taken_since_the_drafts_were_made_are_reported(admin_client, bundled):
    fields = review(admin_client)
    # Another admin adds the same article in the meantime.
    page = post_review(admin_client, fields).get_data(as_text=True)
    admin_client.post("/admin/import/apply", data=hidden_fields(page))
    response = post_review(admin_client, fields)
    assert response.status_code == 422
    assert f"The id '{QUIZ_ID}' is now used by another quiz" in html.unescape(response.get_data(as_text=True))
    with bundled.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Article)) == 2
