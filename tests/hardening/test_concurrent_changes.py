"""Requests that race to change one thing, released at the same instant against the production
server (two workers): joins of one session under one nickname, one phone's join sent many
times, admins applying different imports and editing questions at once. Nothing answers 500,
and the database ends as one request after the other would have left it. On SQLite, and on
PostgreSQL when TEST_DATABASE_URL names it; CI runs both."""

from __future__ import annotations

import html
import re
import threading
from collections import Counter
from collections.abc import Callable

import httpx
import pytest
import sqlalchemy as sa

from quiz.models import LivePlayer, Question
from tests.servers import (
    ADMIN,
    browser,
    database_session,
    form_token,
    log_in,
)

pytestmark = pytest.mark.slow

PHONES = 50
ADMINS = 4


def together(clients: list[httpx.Client], send: Callable[[int, httpx.Client], httpx.Response]) -> list[httpx.Response]:
    """``send(number, client)`` from every client in its own thread, released at one instant."""
    barrier = threading.Barrier(len(clients))
    responses: list[httpx.Response | None] = [None] * len(clients)

    def run(number: int, client: httpx.Client) -> None:
        client.get("/healthz")  # connected before the race starts
        barrier.wait()
        responses[number] = send(number, client)

    threads = [threading.Thread(target=run, args=(number, client)) for number, client in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(response is not None for response in responses)
    return responses  # type: ignore[return-value]


def open_session(host: httpx.Client) -> tuple[int, str]:
    token = form_token(host, "/host/new/kiss-and-cry")
    response = host.post("/host/new/kiss-and-cry", data={
        "csrf_token": token, "pacing": "host", "question_count": "2", "time_limit": "60", "scoring": "plain",
    })
    path = response.headers["location"]
    code = re.search(r'<p class="code"[^>]*>(\d{6})</p>', host.get(path).text).group(1)
    return int(path.rsplit("/", 1)[1]), code


def test_joins_racing_for_one_nickname_or_one_seat_let_one_in(served):
    server, url = served
    with browser(server) as host:
        assert log_in(host).status_code == 303
        session_id, code = open_session(host)

    phones = [browser(server) for _ in range(PHONES)]
    try:
        tokens = [form_token(phone, "/join") for phone in phones]  # each phone its own player
        responses = together(phones, lambda number, phone: phone.post(
            "/join", data={"csrf_token": tokens[number], "code": code, "nickname": "Zoé"},
        ))
        statuses = Counter(response.status_code for response in responses)
        assert statuses == {303: 1, 422: PHONES - 1}
        assert all("already has that nickname" in response.text for response in responses if response.status_code == 422)
    finally:
        for phone in phones:
            phone.close()

    with browser(server) as phone:
        token = form_token(phone, "/join")
        copies = [browser(server) for _ in range(PHONES)]
        try:
            for copy in copies:
                copy.cookies.set("quiz_session", phone.cookies["quiz_session"])
            responses = together(copies, lambda number, copy: copy.post(
                "/join", data={"csrf_token": token, "code": code, "nickname": "Ben"},
            ))
        finally:
            for copy in copies:
                copy.close()
        # Every copy is told it is in: the first joined, the others found the seat taken by it.
        assert [response.status_code for response in responses] == [303] * PHONES
        assert len({response.headers["location"] for response in responses}) == 1

    with database_session(url) as session:
        seats = session.execute(
            sa.select(LivePlayer.nickname).where(LivePlayer.session_id == session_id).order_by(LivePlayer.id)
        ).scalars().all()
    assert seats == ["Zoé", "Ben"]


def preview_fields(page: str) -> dict[str, str]:
    """The import preview's apply form, as the browser sends it back."""
    form = page[page.index('action="/admin/import/apply"'):]
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form, re.S)
    }


def test_admins_applying_imports_at_once_change_the_bank_one_after_the_other(served):
    server, url = served
    admins = [browser(server) for _ in range(ADMINS)]
    try:
        for admin in admins:
            assert log_in(admin, ADMIN).status_code == 303
        bank = admins[0].get("/admin/bank.yaml").text
        prompt = "Which streaming service carries the film?"
        assert "streaming-service" in bank
        applies = []
        for number, admin in enumerate(admins):
            # Each admin rewords one question of the bank in play, differently.
            edited = re.sub(r"(- id: streaming-service\n(?:.*\n)*?\s+prompt: ).*", rf"\g<1>{prompt} ({number})", bank, count=1)
            token = form_token(admin, "/admin/import")
            preview = admin.post("/admin/import", data={"csrf_token": token, "text": edited})
            assert preview.status_code == 200, preview.text
            applies.append(preview_fields(preview.text))
        responses = together(admins, lambda number, admin: admin.post("/admin/import/apply", data=applies[number]))
        statuses = [response.status_code for response in responses]
        assert sorted(statuses) == [303] + [409] * (ADMINS - 1), statuses
        for response in responses:
            if response.status_code == 409:
                assert "The bank changed after this preview was made, so nothing was imported." in response.text
        winner = statuses.index(303)
        with database_session(url) as session:
            question = session.scalar(sa.select(Question).where(Question.slug == "streaming-service"))
            assert question.current_revision.prompt == f"{prompt} ({winner})"
            assert question.current_revision.number == 2  # one revision, not one per admin

        # Retiring one question from its page, at once: the first retires it, the others find it retired.
        tokens = [form_token(admin, "/admin/questions/streaming-service") for admin in admins]
        responses = together(admins, lambda number, admin: admin.post(
            "/admin/questions/streaming-service/retire", data={"csrf_token": tokens[number]},
        ))
        assert [response.status_code for response in responses] == [303] * ADMINS
        with database_session(url) as session:
            question = session.scalar(sa.select(Question).where(Question.slug == "streaming-service"))
            assert question.retired_at is not None and question.current_revision.number == 2
    finally:
        for admin in admins:
            admin.close()
