"""The French catalog is complete: every message of the code and templates is translated, with
the same placeholders, and the compiled catalog the app reads is the one the .po holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from quiz.web.language import LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [locale for locale in LANGUAGES if locale != "en"]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """Every message, extracted as `make messages` extracts them."""
    template = tmp_path_factory.mktemp("catalog") / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "-q", "extract", "-F", "babel.cfg", "-k", "_l", "-k", "lazy_gettext", "-o", str(template), "."],
        cwd=ROOT, check=True,
    )
    with template.open("rb") as file:
        catalog = read_po(file)
    assert len(catalog) > 300, "the pages' messages go through gettext"
    return catalog


def po_catalog(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file, locale=locale)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated(extracted, locale):
    catalog = po_catalog(locale)
    missing = [
        message.id for message in extracted
        if message.id and not _translated(catalog.get(message.id, context=message.context))
    ]
    assert not missing, f"{len(missing)} messages lack a {locale} translation (run `make messages`, then translate): {missing[:10]}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_catalog_holds_no_message_the_pages_no_longer_use(extracted, locale):
    unused = [
        message.id for message in po_catalog(locale)
        if message.id and extracted.get(message.id, context=message.context) is None
    ]
    assert not unused, f"run `make messages` to drop them: {unused[:10]}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_keep_the_placeholders_of_their_message(locale):
    problems = [
        f"{message.id!r}: {error}" for message, errors in po_catalog(locale).check() for error in errors
    ]
    assert not problems, problems


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_compiled_catalog_is_the_po_file_compiled(locale):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        compiled = _texts(read_mo(file))
    source = _texts(po_catalog(locale))
    assert compiled == source, "run `make messages` to compile the catalog"


def _texts(catalog) -> dict:
    """(context, id) -> translation, with a plural's forms as tuples (.mo files read as lists)."""
    def plain(value):
        return tuple(value) if isinstance(value, list | tuple) else value

    return {(message.context, plain(message.id)): plain(message.string) for message in catalog if message.id}


def _translated(message) -> bool:
    if message is None:
        return False
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not message.fuzzy and all(strings)
