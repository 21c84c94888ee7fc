"""One transaction per page request: what a view writes is kept when it succeeds and changes
something, and only then; requests never share a database session with each other or the test."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import abort

from quiz.extensions import csrf, db
from quiz.models import Player
from quiz.web.transaction import keep_writes


@pytest.fixture
def views(app):
    """Test-only views that each add a player named after what they are."""

    def add(nickname: str) -> None:
        db.session.add(Player(token=nickname, nickname=nickname))
        db.session.flush()

    @app.post("/test-only/post/<int:status>")
    def post_with_status(status: int):
        add(f"post-{status}")
        return "posted", status

    @app.post("/test-only/post-then-fail")
    def post_then_fail():
        add("post-fail")
        raise RuntimeError("a bug after the write")

    @app.post("/test-only/post-then-abort")
    def post_then_abort():
        add("post-abort")
        abort(409)

    @app.get("/test-only/get")
    def get_that_writes():
        add("get")
        return "read"

    @app.get("/test-only/get-kept")
    def get_that_keeps():
        add("get-kept")
        keep_writes("this test's GET records something on purpose")
        return "read"

    for view in (post_with_status, post_then_fail, post_then_abort):
        csrf.exempt(view)
    return app


def stored(app) -> set[str]:
    with app.app_context():
        return set(db.session.scalars(sa.select(Player.nickname)))


@pytest.mark.parametrize("status", [200, 303])
def test_a_post_that_succeeds_is_committed(views, client, status):
    assert client.post(f"/test-only/post/{status}").status_code == status
    assert stored(views) == {f"post-{status}"}


@pytest.mark.parametrize("status", [404, 409, 422])
def test_a_post_answered_with_an_error_is_rolled_back(views, client, status):
    assert client.post(f"/test-only/post/{status}").status_code == status
    assert stored(views) == set()


def test_a_post_that_fails_or_aborts_is_rolled_back(views, client):
    assert client.post("/test-only/post-then-fail").status_code == 500
    assert client.post("/test-only/post-then-abort").status_code == 409
    assert stored(views) == set()


def test_a_get_writes_nothing_unless_its_view_says_why(views, client):
    assert client.get("/test-only/get").status_code == 200
    assert stored(views) == set()
    assert client.get("/test-only/get-kept").status_code == 200
    assert stored(views) == {"get-kept"}


def test_requests_do_not_share_a_session_with_the_test(views, client):
    """pytest-flask would share one; a view that forgot to commit would then pass unseen."""
    client.get("/test-only/get")
    with views.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)) == 0
