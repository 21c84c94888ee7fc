"""Classroom sessions through the test client: a teacher's browser and students' phones, each
its own test client, reading the pages and pressing their buttons as a person would."""

from __future__ import annotations

import html as html_lib
import queue
import re
import threading

import sqlalchemy as sa

from quiz import accounts
from quiz.extensions import db
from quiz.models import Choice, LiveQuestion, LiveSession
from tests.conftest import csrf_token
from tests.web.helpers import choice_labels

QUIZ_SLUG = "kiss-and-cry"
PASSWORD = "correct horse battery"
_SESSION_URL = re.compile(r"/host/sessions/(\d+)")
_CODE = re.compile(r'<p class="code"[^>]*>(\d{6})</p>')


def make_user(app, username: str, role: str = "teacher") -> None:
    with app.app_context():
        accounts.create_user(db.session, username, PASSWORD, role)
        db.session.commit()


def log_in(app, username: str, role: str = "teacher"):
    """A new account of ``role`` and a browser logged in with it."""
    make_user(app, username, role)
    browser = app.test_client()
    page = browser.get("/login").get_data(as_text=True)
    response = browser.post("/login", data={"csrf_token": csrf_token(page), "username": username, "password": PASSWORD})
    assert response.status_code == 303, response.get_data(as_text=True)
    return browser


def create_session(
    host,
    *,
    pacing: str = "host",
    question_count: int | None = 2,
    time_limit: int | None = 60,
    shuffle: bool = False,
    show_leaderboard: bool = True,
    scoring: str = "plain",
    deadline: str = "",
    quiz: str = QUIZ_SLUG,
) -> int:
    """Fill in the new-session form; return the session's id."""
    page = host.get(f"/host/new/{quiz}").get_data(as_text=True)
    data = {
        "csrf_token": csrf_token(page),
        "pacing": pacing,
        "question_count": "" if question_count is None else str(question_count),
        "time_limit": "" if time_limit is None else str(time_limit),
        "scoring": scoring,
        "deadline": deadline,
    }
    if shuffle:
        data["shuffle"] = "y"
    if show_leaderboard:
        data["show_leaderboard"] = "y"
    response = host.post(f"/host/new/{quiz}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(_SESSION_URL.fullmatch(response.location).group(1))


def host_page(host, session_id: int) -> str:
    response = host.get(f"/host/sessions/{session_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def join_code(host, session_id: int) -> str:
    return _CODE.search(host_page(host, session_id)).group(1)


def join(app, code: str, nickname: str, phone=None):
    """Open the join page on ``phone`` (a new one if None) and submit it; return both."""
    phone = phone or app.test_client()
    page = phone.get("/join", query_string={"code": code}).get_data(as_text=True)
    response = phone.post("/join", data={"csrf_token": csrf_token(page), "code": code, "nickname": nickname})
    return phone, response


def joined(app, code: str, nickname: str, session_id: int):
    """A phone that has joined the session."""
    phone, response = join(app, code, nickname)
    assert response.status_code == 303 and response.location == f"/live/{session_id}", response.get_data(as_text=True)
    return phone


def press(host, session_id: int, action: str):
    """Press one of the host's buttons: start, close, reveal, next, finish."""
    page = host_page(host, session_id)
    response = host.post(f"/host/sessions/{session_id}/action", data={"csrf_token": csrf_token(page), "action": action})
    assert response.status_code == 303 and response.location == f"/host/sessions/{session_id}"
    return response


def phone_page(phone, session_id: int) -> str:
    response = phone.get(f"/live/{session_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


_POSITION = re.compile(r'name="position" value="(\d+)"')


def submit(phone, session_id: int, number: int, page: str | None = None):
    """Pick choice ``number`` on the phone's screen (read now, or ``page`` if given) and submit,
    naming the question that screen shows, as its form does."""
    page = page or phone_page(phone, session_id)
    position = _POSITION.search(page)
    data = {"csrf_token": csrf_token(page), "choice": str(number)}
    if position:
        data["position"] = position.group(1)
    return phone.post(f"/live/{session_id}/answer", data=data)


def labels(page: str) -> list[str]:
    return [html_lib.unescape(label) for label in choice_labels(page)]


def correct_number(app, session_id: int, page: str) -> int:
    """The on-screen number of the open question's correct choice, as only the server knows."""
    shown = labels(page)
    with app.app_context():
        live = db.session.get(LiveSession, session_id)
        right = db.session.scalars(
            sa.select(Choice.text)
            .join(LiveQuestion, LiveQuestion.revision_id == Choice.revision_id)
            .where(LiveQuestion.session_id == session_id, LiveQuestion.position == live.position, Choice.is_correct.is_(True))
        ).all()
    assert len(right) == 1
    return shown.index(right[0]) + 1


def answered_on_host(page: str) -> tuple[int, int]:
    match = re.search(r"<span data-answered>(\d+)</span> of (\d+) answered", page)
    assert match, "no answer count on the host page"
    return int(match.group(1)), int(match.group(2))


def distribution(page: str) -> dict[int, tuple[str, int, bool]]:
    """The reveal's table: choice number -> (text, count, marked correct)."""
    rows = re.findall(
        r'<tr class="([^"]*)">\s*<th scope="row"><span class="number" aria-hidden="true">(\d+)</span>(.*?)</th>\s*<td>(\d+)</td>',
        page,
        re.S,
    )
    table = {}
    for css, number, label, count in rows:
        text = html_lib.unescape(re.sub(r"<span class=\"tag[^<]*</span>", "", label)).strip()
        marked = "Correct answer" in label
        assert (css == "correct") == marked
        table[int(number)] = (text, int(count), marked)
    return table


def session_state(app, session_id: int) -> str:
    with app.app_context():
        return db.session.get(LiveSession, session_id).state


class EventReader:
    """Reads a streamed server-sent events response in a thread, one parsed event at a time.

    The stream blocks between events, so it is read off the test's thread; the test waits on
    a queue with a timeout instead. The stream ends by itself when its session finishes.
    """

    def __init__(self, response):
        self.response = response
        self.raw: list[str] = []
        self._events: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffer = ""
        for chunk in self.response.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            self.raw.append(text)
            buffer += text
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                self._events.put(block)
        self._events.put(None)

    def next_event(self, timeout: float) -> dict | None:
        """The next block as {field: value}; None when the stream ended."""
        block = self._events.get(timeout=timeout)
        if block is None:
            return None
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
        return fields

    def close(self, timeout: float = 5) -> None:
        """Wait for the stream to end (its session finished), then close the response."""
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the event stream did not end after the session finished"
        self.response.close()
