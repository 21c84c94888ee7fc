"""Exporting the bank in play as a bank document that imports back without changing anything."""

from __future__ import annotations

import datetime as dt

from quiz.bank import load_bank, parse_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.bank.yamlfile import dump_yaml, parse_yaml, plain
from quiz.extensions import db

BANK = """\
version: 1
articles:
  - id: sky
    title: The sky
    url: https://example.org/sky
    date: 2017-05-01
    text: "The sky is blue. The grass is green. It’s sunny today. Clouds are white."
  - id: unused
    title: An article no quiz uses
    text: Nothing to see.
quizzes:
  - id: colours
    title: Colours
    description: Name the colours.
    article: sky
    settings:
      questions_per_attempt: 2
      shuffle_choices: false
      time_limit: 20
  - id: weather
    title: Weather
    article: sky
    language: fr-CA
questions:
  - id: sunny
    quiz: weather
    kind: true_false
    prompt: It is sunny today.
    correct: "true"
    explanation: The weather is fair.
    source: It's sunny today.
  - id: sky
    quiz: colours
    difficulty: easy
    prompt: What colour is the sky?
    choices: [Blue, Green]
    correct: [Blue]
    explanation: The article describes a clear sky.
    source: [The sky is blue., "The sky   is blue"]
    tags: [sky, easy-ones]
    time_limit: 15
  - id: white-things
    quiz: colours
    kind: multi
    prompt: Which are white?
    choices: [Clouds, Grass, Snow]
    correct: [Clouds, Snow]
    explanation: Only the clouds are named, but snow is white too.
    source: Clouds are white.
"""


def export_after_import(write_bank, text: str = BANK) -> dict:
    import_bank(db.session, load_bank(write_bank(text)))
    db.session.commit()
    return export_document(db.session)


def test_the_export_is_the_bank_in_file_order_with_each_kind_in_its_own_shape(app_ctx, write_bank):
    assert export_after_import(write_bank) == {
        "version": 1,
        "articles": [
            {
                "id": "sky", "title": "The sky", "url": "https://example.org/sky", "date": dt.date(2017, 5, 1),
                "text": "The sky is blue. The grass is green. It’s sunny today. Clouds are white.",
            },
            {"id": "unused", "title": "An article no quiz uses", "text": "Nothing to see."},
        ],
        "quizzes": [
            {
                "id": "colours", "title": "Colours", "description": "Name the colours.", "article": "sky",
                "settings": {"questions_per_attempt": 2, "shuffle_choices": False, "time_limit": 20},
            },
            {
                # English, the default, is left out; any other language is written.
                "id": "weather", "title": "Weather", "language": "fr-CA", "article": "sky",
                "settings": {"questions_per_attempt": 10, "shuffle_choices": True, "time_limit": 30},
            },
        ],
        # Grouped by quiz, in quiz order, though the file listed "sunny" first.
        "questions": [
            {
                "id": "sky", "quiz": "colours", "kind": "single", "difficulty": "easy",
                "prompt": "What colour is the sky?", "choices": ["Blue", "Green"], "correct": "Blue",
                "explanation": "The article describes a clear sky.",
                # The article's own characters, however the quote was typed.
                "source": ["The sky is blue.", "The sky is blue"],
                "tags": ["sky", "easy-ones"], "time_limit": 15,
            },
            {
                "id": "white-things", "quiz": "colours", "kind": "multi", "difficulty": "medium",
                "prompt": "Which are white?", "choices": ["Clouds", "Grass", "Snow"], "correct": ["Clouds", "Snow"],
                "explanation": "Only the clouds are named, but snow is white too.", "source": ["Clouds are white."],
            },
            {
                "id": "sunny", "quiz": "weather", "kind": "true_false", "difficulty": "medium",
                "prompt": "It is sunny today.", "correct": True, "explanation": "The weather is fair.",
                "source": ["It’s sunny today."],
            },
        ],
    }


def test_the_written_export_reads_back_as_the_same_document(app_ctx, write_bank):
    document = export_after_import(write_bank)
    assert plain(parse_yaml(dump_yaml(document).encode(), "export.yaml", max_bytes=1 << 20).data) == document


def test_importing_the_export_of_the_bundled_bank_changes_nothing(bundled):
    with bundled.app_context():
        written = dump_yaml(export_document(db.session))
        report = import_bank(db.session, parse_bank(written.encode(), "export.yaml", base_dir=None))
        assert report.questions.unchanged and not report.changes_anything
        db.session.commit()
        assert dump_yaml(export_document(db.session)) == written


def test_exporting_twice_gives_identical_bytes(bundled):
    with bundled.app_context():
        first = dump_yaml(export_document(db.session)).encode()
    with bundled.app_context():
        assert dump_yaml(export_document(db.session)).encode() == first


def test_retired_entries_are_left_out(app_ctx, write_bank):
    export_after_import(write_bank)
    only_sky = (
        BANK[: BANK.index("  - id: unused")]
        + "quizzes:\n" + BANK[BANK.index("  - id: colours") : BANK.index("  - id: weather")]
        + "questions:\n" + BANK[BANK.index("  - id: sky\n    quiz") : BANK.index("  - id: white-things")]
    )
    document = export_after_import(write_bank, only_sky)
    assert [article["id"] for article in document["articles"]] == ["sky"]
    assert [quiz["id"] for quiz in document["quizzes"]] == ["colours"]
    assert [question["id"] for question in document["questions"]] == ["sky"]


def test_an_edited_question_is_exported_as_its_current_revision(app_ctx, write_bank):
    export_after_import(write_bank)
    document = export_after_import(write_bank, BANK.replace("What colour is the sky?", "Which colour is the sky?"))
    assert document["questions"][0]["prompt"] == "Which colour is the sky?"


def test_an_empty_database_exports_an_empty_bank_that_loads(app_ctx):
    document = export_document(db.session)
    assert document == {"version": 1, "articles": [], "quizzes": [], "questions": []}
    bank = parse_bank(dump_yaml(document).encode(), "empty.yaml", base_dir=None)
    assert bank.questions == ()
