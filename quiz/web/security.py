"""Security headers on every response, trust in a reverse proxy's headers only when configured,
and refusal of input that no text or id in the database can hold."""

from flask import Flask, Response, request
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import BadRequest
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from quiz import config

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)

#: The largest id or position of the database's INTEGER columns.
MAX_INTEGER = 2**31 - 1


class NulCharacter(BadRequest):
    """The request holds a NUL character. PostgreSQL text cannot hold one, and a query with one
    fails; it is refused up front, the same on every database."""

    description = "What you sent holds a NUL character (\\0), which no text here may contain. Remove it and try again."
    #: What the error page says (see :mod:`quiz.web.errors`): the same, since it is meant for
    #: people, in the page's language.
    explanation = _l(
        "What you sent holds a NUL character (\\0), which no text here may contain. Remove it and try again."
    )


class DatabaseIntegerConverter(IntegerConverter):
    """``<int:...>`` limited to what an INTEGER column holds: a larger number names nothing, so
    the URL does not match (404) instead of failing in PostgreSQL ("integer out of range")."""

    def __init__(self, map, fixed_digits: int = 0, min: int | None = None, max: int | None = MAX_INTEGER,
                 signed: bool = False) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def init_app(app: Flask) -> None:
    # Rules look their converters up when they are added: this must run before the blueprints
    # are registered.
    app.url_map.converters["int"] = DatabaseIntegerConverter
    app.before_request(_refuse_nul_characters)
    app.after_request(_add_security_headers)


def trust_proxies(app: Flask) -> None:
    """Believe the X-Forwarded-* headers of as many proxies as configured (none by default):
    the client's address, scheme, host, port and path prefix then come from them."""
    arguments = config.proxy_fix_arguments(app)
    if arguments:
        app.wsgi_app = ProxyFix(app.wsgi_app, **arguments)  # type: ignore[method-assign]


def _refuse_nul_characters() -> None:
    """See :class:`NulCharacter`. File contents are left to the importers, which check them."""
    fields = [*request.args.items(multi=True)]
    if request.method in ("POST", "PUT", "PATCH"):
        fields += request.form.items(multi=True)
    if "\x00" in request.path or any("\x00" in key or "\x00" in value for key, value in fields):
        raise NulCharacter()


def _add_security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
    return response
