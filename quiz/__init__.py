"""quiz: multiple-choice quizzes built from articles, with a verbatim source behind every answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict | None = None) -> Flask:
    """Build the web app (:func:`quiz.app.create_app`).

    The web app is imported here, on first use, rather than with the package: the command line's
    file commands (check, lint, convert, generate) need none of it and start several times faster.
    """
    from quiz.app import create_app as build_app

    return build_app(test_config)
