"""Error pages: every failure gets a page that says what happened, never a traceback."""

from flask import Flask, current_app, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from quiz.extensions import db
from quiz.web.api import errors as api_errors

_EXPLANATIONS = {
    400: "The request could not be understood.",
    403: "Your account cannot open this page.",
    404: "There is nothing at this address. The link may be mistyped or out of date.",
    405: "This page cannot be used that way.",
    413: "What you sent is too large.",
    429: "Too many requests. Wait a moment and try again.",
}


def init_app(app: Flask) -> None:
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)


def _render(status: int, title: str, message: str):
    return render_template("errors/error.html", status=status, title=title, message=message), status


def _csrf_error(error: CSRFError):
    if api_errors.is_api_request():  # the API answers every error in its JSON shape
        return api_errors.json_error(error)
    return _render(
        400,
        "This form has expired",
        "The page was open too long or came from elsewhere. Go back, reload the page and try again.",
    )


def _http_error(error: HTTPException):
    if api_errors.is_api_request():
        return api_errors.json_error(error)
    status = error.code or 500
    # Our own refusals may carry the sentence meant for the person asking; werkzeug's and the
    # extensions' descriptions are written for developers ("10 per 1 minute").
    message = getattr(error, "explanation", None) or _EXPLANATIONS.get(status, error.description or "")
    return _render(status, error.name, message)


def _unexpected_error(error: Exception):
    # The transaction of a failed request must not leak into the next use of the session.
    db.session.rollback()
    current_app.logger.exception("unhandled error")
    if api_errors.is_api_request():
        return api_errors.json_error(error)
    # ``name`` is a property: read it on an instance, or the page shows "<property object ...>".
    return _render(500, InternalServerError().name, "Something went wrong on our side. Please try again.")
