"""The admin pages for other tools' formats, through the test client: the bank downloaded in
every format, and questions added from a GIFT, Moodle XML, Aiken, Kahoot or Open Trivia DB
file through the import preview."""

from __future__ import annotations

import csv
import io
import json
import os

import pytest
import sqlalchemy as sa
from defusedxml import ElementTree
from openpyxl import Workbook

from quiz.extensions import db
from quiz.formats import MAX_UPLOAD_BYTES, exporters
from quiz.models import Question, Quiz
from tests.admin.test_pages import current, hidden_fields, token
from tests.conftest import BUNDLED_QUESTIONS, csrf_token
from tests.formats.test_moodle_xml_import import TEACHER_BANK

PAGE = "/admin/import-questions"

GIFT = """\
// Two questions; one has the id of a question of the bundled bank.
::streaming-service:: Where can you stream the film? {=Netflix ~Hulu ~Mubi}

::Oldest Olympics:: In which city were the first modern Olympics held? {=Athens ~Paris ~London}
"""

AIKEN = """\
Which planet is the largest?
A. Mars
B. Jupiter
C. Venus
ANSWER: B
"""


def kahoot_workbook() -> bytes:
    """Kahoot's template: headers on row 8 from column B, one question below."""
    book = Workbook()
    sheet = book.active
    for column, header in enumerate(
        ["Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
         "Answer 3 - max 75 characters", "Answer 4 - max 75 characters", "Time limit (sec)", "Correct answer(s)"], 2,
    ):
        sheet.cell(row=8, column=column, value=header)
    for column, value in enumerate(["Which ocean is the largest?", "Pacific", "Atlantic", "Indian", "Arctic", 20, "1"], 2):
        sheet.cell(row=9, column=column, value=value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


OPENTDB = json.dumps({"response_code": 0, "results": [{
    "type": "multiple", "difficulty": "easy", "category": "Science",
    "question": "What is H&#039;2&#039;O?", "correct_answer": "Water", "incorrect_answers": ["Salt", "Air", "Sand"],
}]})


def upload(
    client, data: bytes, name: str, *, quiz: str = "kiss-and-cry", format: str = "", follow_redirects: bool = False, **extra,
):
    fields = {
        "csrf_token": token(client, PAGE), "quiz": quiz, "format": format, "file": (io.BytesIO(data), name), **extra,
    }
    return client.post(PAGE, data=fields, content_type="multipart/form-data", follow_redirects=follow_redirects)


def question_slugs(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(sa.select(Question.slug).order_by(Question.id)))


# Access --------------------------------------------------------------------------------------

NEW_GET_PAGES = ["/admin/export/gift", "/admin/export/moodle-xml", "/admin/export/csv", PAGE, "/admin/generate"]
NEW_POST_PAGES = [PAGE, "/admin/generate", "/admin/generate/review"]


@pytest.mark.parametrize("url", NEW_GET_PAGES)
def test_teachers_are_forbidden_the_new_pages(bundled, client, log_in_as, url):
    log_in_as(client, "teacher")
    assert client.get(url).status_code == 403


@pytest.mark.parametrize("url", NEW_POST_PAGES)
def test_teachers_cannot_post_to_the_new_pages(bundled, client, log_in_as, url):
    log_in_as(client, "teacher")
    response = client.post(url, data={"csrf_token": token(client, "/host"), "text": "A title\n\nIn 1999 it rained."})
    assert response.status_code == 403


@pytest.mark.parametrize("url", NEW_GET_PAGES)
def test_anonymous_visitors_are_sent_to_log_in(bundled, client, url):
    response = client.get(url)
    assert response.status_code == 302 and response.location.startswith("/login?next=")


@pytest.mark.parametrize("url", NEW_POST_PAGES)
def test_posts_to_the_new_pages_without_a_csrf_token_are_refused(admin_client, bundled, url):
    response = admin_client.post(
        url, data={"quiz": "kiss-and-cry", "file": (io.BytesIO(GIFT.encode()), "new.gift"), "text": "A title\n\nIn 1999."},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)
    assert len(question_slugs(bundled)) == BUNDLED_QUESTIONS


def test_the_admin_page_links_every_download_and_the_new_pages(admin_client):
    page = admin_client.get("/admin/").get_data(as_text=True)
    for url in ["/admin/bank.yaml", "/admin/export/gift", "/admin/export/moodle-xml", "/admin/export/csv", PAGE, "/admin/generate"]:
        assert f'href="{url}"' in page


# Downloads -----------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", exporters(), ids=lambda entry: entry.name)
def test_each_download_is_what_quiz_export_writes(admin_client, bundled, entry):
    response = admin_client.get(f"/admin/export/{entry.name}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == entry.media_type
    assert response.headers["Content-Disposition"] == f"attachment; filename={entry.filename('questions')}"
    exported = bundled.test_cli_runner().invoke(args=["export", "--format", entry.name])
    assert exported.exit_code == 0
    assert response.get_data() == exported.stdout_bytes


def test_the_moodle_download_holds_every_question(admin_client):
    root = ElementTree.fromstring(admin_client.get("/admin/export/moodle-xml").get_data())
    names = [question.findtext("name/text") for question in root.iter("question") if question.get("type") != "category"]
    assert len(names) == BUNDLED_QUESTIONS
    texts = " ".join(question.findtext("questiontext/text") or "" for question in root.iter("question"))
    assert "where can you stream Kiss &amp; Cry?" in texts or "where can you stream Kiss & Cry?" in texts


def test_the_csv_download_has_a_row_per_question(admin_client):
    text = admin_client.get("/admin/export/csv").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 1 + BUNDLED_QUESTIONS


def test_a_format_that_cannot_be_written_is_not_found(admin_client):
    assert admin_client.get("/admin/export/kahoot").status_code == 404
    assert admin_client.get("/admin/export/no-such-format").status_code == 404


# Adding questions from a file ----------------------------------------------------------------


def test_the_form_offers_the_quizzes_in_play_and_the_readable_formats(admin_client):
    page = admin_client.get(PAGE).get_data(as_text=True)
    assert 'value="kiss-and-cry">Kiss &amp; Cry: how well do you know it?</option>' in page
    for name in ["gift", "moodle-xml", "aiken", "kahoot", "opentdb"]:
        assert f'value="{name}"' in page
    assert 'value="csv"' not in page


def test_a_gift_file_is_previewed_with_its_questions_added_and_a_used_id_renamed(admin_client, bundled):
    response = upload(admin_client, GIFT.encode(), "new.gift")
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page
    assert "<h1>Preview: new.gift (GIFT)</h1>" in page
    assert "<h3>Added (2)</h3>" in page
    assert "<code>streaming-service-2</code>: Where can you stream the film?" in page
    assert "<code>oldest-olympics</code>" in page
    assert "<code>streaming-service</code> becomes <code>streaming-service-2</code>" in page
    assert "<h3>Retired" not in page and "<h3>Changed" not in page
    assert len(question_slugs(bundled)) == BUNDLED_QUESTIONS

    response = admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert response.status_code == 303
    assert question_slugs(bundled)[-2:] == ["streaming-service-2", "oldest-olympics"]
    with bundled.app_context():
        added = db.session.scalar(sa.select(Question).where(Question.slug == "streaming-service-2"))
        assert (added.quiz.slug, added.position, added.current_revision.quotes) == ("kiss-and-cry", BUNDLED_QUESTIONS, [])
    assert current(bundled).current_revision.number == 1


def test_a_retired_question_is_not_restored_by_a_read_question_of_the_same_id(admin_client, bundled):
    page = admin_client.get("/admin/questions/streaming-service").get_data(as_text=True)
    admin_client.post("/admin/questions/streaming-service/retire", data={"csrf_token": csrf_token(page)})
    page = upload(admin_client, GIFT.encode(), "new.gift").get_data(as_text=True)
    admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert current(bundled).retired_at is not None
    assert current(bundled, "streaming-service-2").retired_at is None


@pytest.mark.parametrize(("data", "name", "format", "prompt"), [
    (AIKEN.encode(), "planets.aiken", "", "Which planet is the largest?"),
    (AIKEN.encode(), "planets.txt", "aiken", "Which planet is the largest?"),
    (kahoot_workbook(), "oceans.xlsx", "", "Which ocean is the largest?"),
    (OPENTDB.encode(), "trivia.json", "", "What is H&#39;2&#39;O?"),
    (GIFT.encode(), "questions.txt", "gift", "In which city were the first modern Olympics held?"),
    (TEACHER_BANK.read_bytes(), "skating.xml", "", "Which jump takes off forwards?"),
])
def test_every_readable_format_is_previewed(admin_client, data, name, format, prompt):
    response = upload(admin_client, data, name, format=format)
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page
    assert prompt in page[page.index("<h3>Added"):]


def test_an_apply_after_the_bank_changed_shows_a_fresh_preview(admin_client, bundled):
    fields = hidden_fields(upload(admin_client, GIFT.encode(), "new.gift").get_data(as_text=True))
    page = admin_client.get("/admin/questions/blog-title").get_data(as_text=True)
    admin_client.post("/admin/questions/blog-title/retire", data={"csrf_token": csrf_token(page)})
    response = admin_client.post("/admin/import/apply", data=fields)
    assert response.status_code == 409
    assert "The bank changed after this preview was made, so nothing was imported." in response.get_data(as_text=True)
    assert "streaming-service-2" not in question_slugs(bundled)


def test_a_txt_file_asks_which_format_it_is(admin_client, bundled):
    response = upload(admin_client, GIFT.encode(), "questions.txt")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "A .txt file may be GIFT or Aiken: choose which, and the file again." in page
    assert len(question_slugs(bundled)) == BUNDLED_QUESTIONS


@pytest.mark.parametrize(("name", "message"), [
    ("notes.pdf", "The file name does not say which format it is: choose the format, and the file again."),
    ("bank.yaml", "Bank file (YAML) files cannot be read here: use Import a bank for a bank file."),
    ("export.csv", "CSV files cannot be read here."),
])
def test_a_file_of_no_readable_format_is_refused(admin_client, name, message):
    response = upload(admin_client, b"anything", name)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_a_broken_file_lists_every_error_with_its_line_and_imports_nothing(admin_client, bundled):
    broken = GIFT.replace("{=Netflix ~Hulu ~Mubi}", "{=Netflix ~Hulu ~%200%Mubi}").replace("::Oldest Olympics::", "::Oldest")
    response = upload(admin_client, broken.encode(), "broken.gift")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "2 problems in broken.gift" in page
    assert "<strong>Line 2, column 70</strong>" in page and "<strong>Line 4, column 1</strong>" in page
    assert "a weight is a percentage between -100 and 100" in page
    # The line is shown under its message; a GIFT file is not corrected in a bank's text area.
    assert "Where can you stream the film? {=Netflix ~Hulu ~%200%Mubi}" in page
    assert "<textarea" not in page and 'href="/admin/import-questions"' in page
    assert len(question_slugs(bundled)) == BUNDLED_QUESTIONS


def test_questions_no_kind_can_hold_are_named_in_the_preview_unless_the_file_is_refused_whole(admin_client, bundled):
    teacher = GIFT + "\n::essay:: Tell us about the film. {}\n\nThe next questions are about the Olympics.\n"
    page = upload(admin_client, teacher.encode(), "teacher.gift").get_data(as_text=True)
    assert "<h2 id=\"left-out-heading\">Left out of the file (2 questions)</h2>" in page
    assert "Line 6 (question 3): an essay question ({}) cannot be imported" in page
    assert "Line 8 (question 4): a description (text without answers in braces) cannot be imported" in page
    assert "<h3>Added (2)</h3>" in page
    admin_client.post("/admin/import/apply", data=hidden_fields(page))
    assert question_slugs(bundled)[-2:] == ["streaming-service-2", "oldest-olympics"]

    response = upload(admin_client, teacher.encode(), "teacher.gift", strict="y")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "2 problems in teacher.gift" in page and "an essay question ({}) cannot be imported" in page
    assert len(question_slugs(bundled)) == BUNDLED_QUESTIONS + 2


def test_what_read_questions_lose_is_named_in_the_preview(admin_client, bundled):
    page = upload(admin_client, TEACHER_BANK.read_bytes(), "skating.xml").get_data(as_text=True)
    assert "<h2 id=\"lost-heading\">Lost on the way (4)</h2>" in page
    assert "Line 24 (question 1): the question text loses an image (axel diagram.png)" in page
    assert "<h3>Added (6)</h3>" in page


def test_a_broken_workbook_is_refused_without_showing_its_bytes(admin_client):
    response = upload(admin_client, b"PK\x03\x04" + os.urandom(200), "oceans.xlsx")
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "not an .xlsx workbook" in page and '<pre class="source-line">' not in page


@pytest.mark.parametrize(("data", "name"), [
    (b"", "empty.gift"), (os.urandom(4096), "junk.gift"), (os.urandom(4096), "junk.json"), (b"\x00" * 100, "zeros.aiken"),
    (os.urandom(4096), "junk.xlsx"), (b"{}", "empty.json"),
])
def test_garbage_files_are_refused_with_a_message(admin_client, bundled, data, name):
    response = upload(admin_client, data, name)
    assert response.status_code == 422
    assert "Nothing was imported." in response.get_data(as_text=True)
    assert len(question_slugs(bundled)) == BUNDLED_QUESTIONS


def test_a_file_over_the_upload_cap_is_refused_with_its_size(admin_client, bundled):
    bundled.config["MAX_CONTENT_LENGTH"] = 2 * MAX_UPLOAD_BYTES
    # The test client spools a large body to a temporary file, which it closes with the
    # response only when it follows redirects.
    with upload(admin_client, GIFT.encode() * (MAX_UPLOAD_BYTES // len(GIFT) + 1), "big.gift", follow_redirects=True) as response:
        page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f"the limit is {MAX_UPLOAD_BYTES:,}." in page


@pytest.mark.parametrize("fields", [
    {"quiz": "no-such-quiz"}, {"format": "csv"}, {"format": "bogus"}, {"file": "not a file"},
])
def test_bad_form_input_is_refused_without_an_error_page(admin_client, fields):
    response = upload(admin_client, GIFT.encode(), "new.gift", **fields)
    assert response.status_code == 422
    assert "Nothing was read. Correct the marked fields." in response.get_data(as_text=True)


def test_without_a_quiz_in_play_the_page_sends_the_admin_back(admin_client, bundled):
    with bundled.app_context():
        for quiz in db.session.scalars(sa.select(Quiz)):
            quiz.retired_at = sa.func.now()
        db.session.commit()
    response = admin_client.get(PAGE)
    assert response.status_code == 303 and response.location == "/admin/"
    assert "There is no quiz to add questions to" in admin_client.get("/admin/").get_data(as_text=True)


def test_a_huge_form_field_gets_the_413_page(admin_client, bundled):
    response = upload(admin_client, GIFT.encode(), "new.gift", quiz="x" * (bundled.config["MAX_FORM_MEMORY_SIZE"] + 1))
    assert response.status_code == 413
    assert "What you sent is too large." in response.get_data(as_text=True)
