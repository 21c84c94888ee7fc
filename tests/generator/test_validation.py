"""Each check drops what it should and nothing else."""

from __future__ import annotations

from dataclasses import replace

from quiz.generator.facts import analyse
from quiz.generator.templates import draft_for
from quiz.generator.validation import CHECKS, Candidate, problems, told_gender

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
    assert set(CHECKS) >= {"answer-in-quote", "distinct-choices", "stem-without-answer", "length", "grammar", "gender", "main-subject"}


def test_each_flaw_is_caught():
    good = candidate("1998", ("1994", "1996", "1998", "2000"))
    assert failed(replace(good, choices=("1998", "2000"))) == {"enough-choices"}
    assert failed(replace(good, choices=("1998", "1998", "2000"))) == {"distinct-choices"}
    assert failed(replace(good, choices=("1998", "May 1998", "2000"))) == {"distinct-choices"}
    assert failed(replace(good, choices=("1998", "the year after the war", "the spring"))) == {"length"}
    assert "answer-in-quote" in failed(replace(good, draft=replace(good.draft, quote="Doe retired from the sport.")))
    assert "stem-without-answer" in failed(replace(good, draft=replace(good.draft, prompt="Doe retired from the sport in 1998, or ____.")))
    assert failed(candidate("Doe", ("Doe", "Reed", "Ottawa"))) >= {"main-subject"}


def test_grammar_and_gender_giveaways():
    man = candidate("Tom Reed", ("Tom Reed", "Jane Doe", "Ken Bell"))
    assert "gender" in failed(man)
    place = candidate("Ottawa", ("Ottawa", "boise", "Salem"))
    assert "grammar" in failed(place)


def candidate_in(text: str, answer_text: str, choices: tuple[str, ...]) -> Candidate:
    article = analyse(text)
    fact = next(item for item in article.facts if item.text == answer_text)
    return Candidate(draft_for(fact, article), choices, article)


def test_a_prompt_that_speaks_of_a_gender_needs_choices_known_to_share_it():
    text = (
        "Mary Keitany said she was ready. Geoffrey Mutai said he was ready. Jane Doe said she was ready. "
        "Kim Lee of Kenya led at the 15-mile mark but Ann Ray of Ethiopia passed her with a mile left."
    )
    # "passed her": the answer's gender is unknown, so the word may mean her or someone else.
    assert "gender" in failed(candidate_in(text, "Kim Lee", ("Kim Lee", "Mary Keitany", "Jane Doe")))
    keitany = candidate_in(text, "Mary Keitany", ("Mary Keitany", "Jane Doe", "Geoffrey Mutai"))
    assert "gender" in failed(keitany)
    assert "gender" not in failed(replace(keitany, choices=("Mary Keitany", "Jane Doe")))


def test_the_prompt_may_not_spell_out_an_acronym_answer():
    good = candidate("1998", ("1994", "1996", "1998", "2000"))
    spelled = replace(good.draft, answer="BTH", prompt="Complete the sentence: we call it our ____ date - Better Than Hubble.")
    assert "stem-without-answer" in failed(replace(good, draft=spelled, choices=("BTH", "NASA", "NPR")))
    initials = replace(good.draft, answer="Better Than Hubble", prompt="Complete the sentence: our BTH date - ____.")
    assert "stem-without-answer" in failed(replace(good, draft=initials, choices=("Better Than Hubble", "Worse Than Ever", "Just As Good")))


def test_choices_of_another_sort_are_refused():
    text = (
        "Cisco Systems agreed to buy Acacia Communications for $4.5 billion in January. "
        "Cisco Systems had filed suit in Delaware Chancery Court to enforce the deal."
    )
    court = candidate_in(text, "Delaware Chancery Court", ("Delaware Chancery Court", "Cisco Systems", "Acacia Communications"))
    assert "sort" in failed(court)


def test_one_is_no_choice_for_a_count_of_things():
    text = "The 30-year-old Mutai won two landmark races in 2019 in New York and Boston."
    assert "grammar" in failed(candidate_in(text, "two", ("one", "two", "three", "four")))


def test_a_role_word_next_to_the_blank_tells_the_answers_gender():
    text = "Tom Reed, a teacher from Boise, went to the awards in 2019 with his wife Jane Doe, who said she was proud."
    draft = candidate_in(text, "Jane Doe", ("Jane Doe",)).draft
    assert told_gender(draft) == "female"  # "his" speaks of Reed; "wife" of the answer


def test_a_role_word_after_the_blank_without_an_article_tells_the_gender():
    text = "Kerri Kupec, spokeswoman for the Department of Justice, criticized the decision in 2019."
    draft = candidate_in(text, "Kerri Kupec", ("Kerri Kupec",)).draft
    assert told_gender(draft) == "female"


def test_a_place_of_no_known_sort_is_not_asked():
    text = "Britvic shares rose in early trading in London. Sales grew in Britain, and Carlsberg is based in Copenhagen."
    assert "sort" in failed(candidate_in(text, "London", ("London", "Britain", "Copenhagen")))
    county = "Ken Block died in Wasatch County, and lived in Los Angeles County and in Orange County for years."
    assert "sort" not in failed(candidate_in(county, "Wasatch County", ("Wasatch County", "Los Angeles County", "Orange County")))
