"""quiz.extensions leans on private parts of Flask-WTF and Flask-Limiter to spare the busiest
requests work; both are pinned to a minor version in pyproject.toml. These tests fail as soon as
an upgrade renames or reshapes what the subclasses use, before anything else breaks quietly."""

from __future__ import annotations

import inspect
from importlib.metadata import version

import flask_limiter
import flask_wtf.csrf
from flask import Flask

from quiz.extensions import CSRFProtect, Limiter


def test_flask_wtf_still_has_what_the_csrf_shortcut_calls():
    assert version("Flask-WTF").startswith("1.3.")
    for name in ("_get_csrf_token", "_is_exempt", "_error_response"):
        assert list(inspect.signature(getattr(flask_wtf.csrf.CSRFProtect, name)).parameters)[0] == "self", name
    assert list(inspect.signature(flask_wtf.csrf.CSRFProtect.protect).parameters) == ["self", "apply_exemptions"]
    assert callable(flask_wtf.csrf.same_origin) and callable(flask_wtf.csrf.generate_csrf)
    assert issubclass(CSRFProtect, flask_wtf.csrf.CSRFProtect)


def test_flask_limiter_still_has_what_the_limiter_shortcut_reads(recwarn):
    assert version("Flask-Limiter").startswith("4.1.")
    parameters = inspect.signature(flask_limiter.Limiter._check_request_limit).parameters
    assert list(parameters) == ["self", "callable_name", "in_middleware"]
    limiter = Limiter(key_func=lambda: "everyone")
    limiter.init_app(Flask(__name__))
    # Read with getattr and a default that keeps the usual check, but they must be there for
    # the shortcut to work at all.
    assert hasattr(limiter.limit_manager, "_blueprint_limits") and hasattr(limiter, "_meta_limits")
    assert not limiter._limits_beyond_views()
