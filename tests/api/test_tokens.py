"""API tokens: the domain functions, and ``quiz users token create|list|revoke``."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
import sqlalchemy as sa

from quiz import accounts, tokens
from quiz.extensions import db
from quiz.models import ApiToken, utcnow
from tests.api.conftest import API, PASSWORD, bearer


@pytest.fixture
def ana(app_ctx):
    user = accounts.create_user(db.session, "ana", PASSWORD, "teacher")
    db.session.commit()
    return user


def test_only_a_hash_of_the_token_is_stored(ana):
    record, token = tokens.create_token(db.session, ana, "  LMS   sync ")
    db.session.commit()
    assert re.fullmatch(r"quiz_[A-Za-z0-9_-]{43}", token)
    stored = db.session.execute(sa.select(ApiToken.token_hash, ApiToken.prefix, ApiToken.label)).one()
    assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token.startswith(stored.prefix) and len(stored.prefix) == len("quiz_") + 8
    assert stored.label == "LMS sync"
    assert token not in str(db.session.execute(sa.select(ApiToken.__table__)).all())
    assert tokens.authenticate(db.session, token).user.username == "ana"
    assert tokens.authenticate(db.session, token[:-1]) is None


def test_last_use_is_kept_to_the_minute(ana):
    record, token = tokens.create_token(db.session, ana, "script")
    now = utcnow()
    tokens.authenticate(db.session, token, now)
    tokens.authenticate(db.session, token, now + timedelta(seconds=30))
    assert record.last_used_at == now
    tokens.authenticate(db.session, token, now + timedelta(minutes=2))
    assert record.last_used_at == now + timedelta(minutes=2)


def test_revoked_tokens_and_disabled_accounts_are_refused(ana):
    record, token = tokens.create_token(db.session, ana, "script")
    _other, other_token = tokens.create_token(db.session, ana, "other")
    first = tokens.revoke_token(db.session, record.id, utcnow() - timedelta(days=1))
    assert tokens.revoke_token(db.session, record.id).revoked_at == first.revoked_at
    assert tokens.authenticate(db.session, token) is None
    assert tokens.authenticate(db.session, other_token) is not None
    accounts.disable_user(db.session, ana)
    assert tokens.authenticate(db.session, other_token) is None
    assert tokens.revoke_token(db.session, 12345) is None
    with pytest.raises(tokens.TokenError, match="disabled"):
        tokens.create_token(db.session, ana, "new")


def test_a_label_is_required(ana):
    for label in ["", "   ", "x" * 101]:
        with pytest.raises(tokens.TokenError):
            tokens.create_token(db.session, ana, label)


# The command line ------------------------------------------------------------------------------


@pytest.fixture
def users(app):
    runner = app.test_cli_runner()

    def run(*args: str):
        return runner.invoke(args=["users", *args])

    return run


def test_a_token_made_on_the_command_line_works_until_revoked(app, users, client):
    with app.app_context():
        accounts.create_user(db.session, "ana", PASSWORD, "admin")
        db.session.commit()
    created = users("token", "create", "ANA", "--label", "LMS sync")
    assert created.exit_code == 0, created.output
    token = created.stdout.strip()
    assert re.fullmatch(r"quiz_\S{43}", token)
    assert "not shown again" in created.stderr
    assert client.get(f"{API}/account", headers=bearer(token)).get_json()["username"] == "ana"

    listed = users("token", "list", "ana")
    assert listed.exit_code == 0
    assert token[:13] + "…" in listed.output and "LMS sync" in listed.output and token not in listed.output
    assert re.search(r"^\s+1\s.*\bno\b", listed.output, re.M)  # not revoked yet

    revoked = users("token", "revoke", "1")
    assert revoked.exit_code == 0 and "Revoked token 1 ('LMS sync') of 'ana'" in revoked.output
    assert client.get(f"{API}/account", headers=bearer(token)).status_code == 401
    assert not re.search(r"^\s+1\s.*\bno\b", users("token", "list", "ana").output, re.M)


def test_token_commands_refuse_unknown_users_and_ids(app, users):
    assert users("token", "create", "nobody", "--label", "x").exit_code == 1
    assert users("token", "list", "nobody").exit_code == 1
    missing = users("token", "revoke", "7")
    assert missing.exit_code == 1 and "No token with id 7." in missing.output
    assert users("token", "revoke", "99999999999").exit_code == 2
    assert users("token", "create", "nobody").exit_code == 2  # --label is required
    with app.app_context():
        accounts.create_user(db.session, "ana", PASSWORD, "teacher")
        db.session.commit()
    assert "has no tokens" in users("token", "list", "ana").output
    assert users("token", "create", "ana", "--label", " ").exit_code == 1
