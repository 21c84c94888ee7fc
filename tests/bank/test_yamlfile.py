"""Reading a bank file as YAML: refusals that happen before the bank's own rules are checked."""

from __future__ import annotations

import time

import pytest

from quiz.bank import BankInvalid, load_bank
from quiz.bank.yamlfile import dump_yaml, parse_yaml, plain

#: A complete, valid bank; tests below break it in one place each.
VALID = """\
version: 1
articles:
  - id: a
    title: A
    text: "It’s a fine day."
quizzes:
  - id: q
    title: Q
    article: a
questions:
  - id: one
    prompt: What kind of day?
    choices: [Fine, Grey]
    correct: Fine
    explanation: The article calls it fine.
    source: It's a fine day.
"""


def errors_of(path, **options) -> list[str]:
    with pytest.raises(BankInvalid) as caught:
        load_bank(path, **options)
    return [str(error) for error in caught.value.errors]


def test_valid_bank_loads(write_bank):
    bank = load_bank(write_bank(VALID))
    assert [question.slug for question in bank.questions] == ["one"]


def test_duplicate_key_is_reported_at_the_second_key(write_bank):
    path = write_bank(VALID.replace("    prompt: What kind of day?\n", "    prompt: What kind of day?\n    prompt: Again?\n"))
    assert errors_of(path) == [f'{path}:13:5: duplicate key "prompt"']


def test_duplicate_key_in_nested_mapping_is_reported(write_bank):
    path = write_bank(VALID.replace("    article: a\n", "    article: a\n    settings:\n      time_limit: 20\n      time_limit: 25\n"))
    assert errors_of(path) == [f'{path}:12:7: duplicate key "time_limit"']


def test_anchor_is_refused_at_the_anchor(write_bank):
    path = write_bank(VALID.replace("choices: [Fine, Grey]", "choices: &pair [Fine, Grey]"))
    assert errors_of(path) == [f"{path}:13:14: anchors and aliases (& and *) are not allowed"]


def test_alias_is_refused_at_the_alias(write_bank):
    path = write_bank(VALID.replace("choices: [Fine, Grey]", "choices: *pair"))
    assert errors_of(path) == [f"{path}:13:14: anchors and aliases (& and *) are not allowed"]


def test_merge_key_is_refused(write_bank):
    path = write_bank(VALID.replace("    title: Q\n", "    title: Q\n    <<: *defaults\n"))
    assert errors_of(path) == [f"{path}:9:9: anchors and aliases (& and *) are not allowed"]


def test_billion_laughs_is_refused_quickly_without_expanding(write_bank):
    lines = ["version: 1", 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
    path = write_bank("\n".join(lines) + "\n")
    started = time.perf_counter()
    errors = errors_of(path)
    assert time.perf_counter() - started < 0.5
    assert errors == [f"{path}:2:4: anchors and aliases (& and *) are not allowed"]


def test_file_over_the_size_cap_is_refused_before_parsing(write_bank):
    path = write_bank("version: 1\n" + "# padding\n" * 100)
    assert errors_of(path, max_bytes=1000) == [f"{path}:1:1: file is 1,011 bytes; the limit is 1,000"]


def test_file_exactly_at_the_size_cap_is_accepted(write_bank):
    path = write_bank(VALID)
    bank = load_bank(path, max_bytes=path.stat().st_size)
    assert len(bank.questions) == 1


def test_invalid_utf8_reports_the_position_of_the_bad_byte(tmp_path):
    path = tmp_path / "bank.yaml"
    path.write_bytes(b"version: 1\nquizzes:\n  - id: q\xff\n")
    assert errors_of(path) == [f"{path}:3:10: invalid UTF-8 (byte 0xff)"]


def test_invalid_utf8_column_counts_characters_like_yaml_errors(tmp_path):
    """Columns count characters everywhere else (YAML errors, schema errors), so here too."""
    path = tmp_path / "bank.yaml"
    # "    title: Café " is 16 characters but 17 bytes; the bad byte is the 17th character.
    path.write_bytes("version: 1\nquizzes:\n  - id: q\n    title: Café ".encode() + b"\xc3\x28\n")
    assert errors_of(path) == [f"{path}:4:17: invalid UTF-8 (byte 0xc3)"]


def test_yaml_syntax_error_is_reported_where_the_parser_stopped(write_bank):
    path = write_bank(VALID.replace("choices: [Fine, Grey]", "choices: [Fine, Grey"))
    assert errors_of(path) == [f"{path}:14:12: expected ',' or ']', but got ':'"]


def test_tab_indentation_is_a_syntax_error(write_bank):
    path = write_bank("version: 1\n\tquizzes: []\n")
    assert errors_of(path) == [f"{path}:2:1: found character '\\t' that cannot start any token"]


def test_too_deep_nesting_is_refused(write_bank):
    # The root mapping, the questions list, the question and its tags already nest four deep,
    # so the 30th bracket goes one past the limit.
    path = write_bank(VALID + "    tags: " + "[" * 30 + "]" * 30 + "\n")
    errors = errors_of(path)
    assert len(errors) == 1
    assert errors[0].startswith(f"{path}:17:40: nested more than 32 levels deep")


def test_nesting_just_within_the_depth_limit_reaches_the_schema(write_bank):
    path = write_bank(VALID + "    tags: " + "[" * 29 + "]" * 29 + "\n")
    assert errors_of(path) == [f"{path}:17:12: questions[0].tags[0]: input should be a valid string"]


def test_missing_file_is_reported(tmp_path):
    path = tmp_path / "absent.yaml"
    assert errors_of(path) == [f"{path}:1:1: cannot read file: No such file or directory"]


def test_empty_file_is_refused(write_bank):
    path = write_bank("")
    assert errors_of(path) == [f"{path}:1:1: input should be a valid dictionary or instance of BankSpec"]


def test_dump_yaml_reads_back_identically_with_article_text_as_a_literal_block():
    data = {
        "version": 1,
        "articles": [{"id": "a", "title": "Colon: inside", "text": "First line.\n\n  Indented 'quote' \"too\"\n"}],
        "questions": [{"id": "q", "correct": True, "choices": ["2017", "No", "a: b", "#hash", "yes"], "tags": []}],
        "trailing": "line  \nwith trailing spaces",
    }
    text = dump_yaml(data)
    assert "text: |" in text
    assert plain(parse_yaml(text.encode(), "bank.yaml", max_bytes=1 << 20).data) == data
