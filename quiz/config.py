"""Configuration: defaults, then ``instance/config.py``, then ``QUIZ_*`` environment variables.

``DATABASE_URL`` (unprefixed, as hosting platforms set it) selects the database; without it
the app uses an SQLite file in the instance folder. ``REDIS_URL`` (unprefixed too) selects the
rate limiter's storage; without it counts are kept in each process's memory.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

#: Values that must never sign sessions in production.
_WEAK_SECRET_KEYS = {"", "dev", "development", "secret", "changeme", "change-me", "default"}
_MIN_SECRET_KEY_LENGTH = 32


class ConfigError(RuntimeError):
    """The configuration is unsafe or incomplete; the app refuses to start."""


DEFAULTS = {
    #: "production" requires QUIZ_SECRET_KEY and secure cookies; anything else is development.
    "ENV": "development",
    "SQLALCHEMY_ENGINE_OPTIONS": {},
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    "MAX_FORM_MEMORY_SIZE": 256 * 1024,
    "SESSION_COOKIE_NAME": "quiz_session",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_SECURE": False,
    # The session holds only the player's random token: a year lets a phone keep its history.
    "PERMANENT_SESSION_LIFETIME": 365 * 24 * 3600,
    # Re-signing and re-sending the cookie on every request costs every answer time; a year
    # from the first visit is long enough.
    "SESSION_REFRESH_EACH_REQUEST": False,
    "WTF_CSRF_TIME_LIMIT": None,
    "WTF_CSRF_SSL_STRICT": True,
    #: Largest bank file the importer reads, in bytes.
    "BANK_MAX_BYTES": 8 * 1024 * 1024,
    #: The time zone a host's deadline is entered in unless they choose another (an IANA name,
    #: such as "America/Toronto"); browsers with JavaScript offer their own zone first.
    "TIME_ZONE": "UTC",
    #: Rows shown on a quiz's leaderboard.
    "LEADERBOARD_SIZE": 50,
    #: Seconds between two checks of the classroom sessions that event streams follow.
    "LIVE_POLL_INTERVAL": 0.2,
    #: On PostgreSQL, wake the watchers as soon as a session's state changes (LISTEN/NOTIFY)
    #: rather than at their next check; off, they only poll.
    "LIVE_PUSH": True,
    #: Wrong join codes a phone may try (Flask-Limiter syntax), counted per player token so
    #: that one student's typos never lock out a classroom sharing one address.
    "JOIN_LIMIT_WRONG_CODES": "10 per minute",
    #: Wrong join codes one client address may try: a player token costs nothing to drop,
    #: so this backs the limit above. High enough for a class all mistyping the code at once.
    "JOIN_LIMIT_WRONG_CODES_PER_ADDRESS": "100 per minute",
    #: Where Flask-Limiter counts. "memory://" counts per process (N workers allow N times the
    #: limits); REDIS_URL, when set, replaces it so that all workers share the counts.
    "RATELIMIT_STORAGE_URI": "memory://",
    #: While Redis cannot be reached, each process counts in its own memory (a warning is
    #: logged, /healthz says "degraded") instead of failing every limited request; the counts
    #: go back to Redis once it answers again.
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_KEY_PREFIX": "quiz",
    #: Login attempts (POST /login) allowed per submitted username, and per client address:
    #: brute force on one account is stopped, while a classroom behind one NAT is not.
    "LOGIN_LIMIT_PER_USERNAME": "5 per minute",
    "LOGIN_LIMIT_PER_ADDRESS": "30 per minute",
    #: Seconds a teacher or admin stays logged in; the session cookie itself lives longer.
    "LOGIN_MAX_AGE": 12 * 3600,
    #: How many reverse proxies in front of the app set each X-Forwarded-* header (werkzeug's
    #: ProxyFix). 0 ignores the header, the only safe value when clients can reach the app
    #: directly: anyone could then claim any address (and so a fresh rate-limit budget) or HTTPS.
    #: X-Forwarded-For gives the client's address (the rate limits per address);
    #: X-Forwarded-Proto whether it came over HTTPS (HSTS, the CSRF referrer check, links).
    "PROXY_FIX_X_FOR": 0,
    "PROXY_FIX_X_PROTO": 0,
    "PROXY_FIX_X_HOST": 0,
    "PROXY_FIX_X_PORT": 0,
    "PROXY_FIX_X_PREFIX": 0,
}

#: Seconds the rate limiter waits for Redis to connect and to answer.
REDIS_TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}

#: ProxyFix's arguments, by the setting that gives each.
PROXY_FIX_SETTINGS = {
    "PROXY_FIX_X_FOR": "x_for",
    "PROXY_FIX_X_PROTO": "x_proto",
    "PROXY_FIX_X_HOST": "x_host",
    "PROXY_FIX_X_PORT": "x_port",
    "PROXY_FIX_X_PREFIX": "x_prefix",
}


def configure(app: Flask, test_config: dict | None) -> None:
    """Fill ``app.config`` from every source, in increasing order of precedence."""
    app.config.from_mapping(DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    if database_url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url
    if redis_url := os.environ.get("REDIS_URL"):
        app.config["RATELIMIT_STORAGE_URI"] = redis_url
    app.config.from_prefixed_env("QUIZ")
    if test_config:
        app.config.from_mapping(test_config)
    if app.config["RATELIMIT_STORAGE_URI"].startswith(("redis", "rediss")):
        # A Redis that is down or unreachable must cost a request a moment, not the
        # operating system's connection timeout, before the in-memory fallback takes over.
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {**REDIS_TIMEOUTS, **app.config.get("RATELIMIT_STORAGE_OPTIONS", {})}
    if "SQLALCHEMY_DATABASE_URI" not in app.config:
        # SQLite makes the file but not its folder, which a fresh checkout does not have yet.
        instance = Path(app.instance_path)
        instance.mkdir(parents=True, exist_ok=True)
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'quiz.sqlite3'}"
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A gevent worker serves hundreds of requests at once; SQLAlchemy's default pool of
        # 5 (+10) connections made them queue. Two workers stay within PostgreSQL's default
        # limit of 100 connections.
        options = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
        options.setdefault("pool_size", 20)
        options.setdefault("max_overflow", 20)
        # A server restart or an idle timeout drops pooled connections: a connection that
        # waited a while in the pool is pinged before use (quiz.extensions).
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    _check_proxy_settings(app)
    if app.config["ENV"] == "production":
        _require_production_settings(app)
        # Secure cookies unless explicitly turned off (plain HTTP on loopback, benchmarks).
        if "QUIZ_SESSION_COOKIE_SECURE" not in os.environ and "SESSION_COOKIE_SECURE" not in (test_config or {}):
            app.config["SESSION_COOKIE_SECURE"] = True
    elif not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _development_secret_key(Path(app.instance_path))


def _require_production_settings(app: Flask) -> None:
    key = app.config.get("SECRET_KEY") or ""
    if key.lower() in _WEAK_SECRET_KEYS or len(key) < _MIN_SECRET_KEY_LENGTH:
        raise ConfigError(
            f"QUIZ_SECRET_KEY must be set to a random value of at least {_MIN_SECRET_KEY_LENGTH}"
            ' characters in production, e.g. python -c "import secrets; print(secrets.token_urlsafe(48))"'
        )


def _check_proxy_settings(app: Flask) -> None:
    for name in PROXY_FIX_SETTINGS:
        value = app.config[name]
        # bool is an int in Python: "true" would quietly mean one proxy.
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(
                f"QUIZ_{name} must be the number of proxies that set the header (0 to ignore it), not {value!r}"
            )


def proxy_fix_arguments(app: Flask) -> dict[str, int]:
    """ProxyFix's arguments from the settings; empty when no proxy header is to be trusted."""
    counts = {argument: app.config[name] for name, argument in PROXY_FIX_SETTINGS.items()}
    return counts if any(counts.values()) else {}


def _development_secret_key(instance_path: Path) -> str:
    """A random key kept in the instance folder, so sessions survive restarts of a dev server."""
    path = instance_path / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(48)
        instance_path.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.write_text(key)
        return key
