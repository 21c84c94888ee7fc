"""The Alembic migrations build exactly the schema the models describe, and take it down again."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from quiz import create_app
from quiz.extensions import db
from quiz.paths import resource


def test_upgrade_from_empty_matches_the_models_and_downgrade_removes_everything(database_url):
    app = create_app({"SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url(empty=True)})
    directory = str(resource("migrations"))
    with app.app_context():
        upgrade(directory=directory)
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"render_as_batch": True})
            assert compare_metadata(context, db.metadata) == []
            assert {"answer", "attempt", "question_revision", "best_score"} <= set(sa.inspect(connection).get_table_names())
        downgrade(directory=directory, revision="base")
        with db.engine.connect() as connection:
            assert set(sa.inspect(connection).get_table_names()) == {"alembic_version"}
        db.engine.dispose()


def test_upgrading_keeps_what_attempts_and_sessions_under_way_showed(database_url):
    """Migration 0005 fixes the choice order each attempt and session had shown (the quiz's
    setting, which every read used until then) and gives every old answer its credit."""
    app = create_app({"SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": database_url(empty=True)})
    directory = str(resource("migrations"))
    now = datetime(2026, 1, 1)
    with app.app_context():
        upgrade(directory=directory, revision="0004")
        tables = sa.MetaData()
        tables.reflect(db.engine)
        t = tables.tables
        with db.engine.begin() as connection:
            connection.execute(sa.insert(t["article"]).values(id=1, slug="a", title="A", text="Text."))
            connection.execute(sa.insert(t["quiz"]).values(
                id=1, slug="q", title="Q", description="", article_id=1, position=0, questions_per_attempt=10,
                shuffle_choices=False, time_limit=30))
            connection.execute(sa.insert(t["question"]).values(id=1, slug="x", quiz_id=1, position=0))
            connection.execute(sa.insert(t["question_revision"]).values(
                id=1, question_id=1, number=1, kind="single", prompt="P", explanation="E", difficulty="easy",
                tags=[], fingerprint="f", created_at=now))
            connection.execute(sa.insert(t["player"]).values(id=1, token="t", created_at=now))
            connection.execute(sa.insert(t["user_account"]).values(
                id=1, username="u", password_hash="h", role="teacher", active=True, session_version=1, created_at=now))
            connection.execute(sa.insert(t["live_session"]).values(
                id=1, code="123456", host_id=1, quiz_id=1, pacing="host", scoring="plain", show_leaderboard=True,
                shuffle_seed=5, state="lobby", position=0, question_count=1, version=1, created_at=now))
            connection.execute(sa.insert(t["attempt"]).values(
                id=1, public_id="p", player_id=1, quiz_id=1, shuffle_seed=7, question_count=2, answered_count=2,
                correct_count=1, score=1, started_at=now))
            connection.execute(sa.insert(t["answer"]), [
                {"id": 1, "attempt_id": 1, "question_id": 1, "revision_id": 1, "selected_mask": 1, "is_correct": True,
                 "points": 1, "answered_at": now},
            ])
        upgrade(directory=directory)
        with db.engine.connect() as connection:
            # Raw rows: SQLite keeps booleans as 0 and 1.
            assert tuple(connection.execute(sa.text("SELECT shuffle_choices, scored_count FROM attempt")).one()) == (0, 2)
            assert not connection.execute(sa.text("SELECT shuffle_choices FROM live_session")).scalar()
            assert connection.execute(sa.text("SELECT credit, response FROM answer")).one() == (1.0, None)
        db.engine.dispose()
