"""The Alembic migrations build exactly the schema the models describe, and take it down again."""

from __future__ import annotations

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
