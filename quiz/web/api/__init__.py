"""The JSON API, version 1, at /api/v1: see :mod:`quiz.web.api.spec` for how operations are
declared, and ``/api/v1/openapi.json`` for what they are."""

# Importing the view modules declares their operations on the blueprint.
from quiz.web.api import live, play, teaching  # noqa: F401
from quiz.web.api.blueprint import bp

__all__ = ["bp"]
