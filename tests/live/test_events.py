"""The per-process watcher behind the live event streams: it tells a waiting stream of a change,
and stops cleanly when its app goes away."""

from __future__ import annotations

import threading
import time

import sqlalchemy as sa

from quiz import accounts, events, live
from quiz.extensions import db
from quiz.models import LiveSession, Quiz


def new_session(app) -> tuple[int, events.State]:
    with app.app_context():
        teacher = accounts.create_user(db.session, "teacher", "a-long-password-1", "teacher")
        session = live.create_session(db.session, teacher, db.session.scalar(sa.select(Quiz)), live.Settings())
        db.session.commit()
        return session.id, events.state_of(session)


def test_a_waiting_stream_learns_of_a_change_and_the_watcher_stops_with_its_connections_back(bundled):
    session_id, known = new_session(bundled)
    watcher = events.SessionWatcher(bundled, 0.02)
    assert watcher.wait(session_id, known, 0.1) is None  # nothing changed meanwhile

    def start_the_session() -> None:
        with bundled.app_context():
            live.start(db.session, db.session.get(LiveSession, session_id))
            db.session.commit()

    threading.Timer(0.1, start_the_session).start()
    changed = watcher.wait(session_id, known, 5)
    assert changed is not None and changed.version > known.version
    assert changed.data["state"] == live.QUESTION_OPEN

    watcher.stop()
    assert not watcher._thread.is_alive()
    with bundled.app_context():
        assert db.engine.pool.checkedout() == 0


def test_streams_waiting_when_the_app_goes_away_stop_waiting_at_once(bundled):
    """An event stream outliving its app (a browser left it open) must not use the app's
    database after the app let its connections go."""
    session_id, known = new_session(bundled)
    watcher = events.SessionWatcher(bundled, 0.02)
    returned: list[float] = []

    def stream() -> None:
        watcher.wait(session_id, known, 30)
        returned.append(time.monotonic())

    waiting = threading.Thread(target=stream)
    waiting.start()
    deadline = time.monotonic() + 5
    while session_id not in watcher._watches and time.monotonic() < deadline:
        time.sleep(0.01)
    stopped_at = time.monotonic()
    watcher.stop()
    waiting.join(5)
    assert returned and returned[0] - stopped_at < 1.0
    assert watcher.stopped
    began = time.monotonic()
    assert watcher.wait(session_id, known, 30) is None and time.monotonic() - began < 0.5
    assert not watcher._thread.is_alive()


def test_on_postgresql_a_state_change_wakes_the_watcher_at_once_and_elsewhere_at_its_next_poll(bundled):
    session_id, known = new_session(bundled)
    with bundled.app_context():
        postgresql = db.engine.dialect.name == "postgresql"
    # Polls five seconds apart: a change seen sooner came by announcement.
    watcher = events.SessionWatcher(bundled, 5.0 if postgresql else 0.3)
    assert watcher.wait(session_id, known, 0.1) is None  # which starts the watcher
    assert watcher.listening.wait(10) if postgresql else not watcher.listening.is_set()
    started: list[float] = []

    def start_the_session() -> None:  # while the stream waits, as streams do
        started.append(time.monotonic())
        with bundled.app_context():
            live.start(db.session, db.session.get(LiveSession, session_id))
            db.session.commit()

    threading.Timer(0.3, start_the_session).start()
    changed = watcher.wait(session_id, known, 10)
    seen_after = time.monotonic() - started[0]
    watcher.stop()
    assert changed is not None and changed.data["state"] == live.QUESTION_OPEN
    if postgresql:
        assert seen_after < 1.0
        listening_backends = (
            sa.select(sa.func.count()).select_from(sa.table("pg_stat_activity", sa.column("datname"), sa.column("query")))
            .where(sa.column("datname") == sa.func.current_database(), sa.column("query").like("LISTEN%"))
        )
        # The listening connection closed with the watcher; its server process ends a moment
        # after, and only then leaves pg_stat_activity.
        deadline = time.monotonic() + 5
        with bundled.app_context():
            while (listening := db.session.scalar(listening_backends)) and time.monotonic() < deadline:
                db.session.rollback()  # a new snapshot of pg_stat_activity
                time.sleep(0.05)
        assert listening == 0
    else:
        assert watcher._listener is None  # nothing announces changes: polling alone
        assert seen_after < 1.0
