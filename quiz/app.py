"""The app factory: configuration, extensions, blueprints and commands wired together."""

from __future__ import annotations

from flask import Flask

from quiz import cli, config
from quiz.extensions import csrf, db, limiter, login_manager, migrate
from quiz.paths import resource
# Aliased: quiz.play, quiz.live and quiz.stats are the domain modules of the same names.
from quiz.web import auth, errors, health, language, reader, security, transaction
from quiz.web import admin as admin_pages
from quiz.web import api as api_pages
from quiz.web import stats as stats_pages
from quiz.web import live as live_pages
from quiz.web import play as play_pages


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, CLI. Nothing else happens here."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(resource("templates")),
        static_folder=str(resource("static")),
    )
    config.configure(app, test_config)
    security.trust_proxies(app)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(resource("migrations")))
    csrf.init_app(app)
    # The API reads no cookie, only bearer tokens: a cross-site form cannot act through it.
    csrf.exempt(api_pages.bp)
    login_manager.init_app(app)
    limiter.init_app(app)
    security.init_app(app)
    language.init_app(app)
    errors.init_app(app)
    transaction.init_app(app)
    app.register_blueprint(health.bp)
    app.register_blueprint(play_pages.bp)
    app.register_blueprint(reader.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(live_pages.bp)
    app.register_blueprint(stats_pages.bp)
    app.register_blueprint(admin_pages.bp)
    app.register_blueprint(api_pages.bp)
    cli.init_app(app)
    return app
