"""Flask extensions, created without an app and bound in :func:`quiz.create_app`."""

import sqlite3
import time

import flask_limiter
from flask.logging import default_handler
import flask_wtf.csrf
import sqlalchemy as sa
from flask import Flask, current_app, g, request, session
from flask_babel import Babel
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
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


class CSRFProtect(flask_wtf.csrf.CSRFProtect):
    """Flask-WTF's CSRF protection, signing and verifying each session's token once per process.

    Every page with a form shows the session's CSRF secret signed with the app's key, and
    every form sent back has that signature checked: each costs about as much as the query
    behind a question page. The tokens never expire here (``WTF_CSRF_TIME_LIMIT`` is None),
    so the signed token of a secret is made once, and a token once verified for a secret is
    known good; only then are these shortcuts taken. A form is still refused unless it
    carries the token of the very secret in its own session, as Flask-WTF requires.
    """

    #: (signing key, the session's secret) -> its signed token, as pages show it.
    _signed: dict[tuple[str, str], str] = {}
    #: (signing key, a signed token) -> the secret it was verified for.
    _verified: dict[tuple[str, str], str] = {}
    _KEPT = 10_000

    def init_app(self, app: Flask) -> None:
        super().init_app(app)
        app.jinja_env.globals["csrf_token"] = self.token
        app.context_processor(lambda: {"csrf_token": self.token})

    def token(self) -> str:
        """The signed CSRF token for the forms of the current page (``{{ csrf_token() }}``)."""
        secret = session.get(current_app.config["WTF_CSRF_FIELD_NAME"])
        if not isinstance(secret, str) or current_app.config["WTF_CSRF_TIME_LIMIT"] is not None:
            return flask_wtf.csrf.generate_csrf()  # also makes the session's secret
        key = (self._signing_key(), secret)
        token = self._signed.get(key)
        if token is None:
            token = flask_wtf.csrf.generate_csrf()
            _remember(self._signed, key, token)
        return token

    def protect(self, apply_exemptions: bool = False) -> None:
        config = current_app.config
        if (
            request.method not in config["WTF_CSRF_METHODS"]
            or config["WTF_CSRF_TIME_LIMIT"] is not None
            or (apply_exemptions and (not request.endpoint or self._is_exempt()))
        ):
            return super().protect(apply_exemptions)
        token = self._get_csrf_token()
        secret = session.get(config["WTF_CSRF_FIELD_NAME"])
        known = bool(token) and isinstance(secret, str)
        if known and self._verified.get((self._signing_key(), token)) == secret and self._referrer_allowed():
            g.csrf_valid = True
            return None
        super().protect(apply_exemptions)  # raises unless the token is right
        if known:
            _remember(self._verified, (self._signing_key(), token), secret)
        return None

    def _referrer_allowed(self) -> bool:
        """Flask-WTF's check for HTTPS requests: the referrer is this site."""
        if not (request.is_secure and current_app.config["WTF_CSRF_SSL_STRICT"]):
            return True
        return bool(request.referrer) and flask_wtf.csrf.same_origin(request.referrer, f"https://{request.host}/")

    @staticmethod
    def _signing_key() -> str:
        return current_app.config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key


def _remember(cache: dict, key, value) -> None:
    if len(cache) >= CSRFProtect._KEPT:
        cache.clear()
    cache[key] = value


class Limiter(flask_limiter.Limiter):
    """Flask-Limiter, without its search for limits on requests where none can apply.

    Flask-Limiter looks in a before_request hook, on every request, for application-wide,
    default and blueprint limits, which cost about 40 µs a request (a tenth of an answer's
    whole cost) and found none: every limit here decorates its view, and the view's own
    wrapper checks it (``in_middleware=False``). The hook now stands aside while no limit of
    those other kinds is configured.
    """

    def _check_request_limit(self, callable_name: str | None = None, in_middleware: bool = True) -> None:
        if in_middleware and not self._limits_beyond_views():
            return
        super()._check_request_limit(callable_name=callable_name, in_middleware=in_middleware)

    def _limits_beyond_views(self) -> bool:
        manager = self.limit_manager
        return bool(
            manager.application_limits or manager.default_limits
            # Private in Flask-Limiter: should they go, the check runs as usual.
            or getattr(manager, "_blueprint_limits", True) or getattr(self, "_meta_limits", True)
        )


babel = Babel()
csrf = CSRFProtect()
login_manager = LoginManager()
# No default limits: only views decorated with ``limiter.limit`` are limited, each with its own
# key. Storage comes from RATELIMIT_STORAGE_URI (see quiz.config).
limiter = Limiter(key_func=get_remote_address)
# Flask-Limiter tells that its storage is unreachable, and that it recovered, through a logger
# of its own that has no handler: its warnings go where the app's go.
limiter.logger.addHandler(default_handler)


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


#: Seconds a pooled connection may wait in the pool and still be trusted without a ping.
TRUSTED_IDLE_SECONDS = 5.0


@sa.event.listens_for(sa.pool.Pool, "checkin")
def _note_when_idle(_dbapi_connection, connection_record) -> None:
    connection_record.info["idle_since"] = time.monotonic()


@sa.event.listens_for(sa.pool.Pool, "checkout")
def _ping_after_a_wait(dbapi_connection, connection_record, _connection_proxy) -> None:
    """Ping a server's connection that waited a while in the pool before a request uses it, and
    have the pool open another if it has gone (a database restart, an idle timeout).

    SQLAlchemy's ``pool_pre_ping`` pings at every checkout: a round trip more for every
    request, which a classroom's answers, each one statement, feel. A connection handed back
    moments ago was alive then; one that dies meanwhile fails its request with 503 (see
    :mod:`quiz.web.errors`), and is replaced. An SQLite file never goes away.
    """
    idle_since = connection_record.info.get("idle_since")
    if isinstance(dbapi_connection, sqlite3.Connection) or idle_since is None:
        return
    if time.monotonic() - idle_since < TRUSTED_IDLE_SECONDS:
        return
    # Outside any transaction, as SQLAlchemy's own ping: the request sets its own.
    autocommit = dbapi_connection.autocommit
    try:
        dbapi_connection.autocommit = True
        cursor = dbapi_connection.cursor()
        cursor.execute("SELECT 1")
        cursor.close()
        dbapi_connection.autocommit = autocommit
    except Exception as error:
        raise sa.exc.DisconnectionError(f"a pooled connection did not answer: {error}") from error
