"""Each question kind on its own: its bank entry, the order it is shown in, reading and grading
answers, what the player learns, and how a group's answers add up. No database needed."""

from __future__ import annotations

import json

import pytest

from quiz.bank import BankInvalid, parse_bank
from quiz.kinds import KINDS, ChoiceData, Submission
from quiz.kinds.number import format_number, parse_number
from quiz.kinds.text import matches, normalise, within_one_edit
from quiz.refusals import InvalidAnswer
from tests.kinds.conftest import KIND_ORDER, KINDS_BANK

ITEMS = tuple(ChoiceData(position, text, False) for position, text in enumerate(["first", "second", "third", "fourth"]))


def load(text: str):
    return parse_bank(text.encode(), "bank.yaml", base_dir=None)


def errors_of(text: str) -> list[str]:
    with pytest.raises(BankInvalid) as refused:
        load(text)
    return [f"{error.location}: {error.message}" for error in refused.value.errors]


def with_question(entry: str) -> str:
    """The kinds bank with one more question entry (YAML lines, indented as a list item)."""
    return KINDS_BANK + entry


# The bank ----------------------------------------------------------------------------------------


def test_every_kind_loads_with_its_own_fields():
    bank = load(KINDS_BANK)
    assert [question.kind for question in bank.questions] == KIND_ORDER
    by_id = {question.slug: question for question in bank.questions}
    assert [choice.text for choice in by_id["timeline"].choices] == [
        "The rink opens", "The rink is rebuilt", "A second sheet of ice is added"
    ]
    assert by_id["spectators"].answer_key == {"answer": 1200, "tolerance": 50, "unit": "spectators"}
    assert by_id["coach"].answer_key == {"accept": ["Marie Tremblay", "Tremblay"], "fuzzy": True}
    assert [choice.is_correct for choice in by_id["favourite"].choices] == [False, False, False]
    assert by_id["opened"].answer_key is None  # choice kinds keep their fingerprints as before


@pytest.mark.parametrize("entry, message", [
    ('  - {id: x, kind: number, prompt: P, answer: 3, choices: [a, b], explanation: E}\n',
     "questions[6].choices: number questions have no 'choices'"),
    ('  - {id: x, kind: ordering, prompt: P, items: [a, b], correct: a, explanation: E}\n',
     "questions[6].correct: ordering questions have no 'correct'; the items' order under 'items' is the answer"),
    ('  - {id: x, kind: ordering, prompt: P, items: [a, b, A], explanation: E}\n',
     "questions[6].items[2]: duplicate of item 1 ('A')"),
    ('  - {id: x, kind: ordering, prompt: P, explanation: E}\n',
     "questions[6].items: an ordering question lists 2 to 8 items, in the right order"),
    ('  - {id: x, kind: number, prompt: P, answer: "3", explanation: E}\n', "questions[6].answer: must be a number"),
    ('  - {id: x, kind: number, prompt: P, explanation: E}\n',
     "questions[6].answer: a number question needs its answer (answer: 1994)"),
    ('  - {id: x, kind: number, prompt: P, answer: 3, tolerance: -1, explanation: E}\n',
     "questions[6].tolerance: input should be greater than or equal to 0"),
    ('  - {id: x, kind: text, prompt: P, accept: [Saint-Jérôme, saint jerome], explanation: E}\n',
     "questions[6].accept[1]: matches accepted answer 1 already"),
    ('  - {id: x, kind: text, prompt: P, accept: ["?!"], explanation: E}\n',
     "questions[6].accept[0]: an accepted answer needs letters or digits"),
    ('  - {id: x, kind: poll, prompt: P, choices: [a, b], correct: a, explanation: E}\n',
     "questions[6].correct: poll questions have no 'correct'; a poll has no correct choice"),
    ('  - {id: x, kind: single, prompt: P, choices: [a, b], explanation: E}\n',
     "questions[6].correct: a single question needs its correct choice (correct: ...)"),
])
def test_a_field_the_kind_does_not_read_or_lacks_is_refused_at_its_place(entry, message):
    assert message in errors_of(with_question(entry))


def test_entries_round_trip_through_the_kind():
    from quiz.bank.exporter import bank_question_entry

    bank = load(KINDS_BANK)
    entries = {question.slug: bank_question_entry(question) for question in bank.questions}
    assert entries["timeline"]["items"][0] == "The rink opens" and "choices" not in entries["timeline"]
    assert (entries["spectators"]["answer"], entries["spectators"]["tolerance"]) == (1200, 50)
    assert entries["coach"]["fuzzy"] is True
    assert "correct" not in entries["favourite"]
    again = load(KINDS_BANK.split("questions:")[0] + "questions:\n" + "".join(
        "  - " + json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries.values()
    ))
    assert [question.fingerprint() for question in again.questions] == [question.fingerprint() for question in bank.questions]


# Showing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 9))
def test_ordering_items_are_never_shown_in_the_right_order(count):
    items = tuple(ChoiceData(position, f"item {position}", False) for position in range(count))
    for seed in range(200):
        shown = KINDS["ordering"].shown_order(items, seed=seed, question_id=7, shuffle=False)
        assert sorted(choice.position for choice in shown) == list(range(count))
        assert [choice.position for choice in shown] != list(range(count))


def test_the_shown_order_follows_from_the_seed_and_the_flag_alone():
    choices = tuple(ChoiceData(position, f"c{position}", position == 0) for position in range(5))
    single = KINDS["single"]
    first = single.shown_order(choices, seed=11, question_id=3, shuffle=True)
    assert first == single.shown_order(choices, seed=11, question_id=3, shuffle=True)
    assert single.shown_order(choices, seed=11, question_id=3, shuffle=False) == choices
    assert KINDS["true_false"].shown_order(choices[:2], seed=11, question_id=3, shuffle=True) == choices[:2]


# Reading and grading ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed, unit, value", [
    ("1994", None, 1994), ("-3.5", None, -3.5), ("−2", None, -2), ("3,5", None, 3.5), ("1,000,000", None, 1_000_000),
    ("1 000", None, 1000), ("1\u202f200", None, 1200), ("12 km", "km", 12), ("12km", "KM", 12), (".5", None, 0.5),
    ("+7", None, 7),
])
def test_numbers_are_read_as_people_write_them(typed, unit, value):
    assert parse_number(typed, unit) == value


@pytest.mark.parametrize("typed", ["", "abc", "12 km", "1e3", "1.2.3", "nan", "inf", "1994."])
def test_what_is_no_number_is_not_read_as_one(typed):
    assert parse_number(typed) is None


def test_numbers_are_written_as_the_bank_writes_them():
    assert [format_number(value) for value in (1994, 1994.0, 2.5, -0.25)] == ["1994", "1994", "2.5", "-0.25"]


def test_a_number_is_right_within_its_tolerance():
    number = KINDS["number"]
    key = {"answer": 1200, "tolerance": 50, "unit": "spectators"}
    grades = [number.grade((), key, Submission(number=typed)).credit for typed in ("1,250", "1151", "1100", "1200 spectators")]
    assert grades == [1.0, 1.0, 0.0, 1.0]
    assert number.grade((), {"answer": 0.3}, Submission(number=0.1 + 0.2)).is_correct
    with pytest.raises(InvalidAnswer, match="is not a number"):
        number.grade((), key, Submission(number="lots"))
    with pytest.raises(InvalidAnswer, match="finite"):
        number.grade((), key, Submission(number=10**400))


def test_typed_answers_ignore_case_accents_punctuation_and_spacing():
    assert normalise("  Saint-Jérôme! ") == normalise("saint jerome") == "saintjerome"
    key = {"accept": ["Saint-Jérôme"], "fuzzy": False}
    assert matches("SAINT JEROME", key) and not matches("Saint-Jerome-Nord", key)


@pytest.mark.parametrize("typed, right", [
    ("Tremblay", True), ("Trembley", True), ("Tremblayy", True), ("Trmblay", True), ("Termblay", True),
    ("Trembl", False), ("Tramblei", False),
])
def test_fuzzy_forgives_one_typo_in_answers_of_six_letters_or_more(typed, right):
    assert matches(typed, {"accept": ["Tremblay"], "fuzzy": True}) is right


def test_fuzzy_never_applies_to_short_answers():
    assert not matches("Pari", {"accept": ["Paris"], "fuzzy": True})
    assert within_one_edit("paris", "pari") and within_one_edit("ab", "ba") and not within_one_edit("abc", "cab")


def test_an_ordering_earns_the_share_of_items_in_their_right_place():
    ordering = KINDS["ordering"]
    shown = (ITEMS[2], ITEMS[0], ITEMS[3], ITEMS[1])  # as a player sees them, numbered 1 to 4
    right = ordering.grade(shown, None, Submission(order=(2, 4, 1, 3)))
    assert (right.credit, right.is_correct, json.loads(right.response)) == (1.0, True, [0, 1, 2, 3])
    two_swapped = ordering.grade(shown, None, Submission(order=(4, 2, 1, 3)))
    assert (two_swapped.credit, two_swapped.is_correct) == (0.5, False)
    reveal = ordering.reveal(shown, None, 0, two_swapped.response, two_swapped.credit)
    assert [(item.text, item.placed, item.is_correct) for item in reveal.choices] == [
        ("first", 2, False), ("second", 1, False), ("third", 3, True), ("fourth", 4, True)
    ]
    assert (reveal.verdict, reveal.given) == ("partly", "2 of 4 in the right place")
    with pytest.raises(InvalidAnswer):
        ordering.grade(shown, None, Submission(order=(1, 1, 2, 3)))


def test_an_ordering_form_gives_each_item_a_place():
    ordering = KINDS["ordering"]
    form = {"place-1": ["3"], "place-2": ["1"], "place-3": ["2"]}
    assert ordering.read_form(form, ITEMS[:3]).order == (2, 3, 1)
    with pytest.raises(InvalidAnswer, match="different place"):
        ordering.read_form({"place-1": ["1"], "place-2": ["1"], "place-3": ["2"]}, ITEMS[:3])
    with pytest.raises(InvalidAnswer, match="every item a place"):
        ordering.read_form({"place-1": ["1"]}, ITEMS[:3])


def test_choice_kinds_refuse_what_a_radio_button_could_not_send():
    single = KINDS["single"]
    choices = (ChoiceData(0, "a", True), ChoiceData(1, "b", False))
    assert single.read_form({"choice": ["2"]}, choices).choices == (2,)
    for form in ({}, {"choice": [""]}):
        with pytest.raises(InvalidAnswer, match="Choose an answer."):
            single.read_form(form, choices)
    with pytest.raises(InvalidAnswer, match="Choose one of the answers shown."):
        single.read_form({"choice": ["x"]}, choices)
    with pytest.raises(InvalidAnswer, match="Pick exactly one choice."):
        single.grade(choices, None, single.read_form({"choice": ["1", "2"]}, choices))
    with pytest.raises(InvalidAnswer, match="has 2 choices"):
        single.grade(choices, None, Submission(choices=(3,)))


def test_a_poll_is_never_right_or_wrong():
    poll = KINDS["poll"]
    choices = (ChoiceData(0, "a", False), ChoiceData(1, "b", False))
    graded = poll.grade(choices, None, Submission(choices=(2,)))
    assert (graded.selected_mask, graded.credit, graded.is_correct) == (2, None, False)
    assert poll.reveal(choices, None, 2, None, None).verdict == "voted"


# Tallies ----------------------------------------------------------------------------------------


def test_typed_answers_are_grouped_as_matching_groups_them():
    text = KINDS["text"]
    key = {"accept": ["Marie Tremblay"], "fuzzy": False}
    groups = [(0, json.dumps(answer), count) for answer, count in
              [("Marie Tremblay", 3), ("marie tremblay", 1), ("Tremblay", 2), ("Ottawa", 1)]]
    tally = text.tally((), key, groups)
    assert [(row.label, row.count, row.is_correct) for row in tally.rows] == [
        ("Marie Tremblay", 4, True), ("Tremblay", 2, False), ("Ottawa", 1, False)
    ]
    assert tally.total == 7


def test_numbers_given_are_tallied_most_given_first_and_the_rest_counted():
    number = KINDS["number"]
    key = {"answer": 10, "tolerance": 1}
    groups = [(0, json.dumps(value), 1) for value in [10, 10, 11, 12, 3, 4, 5, 6, 7, 8, 9]]
    tally = number.tally((), key, groups)
    assert tally.total == 11 and tally.others == 11 - sum(row.count for row in tally.rows)
    assert tally.rows[[row.label for row in tally.rows].index("10")].count == 2
    assert all(row.is_correct == (abs(float(row.label) - 10) <= 1) for row in tally.rows)


def test_ordering_tallies_how_many_put_each_item_in_its_place():
    ordering = KINDS["ordering"]
    groups = [(0, json.dumps([0, 1, 2, 3]), 2), (0, json.dumps([1, 0, 2, 3]), 1)]
    tally = ordering.tally(ITEMS, None, groups)
    assert [(row.label, row.count) for row in tally.rows] == [("first", 2), ("second", 2), ("third", 3), ("fourth", 3)]
