"""Moodle XML read back: a teacher's bank with every type, what is left out and lost, the round
trip of our own export, and both checked against the rules Moodle's importer applies."""

from __future__ import annotations

from pathlib import Path

import pytest
from defusedxml.ElementTree import fromstring

from quiz.bank import BankInvalid, load_bank
from quiz.formats import bank_document, moodle_xml
from quiz.formats.incoming import MAX_UPLOAD_BYTES
from quiz.paths import bundled_bank
from tests.formats import moodle_rules
from tests.formats.conftest import questions_by_id

TEACHER_BANK = Path(__file__).parent / "files" / "teacher_bank.xml"


@pytest.fixture(scope="module")
def teacher_bank():
    return moodle_xml.read(TEACHER_BANK.read_bytes(), "teacher_bank.xml")


def errors_of(data: bytes) -> list[str]:
    with pytest.raises(BankInvalid) as refused:
        moodle_xml.read(data, "bank.xml")
    return [str(error) for error in refused.value.errors]


def test_the_teachers_test_file_is_one_moodle_reads():
    assert moodle_rules.problems(fromstring(TEACHER_BANK.read_bytes())) == []


def test_each_type_we_hold_is_read_with_its_category_and_tags_as_tags(teacher_bank):
    read = questions_by_id(teacher_bank.entries)
    assert list(read) == ["axel-jump", "edge-jumps", "quad", "spin-name", "rink-length", "programme-order"]
    assert read["axel-jump"] == {
        "id": "axel-jump", "kind": "single", "prompt": "Which jump takes off forwards?",
        "choices": ["The Axel", "The Lutz & the Flip", "The Salchow"], "correct": "The Axel",
        "explanation": "It is named after Axel Paulsen.", "tags": ["jumps-spins", "jumps", "first-week"],
    }
    # moodle_auto_format keeps its line breaks; without general feedback the right answer's own explains.
    edge = read["edge-jumps"]
    assert (edge["kind"], edge["prompt"]) == ("multi", "Which of these are edge jumps?\nTick every one.")
    assert (edge["correct"], edge["explanation"]) == (["Loop", "Salchow"], "Right: from an edge.")
    quad = read["quad"]
    assert (quad["kind"], quad["correct"], quad["explanation"]) == ("true_false", True, "Four in the air.")
    assert quad["prompt"] == "A quadruple jump has four rotations & a landing."  # plain_text is not HTML
    spin = read["spin-name"]
    assert (spin["kind"], spin["accept"], spin["explanation"]) == ("text", ["Camel", "camel spin"], "The camel spin.")
    rink = read["rink-length"]
    assert (rink["kind"], rink["answer"], rink["tolerance"], rink["unit"]) == ("number", 60, 1.5, "m")
    assert rink["explanation"] == "Sixty metres."
    order = read["programme-order"]
    # The items are put in the order their fractions give, whatever order the file lists them in.
    assert (order["kind"], order["items"]) == ("ordering", ["Short programme", "Free skate", "Medal ceremony"])
    assert all(entry["tags"][0] == "jumps-spins" for entry in read.values())


def test_what_cannot_be_held_is_left_out_at_its_place(teacher_bank):
    supported = "only multichoice, truefalse, shortanswer, numerical and ordering questions can be imported"
    assert [str(error) for error in teacher_bank.skipped] == [
        f"teacher_bank.xml:201:3: question 7: an essay question cannot be imported; {supported}",
        f"teacher_bank.xml:211:3: question 8: a matching question cannot be imported; {supported}",
        f"teacher_bank.xml:228:3: question 9: a description (text without a question) cannot be imported; {supported}",
        f"teacher_bank.xml:237:3: question 10: an embedded answers (cloze) question cannot be imported; {supported}",
        "teacher_bank.xml:246:3: question 11: partial credit (an answer worth part of the mark) cannot be kept;"
        " a typed answer is right or not",
        "teacher_bank.xml:257:3: question 12: a question has 2 to 6 choices; this one has 7",
    ]
    with pytest.raises(BankInvalid) as refused:
        teacher_bank.strict()
    assert refused.value.errors == teacher_bank.skipped


def test_images_links_case_and_other_units_are_reported_not_silently_dropped(teacher_bank):
    assert [str(note) for note in teacher_bank.notes] == [
        "teacher_bank.xml:24:5: question 1: the question text loses an image (axel diagram.png),"
        " described as “A diagram of the take-off”",
        "teacher_bank.xml:28:5: question 1: the general feedback loses the address of a link"
        " (https://example.org/axel-paulsen); its text is kept",
        "teacher_bank.xml:113:3: question 4: case-sensitive grading is not kept: case never matters here",
        "teacher_bank.xml:138:3: question 5: the unit cm (× 100) is not kept; answers are in m",
    ]


def test_our_export_is_what_moodle_reads_and_reads_back_as_we_wrote_it(document):
    written = moodle_xml.write(document)
    assert moodle_rules.problems(fromstring(written)) == []
    read = moodle_xml.read(written, "bank.xml")
    assert read.skipped == [] and read.notes == []
    again = questions_by_id(read.entries)
    assert list(again) == [question["id"] for question in document["questions"]]
    for original in document["questions"]:
        entry = again[original["id"]]
        for key in ("kind", "prompt", "choices", "correct"):
            assert entry.get(key) == original.get(key), (original["id"], key)
        # The quiz's category comes back as a tag before the question's own.
        assert entry["tags"] == ["colours-weather", *original.get("tags", [])]
        assert entry["explanation"].startswith(original["explanation"])
        for quote in original.get("source", []):
            assert quote in entry["explanation"]


def test_the_whole_bank_in_moodle_xml_keeps_every_kind_moodle_has():
    document = bank_document(load_bank(bundled_bank()))
    written = moodle_xml.write(document)
    assert moodle_rules.problems(fromstring(written)) == []
    again = questions_by_id(moodle_xml.read(written, "bank.xml").entries)
    exported = [entry for entry in document["questions"] if entry.get("kind", "single") != "poll"]
    assert sorted(again) == sorted(entry["id"] for entry in exported)
    keys = ("kind", "prompt", "choices", "correct", "items", "accept", "answer", "tolerance", "unit")
    for original in exported:
        entry = again[original["id"]]
        for key in keys:
            if key in original or key in entry:
                assert entry.get(key) == original.get(key, "single" if key == "kind" else None), (original["id"], key)


def test_a_broken_or_hostile_file_is_refused_with_its_place():
    assert errors_of(b"<quiz>\n  <question type='truefalse'>\n</quiz>\n") == [
        "bank.xml:3:3: invalid XML: mismatched tag"
    ]
    assert errors_of(b"<questions><question/></questions>") == [
        "bank.xml:1:1: the root element is <questions>; a Moodle XML file holds <quiz> and its <question> elements"
    ]
    laughs = b'<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><quiz>&b;</quiz>'
    assert errors_of(laughs) == [
        "bank.xml:1:1: entity declarations and external references are not read, for safety; remove the DOCTYPE"
    ]
    assert errors_of(b"<quiz>" + b" " * MAX_UPLOAD_BYTES + b"</quiz>") == [
        f"bank.xml:1:1: file is {MAX_UPLOAD_BYTES + 13:,} bytes; the limit is {MAX_UPLOAD_BYTES:,}"
    ]
    assert errors_of(b"<quiz></quiz>") == ["bank.xml:1:1: no questions found in the file"]


def test_a_question_moodle_would_refuse_is_refused_with_its_place():
    assert errors_of(
        b"<quiz>\n<question type='truefalse'><name><text>t</text></name>"
        b"<questiontext><text>Sky?</text></questiontext>"
        b"<answer fraction='100'><text>maybe</text></answer></question>\n</quiz>"
    ) == ["bank.xml:2:1: question 1: a truefalse question has the answers true and false, one of them with fraction 100"]
    assert errors_of(
        b"<quiz><question type='multichoice'><name><text>n</text></name>"
        b"<answer fraction='lots'><text>a</text></answer></question></quiz>"
    ) == ["bank.xml:1:7: question 1: answer 1: fraction 'lots' is not a number"]
