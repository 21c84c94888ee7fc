"""The admin pages through the test client: access, import with preview, download, questions."""

from __future__ import annotations

import html
import io
import re

import pytest
import sqlalchemy as sa

from quiz.bank import load_bank
from quiz.bank.exporter import export_document
from quiz.bank.yamlfile import dump_yaml
from quiz.extensions import db
from quiz.models import Question, Quiz
from quiz.paths import bundled_bank
from tests.conftest import BUNDLED_QUESTIONS, REPO, csrf_token

GET_PAGES = [
    "/admin/", "/admin/import", "/admin/bank.yaml", "/admin/questions", "/admin/questions/streaming-service",
    "/admin/new-question", "/admin/questions/streaming-service/edit",
]
POST_PAGES = [
    "/admin/import", "/admin/import/apply", "/admin/questions/streaming-service/retire",
    "/admin/questions/streaming-service/restore", "/admin/new-question", "/admin/questions/streaming-service/edit",
]


def current(app, slug: str = "streaming-service") -> Question:
    """The question as committed, read in a fresh session."""
    with app.app_context():
        question = db.session.scalar(sa.select(Question).where(Question.slug == slug))
        if question is not None:
            # Loaded before the context closes, for the assertions that follow.
            assert question.current_revision.choices and question.quiz is not None
        return question


def bank_yaml(app) -> str:
    with app.app_context():
        return dump_yaml(export_document(db.session))


def token(client, url: str = "/admin/import") -> str:
    return csrf_token(client.get(url).get_data(as_text=True))


def preview(client, text: str):
    return client.post("/admin/import", data={"csrf_token": token(client), "text": text})


def hidden_fields(page: str) -> dict[str, str]:
    """The apply form's fields, as the browser would send them back."""
    form = page[page.index('action="/admin/import/apply"'):]
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form, re.S)
    }


EDITED_PROMPT = "Where can one stream Kiss & Cry?"


def edited_bank(app) -> str:
    return bank_yaml(app).replace("According to the article, where can you stream Kiss & Cry?", EDITED_PROMPT)


# Access --------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", GET_PAGES)
def test_anonymous_visitors_are_sent_to_the_login_page(bundled, client, url):
    response = client.get(url)
    assert response.status_code == 302 and response.location.startswith("/login?next=")


@pytest.mark.parametrize("url", POST_PAGES)
def test_anonymous_posts_change_nothing_and_go_to_the_login_page(bundled, client, url):
    # A CSRF token from a public page, so that the role check is what refuses.
    data = {"csrf_token": csrf_token(client.get("/quizzes/kiss-and-cry").get_data(as_text=True))}
    response = client.post(url, data=data)
    assert response.status_code == 302 and response.location.startswith("/login?next=")
    assert current(bundled).retired_at is None


@pytest.mark.parametrize("url", GET_PAGES)
def test_teachers_are_forbidden(bundled, client, log_in_as, url):
    log_in_as(client, "teacher")
    assert client.get(url).status_code == 403


def test_teachers_cannot_retire_a_question(bundled, client, log_in_as):
    log_in_as(client, "teacher")
    data = {"csrf_token": token(client, "/host")}
    assert client.post("/admin/questions/streaming-service/retire", data=data).status_code == 403
    assert current(bundled).retired_at is None


@pytest.mark.parametrize("url", GET_PAGES)
def test_admins_open_every_page(admin_client, url):
    assert admin_client.get(url).status_code == 200


def test_only_admins_see_the_admin_link(bundled, client, log_in_as, app):
    link = 'href="/admin/"'
    assert link not in client.get("/").get_data(as_text=True)
    teacher = log_in_as(app.test_client(), "teacher")
    assert link not in teacher.get("/").get_data(as_text=True)
    admin = log_in_as(app.test_client(), "admin")
    assert link in admin.get("/").get_data(as_text=True)


def test_admin_templates_have_no_inline_scripts_styles_or_handlers():
    for template in (REPO / "templates" / "admin").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script|style=|<style|\son\w+=", text), template.name


# Download ------------------------------------------------------------------------------------


def test_the_bank_downloads_as_questions_yaml(admin_client, bundled):
    response = admin_client.get("/admin/bank.yaml")
    assert response.headers["Content-Disposition"] == "attachment; filename=questions.yaml"
    assert response.mimetype == "application/yaml"
    assert response.get_data(as_text=True) == bank_yaml(bundled)
    assert "id: streaming-service" in response.get_data(as_text=True)


# Import through a preview ----------------------------------------------------------------------


def test_the_downloaded_bank_previews_as_changing_nothing(admin_client):
    page = preview(admin_client, admin_client.get("/admin/bank.yaml").get_data(as_text=True))
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Importing this bank would change nothing." in text
    assert "Apply these changes" not in text


def test_a_preview_shows_the_change_field_by_field_and_writes_nothing(admin_client, bundled):
    page = preview(admin_client, edited_bank(bundled)).get_data(as_text=True)
    assert f"<strong>Questions</strong>: 0 added, 1 changed, {BUNDLED_QUESTIONS - 1} unchanged, 0 retired" in page
    assert "streaming-service</code>: becomes revision 2" in page
    assert "According to the article, where can you stream Kiss &amp; Cry?" in page
    assert html.escape(EDITED_PROMPT) in page
    assert f"<summary>{BUNDLED_QUESTIONS - 1} unchanged</summary>" in page
    assert current(bundled).current_revision.number == 1


def test_applying_a_preview_imports_it_in_one_go(admin_client, bundled):
    page = preview(admin_client, edited_bank(bundled)).get_data(as_text=True)
    response = admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert response.status_code == 303 and response.location == "/admin/"
    question = current(bundled)
    assert (question.current_revision.number, question.current_revision.prompt) == (2, EDITED_PROMPT)
    assert "Imported. Articles: 0 added, 0 changed, 1 unchanged" in admin_client.get("/admin/").get_data(as_text=True)


def test_a_preview_of_retired_and_added_questions(admin_client, bundled):
    text = bank_yaml(bundled)
    start = text.index("  - id: streaming-service")
    end = text.index("  - id: ", start + 1)
    renamed = text[:start] + text[start:end].replace("id: streaming-service", "id: where-to-stream") + text[end:]
    page = preview(admin_client, renamed).get_data(as_text=True)
    assert "<h3>Added (1)</h3>" in page and "<code>where-to-stream</code>" in page
    assert "<h3>Retired (1)</h3>" in page and "<code>streaming-service</code>" in page
    admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert current(bundled).retired_at is not None
    assert current(bundled, "where-to-stream").retired_at is None


def test_an_uploaded_file_is_previewed(admin_client, bundled):
    data = {"csrf_token": token(admin_client), "file": (io.BytesIO(edited_bank(bundled).encode()), "my-bank.yaml")}
    page = admin_client.post("/admin/import", data=data, content_type="multipart/form-data").get_data(as_text=True)
    assert "<h1>Preview: my-bank.yaml</h1>" in page
    assert hidden_fields(page)["file_name"] == "my-bank.yaml"


def test_every_error_is_listed_with_its_line_and_column_and_nothing_is_imported(admin_client, bundled):
    # A wrong answer in the first question, a wrong difficulty in the second.
    text = edited_bank(bundled)
    second = text.index("  - id: star-role")
    broken = text[:second].replace("correct: Netflix", "correct: Netflixx") + text[second:].replace("difficulty: easy", "difficulty: simple", 1)
    response = preview(admin_client, broken)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    lines = broken.splitlines()
    correct_line = next(number for number, line in enumerate(lines, 1) if "correct: Netflixx" in line)
    assert f"<strong>Line {correct_line}, column 5</strong>" in page
    assert "(<code>questions[0].correct</code>)" in page
    assert "is not one of the choices (did you mean &#39;Netflix&#39;?)" in page
    assert "(<code>questions[1].difficulty</code>)" in page
    assert "2 problems in pasted bank" in page
    # The bank comes back in a text area, to be corrected there.
    assert "correct: Netflixx" in page[page.index("<textarea"):]
    assert current(bundled).current_revision.number == 1


def test_an_upload_that_is_not_utf8_is_refused_where_it_breaks(admin_client):
    data = {"csrf_token": token(admin_client), "file": (io.BytesIO(b"version: 1\nquizzes: caf\xe9\n"), "latin1.yaml")}
    response = admin_client.post("/admin/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "<strong>Line 2, column 13</strong>:\n          invalid UTF-8 (byte 0xe9)" in response.get_data(as_text=True)


def test_a_bank_with_article_files_is_refused_with_a_hint(admin_client):
    response = preview(admin_client, (REPO / "questions.yaml").read_text())
    assert response.status_code == 422
    assert "article files cannot be used here; put the text inline" in response.get_data(as_text=True)


def test_an_empty_form_asks_for_a_bank(admin_client):
    response = admin_client.post("/admin/import", data={"csrf_token": token(admin_client), "text": "  "})
    assert response.status_code == 422
    assert "Choose a file or paste a bank." in response.get_data(as_text=True)


def test_apply_refuses_when_the_bank_changed_after_the_preview(admin_client, bundled):
    page = preview(admin_client, edited_bank(bundled)).get_data(as_text=True)
    fields = hidden_fields(page)
    # Meanwhile, someone retires a question.
    question_page = admin_client.get("/admin/questions/blog-title").get_data(as_text=True)
    admin_client.post("/admin/questions/blog-title/retire", data={"csrf_token": csrf_token(question_page)})

    response = admin_client.post("/admin/import/apply", data=fields)
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "The bank changed after this preview was made, so nothing was imported." in page
    assert current(bundled).current_revision.number == 1
    # The new preview shows that applying the file would bring the question back.
    assert "<code>blog-title</code>" in page[page.index("<h3>Changed"):]

    assert admin_client.post("/admin/import/apply", data=hidden_fields(page)).status_code == 303
    assert current(bundled).current_revision.number == 2
    assert current(bundled, "blog-title").retired_at is None


def test_apply_checks_the_carried_bank_again(admin_client, bundled):
    fields = hidden_fields(preview(admin_client, edited_bank(bundled)).get_data(as_text=True))
    fields["bank"] = fields["bank"].replace("version: 1", "version: 2")
    response = admin_client.post("/admin/import/apply", data=fields)
    assert response.status_code == 422
    assert "must be 1, the only version of the format" in response.get_data(as_text=True)
    assert current(bundled).current_revision.number == 1


def test_apply_without_the_preview_fields_is_a_bad_request(admin_client):
    response = admin_client.post("/admin/import/apply", data={"csrf_token": token(admin_client), "bank": "version: 1"})
    assert response.status_code == 400


def test_posts_without_a_csrf_token_are_refused(admin_client, bundled):
    assert admin_client.post("/admin/import", data={"text": edited_bank(bundled)}).status_code == 400
    assert admin_client.post("/admin/questions/streaming-service/retire").status_code == 400
    assert current(bundled).retired_at is None


def test_a_bank_over_the_bank_size_cap_is_refused_with_its_size(admin_client, bundled):
    bundled.config["BANK_MAX_BYTES"] = 1000
    response = preview(admin_client, edited_bank(bundled))
    assert response.status_code == 422
    assert "the limit is 1,000" in response.get_data(as_text=True)


def test_a_request_over_the_size_cap_gets_the_413_page(admin_client, bundled):
    bundled.config["MAX_CONTENT_LENGTH"] = 10_000
    data = {"csrf_token": token(admin_client), "file": (io.BytesIO(edited_bank(bundled).encode()), "big.yaml")}
    response = admin_client.post("/admin/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 413
    assert "What you sent is too large." in response.get_data(as_text=True)


def test_a_bank_larger_than_a_usual_form_field_goes_through_preview_and_apply(admin_client, bundled):
    description = "A long description. " * 20_000  # 400 kB, over MAX_FORM_MEMORY_SIZE
    assert len(description) > bundled.config["MAX_FORM_MEMORY_SIZE"]
    text = bank_yaml(bundled)
    marker = "    article: kiss-and-cry\n"
    text = re.sub(r"    description: .*?\n(?=    article: )", "", text, flags=re.S).replace(
        marker, f"    description: {description.strip()}\n" + marker, 1
    )
    page = preview(admin_client, text)
    assert page.status_code == 200
    assert admin_client.post("/admin/import/apply", data=hidden_fields(page.get_data(as_text=True))).status_code == 303
    with bundled.app_context():
        assert db.session.scalar(sa.select(Quiz.description)) == description.strip()


# Questions -----------------------------------------------------------------------------------


def listed(page: str) -> list[str]:
    return re.findall(r'<code class="meta">([^<]+)</code>', page)


def test_the_question_list_is_paginated(admin_client):
    first = admin_client.get("/admin/questions").get_data(as_text=True)
    assert f"{BUNDLED_QUESTIONS} questions, page 1 of 2." in first
    assert len(listed(first)) == 25 and listed(first)[0] == "streaming-service"
    assert 'href="/admin/questions?page=2" rel="next"' in first
    second = admin_client.get("/admin/questions?page=2").get_data(as_text=True)
    assert len(listed(second)) == BUNDLED_QUESTIONS - 25
    assert 'rel="prev"' in second and 'rel="next"' not in second


def test_the_question_list_filters_and_keeps_its_filters_across_pages(admin_client):
    page = admin_client.get("/admin/questions?tag=film&difficulty=easy").get_data(as_text=True)
    easy_film = [q.slug for q in load_bank(bundled_bank()).questions if "film" in q.tags and q.difficulty == "easy"]
    assert listed(page) == easy_film and len(easy_film) >= 2
    assert '<option selected value="film">film</option>' in page
    assert listed(admin_client.get("/admin/questions?retired=yes").get_data(as_text=True)) == []
    all_pages = admin_client.get("/admin/questions?retired=all&quiz=kiss-and-cry").get_data(as_text=True)
    assert 'href="/admin/questions?page=2&amp;quiz=kiss-and-cry&amp;retired=all"' in all_pages


def test_a_bad_filter_shows_the_questions_in_play_and_says_so(admin_client):
    response = admin_client.get("/admin/questions?tag=nonsense&difficulty=extreme&page=x")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "The filter has a mistake" in page and f"{BUNDLED_QUESTIONS} questions" in page


def test_the_question_page_shows_each_revision_and_what_it_changed(admin_client, bundled):
    fields = hidden_fields(preview(admin_client, edited_bank(bundled)).get_data(as_text=True))
    admin_client.post("/admin/import/apply", data=fields)
    page = admin_client.get("/admin/questions/streaming-service").get_data(as_text=True)
    assert page.index("Revision 2 (current)") < page.index("Revision 1</h3>")
    assert "<caption>What revision 2 changed</caption>" in page
    assert html.escape(EDITED_PROMPT) in page
    assert "Netflix <span class=\"tag tag-correct\">Correct</span>" in page


def retire_or_restore(client, slug: str, action: str):
    page = client.get(f"/admin/questions/{slug}").get_data(as_text=True)
    return client.post(f"/admin/questions/{slug}/{action}", data={"csrf_token": csrf_token(page)})


def test_retiring_and_restoring_a_question(admin_client, bundled):
    response = retire_or_restore(admin_client, "streaming-service", "retire")
    assert response.status_code == 303 and response.location == "/admin/questions/streaming-service"
    assert current(bundled).retired_at is not None
    page = admin_client.get("/admin/questions/streaming-service").get_data(as_text=True)
    assert "The question is retired: new attempts no longer ask it." in page
    assert ">Restore</button>" in page and ">Edit</a>" not in page
    assert "/admin/questions/streaming-service" not in admin_client.get("/admin/questions").get_data(as_text=True)

    retire_or_restore(admin_client, "streaming-service", "restore")
    question = current(bundled)
    assert question.retired_at is None and question.position == 0
    assert "The question is back in play." in admin_client.get("/admin/questions/streaming-service").get_data(as_text=True)


def test_retiring_twice_changes_nothing_the_second_time(admin_client, bundled):
    retire_or_restore(admin_client, "streaming-service", "retire")
    retired_at = current(bundled).retired_at
    assert retire_or_restore(admin_client, "streaming-service", "retire").status_code == 303
    assert current(bundled).retired_at == retired_at


def test_an_unknown_question_is_not_found(admin_client):
    assert admin_client.get("/admin/questions/no-such-question").status_code == 404
    assert admin_client.get("/admin/questions/no-such-question/edit").status_code == 404


# Adding and editing --------------------------------------------------------------------------


def question_form(**fields) -> dict[str, object]:
    data: dict[str, object] = {
        "quiz": "kiss-and-cry", "kind": "single", "difficulty": "easy", "prompt": "", "explanation": "",
        "source": "", "tags": "", "time_limit": "",
        **{f"choices-{index}": "" for index in range(6)},
    }
    data.update(fields)
    return data


def submit(client, url: str, **fields):
    data = question_form(**fields)
    data["csrf_token"] = token(client, url)
    return client.post(url, data=data)


NEW_QUESTION = dict(
    slug="streaming-where", prompt="Where does the article say the film streams?",
    **{"choices-0": "Netflix", "choices-2": "Hulu"}, correct="1",
    explanation="It names one service, twice.", source="available to stream on Netflix",
    tags="film, streaming", time_limit="25",
)


def test_the_edit_form_shows_the_current_revision(admin_client):
    page = admin_client.get("/admin/questions/star-on-the-role/edit").get_data(as_text=True)
    assert "What did the film&#39;s star say about playing Carley? Select all that apply.</textarea>" in page
    assert '<option selected value="multi">' in page
    checked = re.findall(r'id="correct-(\d)" value="\d" checked', page)
    assert len(checked) >= 2
    assert 'name="slug"' not in page


def test_a_new_question_is_saved_and_shown(admin_client, bundled):
    response = submit(admin_client, "/admin/new-question", **NEW_QUESTION)
    assert response.status_code == 303, response.get_data(as_text=True)
    assert response.location == "/admin/questions/streaming-where"
    question = current(bundled, "streaming-where")
    revision = question.current_revision
    assert [(choice.text, choice.is_correct) for choice in revision.choices] == [("Netflix", True), ("Hulu", False)]
    assert (revision.tags, revision.time_limit, question.position) == (["film", "streaming"], 25, BUNDLED_QUESTIONS)
    assert "Saved." in admin_client.get(response.location).get_data(as_text=True)


def test_a_true_or_false_question_needs_no_choices(admin_client, bundled):
    response = submit(
        admin_client, "/admin/new-question", slug="netflix-true", kind="true_false", prompt="The film streams on Netflix.",
        answer_is_true="true", explanation="The article says so.", source="which is now streaming on Netflix",
    )
    assert response.status_code == 303
    choices = current(bundled, "netflix-true").current_revision.choices
    assert [(choice.text, choice.is_correct) for choice in choices] == [("True", True), ("False", False)]


def number_revision(app, slug: str) -> tuple[str, dict | None]:
    with app.app_context():
        revision = db.session.scalar(sa.select(Question).where(Question.slug == slug)).current_revision
        return revision.kind, revision.answer_key


def test_a_number_question_is_edited_in_the_form(admin_client, bundled):
    page = admin_client.get("/admin/questions/days-in-hospital/edit").get_data(as_text=True)
    assert '<option selected value="number">' in page
    assert re.search(r'name="number_answer"[^>]*value="10"', page) and re.search(r'name="unit"[^>]*value="days"', page)
    data = question_form(
        kind="number", prompt="How many days after the surgery did Carley return home?", number_answer="10",
        tolerance="1", unit="days", explanation="She came home before singing.", source="returned home 10 days later",
    )
    data["csrf_token"] = csrf_token(page)
    response = admin_client.post("/admin/questions/days-in-hospital/edit", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    assert number_revision(bundled, "days-in-hospital") == ("number", {"answer": 10, "tolerance": 1, "unit": "days"})


@pytest.mark.parametrize("field, value, message", [
    ("number_answer", "ten", "Give the answer as a number, such as 1994 or 2.5."),
    ("number_answer", "", "Give the answer as a number, such as 1994 or 2.5."),
    ("tolerance", "-1", "Give the tolerance as a number of 0 or more, or leave it empty."),
])
def test_a_number_question_needs_a_number_for_its_answer(admin_client, bundled, field, value, message):
    fields = dict(
        slug="hospital-days", kind="number", prompt="How many days later did Carley return home?", number_answer="10",
        explanation="She came home.", source="returned home 10 days later",
    )
    response = submit(admin_client, "/admin/new-question", **{**fields, field: value})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    errors = page.index(f'id="{field}-errors"')
    assert message in page[errors : page.index("</ul>", errors)]
    with bundled.app_context():
        assert db.session.scalar(sa.select(Question).where(Question.slug == "hospital-days")) is None


def test_a_new_number_question_keeps_a_decimal_answer(admin_client, bundled):
    response = submit(
        admin_client, "/admin/new-question", slug="hospital-days", kind="number", number_answer="9,5",
        tolerance="0.5", prompt="How many days later did Carley return home?", explanation="She came home.",
        source="returned home 10 days later",
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    assert number_revision(bundled, "hospital-days") == ("number", {"answer": 9.5, "tolerance": 0.5})


def test_other_kinds_are_edited_in_the_bank_file(admin_client, bundled):
    response = admin_client.get("/admin/questions/timeline/edit")
    assert response.status_code == 303 and response.location == "/admin/questions/timeline"
    assert "questions are edited in the bank file" in admin_client.get(response.location).get_data(as_text=True)


def test_a_typed_answer_question_is_edited_in_the_form(admin_client, bundled):
    page = admin_client.get("/admin/questions/olympic-dream/edit").get_data(as_text=True)
    assert '<option selected value="text">' in page
    assert re.search(r'<textarea[^>]*name="accept"[^>]*>\s*Sochi</textarea>', page)
    assert re.search(r'<input checked[^>]*name="fuzzy"', page)
    data = question_form(
        kind="text", prompt="In which city were the Olympics Carley dreamt of?", accept="Sochi\n\nSochi, Russia\n",
        explanation="Those Olympics were held in 2014.", source="effectively ending her dream of competing in the 2014 Sochi Olympics",
        group="skater-level",
    )
    data["csrf_token"] = csrf_token(page)
    response = admin_client.post("/admin/questions/olympic-dream/edit", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    # Empty lines are left out, and an unticked box forgives no slip.
    assert number_revision(bundled, "olympic-dream") == ("text", {"accept": ["Sochi", "Sochi, Russia"], "fuzzy": False})


def test_a_typed_answer_question_needs_an_accepted_answer(admin_client, bundled):
    response = submit(
        admin_client, "/admin/new-question", slug="olympic-city", kind="text", accept=" \n", prompt="Which city?",
        explanation="Sochi.", source="the 2014 Sochi Olympics",
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    errors = page.index('id="accept-errors"')
    assert "Give at least one accepted answer." in page[errors : page.index("</ul>", errors)]


def test_an_edit_makes_a_new_revision(admin_client, bundled):
    page = admin_client.get("/admin/questions/streaming-service/edit").get_data(as_text=True)
    fields = {
        name: html.unescape(value) for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page)
        if name.startswith("choices-")
    }
    data = question_form(
        prompt=EDITED_PROMPT, correct="2", explanation="The article names Netflix.",
        source="which is now streaming on Netflix\nKiss & Cry is available to stream on Netflix.", tags="film", **fields,
    )
    data["csrf_token"] = csrf_token(page)
    response = admin_client.post("/admin/questions/streaming-service/edit", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    revision = current(bundled).current_revision
    assert (revision.number, revision.prompt, revision.explanation) == (2, EDITED_PROMPT, "The article names Netflix.")


def test_a_quote_that_is_not_in_the_article_is_reported_on_the_source_field(admin_client, bundled):
    response = submit(admin_client, "/admin/new-question", **{**NEW_QUESTION, "source": "Netflix\nstreaming on Hulu since 2019"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "The question was not saved." in page
    errors = page[page.index('id="source-errors"'):]
    assert errors.index("Quote 2: Quote not found in article &#39;kiss-and-cry&#39;") < errors.index("</ul>")
    assert 'aria-describedby="source-hint source-errors" aria-invalid="true"' in page
    assert current(bundled, "streaming-where") is None


def test_an_error_on_a_choice_is_shown_on_that_choice_despite_empty_ones_before_it(admin_client, bundled):
    response = submit(admin_client, "/admin/new-question", **{**NEW_QUESTION, "choices-4": "netflix"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    # Entry choice 3 is the form's choice 5: choices 2 and 4 were left empty.
    assert '<ul class="errors" id="choices-4-errors">' in page
    assert "Duplicate of choice 1 (&#39;netflix&#39;)" in page[page.index('id="choices-4-errors"'):]
    assert current(bundled, "streaming-where") is None


def test_the_form_asks_for_a_correct_choice_and_for_true_or_false(admin_client):
    page = submit(admin_client, "/admin/new-question", **{**NEW_QUESTION, "correct": []}).get_data(as_text=True)
    assert "Mark the correct choice." in page
    page = submit(admin_client, "/admin/new-question", **{**NEW_QUESTION, "kind": "true_false"}).get_data(as_text=True)
    assert "Choose true or false." in page


def test_a_new_question_cannot_take_an_existing_id(admin_client, bundled):
    response = submit(admin_client, "/admin/new-question", **{**NEW_QUESTION, "slug": "blog-title"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "The id &#39;blog-title&#39; is already used by another question" in page[page.index('id="slug-errors"'):]
    assert current(bundled, "blog-title").current_revision.number == 1


@pytest.mark.parametrize("fields", [
    {"kind": "bogus"}, {"quiz": "no-such-quiz"}, {"time_limit": "soon"}, {"correct": ["9", "x"]},
    {"slug": "Not An Id"}, {"prompt": ""},
])
def test_bad_form_input_is_refused_without_an_error_page(admin_client, bundled, fields):
    response = submit(admin_client, "/admin/new-question", **{**NEW_QUESTION, **fields})
    assert response.status_code == 422
    assert "The question was not saved." in response.get_data(as_text=True)


def test_a_retired_question_is_restored_before_it_is_edited(admin_client, bundled):
    retire_or_restore(admin_client, "streaming-service", "retire")
    response = admin_client.get("/admin/questions/streaming-service/edit")
    assert response.status_code == 303 and response.location == "/admin/questions/streaming-service"
