"""Nicknames players choose, on the web pages and through the API alike: what they may hold,
and the one form they are kept in."""

from __future__ import annotations

import unicodedata

from flask_babel import lazy_gettext as _l

MAX_LENGTH = 20
#: Unicode categories a nickname may use: letters, marks, numbers, punctuation, symbols.
#: Controls, format characters (such as right-to-left overrides) and line breaks are refused;
#: markup characters are allowed and always escaped on output.
_ALLOWED_CATEGORIES = frozenset("LMNPS")
#: Lazy: shown in the language of the page that refuses the nickname.
CHARACTERS_MESSAGE = _l("Use letters, digits, punctuation and spaces only.")
LENGTH_MESSAGE = _l("Use at most %(max)s characters.", max=MAX_LENGTH)


def clean(value: str | None) -> str | None:
    """NFC-normalised with runs of spaces folded; empty means no nickname."""
    if value is None:
        return None
    value = " ".join(unicodedata.normalize("NFC", value).split())
    return value or None


def has_allowed_characters(value: str) -> bool:
    return all(ch == " " or unicodedata.category(ch)[0] in _ALLOWED_CATEGORIES for ch in value)
