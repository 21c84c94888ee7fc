"""Alembic environment: migrates the database of the current Flask app (``quiz db ...``)."""

import logging

from alembic import context
from flask import current_app

logger = logging.getLogger("alembic.env")

config = context.config
database = current_app.extensions["migrate"].db
configure_args = current_app.extensions["migrate"].configure_args


def run_migrations_offline() -> None:
    """Emit SQL to stdout (``quiz db upgrade --sql``) instead of applying it."""
    url = database.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=database.metadata, literal_binds=True, **configure_args)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    def skip_empty_autogenerate(context, revision, directives):
        # `quiz db migrate` with no model change should not write an empty revision file.
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    configure_args.setdefault("process_revision_directives", skip_empty_autogenerate)
    with database.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=database.metadata, **configure_args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
