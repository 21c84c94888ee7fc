"""A corpus of hostile input, each piece refused with a clear message or shown inert, never a
500, and the database unchanged by what was refused: markup and script in every text a bank,
the admin's forms or a player can set; SQL meta-characters in text fields and URLs; alias
bombs, deep nesting, duplicate keys and invalid UTF-8 in documents; NUL characters and numbers
too large for the database; huge nicknames, control characters and right-to-left overrides;
and a 50 MB upload to the real server."""

from __future__ import annotations

import html
import io
import json
import re
import select
import socket
import time
from pathlib import Path
from urllib.parse import quote

import markupsafe
import pytest
import sqlalchemy as sa
from werkzeug.exceptions import NotFound

from quiz.extensions import db
from quiz.models import LivePlayer, Player, QuestionRevision
from tests.conftest import csrf_token
from tests.hardening.conftest import SMALL_POOL, database_rows
from tests.servers import ADMIN, browser, form_token, log_in, prepare_database, production_server, server_environment
from tests.web import helpers as solo
from tests.web.live_helpers import create_session, join, join_code, joined, press, submit
from tests.web.live_helpers import log_in as log_in_as

REPO = Path(__file__).resolve().parents[2]

# Markup and script -------------------------------------------------------------------------------

SCRIPT = '<script>alert("xss")</script>'
IMAGE = '"><img src=x onerror=alert(1)>'
SVG = "'><svg/onload=alert(1)>"
TEXTAREA = "</textarea><script>alert(2)</script>"
PAYLOADS = (SCRIPT, IMAGE, SVG, TEXTAREA)
#: Shorter, for nicknames (20 characters at most).
NICKNAME = "<script>x</script>"


def markup_bank() -> str:
    """A bank with a payload in every text it has, the quoted passage of the article included.
    JSON strings are YAML flow scalars, so every payload goes in exactly as written."""
    q = json.dumps
    return f"""version: 1
articles:
  - id: markup
    title: {q("The bridge " + SCRIPT)}
    text: {q("The bridge " + IMAGE + " opened in 1932 after six years of work." + chr(10) + chr(10)
             + "Its engineer wrote " + SCRIPT + " on the plans.")}
quizzes:
  - id: markup
    title: {q("Bridges " + SVG)}
    description: {q(TEXTAREA)}
    article: markup
    settings:
      shuffle_choices: false
questions:
  - id: markup-question
    quiz: markup
    prompt: {q("What did the engineer write? " + SCRIPT)}
    choices: [{q(SCRIPT)}, {q(IMAGE)}, {q(SVG)}, {q(TEXTAREA)}]
    correct: {q(SCRIPT)}
    explanation: {q("It is on the plans. " + TEXTAREA)}
    source: {q("wrote " + SCRIPT + " on the plans")}
"""


def assert_inert(page: str, where: str) -> None:
    """No payload went out as markup: each appears escaped, if at all, and every script tag on
    the page is one of ours."""
    for payload in (*PAYLOADS, NICKNAME):
        assert payload not in page, f"{where} shows {payload!r} as markup"
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert re.fullmatch(r'<script src="/static/js/\w+\.js"( defer)?>', tag), f"{where}: {tag}"


def hidden_fields(page: str) -> dict[str, str]:
    """The import preview's apply form, as the browser sends it back."""
    form = page[page.index('action="/admin/import/apply"'):]
    fields = re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form, re.S)
    return {name: html.unescape(value) for name, value in fields}


def test_markup_in_a_bank_is_shown_literally_on_every_page_that_shows_it(app):
    admin = log_in_as(app, "admin", role="admin")
    token = csrf_token(admin.get("/admin/import").get_data(as_text=True))
    page = admin.post("/admin/import", data={"csrf_token": token, "text": markup_bank()})
    assert page.status_code == 200, page.get_data(as_text=True)
    assert_inert(page.get_data(as_text=True), "the import preview")
    assert admin.post("/admin/import/apply", data=hidden_fields(page.get_data(as_text=True))).status_code == 303
    with app.app_context():
        assert db.session.scalar(sa.select(QuestionRevision.prompt)) == "What did the engineer write? " + SCRIPT
        revision_id = db.session.scalar(sa.select(QuestionRevision.id))

    pages = {}
    player = app.test_client()
    pages["home"] = player.get("/")
    pages["quiz"] = player.get("/quizzes/markup")
    token = csrf_token(pages["quiz"].get_data(as_text=True))
    question_url = player.post("/quizzes/markup/attempts", data={"csrf_token": token, "length": "all"}).location
    pages["question"] = player.get(question_url)
    assert str(markupsafe.escape(SCRIPT)) in pages["question"].get_data(as_text=True)
    solo.answer(player, question_url, 2)
    pages["feedback"] = player.get(question_url)
    results_url = solo.next_link(pages["feedback"].get_data(as_text=True))
    player.post("/player", data={"csrf_token": token, "nickname": NICKNAME})
    pages["results"] = player.get(results_url)
    pages["leaderboard"] = player.get("/quizzes/markup/leaderboard")
    pages["reader"] = player.get("/articles/markup?highlight=src-markup-question-1")
    for path in ("/admin/", "/admin/questions", "/admin/questions/markup-question",
                 "/admin/questions/markup-question/edit", "/stats/", "/stats/quiz/markup",
                 f"/stats/quiz/markup/questions/{revision_id}", "/host"):
        pages[path] = admin.get(path)

    token = csrf_token(admin.get("/host/new/markup").get_data(as_text=True))
    response = admin.post("/host/new/markup", data={"csrf_token": token, "pacing": "host", "scoring": "plain"})
    session_id = int(response.location.rsplit("/", 1)[1])
    phone = joined(app, join_code(admin, session_id), NICKNAME, session_id)
    press(admin, session_id, "start")
    pages["projector, question"] = admin.get(f"/host/sessions/{session_id}")
    pages["phone, question"] = phone.get(f"/live/{session_id}")
    submit(phone, session_id, 1)
    press(admin, session_id, "reveal")
    pages["projector, reveal"] = admin.get(f"/host/sessions/{session_id}")
    pages["phone, reveal"] = phone.get(f"/live/{session_id}")
    press(admin, session_id, "finish")
    pages["podium"] = admin.get(f"/host/sessions/{session_id}")
    pages["session results"] = admin.get(f"/host/sessions/{session_id}/results")
    pages["session statistics"] = admin.get(f"/stats/sessions/{session_id}")

    for where, response in pages.items():
        assert response.status_code == 200, where
        assert response.mimetype == "text/html", where
        assert_inert(response.get_data(as_text=True), where)
    # The explanation and the quote, with its passage, are on the feedback page, escaped.
    feedback = pages["feedback"].get_data(as_text=True)
    assert str(markupsafe.escape(TEXTAREA)) in feedback and str(markupsafe.escape("wrote " + SCRIPT)) in feedback
    # Downloads and streams carry the text as it is, in types a browser never runs as a page.
    for path in ("/admin/bank.yaml", "/admin/export/gift", "/admin/export/moodle-xml", "/admin/export/csv",
                 f"/host/sessions/{session_id}/answers.csv", "/stats/quiz/markup.json"):
        response = admin.get(path)
        assert response.status_code == 200 and response.mimetype != "text/html", path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
    # The phone's script writes what the event stream sends as text, never as markup.
    for script in sorted((REPO / "static" / "js").glob("*.js")):
        source = script.read_text()
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(", source), script.name


def test_markup_in_the_admin_question_form_is_shown_literally(bundled):
    admin = log_in_as(bundled, "admin", role="admin")
    token = csrf_token(admin.get("/admin/new-question").get_data(as_text=True))
    response = admin.post("/admin/new-question", data={
        "csrf_token": token, "slug": "markup-question", "quiz": "kiss-and-cry", "kind": "single", "difficulty": "easy",
        "prompt": "Which? " + SCRIPT, "choices-0": IMAGE, "choices-1": SVG, "choices-2": TEXTAREA, "correct": "1",
        "explanation": TEXTAREA, "source": "", "tags": "",
    })
    assert response.status_code == 303, response.get_data(as_text=True)
    for path in ("/admin/questions/markup-question", "/admin/questions/markup-question/edit",
                 "/admin/questions?page=2"):
        response = admin.get(path)
        assert response.status_code == 200
        assert_inert(response.get_data(as_text=True), path)
    # A refused form shows back what was typed, escaped, in its fields.
    response = admin.post("/admin/new-question", data={"csrf_token": token, "slug": SVG, "quiz": "kiss-and-cry",
                                                       "kind": "single", "prompt": TEXTAREA, "choices-0": IMAGE})
    assert response.status_code == 422
    assert_inert(response.get_data(as_text=True), "the refused question form")


# SQL meta-characters ----------------------------------------------------------------------------

SQL = ("' OR '1'='1", "'; DROP TABLE answer; --", '" OR ""="', "%_\\", "1 UNION SELECT password_hash FROM user_account")


def test_sql_meta_characters_in_urls_and_fields_are_only_text(bundled):
    admin = log_in_as(bundled, "admin", role="admin")
    host = log_in_as(bundled, "teacher")
    session_id = create_session(host, question_count=1)
    code = join_code(host, session_id)
    player = bundled.test_client()
    solo.start_attempt(player)
    player.get("/join")
    before = database_rows(bundled)
    for payload in SQL:
        text = quote(payload, safe="")
        # A read with the payload in any part of any URL: nothing found, or a page that shows
        # it as text, never an error.
        for client, path in [
            (player, f"/quizzes/{text}"), (player, f"/quizzes/{text}/leaderboard"), (player, f"/articles/{text}"),
            (player, f"/articles/kiss-and-cry?highlight={text}"), (player, f"/attempts/{text}"),
            (player, f"/attempts/{text}/results"), (player, f"/attempts/{text}/questions/1"),
            (player, f"/join?code={text}"), (player, f"/player?next={text}"), (player, f"/login?next={text}"),
            (admin, f"/admin/questions/{text}"), (admin, f"/admin/export/{text}"), (admin, f"/host/new/{text}"),
            (admin, f"/admin/questions?quiz={text}&tag={text}&difficulty={text}&retired={text}&page={text}"),
            (admin, f"/stats/quiz/{text}"), (admin, f"/stats/quiz/{text}.json"),
            (admin, f"/stats/quiz/kiss-and-cry?plays={text}&started_from={text}&started_until={text}"),
            (admin, f"/stats/quiz/kiss-and-cry/{text}.csv"),
        ]:
            response = client.get(path)
            assert response.status_code in (200, 404), f"{path}: {response.status_code}"
        # Forms that refuse it.
        token = csrf_token(player.get("/join").get_data(as_text=True))
        assert player.post("/join", data={"csrf_token": token, "code": payload, "nickname": "Ana"}).status_code == 422
        response = player.post("/login", data={"csrf_token": token, "username": payload, "password": payload})
        assert response.status_code == 200 and "Wrong username or password." in response.get_data(as_text=True)
        page = host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
        response = host.post(
            f"/host/sessions/{session_id}/action", data={"csrf_token": csrf_token(page), "action": payload}
        )
        assert response.status_code == 303
        assert "unknown action" in host.get(f"/host/sessions/{session_id}").get_data(as_text=True)
    assert database_rows(bundled) == before

    # Fields that take it store it as it was typed, and nothing else changes.
    token = csrf_token(player.get("/player").get_data(as_text=True))
    for payload in SQL:
        nickname = payload[:20]
        _, response = join(bundled, code, nickname)
        assert response.status_code == 303, response.get_data(as_text=True)
        assert player.post("/player", data={"csrf_token": token, "nickname": nickname}).status_code == 303
        with bundled.app_context():
            newest = sa.select(LivePlayer.nickname).order_by(LivePlayer.id.desc()).limit(1)
            assert db.session.scalar(newest) == nickname
            mine = sa.select(Player.nickname).where(Player.token == player_token(bundled, player))
            assert db.session.scalar(mine) == nickname
    # What joining and naming oneself change; everything else is as it was.
    joining = ("player", "live_player", "live_session", "attempt", "attempt_question")
    after = database_rows(bundled)
    assert {table: rows for table, rows in after.items() if table not in joining} == {
        table: rows for table, rows in before.items() if table not in joining
    }


def player_token(app, client) -> str:
    return app.session_interface.get_signing_serializer(app).loads(client.get_cookie("quiz_session").value)["player"]


# Documents: alias bombs, deep nesting, duplicate keys, invalid UTF-8 --------------------------------

BILLION_LAUGHS = b"version: 1\n" + b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + b"".join(
    f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]\n".encode()
    for previous, name in zip("abcdefgh", "bcdefghi")
)

ALIASES_REFUSED = "anchors and aliases (&amp; and *) are not allowed"
DOCUMENTS = [
    # (what, import page, file name, format, content, part of the message)
    ("billion laughs", "/admin/import", "lol.yaml", None, BILLION_LAUGHS, ALIASES_REFUSED),
    ("deep YAML", "/admin/import", "deep.yaml", None, b"version: 1\nquizzes: " + b"[" * 50_000, "nested"),
    ("duplicate keys", "/admin/import", "dup.yaml", None, b"version: 1\nversion: 1\n", "duplicate key"),
    ("YAML tag", "/admin/import", "tag.yaml", None, b"version: 1\narticles: !foo [x]\n", "YAML tags such as"),
    ("invalid UTF-8", "/admin/import", "bad.yaml", None, b"version: 1\nquizzes: \xff\xfe\n", "UTF-8"),
    ("deep JSON", "/admin/import-questions", "deep.json", "opentdb", b"[" * 100_000, "nested too deeply"),
    ("duplicate keys JSON", "/admin/import-questions", "dup.json", "opentdb",
     b'{"results": [{"type": "boolean", "question": "Q?", "correct_answer": "True", "correct_answer": "False",'
     b' "incorrect_answers": ["False"]}]}', "duplicate key"),
    ("invalid UTF-8 JSON", "/admin/import-questions", "bad.json", "opentdb", b'{"results": ["\xff"]}', "UTF-8"),
    ("half a character", "/admin/import-questions", "half.json", "opentdb",
     b'{"response_code": 0, "results": [{"type": "multiple", "question": "Q\\ud800?", "correct_answer": "a",'
     b' "incorrect_answers": ["b", "c"]}]}', "unpaired"),
    ("deep GIFT", "/admin/import-questions", "deep.gift", "gift", b"::q:: Q {" * 20_000, "problem"),
    ("not a workbook", "/admin/import-questions", "bomb.xlsx", "kahoot", b"PK\x03\x04" + b"\x00" * 1000, "problem"),
]


@pytest.mark.parametrize("what, path, name, format, content, message", DOCUMENTS, ids=[doc[0] for doc in DOCUMENTS])
def test_hostile_documents_are_refused_quickly_with_a_message(bundled, what, path, name, format, content, message):
    admin = log_in_as(bundled, "admin", role="admin")
    token = csrf_token(admin.get(path).get_data(as_text=True))
    before = database_rows(bundled)
    data = {"csrf_token": token, "file": (io.BytesIO(content), name)}
    if format:
        data.update(format=format, quiz="kiss-and-cry")
    started = time.monotonic()
    response = admin.post(path, data=data, content_type="multipart/form-data")
    elapsed = time.monotonic() - started
    page = response.get_data(as_text=True)
    assert response.status_code == 422, page
    assert message in page and "problem" in page
    assert elapsed < 3, f"{what} took {elapsed:.1f} s"
    assert database_rows(bundled) == before


def test_a_pasted_alias_bomb_is_refused_too(bundled):
    admin = log_in_as(bundled, "admin", role="admin")
    before = database_rows(bundled)
    token = csrf_token(admin.get("/admin/import").get_data(as_text=True))
    response = admin.post("/admin/import", data={"csrf_token": token, "text": BILLION_LAUGHS.decode()})
    assert response.status_code == 422
    assert "anchors and aliases" in response.get_data(as_text=True)
    assert database_rows(bundled) == before


def test_control_characters_in_bank_texts_are_refused(bundled):
    admin = log_in_as(bundled, "admin", role="admin")
    before = database_rows(bundled)
    bank = markup_bank().replace("What did the engineer write?", "What did the engineer write?\\0\\u202e")
    token = csrf_token(admin.get("/admin/import").get_data(as_text=True))
    response = admin.post("/admin/import", data={"csrf_token": token, "text": bank})
    assert response.status_code == 422
    assert "holds the control character U+0000" in response.get_data(as_text=True)
    assert database_rows(bundled) == before


# NUL, numbers too large, invalid UTF-8 in URLs, fields and cookies ----------------------------------

NUL_MESSAGE = "holds a NUL character"


def test_nul_characters_are_refused_wherever_they_are_sent(bundled):
    admin = log_in_as(bundled, "admin", role="admin")
    player = bundled.test_client()
    token = csrf_token(player.get("/join").get_data(as_text=True))
    admin_token = csrf_token(admin.get("/admin/new-question").get_data(as_text=True))
    before = database_rows(bundled)
    responses = {
        "a path": player.get("/quizzes/kiss%00cry"),
        "a query": player.get("/articles/kiss-and-cry?highlight=%00"),
        "a redirect target": player.get("/login?next=/%00"),
        "a login": player.post("/login", data={"csrf_token": token, "username": "admin\x00", "password": "x"}),
        "a nickname": player.post("/player", data={"csrf_token": token, "nickname": "Ana\x00"}),
        "a join": player.post("/join", data={"csrf_token": token, "code": "123456", "nickname": "A\x00"}),
        "a repeated field": player.post("/player", data={"csrf_token": token, "nickname": ["Ana", "B\x00"]}),
        "a repeated parameter": player.get("/articles/kiss-and-cry?highlight=p1&highlight=%00"),
        "a question": admin.post("/admin/new-question", data={
            "csrf_token": admin_token, "slug": "nul", "quiz": "kiss-and-cry", "kind": "single", "prompt": "P\x00?",
            "choices-0": "a", "choices-1": "b", "correct": "1", "explanation": "e"}),
        "a pasted bank": admin.post("/admin/import", data={"csrf_token": admin_token, "text": "version: 1\x00"}),
        "an admin filter": admin.get("/admin/questions?tag=%00"),
        "a question id": admin.get("/admin/questions/%00"),
    }
    for where, response in responses.items():
        assert response.status_code == 400, where
        assert NUL_MESSAGE in response.get_data(as_text=True), where
    assert database_rows(bundled) == before


def test_numbers_beyond_the_database_and_dates_beyond_the_calendar_are_not_found_or_ignored(bundled):
    admin = log_in_as(bundled, "admin", role="admin")
    session_id = create_session(admin)
    token = csrf_token(admin.get(f"/host/sessions/{session_id}").get_data(as_text=True))
    before = database_rows(bundled)
    huge = "99999999999999999999"
    for path in (f"/host/sessions/{huge}", f"/host/sessions/{huge}/results", f"/stats/sessions/{huge}",
                 f"/stats/sessions/{2**31}", f"/stats/quiz/kiss-and-cry/questions/{huge}", f"/live/{huge}",
                 f"/live/{huge}/events", f"/attempts/x/questions/{huge}"):
        assert admin.get(path).status_code == 404, path
    response = admin.post(f"/host/sessions/{session_id}/players/{huge}/remove", data={"csrf_token": token})
    assert response.status_code == 404
    # Ids up to the largest an INTEGER column holds are addresses; beyond, none.
    urls = bundled.url_map.bind("localhost")
    assert urls.match(f"/host/sessions/{2**31 - 1}")[0] == "live.host_screen"
    with pytest.raises(NotFound):
        urls.match(f"/host/sessions/{2**31}")
    for query in ("started_until=9999-12-31", "started_from=0001-01-01&started_until=9999-12-31",
                  "started_from=9999-12-31"):
        assert admin.get(f"/stats/quiz/kiss-and-cry?plays=all&{query}").status_code == 200, query
    assert database_rows(bundled) == before


def test_invalid_utf8_in_paths_queries_fields_and_cookies(bundled):
    player = bundled.test_client()
    solo.start_attempt(player)
    before = database_rows(bundled)
    assert player.get("/quizzes/%FF%FE").status_code == 404
    assert player.get("/attempts/%ED%A0%80").status_code == 404  # an encoded surrogate
    assert player.get("/articles/kiss-and-cry?highlight=%FF").status_code == 200
    assert player.get("/player?next=%C0%AF").status_code == 200
    token = csrf_token(player.get("/join").get_data(as_text=True))
    body = f"csrf_token={token}&code=%FF%FE%FD%FC%FB%FA&nickname=%C3".encode()
    response = player.post("/join", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 422 and "The code has 6 digits." in response.get_data(as_text=True)
    assert database_rows(bundled) == before
    # A byte that is not UTF-8 stays percent-encoded, so a nickname of broken bytes is only text.
    body = f"csrf_token={token}&nickname=Ana%FF".encode()
    assert player.post("/player", data=body, content_type="application/x-www-form-urlencoded").status_code == 303
    with bundled.app_context():
        assert db.session.scalar(sa.select(Player.nickname).where(Player.nickname.is_not(None))) == "Ana%FF"
    # A cookie that is not ours (or not even text) is ignored: a new visitor.
    stranger = bundled.test_client()
    for cookie in ("quiz_session=\xff\xfe.garbage", "quiz_session=%FF%00; other=\x80"):
        assert stranger.get("/", headers={"Cookie": cookie}).status_code == 200
        assert stranger.get(solo.QUIZ, headers={"Cookie": cookie}).status_code == 200


# Nicknames -----------------------------------------------------------------------------------------

TOO_LONG = "Use at most 20 characters."
NOT_PRINTABLE = "Use letters, digits, punctuation and spaces only."
BAD_NICKNAMES = [
    ("a" * 21, TOO_LONG),
    ("a" * 100_000, TOO_LONG),
    ("e\u0301" * 21, TOO_LONG),  # 21 once composed
    ("right\u202eto-left", NOT_PRINTABLE),
    ("isolate\u2066x\u2069", NOT_PRINTABLE),
    ("zero\u200bwidth", NOT_PRINTABLE),
    ("escape\x1b[31m", NOT_PRINTABLE),
    ("bell\x07", NOT_PRINTABLE),
    ("\x7fdelete", NOT_PRINTABLE),
]


def test_huge_and_invisible_nicknames_are_refused_when_joining(bundled):
    host = log_in_as(bundled, "teacher")
    session_id = create_session(host)
    code = join_code(host, session_id)
    phone = bundled.test_client()
    token = csrf_token(phone.get("/join").get_data(as_text=True))
    before = database_rows(bundled)
    for nickname, message in BAD_NICKNAMES:
        response = phone.post("/join", data={"csrf_token": token, "code": code, "nickname": nickname})
        assert response.status_code == 422, repr(nickname[:30])
        page = response.get_data(as_text=True)
        assert message in page, repr(nickname[:30])
    # The same 100,000 characters as a solo player's nickname.
    response = phone.post("/player", data={"csrf_token": token, "nickname": "a" * 100_000})
    assert response.status_code == 422 and TOO_LONG in response.get_data(as_text=True)
    assert database_rows(bundled) == before
    # Twenty letters with accents typed as two code points each are twenty letters.
    assert phone.post("/join", data={"csrf_token": token, "code": code, "nickname": "e\u0301" * 20}).status_code == 303
    with bundled.app_context():
        assert db.session.scalar(sa.select(LivePlayer.nickname)) == "\u00e9" * 20


# A 50 MB upload, to the real server -----------------------------------------------------------------

UPLOADS = ("/admin/import", "/admin/import-questions", "/admin/generate")
FIFTY_MB = 50 * 1024 * 1024


def send_large_body(base_url: str, path: str, cookie: str, *, chunked: bool) -> tuple[int, int, float]:
    """POST a 50 MB multipart body to ``path``, as fast as the server takes it, until it answers.
    (status, bytes of the body sent by then, seconds)."""
    host, port = base_url.removeprefix("http://").split(":")
    boundary = "hostile-boundary"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: quiz_session={cookie}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {FIFTY_MB}\r\n")
        + "\r\n"
    ).encode()
    part = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.yaml"\r\n\r\n'.encode()
    block = b"x" * 65536
    sent, answer = 0, b""
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(head)
        connection.setblocking(False)
        pending = (f"{len(part):x}\r\n".encode() + part + b"\r\n") if chunked else part
        while time.monotonic() - started < 30:
            readable, writable, _ = select.select([connection], [connection] if sent < FIFTY_MB else [], [], 1)
            if readable:
                try:
                    data = connection.recv(65536)
                except ConnectionResetError:
                    break
                answer += data
                if not data or b"\r\n\r\n" in answer:
                    break
            elif writable:
                if not pending:
                    pending = (f"{len(block):x}\r\n".encode() + block + b"\r\n") if chunked else block
                try:
                    count = connection.send(pending)
                except (BrokenPipeError, ConnectionResetError):
                    break
                pending = pending[count:]
                sent += count
        connection.setblocking(True)
        while b"\r\n\r\n" not in answer:
            data = connection.recv(65536)
            if not data:
                break
            answer += data
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, sent, time.monotonic() - started


def resident_kilobytes(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1))


@pytest.mark.slow
def test_a_50_mb_upload_is_refused_at_once_without_the_worker_growing(database_url, tmp_path):
    url = database_url(empty=True)
    prepare_database(url)
    env = server_environment(url, WORKERS="1", SQLALCHEMY_ENGINE_OPTIONS=SMALL_POOL)
    with production_server(env, folder=tmp_path) as server, browser(server) as admin:
        assert log_in(admin, ADMIN).status_code == 303
        form_token(admin, "/admin/import")  # the worker has served the admin pages once
        worker = server.wait_for_workers()[0]
        resident = resident_kilobytes(worker)
        cookie = admin.cookies["quiz_session"]
        for path in UPLOADS:
            for chunked in (False, True):
                status, sent, seconds = send_large_body(server.base_url, path, cookie, chunked=chunked)
                assert status == 413, f"{path} ({'chunked' if chunked else 'with a length'}): {status}"
                # Refused on its declared length before the body is read, or once the cap
                # (1 MiB) is passed; what was sent meanwhile sat in socket buffers.
                assert sent < FIFTY_MB / 2 and seconds < 5, (path, chunked, sent, seconds)
                assert resident_kilobytes(worker) - resident < 20 * 1024
        assert server.wait_for_workers() == [worker]  # the same worker, never restarted
        assert admin.get("/admin/").status_code == 200
