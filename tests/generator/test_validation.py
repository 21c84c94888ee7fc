"""Each check drops what it should and nothing else."""

from __future__ import annotations

from dataclasses import replace

import pytest

from quiz.generator.facts import analyse
from quiz.generator.templates import draft_for
from quiz.generator.validation import CHECKS, Candidate, problems

TEXT = (
    "Jane Doe skated in Boise as a young girl, and she loved her club. Doe won the title in Boise in 1994. "
    "Doe retired from the sport in 1998. Tom Reed, her boyfriend, coached young skaters in Ottawa."
)


def candidate(answer_text: str, choices: tuple[str, ...]) -> Candidate:
    article = analyse(TEXT)
    fact = next(item for item in article.facts if item.text == answer_text)
    return Candidate(draft_for(fact, article), choices, article)


def failed(item: Candidate) -> set[str]:
    return {problem.split(":")[0] for problem in problems(item)}


def test_a_sound_question_passes_every_check():
    assert failed(candidate("1998", ("1994", "1996", "1998", "2000"))) == set()
    assert set(CHECKS) >= {"answer-in-quote", "distinct-choices", "stem-without-answer", "length", "grammar", "main-subject"}


def test_each_flaw_is_caught():
    good = candidate("1998", ("1994", "1996", "1998", "2000"))
    assert failed(replace(good, choices=("1998", "2000"))) == {"enough-choices"}
    assert failed(replace(good, choices=("1998", "1998", "2000"))) == {"distinct-choices"}
    assert failed(replace(good, choices=("1998", "May 1998", "2000"))) == {"distinct-choices"}
    assert failed(replace(good, choices=("1998", "the year after the war", "the spring"))) == {"length"}
    assert "answer-in-quote" in failed(replace(good, draft=replace(good.draft, quote="Doe retired from the sport.")))
    assert "stem-without-answer" in failed(replace(good, draft=replace(good.draft, prompt="Doe retired from the sport in 1998, or ____.")))
    assert failed(candidate("Doe", ("Doe", "Reed", "Ottawa"))) >= {"main-subject"}


def test_grammar_giveaways():
    place = candidate("Ottawa", ("Ottawa", "boise", "Salem"))
    assert "grammar" in failed(place)


def candidate_in(text: str, answer_text: str, choices: tuple[str, ...]) -> Candidate:
    article = analyse(text)
    fact = next(item for item in article.facts if item.text == answer_text)
    return Candidate(draft_for(fact, article), choices, article)


def test_the_prompt_may_not_spell_out_an_acronym_answer():
    good = candidate("1998", ("1994", "1996", "1998", "2000"))
    spelled = replace(good.draft, answer="BTH", prompt="Complete the sentence: we call it our ____ date - Better Than Hubble.")
    assert "stem-without-answer" in failed(replace(good, draft=spelled, choices=("BTH", "NASA", "NPR")))
    initials = replace(good.draft, answer="Better Than Hubble", prompt="Complete the sentence: our BTH date - ____.")
    assert "stem-without-answer" in failed(replace(good, draft=initials, choices=("Better Than Hubble", "Worse Than Ever", "Just As Good")))


def test_one_is_no_choice_for_a_count_of_things():
    text = "The 30-year-old Mutai won two landmark races in 2019 in New York and Boston."
    assert "grammar" in failed(candidate_in(text, "two", ("one", "two", "three", "four")))


@pytest.mark.parametrize("text, answer", [
    ("Searchers recovered 20 bodies, eleven women and nine men, on the island.", "20"),
    ("Searchers recovered 20 bodies, eleven women and nine men, on the island.", "eleven"),
    ("All 283 passengers and 15 crew aboard, 298 in total, perished over Ukraine.", "283"),
])
def test_a_count_the_others_of_its_sentence_add_up_to_is_given_away(text, answer):
    assert "number-cues" in failed(candidate_in(text, answer, (answer, "12", "30", "41")))


def test_counts_that_add_up_to_nothing_asked_give_nothing_away():
    text = "Searchers recovered 20 bodies, eleven women and seven men, on the island."
    assert "number-cues" not in failed(candidate_in(text, "20", ("20", "12", "30", "41")))


def typed_failures(text: str, answer_text: str) -> set[str]:
    """The checks a name question on the last mention of ``answer_text``, answered by typing, fails."""
    article = analyse(text)
    fact = [item for item in article.facts if item.text == answer_text][-1]
    draft = draft_for(fact, article)
    return {problem.split(":")[0] for problem in problems(Candidate(draft, (draft.answer,), article), typed=True)}


def test_a_typed_name_has_no_choices_to_check():
    assert typed_failures("A fire near Gainesville killed five children in a church bus in 2019.", "Gainesville") == set()


def test_names_that_general_knowledge_tells_are_not_typed():
    for text, name in [
        ("President Trump says he will not approve a budget without a wall on the border with Mexico.", "Mexico"),
        ("UNESCO, a specialized agency of the United Nations, is based in Paris.", "Paris"),
        ("German officials discussed the airline with partners in Europe for months in 2019.", "Europe"),
        ("The day after the vote, President Donald Trump congratulated Nancy Pelosi in Washington.", "Donald Trump"),
    ]:
        assert "name-worth-typing" in typed_failures(text, name), name


def test_a_source_a_part_of_a_name_or_an_adjective_is_not_typed():
    coach = "Tom Reed, a coach from Boise, spoke in 2019. "
    for text, name in [
        (coach + "According to Tom Reed, a storm traversed thirty miles in a day.", "Tom Reed"),
        (coach + "A storm traversed thirty miles in a day, Ann Lee told Tom Reed on a call.", "Tom Reed"),
        (coach + "Team spokesman Tom Reed later denied that the storm had closed the rink for a week.", "Tom Reed"),
        (coach + "Tom Reed, spokesman for the league, later denied that the storm had closed the rink.", "Tom Reed"),
        ("In December, Crown Prince Mohammad bin Salman accepted responsibility for the murder of the journalist.", "Mohammad"),
        ("Many of the cultures in Montana have a concept of family that does not match the idea widespread in Western culture.", "Western"),
    ]:
        assert "name-worth-typing" in typed_failures(text, name), name


def test_a_name_the_prompt_writes_another_way_or_inside_a_quotation_is_not_typed():
    text = (
        "Tom Reed, a coach from Boise, spoke in 2019. Tom Reed and Ann Lee both acknowledged faults with the system, "
        'with Reed describing issues with the signal. "We will find the ship near Jakarta Bay," the navy head told reporters.'
    )
    assert "name-worth-typing" in typed_failures(text, "Tom Reed")
    assert "name-worth-typing" in typed_failures(text, "Jakarta Bay")
    assert "name-worth-typing" not in typed_failures(text.replace("with Reed describing", "with one describing"), "Tom Reed")
