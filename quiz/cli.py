"""The ``quiz`` command line: Flask's commands (run, shell, db ...) and ours, also available as ``flask --app quiz ...``.

Our commands live in :mod:`quiz.commands` and are imported only when they run: checking a bank
or drafting questions from an article then starts without the web app or the database layer.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from typing import TYPE_CHECKING

import click

from quiz import collector

# Imports make objects that live as long as the process: see collector.paused().
with collector.paused():
    from flask.cli import FlaskGroup

if TYPE_CHECKING:
    from flask import Flask

#: Each command's ``module:attribute``.
COMMANDS = {
    "check": "quiz.commands.files:check_command",
    "lint": "quiz.commands.files:lint_command",
    "generate": "quiz.commands.files:generate_command",
    "convert": "quiz.commands.convert:convert_command",
    "import": "quiz.commands.database:import_command",
    "export": "quiz.commands.database:export_command",
    "init": "quiz.commands.database:init_command",
    "users": "quiz.commands.database:users_group",
    "serve": "quiz.cli:serve_command",
}


def _command(name: str) -> click.Command:
    module, attribute = COMMANDS[name].split(":")
    return getattr(importlib.import_module(module), attribute)


def _imported_command(name: str) -> click.Command:
    """:func:`_command`, imported with the collector paused; then every object there is gets
    frozen, so that later collections skip the modules too (for ``quiz generate`` on a short
    article, the collector walking them took a sixth of the run). Freezing keeps whatever
    garbage is waiting at that moment, so it is done once a process, and by the command line
    only: the app registering the commands freezes nothing."""
    with collector.paused():
        command = _command(name)
    if gc.get_freeze_count() == 0:
        gc.freeze()
    return command


@click.command("serve", context_settings={"ignore_unknown_options": True})
@click.argument("gunicorn_args", nargs=-1, type=click.UNPROCESSED)
def serve_command(gunicorn_args: tuple[str, ...]) -> None:
    """Run the production server (gunicorn with quiz/gunicorn_config.py); extra arguments go to gunicorn."""
    os.environ.setdefault("QUIZ_ENV", "production")
    os.execvp(
        sys.executable,
        [sys.executable, "-m", "gunicorn", "-c", "python:quiz.gunicorn_config", *gunicorn_args, "quiz:create_app()"],
    )


def init_app(app: Flask) -> None:
    for name in COMMANDS:
        app.cli.add_command(_command(name))


class _QuizGroup(FlaskGroup):
    """Flask's command group, with our commands found by name before any app is built."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            return _imported_command(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})


def _create_app() -> Flask:
    from quiz import create_app

    return create_app()


#: The ``quiz`` console script.
main = _QuizGroup(name="quiz", create_app=_create_app, help="Sourced quizzes: check and import banks, run the app.")
