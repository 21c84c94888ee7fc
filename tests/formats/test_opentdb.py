"""Open Trivia DB JSON: entities unescaped, booleans as true/false, errors at their JSON position."""

from __future__ import annotations

import base64
import html
import json
import urllib.parse

import pytest

from quiz.bank import BankInvalid
from quiz.formats import opentdb

RESPONSE = """{
  "response_code": 0,
  "results": [
    {
      "type": "multiple",
      "difficulty": "easy",
      "category": "Entertainment: Film",
      "question": "Which film&#039;s tagline is &quot;In space no one can hear you scream&quot;?",
      "correct_answer": "Alien",
      "incorrect_answers": ["Predator", "Aliens &amp; Co", "The Thing"]
    },
    {
      "type": "boolean",
      "difficulty": "hard",
      "category": "Science &amp; Nature",
      "question": "Water boils at 90&deg;C at sea level.",
      "correct_answer": "False",
      "incorrect_answers": ["True"]
    }
  ]
}"""


def errors_of(text: str) -> list[str]:
    with pytest.raises(BankInvalid) as refused:
        opentdb.read(text.encode(), "trivia.json").entries
    return [str(error) for error in refused.value.errors]


def test_reads_multiple_and_boolean_questions_with_entities_unescaped():
    multiple, boolean = opentdb.read(RESPONSE.encode(), "trivia.json").entries
    assert multiple["prompt"] == "Which film's tagline is \"In space no one can hear you scream\"?"
    assert multiple["kind"] == "single"
    assert sorted(multiple["choices"]) == sorted(["Alien", "Predator", "Aliens & Co", "The Thing"])
    assert multiple["correct"] == "Alien"
    assert (multiple["difficulty"], multiple["tags"]) == ("easy", ["entertainment-film"])
    assert multiple["id"] == "which-film-s-tagline-is-in-space-no-one-can-hear"
    assert boolean == {
        "id": "water-boils-at-90-c-at-sea-level", "kind": "true_false", "difficulty": "hard",
        "prompt": "Water boils at 90°C at sea level.", "correct": False,
        "explanation": "The correct answer is: False", "tags": ["science-nature"],
    }


def test_base64_and_url3986_responses_read_as_the_default_encoding_does():
    default = json.loads(RESPONSE)
    plain = [{key: html_free(value) for key, value in result.items()} for result in default["results"]]
    expected = opentdb.read(json.dumps({"response_code": 0, "results": plain}).encode(), "trivia.json").entries
    encoders = {
        "base64": lambda text: base64.b64encode(text.encode()).decode(),
        "url3986": lambda text: urllib.parse.quote(text, safe=""),
    }
    for name, encode in encoders.items():
        encoded = [
            {key: [encode(item) for item in value] if isinstance(value, list) else encode(value) for key, value in result.items()}
            for result in plain
        ]
        read = opentdb.read(json.dumps({"response_code": 0, "results": encoded}).encode(), f"{name}.json").entries
        assert read == expected, name


def html_free(value):
    return [html.unescape(item) for item in value] if isinstance(value, list) else html.unescape(value)


def test_the_correct_answer_is_not_always_first_and_always_in_the_same_place():
    results = [
        {"type": "multiple", "question": f"Question {n}?", "correct_answer": "right",
         "incorrect_answers": ["w1", "w2", "w3"]}
        for n in range(12)
    ]
    data = json.dumps({"response_code": 0, "results": results}).encode()
    places = [entry["choices"].index("right") for entry in opentdb.read(data, "t.json").entries]
    assert len(set(places)) > 1
    assert places == [entry["choices"].index("right") for entry in opentdb.read(data, "t.json").entries]


def test_invalid_json_is_refused_at_its_line_and_column():
    assert errors_of('{"results": [\n  {"type": "multiple",}\n]}') == [
        "trivia.json:2:23: invalid JSON: Expecting property name enclosed in double quotes"
    ]


def test_each_bad_field_is_reported_at_its_json_position():
    text = """{"response_code": 0, "results": [
  {"type": "multiple", "question": "Fine?", "correct_answer": "a", "incorrect_answers": ["b"]},
  {"type": "text", "question": "Kind?", "correct_answer": "a", "incorrect_answers": ["b"]},
  {"type": "multiple", "correct_answer": "a", "incorrect_answers": ["b"]},
  {"type": "multiple", "question": "Answers?", "correct_answer": "a", "incorrect_answers": ["b", 3]},
  {"type": "boolean", "question": "Boolean?", "correct_answer": "Yes", "incorrect_answers": ["No"]},
  {"type": "multiple", "question": "Level?", "difficulty": "extreme", "correct_answer": "a", "incorrect_answers": ["b"]},
  "not an object"
]}"""
    assert errors_of(text) == [
        "trivia.json:3:12: results[1].type: type must be \"multiple\" or \"boolean\", not \"text\"",
        "trivia.json:4:3: results[2]: \"question\" is missing",
        "trivia.json:5:98: results[3].incorrect_answers[1]: must be a text",
        "trivia.json:6:65: results[4].correct_answer: a boolean question's answers are \"True\" and \"False\"",
        "trivia.json:7:60: results[5].difficulty: difficulty must be easy, medium or hard",
        "trivia.json:8:3: results[6]: each result is an object with type, question, correct_answer and incorrect_answers",
    ]


def test_a_failed_request_and_a_foreign_document_are_refused():
    assert errors_of('{"response_code": 1, "results": []}') == [
        "trivia.json:1:19: response_code: response_code 1: no results:"
        " the request asked for more questions than the category has"
    ]
    assert errors_of("[1, 2]") == [
        "trivia.json:1:1: expected an object with a \"results\" list, as Open Trivia DB answers"
    ]


def test_what_the_bank_refuses_is_left_out_at_the_result():
    text = json.dumps({"results": [
        {"type": "multiple", "question": "Twice?", "correct_answer": "a", "incorrect_answers": ["b", "B"]},
    ]})
    texts = [text for text, _ in opentdb._shuffled("Twice?", [("a", True), ("b", False), ("B", False)])]
    assert errors_of(text) == [
        "trivia.json:1:1: no question in the file can be imported",
        f"trivia.json:1:14: results[0]: choice {texts.index('B') + 1} ('B') repeats choice {texts.index('b') + 1}",
    ]


def test_node_offsets_point_at_every_value():
    text = '{"a": [1, {"b": "x\\"y"}], "c" : null}'
    offsets = opentdb.node_offsets(text)
    assert {path: text[offset] for path, offset in offsets.items()} == {
        (): "{", ("a",): "[", ("a", 0): "1", ("a", 1): "{", ("a", 1, "b"): '"', ("c",): "n",
    }


def test_deep_nesting_is_refused_or_skipped_without_recursing():
    assert errors_of('{"results": [' + "[" * 5000 + "]" * 5000 + "]}") == [
        "trivia.json:1:1: invalid JSON: nested too deeply"
    ]
    # Deep but valid: the walk skips what lies below the fields of a result.
    assert errors_of('{"results": [' + "[" * 900 + "]" * 900 + "]}") == [
        "trivia.json:1:14: results[0]: each result is an object with type, question, correct_answer and incorrect_answers"
    ]


def test_a_key_given_twice_is_refused_at_its_second_value():
    result = '{"type": "boolean", "question": "Q?", "correct_answer": "True", "incorrect_answers": ["False"]}'
    assert errors_of('{"results": [\n' + result.replace('"type": "boolean"', '"type": "boolean", "type": "multiple"') + "]}") == [
        'trivia.json:2:29: results[0].type: duplicate key "type"'
    ]
    # A repeated object reports its own key, not the keys inside it.
    assert errors_of('{"results": [' + result + '],\n "results": []}') == [
        'trivia.json:2:13: results: duplicate key "results"'
    ]
