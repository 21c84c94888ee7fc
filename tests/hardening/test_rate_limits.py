"""Rate limits keyed by player or account, not by address alone: a whole classroom reaches the
server from one address, and must all be able to join; a guesser of join codes must not be
able to reset their count by dropping their cookie."""

from __future__ import annotations

import sqlalchemy as sa
from limits import parse

from quiz.extensions import db
from quiz.models import LivePlayer
from tests.web.live_helpers import create_session, join, join_code, log_in

CLASS_SIZE = 30


def other_code(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


def test_a_class_behind_one_address_joins_and_a_guesser_is_stopped_even_without_cookies(bundled):
    per_phone = parse(bundled.config["JOIN_LIMIT_WRONG_CODES"]).amount
    per_address = parse(bundled.config["JOIN_LIMIT_WRONG_CODES_PER_ADDRESS"]).amount
    assert CLASS_SIZE < per_address, "the default must let a whole class mistype the code once"
    host = log_in(bundled, "teacher")
    session_id = create_session(host)
    code = join_code(host, session_id)
    wrong = other_code(code)

    # Every student of the class mistypes the code once, then joins; all from 127.0.0.1.
    for number in range(CLASS_SIZE):
        phone, response = join(bundled, wrong, f"Student {number}")
        assert response.status_code == 404
        _, response = join(bundled, code, f"Student {number}", phone)
        assert response.status_code == 303, f"student {number} was refused: {response.status_code}"

    # One phone that keeps guessing is stopped by its own count; classmates are not.
    guesser = bundled.test_client()
    statuses = [join(bundled, wrong, "Guesser", guesser)[1].status_code for _ in range(per_phone + 1)]
    assert statuses == [404] * per_phone + [429]
    assert join(bundled, code, "Guesser", guesser)[1].status_code == 429
    _, classmate = join(bundled, code, "Classmate")
    assert classmate.status_code == 303

    # A guesser who drops the cookie before every try is a new player each time, and is
    # stopped by the address's count: the wrong codes so far, then what is left of it.
    spent = CLASS_SIZE + per_phone
    statuses = [join(bundled, wrong, "Guesser")[1].status_code for _ in range(per_address - spent + 1)]
    assert statuses == [404] * (per_address - spent) + [429]
    # From then on that address gets no answer about any code, right ones included: a 429 must
    # not tell a guesser which codes exist.
    _, late = join(bundled, code, "Latecomer")
    assert late.status_code == 429 and "Too many requests" in late.get_data(as_text=True)
    # Another address is not affected.
    elsewhere = bundled.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert join(bundled, code, "Elsewhere", elsewhere)[1].status_code == 303
    with bundled.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(LivePlayer)) == CLASS_SIZE + 2
