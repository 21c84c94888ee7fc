"""Flask extensions, created without an app and bound in :func:`quiz.create_app`."""

import sqlite3

import sqlalchemy as sa
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

# Named constraints make Alembic migrations reproducible and let SQLite's batch mode
# drop or alter a constraint by name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)


# Views commit before rendering; keeping loaded objects fresh after the commit spares every
# template a reload query per object. Each request has its own session, so nothing goes stale
# beyond the request.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
login_manager = LoginManager()
# No default limits: only views decorated with ``limiter.limit`` are limited, each with its own
# key. Storage comes from RATELIMIT_STORAGE_URI (see quiz.config).
limiter = Limiter(key_func=get_remote_address)


@sa.event.listens_for(sa.Engine, "connect")
def _configure_sqlite(dbapi_connection, _connection_record) -> None:
    """Turn on foreign keys and WAL for every SQLite connection, app or migration alike."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA journal_mode = WAL")
    # NORMAL is durable across application crashes in WAL mode; only a power loss can
    # drop the last transactions, and it is several times faster than FULL.
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.execute("PRAGMA busy_timeout = 5000")
    cursor.close()
