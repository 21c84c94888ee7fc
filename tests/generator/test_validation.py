"""Each check drops what it should and nothing else."""

from __future__ import annotations

from dataclasses import replace

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
    assert set(CHECKS) >= {"answer-in-quote", "distinct-choices", "stem-without-answer", "length", "grammar", "gender", "main-subject"}


def test_each_flaw_is_caught():
    good = candidate("1998", ("1994", "1996", "1998", "2000"))
    assert failed(replace(good, choices=("1998", "2000"))) == {"enough-choices"}
    assert failed(replace(good, choices=("1998", "1998", "2000"))) == {"distinct-choices"}
    assert failed(replace(good, choices=("1998", "May 1998", "2000"))) == {"distinct-choices"}
    assert failed(replace(good, choices=("1998", "the year after the war", "the spring"))) == {"length"}
    assert "answer-in-quote" in failed(replace(good, draft=replace(good.draft, answer="2001")))
    assert "stem-without-answer" in failed(replace(good, draft=replace(good.draft, prompt="Doe retired from the sport in 1998, or ____.")))
    assert failed(candidate("Doe", ("Doe", "Reed", "Ottawa"))) >= {"main-subject"}


def test_grammar_and_gender_giveaways():
    man = candidate("Tom Reed", ("Tom Reed", "Jane Doe", "Ken Bell"))
    assert "gender" in failed(man)
    place = candidate("Ottawa", ("Ottawa", "boise", "Salem"))
    assert "grammar" in failed(place)
