"""The registry of formats (quiz/formats/__init__.py) and the documents it builds."""

from __future__ import annotations

import pytest

from quiz.bank import BankInvalid, load_bank, parse_bank
from quiz.bank.schema import QuestionSpec
from quiz.bank.yamlfile import parse_yaml, plain
from quiz.formats import (
    FORMATS, MAX_UPLOAD_BYTES, bank_document, exporters, format_for_filename, importers, questions_document,
)
from quiz.paths import bundled_bank
from tests.formats.conftest import BANK


def test_every_format_reads_or_writes_and_names_its_extensions():
    assert list(FORMATS) == ["yaml", "gift", "moodle-xml", "csv", "aiken", "kahoot", "opentdb"]
    assert [entry.name for entry in importers()] == ["gift", "moodle-xml", "aiken", "kahoot", "opentdb"]
    assert [entry.name for entry in exporters()] == ["yaml", "gift", "moodle-xml", "csv"]
    for entry in FORMATS.values():
        assert entry.read or entry.write
        assert all(extension.startswith(".") for extension in entry.extensions)
    assert FORMATS["moodle-xml"].filename("bank") == "bank.xml"


@pytest.mark.parametrize(("name", "expected"), [
    ("questions.yaml", "yaml"), ("Q.YML", "yaml"), ("export.gift", "gift"), ("moodle.xml", "moodle-xml"),
    ("bank.csv", "csv"), ("quiz.aiken", "aiken"), ("Kahoot Quiz.xlsx", "kahoot"), ("trivia.json", "opentdb"),
    ("questions.txt", None),  # GIFT or Aiken: the extension does not say
    ("questions", None), ("picture.png", None),
])
def test_format_for_filename(name, expected):
    found = format_for_filename(name)
    assert (found.name if found else None) == expected


@pytest.mark.parametrize("entry", importers(), ids=lambda entry: entry.name)
def test_every_reader_refuses_a_file_over_the_cap_before_parsing(entry):
    with pytest.raises(BankInvalid) as refused:
        entry.read(b"\0" * (MAX_UPLOAD_BYTES + 1), "big")
    assert [str(error) for error in refused.value.errors] == [
        f"big:1:1: file is {MAX_UPLOAD_BYTES + 1:,} bytes; the limit is {MAX_UPLOAD_BYTES:,}"
    ]


@pytest.mark.parametrize("entry", exporters(), ids=lambda entry: entry.name)
def test_every_writer_writes_the_bundled_bank(entry):
    data = entry.write(bank_document(load_bank(bundled_bank())))
    assert isinstance(data, bytes) and len(data) > 10_000


def test_the_yaml_writer_writes_a_bank_file_that_loads_to_the_same_bank():
    bank = parse_bank(BANK.encode(), "bank.yaml", base_dir=None)
    written = FORMATS["yaml"].write(bank_document(bank))
    assert parse_bank(written, "again.yaml", base_dir=None).questions == bank.questions


def test_questions_document_gives_every_question_the_quiz():
    entries = [{"id": "a", "prompt": "A?", "choices": ["x", "y"], "correct": "x", "explanation": "E."}]
    assert questions_document(entries) == {"version": 1, "questions": entries}
    document = questions_document(entries, "colours")
    assert list(document["questions"][0]) == ["id", "quiz", "prompt", "choices", "correct", "explanation"]
    assert document["questions"][0]["quiz"] == "colours"
    assert "quiz" not in entries[0]


def test_bank_document_has_the_shape_of_a_bank_file():
    document = bank_document(parse_bank(BANK.encode(), "bank.yaml", base_dir=None))
    as_written = plain(parse_yaml(BANK.encode(), "bank.yaml", max_bytes=MAX_UPLOAD_BYTES).data)
    assert [article["id"] for article in document["articles"]] == ["sky"]
    assert document["quizzes"][0]["settings"]["shuffle_choices"] is False
    for entry, written in zip(document["questions"], as_written["questions"]):
        assert QuestionSpec.model_validate(entry).prompt == QuestionSpec.model_validate(written).prompt
