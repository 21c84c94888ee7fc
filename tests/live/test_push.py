"""On PostgreSQL a committed change to a session wakes the watchers at once (NOTIFY on commit,
LISTEN in the watcher), where polling alone would find it at the next poll. PostgreSQL only:
SQLite has no such channel, and its watchers poll (tests/web/test_live_pages.py covers them)."""

from __future__ import annotations

import random
import threading
import time

import pytest

from quiz import events, live, play
from quiz.extensions import db
from quiz.models import LiveSession, User
from tests.databases import on_postgresql

pytestmark = pytest.mark.skipif(
    not on_postgresql(), reason="LISTEN/NOTIFY is PostgreSQL's: run the suite with TEST_DATABASE_URL to test it",
)


def test_a_committed_change_wakes_the_watcher_before_any_poll_would(make_app, bundled_bank_entries):
    from quiz.bank.importer import import_bank

    # Polling alone would find the change only at the watcher's safety poll, seconds later.
    app = make_app(LIVE_POLL_INTERVAL=30)
    with app.app_context():
        import_bank(db.session, bundled_bank_entries)
        host = User(username="teacher", password_hash="x", role="teacher")
        db.session.add(host)
        db.session.flush()
        quiz = play.quiz_by_slug(db.session, "kiss-and-cry")
        session = live.create_session(db.session, host, quiz, live.Settings(), rng=random.Random(1))
        db.session.commit()
        session_id, known = session.id, events.state_of(session)
        watcher = events.watcher(app)
        assert watcher.wait(session_id, known, timeout=0.5) is None  # nothing changed: it waits

    def join_later() -> None:
        time.sleep(0.5)
        with app.app_context():
            changed = db.session.get(LiveSession, session_id)
            live.join(db.session, changed, play.create_player(db.session), "Zoé")
            db.session.commit()

    joining = threading.Thread(target=join_later)
    started = time.monotonic()
    joining.start()
    new = watcher.wait(session_id, known, timeout=10)
    waited = time.monotonic() - started
    joining.join()
    assert new is not None and new.version == known.version + 1
    # Half a second after the change at the most (it takes a few milliseconds); a poll would come later.
    assert waited < 1.0, waited
