"""The language of the pages: English or Canadian French.

A page's language is, in this order: the one its visitor chose with the switcher at the foot of
every page (kept in a cookie), the browser's Accept-Language, the language of the quiz it shows
(``language: fr`` in the bank, see :func:`show_quiz_in`), and English. A quiz's texts are in
its own language whatever the page's: :func:`content_lang` marks them where the two differ.
"""

from __future__ import annotations

from pathlib import Path

import flask_babel
from flask import Blueprint, Flask, Response, current_app, g, has_request_context, redirect, request, url_for
from markupsafe import Markup
from werkzeug.exceptions import NotFound

from quiz.extensions import babel
from quiz.web.redirects import local_path

#: Babel's name of each language the pages come in -> its name in itself, as the switcher says it.
LANGUAGES = {"en": "English", "fr_CA": "Français"}
DEFAULT = "en"
#: Where the catalogs are: quiz/translations/<locale>/LC_MESSAGES/messages.po (and .mo).
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
COOKIE = "quiz_language"
#: A choice made once holds for a year, like the player's own cookie.
COOKIE_LIFETIME = 365 * 24 * 3600

bp = Blueprint("language", __name__)


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    # Times are stored in UTC and shown in the app's own zone, as the hosting form asks for them.
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", app.config["TIME_ZONE"])
    babel.init_app(app, locale_selector=select_locale)
    # {% trans %} blocks are written over several lines; their messages should not carry that.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # Flask-Babel looks the request's catalog up anew for every message, through several context
    # lookups, and Jinja's own gettext passes each message through two context calls: a page's
    # dozens of messages cost more than its query. These do what Jinja's "newstyle" gettext
    # does (the message is markup, its values are escaped into it), on a catalog looked up once.
    app.jinja_env.globals.update(
        _=_gettext, gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext, npgettext=_npgettext,
        html_lang=html_lang, languages=switcher_languages, content_lang=content_lang,
    )
    app.after_request(_name_the_language)
    app.register_blueprint(bp)


def locale_for(tag: str | None) -> str | None:
    """The locale a language tag ("fr", "fr-CA", "fr_FR", "en-GB") is shown in, if any."""
    return {"en": "en", "fr": "fr_CA"}.get(_primary(tag)) if tag else None


def select_locale() -> str:
    if not has_request_context():
        return DEFAULT  # a command, or domain code run outside a request: English
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    # The browser's languages from the most preferred: the first the app speaks in any
    # variety wins ("fr-FR" finds Canadian French; "de, fr;q=0.5" too).
    for tag, quality in request.accept_languages:
        locale = locale_for(tag)
        if locale and quality > 0:
            return locale
    return locale_for(g.get("quiz_language")) or DEFAULT


def show_quiz_in(language: str) -> None:
    """This request's page shows a quiz in ``language``: the page is in it unless the visitor
    or the browser names a language of the app, and the quiz's texts are marked with it.

    Views call it before rendering; the locale already worked out for the request (a message
    may have been translated before the quiz was known) is forgotten.
    """
    g.quiz_language = language
    g.pop("page_locale", None)
    g.pop("page_catalog", None)
    flask_babel.refresh()


def page_locale() -> str:
    """The request's locale ("fr_CA"), worked out once."""
    locale = g.get("page_locale")
    if locale is None:
        locale = g.page_locale = str(flask_babel.get_locale() or DEFAULT)
    return locale


def _catalog():
    catalog = g.get("page_catalog")
    if catalog is None:
        catalog = g.page_catalog = flask_babel.get_translations()
    return catalog


def _gettext(message: str, /, **values) -> Markup:
    return Markup(_catalog().ugettext(message)) % values


def _ngettext(singular: str, plural: str, count: int, /, **values) -> Markup:
    values.setdefault("num", count)
    return Markup(_catalog().ungettext(singular, plural, count)) % values


def _pgettext(context: str, message: str, /, **values) -> Markup:
    return Markup(_catalog().upgettext(context, message)) % values


def _npgettext(context: str, singular: str, plural: str, count: int, /, **values) -> Markup:
    values.setdefault("num", count)
    return Markup(_catalog().unpgettext(context, singular, plural, count)) % values


def html_lang() -> str:
    """The page's language as HTML's ``lang`` and HTTP's Content-Language name it ("fr-CA")."""
    return page_locale().replace("_", "-")


def content_lang(language: str | None = None) -> Markup:
    """A ``lang`` attribute for a quiz's texts, where they are in another language than the page
    (an English quiz on a French page): screen readers then read each in its own voice.

    ``language`` defaults to that of the quiz the page shows (:func:`show_quiz_in`).
    """
    language = language or g.get("quiz_language")
    if not language or _primary(language) == _primary(page_locale()):
        return Markup("")
    return Markup(' lang="%s"') % language


def _primary(tag: str) -> str:
    return tag.replace("_", "-").split("-")[0].lower()


def switcher_languages() -> list[tuple[str, str, str]]:
    """The other languages, for the switcher: (locale, its name in itself, its ``lang``)."""
    current = page_locale()
    return [(locale, name, locale.replace("_", "-")) for locale, name in LANGUAGES.items() if locale != current]


@bp.get("/language/<locale>")
def choose(locale: str):
    """Keep the visitor's language in a cookie and go back to the page they were on.

    A link rather than a form: choosing a language changes nothing but how pages read, so it
    needs no CSRF token, and every page can offer it without starting a session.
    """
    if locale not in LANGUAGES:
        raise NotFound()
    response = redirect(local_path(request.args.get("next")) or url_for("play.home"), 303)
    response.set_cookie(
        COOKIE, locale, max_age=COOKIE_LIFETIME, httponly=True, samesite="Lax",
        secure=current_app.config["SESSION_COOKIE_SECURE"],
    )
    return response


def _name_the_language(response: Response) -> Response:
    # A redirect says nothing in any language: it is spared working one out.
    if response.mimetype == "text/html" and not 300 <= response.status_code < 400:
        response.headers.setdefault("Content-Language", html_lang())
        response.vary.add("Accept-Language")
    return response
