"""Wrong choices of the answer's kind, in order for numbers, with the answer's rank varying."""

from __future__ import annotations

from quiz.generator.distractors import choose, distinct
from quiz.generator.facts import analyse

TEXT = (
    "Jane Doe was born in 1980 in Boise. She won in 1994 and again in 1998. "
    "Ann Roe, a rival skater, said she trained in Ottawa. Tom Reed, her boyfriend, lived in Salem. "
    "Ken Bell coached her in Denver."
)


def fact(article, text):
    return next(item for item in article.facts if item.text == text)


def test_numbers_come_from_the_article_first_and_are_sorted():
    article = analyse(TEXT)
    choices = choose(fact(article, "1994"), article, [], seed=1, fits=lambda text: True)
    assert choices == sorted(choices)
    assert "1994" in choices and {"1980", "1998"} <= set(choices)
    assert len(choices) == 4


def test_the_answers_rank_follows_the_seed():
    article = analyse(TEXT)
    ranks = {choose(fact(article, "1994"), article, [], seed=seed, fits=lambda text: True).index("1994") for seed in range(8)}
    assert ranks == {0, 1, 2, 3}


def test_names_are_of_the_same_kind_and_gender_and_other_articles_help():
    article = analyse(TEXT)
    places = choose(fact(article, "Salem"), article, [], seed=0, fits=lambda text: True)
    assert set(places) == {"Salem", "Boise", "Ottawa", "Denver"}
    other = analyse("Mary Poe, a spokeswoman, said so. Lisa Hay, her sister, agreed.")
    women = choose(fact(article, "Ann Roe"), article, [other], seed=0, fits=lambda text: True)
    assert "Ann Roe" in women and "Tom Reed" not in women
    assert set(women) - {"Ann Roe"} <= {"Jane Doe", "Mary Poe", "Lisa Hay"}


def test_distinct_refuses_repeats_and_containment():
    assert distinct("March 2015", ["2014"])
    assert not distinct("March 2015", ["2015"])
    assert not distinct("two years", ["Twenty-two years"])
    assert not distinct("Block", ["Ken Block"])
