"""Databases for tests: a new SQLite file per test, or a new PostgreSQL database per test.

``TEST_DATABASE_URL`` chooses. Unset, every test gets its own SQLite file. Set to the URL of a
PostgreSQL server (``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``), every test gets
databases of its own on that server, which the run creates and drops. A database with the
tables is emptied after its test (TRUNCATE, ~40 ms) and handed to a later test, since creating
one from a template costs 150 to 400 ms on this kind of disk; empty databases and copies are
dropped after their test.
"""

from __future__ import annotations

import itertools
import os
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa

SERVER_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
#: Names of the databases made by test runs; a run's process id follows, to clean up after
#: runs that were killed before they could drop theirs.
_PREFIX = "quiz_test_"


def on_postgresql() -> bool:
    return SERVER_URL.startswith("postgresql")


class TestDatabases:
    """Makes, copies and drops the databases of one test run."""

    __test__ = False  # not a test class, whatever its name

    def __init__(self, server_url: str = SERVER_URL):
        self.server_url = server_url
        self._names = (f"{_PREFIX}{os.getpid()}_{secrets.token_hex(3)}_{n}" for n in itertools.count())
        self._admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool) if server_url else None
        self._schema_template: str | None = None
        #: Databases with the tables, emptied, ready for the next test.
        self._clean: list[str] = []
        #: The tables a database with the schema has; one with others was changed by its test.
        self._tables: set[str] = set()
        if self._admin is not None:
            self._drop_leftovers()

    @property
    def postgresql(self) -> bool:
        return self._admin is not None

    def new(self, folder: Path, *, schema: Callable[[str], None] | None = None, empty: bool = False) -> str:
        """The URL of a new database: with the models' tables, or ``empty``.

        ``schema`` builds the tables on a URL; it runs once per run on PostgreSQL (into the
        template every later database copies) and once per database on SQLite.
        """
        if self._admin is None:
            url = f"sqlite:///{folder / f'quiz-{secrets.token_hex(4)}.sqlite3'}"
            if schema is not None and not empty:
                schema(url)
            return url
        if empty or schema is None:
            return self._create(None)
        if self._clean:
            return self._clean.pop()
        if self._schema_template is None:
            self._schema_template = self._create(None)
            schema(self._schema_template)
            self._tables = set(self._table_names(self._schema_template))
        return self._create(self._schema_template)

    def copy(self, source_url: str, folder: Path) -> str:
        """A new database holding what ``source_url`` holds; nothing may be connected to it."""
        if self._admin is None:
            source = Path(sa.make_url(source_url).database)
            target = folder / f"copy-{secrets.token_hex(4)}.sqlite3"
            shutil.copyfile(source, target)
            return f"sqlite:///{target}"
        return self._create(source_url)

    def release(self, url: str) -> None:
        """The test is done with ``url``: empty it for another test if it still has exactly the
        schema's tables, drop it otherwise."""
        if self._admin is None:
            return
        if self._schema_template is not None and url != self._schema_template:
            # A connection the test left open (a server it started, an engine it never
            # disposed) would follow the database to its next test, and would keep it from
            # being the template of a copy there.
            self._disconnect(sa.make_url(url).database)
            tables = self._table_names(url)
            if set(tables) == self._tables and self._empty(url, tables):
                self._clean.append(url)
                return
        self.drop(url)

    def drop(self, url: str) -> None:
        """Drop a PostgreSQL database made here, closing any connection left open to it."""
        if self._admin is None:
            return
        name = sa.make_url(url).database
        with self._admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _table_names(self, url: str) -> list[str]:
        engine = sa.create_engine(url, poolclass=sa.NullPool)
        try:
            with engine.connect() as connection:
                return sa.inspect(connection).get_table_names()
        finally:
            engine.dispose()

    def _empty(self, url: str, tables: list[str]) -> bool:
        """Remove every row and restart the ids; False if something still holds a lock."""
        engine = sa.create_engine(url, poolclass=sa.NullPool)
        names = ", ".join(f'"{table}"' for table in tables)
        try:
            with engine.begin() as connection:
                connection.exec_driver_sql("SET LOCAL lock_timeout = '1s'")
                connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
            return True
        except sa.exc.OperationalError:
            return False
        finally:
            engine.dispose()

    def close(self) -> None:
        if self._admin is None:
            return
        self._drop_leftovers(own=True)
        self._admin.dispose()

    def _create(self, template_url: str | None) -> str:
        name = next(self._names)
        template = sa.make_url(template_url).database if template_url else "template0"
        for tries_left in reversed(range(3)):
            try:
                with self._admin.connect() as connection:
                    connection.exec_driver_sql(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
                break
            except sa.exc.OperationalError as error:
                # PostgreSQL copies only a database nobody is connected to; autovacuum may
                # be, for a moment, after a test filled it.
                if tries_left == 0 or "is being accessed by other users" not in str(error):
                    raise
                self._disconnect(template)
        return sa.make_url(self.server_url).set(database=name).render_as_string(hide_password=False)

    def _disconnect(self, name: str) -> None:
        """Close every other connection to the database ``name``."""
        with self._admin.connect() as connection:
            connection.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )

    def _drop_leftovers(self, *, own: bool = False) -> None:
        """Drop this run's databases (``own``), or those of runs whose process is gone."""
        with self._admin.connect() as connection:
            names = connection.exec_driver_sql(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", (_PREFIX + "%",)
            ).scalars().all()
        for name in names:
            pid = name[len(_PREFIX):].split("_", 1)[0]
            if not pid.isdigit():
                continue
            if (int(pid) == os.getpid()) if own else not _alive(int(pid)):
                with self._admin.connect() as connection:
                    connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
