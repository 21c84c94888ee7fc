"""Error pages: every failure gets a page that says what happened, never a traceback."""

import sqlalchemy.exc
from flask import Flask, current_app, make_response, render_template
from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from quiz.extensions import db
from quiz.web.api import errors as api_errors

#: Werkzeug's names of the statuses the pages answer with, to show in the page's language;
#: any other status keeps werkzeug's English name.
_TITLES = {
    400: _l("Bad Request"),
    403: _l("Forbidden"),
    404: _l("Not Found"),
    405: _l("Method Not Allowed"),
    413: _l("Request Entity Too Large"),
    429: _l("Too Many Requests"),
    500: _l("Internal Server Error"),
    503: _l("Service Unavailable"),
}
_EXPLANATIONS = {
    400: _l("The request could not be understood."),
    403: _l("Your account cannot open this page."),
    404: _l("There is nothing at this address. The link may be mistyped or out of date."),
    405: _l("This page cannot be used that way."),
    413: _l("What you sent is too large."),
    429: _l("Too many requests. Wait a moment and try again."),
    503: _l("The server is busy. Wait a moment and try again."),
}

#: Seconds a client is asked to wait when the server is too busy to answer.
BUSY_RETRY_AFTER = 2


def init_app(app: Flask) -> None:
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(sqlalchemy.exc.TimeoutError, _busy)
    app.register_error_handler(sqlalchemy.exc.DBAPIError, _database_error)
    app.register_error_handler(Exception, _unexpected_error)


def _render(status: int, title: str | LazyString, message: str | LazyString):
    # As plain strings, so that the page escapes them: a lazy message would pass as markup.
    return render_template("errors/error.html", status=status, title=str(title), message=str(message)), status


def _csrf_error(error: CSRFError):
    if api_errors.is_api_request():  # the API answers every error in its JSON shape
        return api_errors.json_error(error)
    return _render(
        400,
        _("This form has expired"),
        _("The page was open too long or came from elsewhere. Go back, reload the page and try again."),
    )


def _http_error(error: HTTPException):
    if api_errors.is_api_request():
        return api_errors.json_error(error)
    status = error.code or 500
    # Our own refusals may carry the sentence meant for the person asking; werkzeug's and the
    # extensions' descriptions are written for developers ("10 per 1 minute").
    message = getattr(error, "explanation", None) or _EXPLANATIONS.get(status, error.description or "")
    return _render(status, _TITLES.get(status, error.name), message)


def _busy(error: sqlalchemy.exc.SQLAlchemyError):
    """No database connection came free within the pool's timeout: the server is overloaded,
    not broken, and the client may try again."""
    db.session.rollback()
    current_app.logger.warning("answered 503: %s", error)
    response = make_response(_http_error(ServiceUnavailable()))
    response.headers["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response


def _database_error(error: sqlalchemy.exc.DBAPIError):
    """A connection the database dropped under a request (a restart) is as good as a busy
    server: the next try gets a fresh connection. Any other database error is unexpected."""
    if error.connection_invalidated:
        return _busy(error)
    return _unexpected_error(error)


def _unexpected_error(error: Exception):
    # The transaction of a failed request must not leak into the next use of the session.
    db.session.rollback()
    current_app.logger.exception("unhandled error")
    if api_errors.is_api_request():
        return api_errors.json_error(error)
    return _render(500, _TITLES[500], _("Something went wrong on our side. Please try again."))
