"""What the hardening tests share: cheap password hashes, a snapshot of every table to prove
that refused input changed nothing, the settings of the production servers they start, and a
site with one of everything, whose URL map gives every page and every form to try."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from quiz import accounts
from quiz.extensions import db
from quiz.models import Attempt, LivePlayer, Question
from tests.web.helpers import start_attempt
from tests.web.live_helpers import create_session, join, join_code, log_in

#: Connections per worker of a test server. PostgreSQL allows 100 in all, and the suite's
#: databases, other servers and this process share them; a few per worker serve these tests.
SMALL_POOL = json.dumps({"pool_pre_ping": True, "pool_size": 4, "max_overflow": 4})


@pytest.fixture
def served(database_url, tmp_path):
    """A production server with two workers, and its database's URL."""
    from tests.servers import prepare_database, production_server, server_environment

    url = database_url(empty=True)
    prepare_database(url)
    env = server_environment(url, WORKERS="2", SQLALCHEMY_ENGINE_OPTIONS=SMALL_POOL)
    with production_server(env, folder=tmp_path) as server:
        yield server, url


@pytest.fixture(autouse=True)
def _cheap_password_hashes(monkeypatch):
    """The same algorithm at a fraction of werkzeug's cost: these tests log in a lot."""
    monkeypatch.setattr(accounts, "PASSWORD_HASH_METHOD", "scrypt:1024:8:1")


def database_rows(app) -> dict[str, list[str]]:
    """Every row of every table, as text: equal snapshots mean an unchanged database."""
    with app.app_context():
        return {
            table.name: sorted(repr(tuple(row)) for row in db.session.execute(sa.select(table)))
            for table in db.metadata.sorted_tables
        }


# A site with one of everything ------------------------------------------------------------------

QUIZ_SLUG = "kiss-and-cry"
QUESTION_SLUG = "streaming-service"
#: Routes that take no cookie: the JSON API authenticates each request with a bearer token,
#: so cross-site requests cannot act in anyone's name and it needs no CSRF token.
TOKEN_AUTHENTICATED_PREFIX = "/api/v1/"


@dataclass
class Site:
    """The bundled bank, and a browser logged in as an admin that also plays: it has a solo
    attempt and has joined a classroom session that it hosts, so that every page has a real
    id to show and every form a real target."""

    app: Flask
    browser: FlaskClient
    #: A real value for each URL argument, by name (``slug`` depends on the blueprint).
    values: dict[str, object]

    def rules(self, *methods: str) -> list[Rule]:
        """The app's URL rules that accept any of ``methods``, in a stable order."""
        return sorted(
            (rule for rule in self.app.url_map.iter_rules() if rule.methods and set(methods) & rule.methods),
            key=lambda rule: (rule.rule, rule.endpoint),
        )

    def url(self, rule: Rule) -> str:
        """``rule`` with real ids filled in; a new argument name needs a value here first."""
        missing = rule.arguments - set(self.values) - {"slug"}
        assert not missing, f"give the hardening tests a real value for {sorted(missing)} of {rule.rule}"
        values = {name: self.values[name] for name in rule.arguments if name != "slug"}
        if "slug" in rule.arguments:
            values["slug"] = QUESTION_SLUG if rule.endpoint.startswith("admin.") else QUIZ_SLUG
        return self.app.url_map.bind("localhost").build(rule.endpoint, values, force_external=False)


@pytest.fixture
def site(bundled) -> Site:
    browser = log_in(bundled, "admin", role="admin")
    session_id = create_session(browser, question_count=2)
    code = join_code(browser, session_id)
    question_url = start_attempt(browser)
    _, response = join(bundled, code, "Ana", browser)
    assert response.status_code == 303, response.get_data(as_text=True)
    with bundled.app_context():
        attempt = db.session.scalar(sa.select(Attempt).where(Attempt.live_session_id.is_(None)))
        assert question_url == f"/attempts/{attempt.public_id}/questions/1"
        values = {
            "public_id": attempt.public_id,
            "attempt_id": attempt.public_id,
            "quiz_id": QUIZ_SLUG,
            "position": 1,
            "session_id": session_id,
            "live_player_id": db.session.scalar(sa.select(LivePlayer.id).where(LivePlayer.session_id == session_id)),
            "revision_id": db.session.scalar(
                sa.select(Question.current_revision_id).where(Question.slug == QUESTION_SLUG)
            ),
            "action": "retire",
            "locale": "fr_CA",
            "name": "gift",
            "table": "summary",
            "filename": "css/quiz.css",
        }
    return Site(bundled, browser, values)
