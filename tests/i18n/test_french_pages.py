"""Every page the app serves, asked for in French, is in French: found from the URL map with
real ids (as the hardening tests find them), each page names its language, and no message of
the catalog shows in English on it. A message translated at import time, or a string handed to
a page without gettext's translation, would show here."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po

from quiz.web.language import TRANSLATIONS
from tests.hardening.conftest import site  # noqa: F401  (the fixture)

FRENCH = {"Accept-Language": "fr-CA"}
_TAGS = re.compile(r"<[^>]+>")
_BANK_CONTENT = re.compile(r'<(\w+)[^>]*\blang="en"[^>]*>.*?</\1>', re.S)


@pytest.fixture(scope="module")
def english_messages() -> list[str]:
    """The catalog's messages that would be recognised in a page's text: whole sentences, with
    no placeholder and no markup, and not the same in both languages."""
    with (TRANSLATIONS / "fr_CA" / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file)
    return [
        message.id for message in catalog
        if isinstance(message.id, str) and message.id != message.string
        and len(message.id.split()) >= 4 and "%(" not in message.id and "<" not in message.id
    ]


def visible_text(page: str) -> str:
    """The page's text, without the texts marked as English (the bank's own)."""
    return " ".join(html.unescape(_TAGS.sub(" ", _BANK_CONTENT.sub(" ", page))).split())


def test_every_page_asked_for_in_french_is_in_french(site, english_messages):  # noqa: F811
    pages = 0
    for rule in site.rules("GET"):
        if rule.rule.endswith("/events"):
            continue  # event streams: JSON, read by scripts
        url = site.url(rule)
        response = site.browser.get(url, headers=FRENCH, buffered=False)
        try:
            if response.mimetype != "text/html" or response.status_code != 200:
                continue
            page = response.get_data(as_text=True)
        finally:
            response.close()
        pages += 1
        assert '<html lang="fr-CA">' in page, url
        text = visible_text(page)
        shown = [message for message in english_messages if message in text]
        assert not shown, f"{url} shows in English: {shown}"
    assert pages >= 20
