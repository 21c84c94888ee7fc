"""Telling open event streams that a classroom session changed, across processes and servers.

Each process runs one watcher thread. It polls the versions of the sessions that its streams
follow, in one small query per interval however many streams are open, so a change committed
by any worker on any server reaches every stream within an interval. The same thread applies
the changes that only time makes due, such as closing a question whose time is up, so that a
timer fires even when nobody clicks; the state machine's conditional updates make it harmless
for several processes to try at once.

On PostgreSQL each state change is also announced (``NOTIFY``, see :data:`quiz.live.CHANNEL`),
and a second thread per process listens: an announcement wakes the watcher at once instead of
at its next poll. Polling stays, for joins (which are not announced), timers, and whenever the
listening connection is lost.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

import sqlalchemy as sa
from flask import Flask

from quiz import live
from quiz.extensions import db
from quiz.models import LiveSession, utcnow

logger = logging.getLogger(__name__)

#: Seconds between attempts to listen again after the listening connection failed.
LISTEN_RETRY_SECONDS = 5.0
#: Longest wait for an announcement before the listener looks whether it should stop.
_LISTEN_TIMEOUT = 0.5


@dataclass(frozen=True)
class State:
    """A session's version and what its event stream sends (see :func:`quiz.live.public_state`)."""

    version: int
    data: dict

    @property
    def state(self) -> str:
        return self.data["state"]


@dataclass
class _Watch:
    state: State
    waiters: int = 0
    condition: threading.Condition = field(default_factory=threading.Condition)


class SessionWatcher:
    def __init__(self, app: Flask, interval: float):
        self._app = app
        self._interval = interval
        self._lock = threading.Lock()
        self._watches: dict[int, _Watch] = {}
        self._thread: threading.Thread | None = None
        # Only PostgreSQL announces changes (see quiz.live.CHANNEL).
        self._listens = app.config["LIVE_PUSH"] and (
            sa.make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() == "postgresql"
        )
        self._listener: threading.Thread | None = None
        #: Set while the listener listens: announcements made before it do not wake the watcher.
        self.listening = threading.Event()
        self._stopping = threading.Event()
        # Set by an announcement, or to stop: the watcher polls at once.
        self._wake = threading.Event()

    def wait(self, session_id: int, known: State, timeout: float) -> State | None:
        """Block until the session's version is no longer ``known``'s; return the new state,
        or None when ``timeout`` seconds pass first. Streams get the state from here, so
        that a change costs one query per process, not one per stream."""
        if self.stopped:
            return None  # the app is going away: its streams end
        watch = self._register(session_id, known)
        try:
            with watch.condition:
                if watch.state.version == known.version:
                    watch.condition.wait(timeout)
                return watch.state if watch.state.version != known.version else None
        finally:
            self._unregister(session_id)

    def _register(self, session_id: int, known: State) -> _Watch:
        with self._lock:
            self._ensure_running()
            watch = self._watches.setdefault(session_id, _Watch(known))
            watch.waiters += 1
            return watch

    def _unregister(self, session_id: int) -> None:
        with self._lock:
            watch = self._watches[session_id]
            watch.waiters -= 1
            if watch.waiters == 0:
                del self._watches[session_id]

    def _ensure_running(self) -> None:
        # Started on first use rather than at app creation, so that a forking server starts
        # one per worker process, after the fork.
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="quiz-session-watcher", daemon=True)
            self._thread.start()
        if self._listens and self._listener is None:
            self._listener = threading.Thread(target=self._listen, name="quiz-session-listener", daemon=True)
            self._listener.start()

    @property
    def stopped(self) -> bool:
        return self._stopping.is_set()

    def stop(self) -> None:
        """Stop polling and listening, once a poll under way has ended and handed its connection
        back: the app is going away, and its database connections with it. Streams waiting for
        a change stop waiting, and end."""
        self._stopping.set()
        self._wake.set()
        with self._lock:
            watches = list(self._watches.values())
        for watch in watches:
            with watch.condition:
                watch.condition.notify_all()
        for thread in (self._thread, self._listener):
            if thread is not None:
                thread.join()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(self._interval)
            self._wake.clear()
            if self._stopping.is_set():
                return
            with self._lock:
                watched = list(self._watches)
            if not watched:
                continue
            try:
                self._poll(watched)
            except Exception:  # a database hiccup must not kill the watcher for good
                logger.exception("polling live sessions failed")

    def _listen(self) -> None:
        """Wake the watcher whenever a session's change is announced, on a connection of its own
        (outside the pool, which would hand a listening connection to a request)."""
        import psycopg.sql  # PostgreSQL's driver, installed only where it is used

        while not self._stopping.is_set():
            try:
                with self._app.app_context():
                    connection = db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
                listening = connection.connection.driver_connection
                connection.detach()
                try:
                    listening.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(live.CHANNEL)))
                    self.listening.set()
                    while not self._stopping.is_set():
                        for _notification in listening.notifies(timeout=_LISTEN_TIMEOUT, stop_after=1):
                            self._wake.set()
                finally:
                    self.listening.clear()
                    connection.close()
            except Exception:  # the watcher still polls; listen again after a while
                logger.warning("listening for live session changes failed; polling only meanwhile", exc_info=True)
                self._stopping.wait(LISTEN_RETRY_SECONDS)

    def _poll(self, session_ids: list[int]) -> None:
        with self._app.app_context():
            try:
                versions = self._states_after_due_changes(session_ids)
            finally:
                db.session.remove()
        for session_id, state in versions.items():
            watch = self._watches.get(session_id)
            if watch is not None and watch.state.version != state.version:
                with watch.condition:
                    watch.state = state
                    watch.condition.notify_all()

    def _states_after_due_changes(self, session_ids: list[int]) -> dict[int, State]:
        now = utcnow()
        due = sa.or_(
            sa.and_(LiveSession.state == live.QUESTION_OPEN, LiveSession.question_closes_at <= now),
            sa.and_(LiveSession.state == live.OPEN, LiveSession.deadline <= now),
        )
        for session in db.session.scalars(sa.select(LiveSession).where(LiveSession.id.in_(session_ids), due)):
            live.tick(db.session, session, now)
        db.session.commit()
        versions = dict(
            db.session.execute(sa.select(LiveSession.id, LiveSession.version).where(LiveSession.id.in_(session_ids))).all()
        )
        changed = [
            session_id for session_id, version in versions.items()
            if (watch := self._watches.get(session_id)) is not None and watch.state.version != version
        ]
        states = {}
        if changed:
            for session in db.session.scalars(sa.select(LiveSession).where(LiveSession.id.in_(changed))):
                states[session.id] = State(session.version, live.public_state(db.session, session, now))
        return states


def state_of(session: LiveSession) -> State:
    return State(session.version, live.public_state(db.session, session))


_CREATE_LOCK = threading.Lock()


def watcher(app: Flask) -> SessionWatcher:
    """The app's watcher in this process."""
    with _CREATE_LOCK:
        if "quiz_watcher" not in app.extensions:
            app.extensions["quiz_watcher"] = SessionWatcher(app, app.config["LIVE_POLL_INTERVAL"])
        return app.extensions["quiz_watcher"]
