"""Configuration sources and the refusal to run production on a weak secret key."""

from __future__ import annotations

import pytest
from flask import Flask

from quiz import config, create_app
from quiz.config import ConfigError
from quiz.extensions import db


def test_production_refuses_to_start_without_a_secret_key(tmp_path, monkeypatch):
    monkeypatch.delenv("QUIZ_SECRET_KEY", raising=False)
    with pytest.raises(ConfigError, match="QUIZ_SECRET_KEY"):
        create_app({"ENV": "production", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite3"})


@pytest.mark.parametrize("key", ["dev", "changeme", "short-but-random"])
def test_production_refuses_weak_secret_keys(tmp_path, monkeypatch, key):
    monkeypatch.setenv("QUIZ_SECRET_KEY", key)
    with pytest.raises(ConfigError):
        create_app({"ENV": "production", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite3"})


def test_production_setting_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZ_ENV", "production")
    monkeypatch.delenv("QUIZ_SECRET_KEY", raising=False)
    with pytest.raises(ConfigError):
        create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite3"})


def test_development_generates_a_secret_key_once_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("QUIZ_SECRET_KEY", raising=False)
    key_file = tmp_path / "instance" / "secret_key"
    app = _app_with_instance(tmp_path / "instance")
    assert key_file.read_text() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) >= 32
    assert key_file.stat().st_mode & 0o077 == 0
    assert _app_with_instance(tmp_path / "instance").config["SECRET_KEY"] == app.config["SECRET_KEY"]


def _app_with_instance(instance):
    app = Flask("quiz", instance_path=str(instance), instance_relative_config=True)
    config.configure(app, {"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app


def test_production_on_the_default_sqlite_file_can_create_it_in_a_fresh_checkout(tmp_path, monkeypatch):
    """No instance folder yet, and production makes no secret key file that would create it."""
    for name in ("DATABASE_URL", "QUIZ_SQLALCHEMY_DATABASE_URI"):
        monkeypatch.delenv(name, raising=False)
    app = Flask("quiz", instance_path=str(tmp_path / "instance"), instance_relative_config=True)
    config.configure(app, {"ENV": "production", "SECRET_KEY": "k" * 48})
    db.init_app(app)
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    assert (tmp_path / "instance" / "quiz.sqlite3").is_file()


def test_database_url_selects_the_database(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/chosen.sqlite3")
    app = create_app({"SECRET_KEY": "x" * 40})
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("chosen.sqlite3")


def test_prefixed_environment_variables_override_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("QUIZ_LEADERBOARD_SIZE", "7")
    app = create_app({"SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite3"})
    assert app.config["LEADERBOARD_SIZE"] == 7


def test_sqlite_connections_use_wal_and_foreign_keys(tmp_path):
    app = create_app({"SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite3"})
    with app.app_context():
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        db.engine.dispose()
