"""Interchange formats: questions read from other quiz tools' files, the bank written for them.

Every format is one module and one entry of :data:`FORMATS`. A reader takes a file's bytes and
name and returns a :class:`~quiz.formats.incoming.Read`: question entries (bank entries without
``quiz`` and ``source``: imported questions are unsourced until someone quotes the article),
each question it left out and why, and what read questions lost; or it raises
:class:`~quiz.bank.errors.BankInvalid` listing every problem with its position, having read
nothing. A writer takes a bank document (:func:`quiz.bank.exporter.export_document`) and
returns the file's bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quiz.bank.exporter import article_entry, bank_question_entry
from quiz.bank.loader import Bank
from quiz.bank.yamlfile import dump_yaml
from quiz.formats import aiken, csv_format, gift, kahoot, moodle_xml, opentdb
from quiz.formats.incoming import MAX_UPLOAD_BYTES, Read

__all__ = [
    "FORMATS", "MAX_UPLOAD_BYTES", "Format", "Read", "bank_document", "exporters", "format_for_filename", "importers",
    "questions_document",
]


@dataclass(frozen=True)
class Format:
    name: str
    #: Shown in menus and messages.
    label: str
    #: The first is the one a written file gets.
    extensions: tuple[str, ...]
    media_type: str
    read: Callable[[bytes, str], Read] | None
    write: Callable[[dict[str, Any]], bytes] | None

    def filename(self, stem: str) -> str:
        return stem + self.extensions[0]


def _bank_file(document: dict[str, Any]) -> bytes:
    return dump_yaml(document).encode("utf-8")


FORMATS: dict[str, Format] = {
    entry.name: entry
    for entry in (
        # The bank's own format. Reading one needs the bank loader (articles, quotes), not a reader.
        Format("yaml", "Bank file (YAML)", (".yaml", ".yml"), "application/yaml", None, _bank_file),
        Format("gift", "GIFT", (".gift", ".txt"), "text/plain; charset=utf-8", gift.read, gift.write),
        Format("moodle-xml", "Moodle XML", (".xml",), "application/xml", moodle_xml.read, moodle_xml.write),
        Format("csv", "CSV", (".csv",), "text/csv; charset=utf-8", None, csv_format.write),
        Format("aiken", "Aiken", (".aiken", ".txt"), "text/plain; charset=utf-8", aiken.read, None),
        Format(
            "kahoot", "Kahoot spreadsheet", (".xlsx",),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", kahoot.read, None,
        ),
        Format("opentdb", "Open Trivia DB JSON", (".json",), "application/json", opentdb.read, None),
    )
}


def importers() -> list[Format]:
    """The formats questions can be read from."""
    return [entry for entry in FORMATS.values() if entry.read is not None]


def exporters() -> list[Format]:
    """The formats the bank can be written in."""
    return [entry for entry in FORMATS.values() if entry.write is not None]


def format_for_filename(name: str) -> Format | None:
    """The format a file's extension names; None when it names none, or several (a ``.txt``
    file may be GIFT or Aiken)."""
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    matches = [entry for entry in FORMATS.values() if suffix in entry.extensions]
    return matches[0] if len(matches) == 1 else None


def questions_document(entries: list[dict[str, Any]], quiz: str | None = None) -> dict[str, Any]:
    """A bank document holding read questions, each given ``quiz`` when it is set."""
    if quiz is not None:
        entries = [{"id": entry["id"], "quiz": quiz, **entry} for entry in entries]
    return {"version": 1, "questions": entries}


def bank_document(bank: Bank) -> dict[str, Any]:
    """A checked bank file as a bank document, articles inline, ready for any writer."""
    articles = [article_entry(article) for article in bank.articles]
    quizzes = [
        {
            "id": quiz.slug, "title": quiz.title, **({"description": quiz.description} if quiz.description else {}),
            "article": quiz.article_slug,
            "settings": {
                "questions_per_attempt": quiz.questions_per_attempt, "shuffle_choices": quiz.shuffle_choices,
                "time_limit": quiz.time_limit,
            },
        }
        for quiz in bank.quizzes
    ]
    return {
        "version": 1, "articles": articles, "quizzes": quizzes,
        "questions": [bank_question_entry(question) for question in bank.questions],
    }
