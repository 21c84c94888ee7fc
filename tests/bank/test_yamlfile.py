"""Reading a bank file as YAML: refusals that happen before the bank's own rules are checked."""

from __future__ import annotations

import random
import time
from datetime import date, datetime

import pytest

from quiz.bank import BankInvalid, load_bank
from quiz.bank.yamlfile import Document, _fast_document, dump_yaml, dump_yaml_quoted, parse_yaml, plain
from quiz.paths import bundled_bank

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


# The fast reader ------------------------------------------------------------------------------
#
# parse_yaml reads with libyaml's events where it can and steps aside to ruamel.yaml's
# round-trip loader (the reference) otherwise. Whichever reads a file, the values, the
# positions and the errors must be the reference's.


def outcome(text: str, *, fast: bool):
    """What parse_yaml makes of ``text``: ("ok", typed values, positions) or ("error", messages)."""
    try:
        document = parse_yaml(text.encode(), "doc.yaml", max_bytes=1 << 20, fast=fast)
    except BankInvalid as invalid:
        return ("error", [str(error) for error in invalid.errors])
    return ("ok", typed(document.data), positions(document))


def typed(node):
    """``node`` with each scalar paired with its type, since 1 == 1.0 == True in Python."""
    if isinstance(node, dict):
        return {typed(key): typed(value) for key, value in node.items()}
    if isinstance(node, list):
        return [typed(item) for item in node]
    if node is None or isinstance(node, (bool, int, float, str, date)):
        return (type(node).__name__, node)
    return (type(node).__name__, repr(node))  # ruamel's tagged scalars have no equality


def positions(document: Document) -> list:
    """The position of every key and item of the document, as Document.position gives them."""
    found = []

    def walk(node, loc):
        found.append((loc, document.position(loc)))
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*loc, key))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, (*loc, index))

    walk(document.data, ())
    return found


def read_fast(text: str) -> Document | None:
    """The fast reader's document, or None where it steps aside."""
    return _fast_document(text, "doc.yaml")


@pytest.mark.parametrize(
    "written, value",
    [
        ("Yes", "Yes"), ("no", "no"), ("On", "On"), ("010", 10), ("0o17", 15), ("0x1F", 31), ("1_000", 1000),
        ("12:30", "12:30"), ("1:2:3", "1:2:3"), ("~", None), ("null", None), ("NULL", None), ("", None),
        ("1e3", 1000.0), ("1.5", 1.5), ("-.inf", float("-inf")), ("true", True), ("FALSE", False),
        ("2017-05-01", date(2017, 5, 1)), ("'010'", "010"), ('"yes"', "yes"), ("0b101", 5), ("+12", 12),
        ("a:b", "a:b"), ("x#y", "x#y"), ("-x", "-x"), ("it’s", "it’s"),
    ],
)
def test_scalars_resolve_under_yaml_1_2_on_both_readers(written, value):
    text = f"value: {written}\n"
    assert read_fast(text) is not None
    fast, reference = outcome(text, fast=True), outcome(text, fast=False)
    assert fast == reference
    assert fast[1][("str", "value")] == typed(value)


def test_yaml_1_1_directive_is_left_to_the_reference_reader():
    text = "%YAML 1.1\n---\nvalue: yes\n"
    assert read_fast(text) is None
    assert outcome(text, fast=True) == outcome(text, fast=False)


@pytest.mark.parametrize(
    "text",
    [
        "a: !!str 010\n", "a: &x 1\nb: *x\n", "a: &x [1]\n", "a: *x\n", "<<: {b: 1}\n", "a:\n\tb: 1\n",
        "a: 1\na: 2\n", "1: x\n", "null: x\n", "? [a]\n: b\n", "a: 1\n---\nb: 2\n", "\ufeffa: 1\n",
        "a: \"x\u0085y\"\n", "a: x\u2028y\n", "%TAG !e! tag:example.com,2000:\n---\na: 1\n",
        "a: " + "[" * 20 + "]" * 20 + "\n", "a: [b\n", "", "# only a comment\n", "a: \x07\n",
    ],
)
def test_the_fast_reader_steps_aside_for_what_it_does_not_handle(text):
    assert read_fast(text) is None
    assert outcome(text, fast=True) == outcome(text, fast=False)


def test_characters_that_send_a_file_to_the_reference_reader_are_exactly_the_expected_ones():
    # ruamel.yaml refuses the non-printable ones; tabs, NEL, LS, PS and the byte order mark
    # are where YAML 1.1 (libyaml) and 1.2 (ruamel.yaml) could differ.
    from ruamel.yaml.reader import Reader

    from quiz.bank.yamlfile import _ASIDE_CHARACTERS

    expected = [
        code for code in range(0x110000)
        if Reader.NON_PRINTABLE.match(chr(code)) or chr(code) in "\t\x85\u2028\u2029\ufeff"
    ]
    assert [code for code in range(0x110000) if _ASIDE_CHARACTERS.match(chr(code))] == expected


_PLAIN = [
    "plain text", "Yes", "no", "010", "0o17", "12:30", "1e3", "1.5", ".inf", "~", "null", "true", "False",
    "2017-05-01", "0b101", "+12", "a:b", "x#y", "-x", "?x", "Café ’curly’ — dash", "emoji 😀", "1_000",
    "2017-02-30", "0x_", "a # comment", "-", "a: b", "[a", "@at", "`tick", "%pc", "&amp", "*star",
]
# Not "=", "<<" or "!tag": ruamel.yaml leaves half-run generators for those when a later part
# of the document fails, and their errors surface, unraisable, in whichever test runs next.
_QUOTED = [
    "'single'", "'it''s'", '"double \\" \\\\ \\u00e9 \\x41 \\/ \\t \\n end"', '"yes"', "''", '""', '"  spaced  "',
    '"bad \\q escape"', "'unclosed", '"multi\n  line"',
]
_BLOCKS = [
    "|\n{i}line one\n{i}  indented\n\n{i}line three\n", ">-\n{i}folded\n{i}text\n\n{i}paragraph\n",
    "|+\n{i}keep\n\n", ">2\n{i}  two more\n", "|\n{i}trailing   \n",
]


def _random_scalar(rng, indent: str) -> str:
    kind = rng.random()
    if kind < 0.55:
        return rng.choice(_PLAIN)
    if kind < 0.85:
        return rng.choice(_QUOTED)
    return rng.choice(_BLOCKS).format(i=indent + "  ").rstrip("\n")


def _random_flow(rng, depth: int) -> str:
    if depth > 2 or rng.random() < 0.5:
        return rng.choice(["a", "'b c'", '"d"', "1", "true", "~", "x y"])
    if rng.random() < 0.5:
        return "[" + ", ".join(_random_flow(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"
    return "{" + ", ".join(f"k{n}: {_random_flow(rng, depth + 1)}" for n in range(rng.randrange(4))) + "}"


def _random_block(rng, indent: str, depth: int) -> list[str]:
    """Lines of a block mapping or sequence at ``indent``."""
    lines = []
    mapping = rng.random() < 0.6
    keys = rng.sample(["id", "title", "text", "k", "'quoted key'", '"dq"', "long key name", "yes", "x"], rng.randrange(1, 5))
    for key in keys:
        head = f"{indent}{key}:" if mapping else f"{indent}-"
        if rng.random() < 0.1:
            lines.append(f"{indent}# a comment")
        choice = rng.random()
        if depth < 3 and choice < 0.3:
            lines.append(head)
            lines += _random_block(rng, indent + ("  " if mapping or rng.random() < 0.5 else "    "), depth + 1)
        elif choice < 0.45:
            lines.append(f"{head} {_random_flow(rng, 0)}")
        else:
            value = _random_scalar(rng, indent)
            tail = "  # trailing" if rng.random() < 0.1 and "\n" not in value else ""
            lines.append(f"{head} {value}{tail}")
        if not mapping and rng.random() < 0.3 and depth < 3:
            # A mapping as a sequence item, starting on the dash's line.
            inner = _random_block(rng, indent + "  ", depth + 1)
            lines.append(f"{indent}- {inner[0].lstrip()}")
            lines += inner[1:]
    return lines


def _random_document(rng) -> str:
    lines = []
    if rng.random() < 0.2:
        lines += ["# leading comment", ""]
    if rng.random() < 0.2:
        lines.append("---")
    lines += _random_block(rng, "", 0)
    if rng.random() < 0.1:
        lines.append("...")
    newline = "\r\n" if rng.random() < 0.15 else "\n"
    return newline.join(lines) + newline


def test_random_documents_read_the_same_fast_and_by_the_reference():
    """Values, types, positions and errors agree, over documents mixing every style a bank
    may be written in, and mistakes."""
    rng = random.Random(20260501)
    fast_taken = 0
    for _ in range(600):
        text = _random_document(rng)
        fast_taken += read_fast(text) is not None
        assert outcome(text, fast=True) == outcome(text, fast=False), text
    assert fast_taken > 150  # the comparison says something about the fast reader


def test_the_bundled_bank_reads_the_same_fast_and_by_the_reference():
    text = bundled_bank().read_text(encoding="utf-8")
    assert read_fast(text) is not None
    assert outcome(text, fast=True) == outcome(text, fast=False)


def test_a_value_ruamel_cannot_build_is_an_error_at_its_place_not_a_crash(write_bank):
    path = write_bank(VALID.replace("    title: A\n", "    title: A\n    date: 2017-02-30\n"))
    assert errors_of(path) == [f"{path}:5:11: '2017-02-30' is not a valid timestamp: day is out of range for month"]


def test_merge_key_without_an_alias_is_refused_at_the_key(write_bank):
    path = write_bank(VALID.replace("    title: Q\n", "    title: Q\n    <<: {article: a}\n"))
    assert errors_of(path) == [f"{path}:9:5: merge keys (<<) are not allowed"]


# Quick writing for programs ------------------------------------------------------------------

_AWKWARD = [
    "", " ", "  lead and trail  ", "yes", "No", "010", "12:30", "~", "null", "1e3", "true", "2017-05-01",
    "a: b", "- dash", "# hash", "it's", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", "line\r\nbreak",
    "trailing space \nnext", "\x00\x07\x1b", "\x7f\x80\x85\x9f", "\u2028\u2029", "\ufeffbom", "\ufffe\uffff",
    "Café ’curly’ — dash", "emoji 😀", "{braces}", "[brackets]", "&anchor", "*alias", "!tag", "%directive", "@at",
]


def _random_value(rng, depth: int = 0):
    kind = rng.random()
    if depth < 3 and kind < 0.2:
        return {rng.choice(_AWKWARD) + str(n): _random_value(rng, depth + 1) for n in range(rng.randrange(4))}
    if depth < 3 and kind < 0.4:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return rng.choice([*_AWKWARD, None, True, False, 0, -7, 10**20, date(2017, 5, 1), "".join(rng.sample(_AWKWARD, 3))])


def test_quoted_dump_reads_back_identically_through_the_fast_reader():
    rng = random.Random(7)
    for _ in range(300):
        data = {"version": 1, "entries": [_random_value(rng) for _ in range(rng.randrange(1, 5))]}
        text = dump_yaml_quoted(data)
        assert read_fast(text) is not None, text
        assert typed(parse_yaml(text.encode(), "doc.yaml", max_bytes=1 << 20, fast=False).data) == typed(data), text
        assert typed(parse_yaml(text.encode(), "doc.yaml", max_bytes=1 << 20).data) == typed(data), text


def test_quoted_dump_leaves_other_types_to_dump_yaml():
    data = {"when": datetime(2017, 5, 1, 12, 30), "ratio": 0.5}
    assert dump_yaml_quoted(data) == dump_yaml(data)


def test_quoted_dump_of_the_bundled_bank_is_read_as_the_bank(bundled_bank_entries):
    from quiz.bank.loader import parse_bank

    document = plain(parse_yaml(bundled_bank().read_bytes(), "questions.yaml", max_bytes=1 << 20).data)
    document["articles"][0]["text"] = bundled_bank_entries.articles[0].text
    del document["articles"][0]["file"]
    raw = dump_yaml_quoted(document).encode()
    assert parse_bank(raw, "bank", base_dir=None).questions == bundled_bank_entries.questions


@pytest.mark.parametrize("text, line, column, tag", [
    ("version: 1\narticles: !foo [x]\n", 2, 11, "!foo"),
    ("version: 1\narticles:\n  - id: !!str a\n", 3, 9, "!!str"),
    ("--- !doc\nversion: 1\n", 1, 5, "!doc"),
    ("version: !!int 1\n", 1, 10, "!!int"),
])
def test_yaml_tags_are_refused_where_they_are(text, line, column, tag):
    with pytest.raises(BankInvalid) as refused:
        parse_yaml(text.encode(), "bank.yaml", max_bytes=10_000)
    assert [str(error) for error in refused.value.errors] == [
        f"bank.yaml:{line}:{column}: YAML tags such as '{tag}' have no place in a bank file; remove it"
    ]
