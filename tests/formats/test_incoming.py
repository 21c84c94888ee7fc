"""What every reader shares: ids made from prompts, and checks that speak of the file's own terms."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from quiz.bank import BankError, BankInvalid
from quiz.bank.schema import Identifier
from quiz.formats.incoming import Draft, Place, question_entries, slug_for


@pytest.mark.parametrize(("text", "slug"), [
    ("Who won in 2014?", "who-won-in-2014"),
    ("Qu’est-ce que la « crème brûlée » ?", "qu-est-ce-que-la-creme-brulee"),
    ("???", "question-a03b221c"),
    ("日本の首都は？", "question-833fdbe7"),
    ("a" * 80, "a" * 48),
    ("one two three four five six seven eight nine ten eleven twelve", "one-two-three-four-five-six-seven-eight-nine-ten"),
])
def test_slug_for_makes_a_valid_id(text, slug):
    assert slug_for(text) == slug
    TypeAdapter(Identifier).validate_python(slug)


def test_ids_of_prompts_without_latin_letters_do_not_depend_on_their_order():
    prompts = ["日本の首都は？", "Какая столица России?", "ما هي عاصمة مصر؟"]
    forward = question_entries("f", [draft(prompt, ("a", True), ("b", False)) for prompt in prompts], []).entries
    backward = question_entries("f", [draft(prompt, ("a", True), ("b", False)) for prompt in reversed(prompts)], []).entries
    assert [entry["id"] for entry in forward] == [entry["id"] for entry in reversed(backward)]
    assert len({entry["id"] for entry in forward}) == 3


def draft(prompt: str, *choices: tuple[str, bool], kind: str = "single", line: int = 1) -> Draft:
    return Draft(Place(line, 1, f"question {line}"), kind, prompt, list(choices))


def test_ids_are_unique_even_past_the_length_limit():
    long = "word " * 20
    entries = question_entries("f", [draft(long, ("a", True), ("b", False)) for _ in range(3)], []).entries
    ids = [entry["id"] for entry in entries]
    assert len(set(ids)) == 3
    for identifier in ids:
        TypeAdapter(Identifier).validate_python(identifier)


def test_what_the_bank_refuses_is_left_out_and_said_at_its_place():
    drafts = [
        draft("", ("a", True), ("b", False), line=2),
        draft("Long?", ("x" * 301, True), ("b", False), line=3),
        draft("Fine?", ("a", True), ("b", False), line=4),
        draft("None right?", ("a", False), ("b", False), line=5),
        draft("Two right?", ("a", True), ("b", True), line=6),
    ]
    read = question_entries("f", drafts, [])
    assert [entry["prompt"] for entry in read.entries] == ["Fine?"]
    assert [str(error) for error in read.skipped] == [
        "f:2:1: question 2: the question: string should have at least 1 character",
        "f:3:1: question 3: choice 1: string should have at most 300 characters",
        "f:5:1: question 5: a single question needs exactly one correct choice, not 0",
        "f:6:1: question 6: a single question needs exactly one correct choice, not 2",
    ]
    with pytest.raises(BankInvalid) as refused:
        read.strict()
    assert refused.value.errors == read.skipped


def test_a_broken_file_is_refused_whole_and_a_file_with_nothing_to_keep_too():
    earlier = BankError("f", 1, 1, "question 1", "something the reader saw")
    fine = draft("Fine?", ("a", True), ("b", False), line=2)
    with pytest.raises(BankInvalid) as refused:
        question_entries("f", [fine], [earlier])
    assert [str(error) for error in refused.value.errors] == ["f:1:1: question 1: something the reader saw"]
    essay = BankError("f", 3, 1, "question 2", "an essay cannot be imported")
    with pytest.raises(BankInvalid) as refused:
        question_entries("f", [draft("None right?", ("a", False), ("b", False), line=2)], [], [essay])
    assert [str(error) for error in refused.value.errors] == [
        "f:1:1: no question in the file can be imported",
        "f:2:1: question 2: a single question needs exactly one correct choice, not 0",
        "f:3:1: question 2: an essay cannot be imported",
    ]


def test_a_name_that_is_an_id_already_is_kept():
    named = [
        Draft(Place(1, 1), "single", "Which?", [("a", True), ("b", False)], name=name)
        for name in ("kiss.cry_2", "Kiss Cry", "kiss.cry_2")
    ]
    assert [entry["id"] for entry in question_entries("f", named, []).entries] == ["kiss.cry_2", "kiss-cry", "kiss.cry_2-2"]


def test_entries_follow_the_bank_schema_without_quiz_or_source():
    (entry,) = question_entries("f", [draft("Which?", ("a", False), ("b", True), kind="multi")], []).entries
    assert entry == {
        "id": "which", "kind": "multi", "prompt": "Which?", "choices": ["a", "b"], "correct": ["b"],
        "explanation": "The correct answer is: b",
    }
