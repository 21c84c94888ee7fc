"""The API's one error shape: ``{"error": {"status": 404, "code": "not_found", "message": "..."}}``.

Every failure under :data:`URL_PREFIX` answers so, including those raised by Flask and its
extensions (unknown URLs, wrong methods, bodies too large, rate limits, unexpected errors):
the app's error handlers ask :func:`is_api_request` and hand such errors to :func:`json_error`.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
from werkzeug.exceptions import HTTPException

URL_PREFIX = "/api/v1"

#: The code of an error that has no more specific one, by status.
CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "too_many_requests",
    500: "internal_error",
    503: "unavailable",
}

#: Messages for errors raised outside the API's own views, where Flask's wording is HTML-minded.
MESSAGES = {
    400: "The request could not be understood.",
    401: "Send a valid token in the Authorization header: Bearer <token>.",
    403: "This token's account may not use this endpoint.",
    404: "There is nothing at this address.",
    405: "This endpoint does not accept this method.",
    413: "The request body is too large.",
    415: "Send the body as application/json.",
    429: "Too many requests. Wait a moment and try again.",
    500: "Something went wrong on our side. Please try again.",
    503: "The server is busy. Wait a moment and try again.",
}

#: Sent with every 401, as RFC 6750 asks, so that clients know which scheme to use.
WWW_AUTHENTICATE = 'Bearer realm="quiz"'


class ApiError(HTTPException):
    """An error an API view raises to answer with the error shape; never caught by the views."""

    def __init__(self, status: int, code: str, message: str, details: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.code = status
        self.error_code = code
        self.message = message
        self.details = details


def is_api_request() -> bool:
    return request.path == URL_PREFIX or request.path.startswith(URL_PREFIX + "/")


def error_response(
    status: int, code: str, message: str, details: list[dict[str, Any]] | None = None
) -> Response:
    """The error shape with ``status``; ``details`` (field errors) only when there are some."""
    error: dict[str, Any] = {"status": status, "code": code, "message": message}
    if details is not None:
        error["details"] = details
    response = jsonify({"error": error})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    if status == 401:
        response.headers["WWW-Authenticate"] = WWW_AUTHENTICATE
    return response


def json_error(error: Exception) -> Response:
    """Any exception raised while serving an API request, in the error shape."""
    if isinstance(error, ApiError):
        return error_response(error.code, error.error_code, error.message, error.details)
    if not isinstance(error, HTTPException) or not error.code:
        return error_response(500, CODES[500], MESSAGES[500])
    status = error.code
    # Statuses without a code of ours (a 414 from the server, say) get one made from their name.
    code = CODES.get(status) or error.name.lower().replace(" ", "_").replace("-", "_")
    response = error_response(status, code, MESSAGES.get(status, f"{error.name}."))
    if isinstance(error, HTTPException) and status == 405:
        # The methods the endpoint does accept, as HTTP requires of a 405.
        allow = error.get_response().headers.get("Allow")
        if allow:
            response.headers["Allow"] = allow
    return response
