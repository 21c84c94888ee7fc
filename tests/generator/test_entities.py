"""Names classified by their endings and context, linked, and given a gender."""

from __future__ import annotations

from quiz.generator.entities import ORGANISATION, PERSON, PLACE, TITLE, find_entities, main_subjects
from quiz.generator.sentences import split_sentences

TEXT = (
    "NEW YORK - Cisco CEO Chuck Robbins met Jane Doe in Dearborn, Michigan. "
    "Doe said she was pleased. Her company, Acme Widgets Inc., moved to Boise. "
    "Later she sang \"Always Smile\" at the Harbor Festival with her boyfriend Tom Reed. "
    "Doe called him. Doe left."
)


def by_name():
    return {entity.name: entity for entity in find_entities(TEXT, split_sentences(TEXT))}


def test_kinds_come_from_endings_roles_and_context():
    entities = by_name()
    assert {name: entity.kind for name, entity in entities.items() if entity.kind} == {
        "Cisco": ORGANISATION,
        "Chuck Robbins": PERSON,
        "Jane Doe": PERSON,
        "Dearborn": PLACE,
        "Michigan": PLACE,
        "Acme Widgets Inc.": ORGANISATION,
        "Boise": PLACE,
        "Always Smile": TITLE,
        "Harbor Festival": ORGANISATION,
        "Tom Reed": PERSON,
    }
    assert "NEW YORK" not in entities and "YORK" not in entities  # a dateline


def test_short_names_are_linked_and_genders_read():
    entities = by_name()
    doe = entities["Jane Doe"]
    assert [mention.text for mention in doe.mentions] == ["Jane Doe", "Doe", "Doe", "Doe"]
    assert doe.display_name == "Doe"
    assert doe.gender == "female"
    assert entities["Tom Reed"].gender == "male"


def test_the_most_mentioned_person_is_a_main_subject():
    assert "Jane Doe" in main_subjects(find_entities(TEXT, split_sentences(TEXT)))
