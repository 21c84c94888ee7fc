"""One transaction per page request, committed or rolled back in one place.

A request that changes something (POST and the like) is committed when its response is a
success or a redirect, and rolled back otherwise; a GET is rolled back. A view that must keep
what it wrote in any case (a GET that records when a question was first shown, say) calls
:func:`keep_writes` and says why. The JSON API commits in its own wrapper
(:mod:`quiz.web.api.spec`). A view whose statements are each atomic alone may call
:func:`statements_alone` to spare the transaction's round trips.
"""

from __future__ import annotations

from flask import Flask, Response, g, request

from quiz.extensions import db

_READ_ONLY = frozenset({"GET", "HEAD", "OPTIONS"})


def keep_writes(reason: str) -> None:
    """Commit what this request writes, whatever its method and response; ``reason`` is
    why, for whoever reads the view."""
    g.keep_writes = reason


def statements_alone() -> None:
    """Run this request's statements each in a transaction of its own, where that spares round
    trips: on PostgreSQL, BEGIN and COMMIT are one each, which a request of two statements
    feels. Only for a view whose every write is one statement, complete and consistent alone,
    and whose reads need not see one moment. Call it before the request's first statement."""
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def init_app(app: Flask) -> None:
    app.after_request(_end_transaction)


def _end_transaction(response: Response) -> Response:
    if request.blueprint == "api":
        return response
    if "keep_writes" in g or (request.method not in _READ_ONLY and response.status_code < 400):
        db.session.commit()
    else:
        db.session.rollback()
    return response
