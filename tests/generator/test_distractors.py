"""Wrong choices of the answer's kind, in order for numbers, with the answer's rank varying."""

from __future__ import annotations

import random
import re

from quiz.generator import distractors, generate_questions
from quiz.generator.distractors import choose, contains_words, distinct
from quiz.generator.facts import analyse
from tests.generator.conftest import ARTICLE_FILES

TEXT = (
    "Jane Doe was born in 1980 in Boise. She won in 1994 and again in 1998. "
    "Ann Roe, a rival skater, said she trained in Ottawa. Tom Reed, her boyfriend, lived in Salem. "
    "Ken Bell coached her in Denver."
)


def fact(article, text):
    return next(item for item in article.facts if item.text == text)


def test_numbers_come_from_the_article_first_and_are_sorted():
    article = analyse(TEXT)
    choices = choose(fact(article, "1980"), article, [], seed=1, fits=lambda text: True)
    assert choices == sorted(choices)
    assert "1980" in choices and {"1994", "1998"} <= set(choices)
    assert len(choices) == 4


def test_the_answers_rank_follows_the_seed():
    article = analyse(TEXT)
    ranks = {choose(fact(article, "1994"), article, [], seed=seed, fits=lambda text: True).index("1994") for seed in range(8)}
    assert ranks == {0, 1, 2, 3}


def test_distinct_refuses_repeats_and_containment():
    assert distinct("March 2015", ["2014"])
    assert not distinct("March 2015", ["2015"])
    assert not distinct("two years", ["Twenty-two years"])
    assert not distinct("Block", ["Ken Block"])


def test_whole_words_are_found_as_the_pattern_finds_them():
    rng = random.Random(11)
    pieces = ["a", "b", " ", "_", "é", "1", "²", "-", ".", "’", "Ⅻ", "\u0301", "ab"]
    for _ in range(20000):
        outer = "".join(rng.choice(pieces) for _ in range(rng.randrange(9)))
        inner = "".join(rng.choice(pieces) for _ in range(rng.randrange(4)))
        expected = re.search(rf"(?<!\w){re.escape(inner)}(?!\w)", outer) is not None
        assert contains_words(outer, inner) == expected, (outer, inner)


def test_what_the_articles_lend_is_indexed_once_for_every_question(monkeypatch):
    """Each question looks its wrong choices up; none reads every fact and name again."""
    indexed: list[int] = []
    index = distractors._Lendable.__init__

    def counted(self, articles):
        indexed.append(len(articles))
        index(self, articles)

    monkeypatch.setattr(distractors._Lendable, "__init__", counted)
    texts = [path.read_text(encoding="utf-8") for path in ARTICLE_FILES[:4]]
    assert len(generate_questions(texts[0], other_texts=texts[1:])) > 10
    assert indexed.count(1) == 1  # the article's own
    assert indexed.count(3) <= 1  # the other three articles', together, when first needed
    assert len(indexed) <= 2


def test_durations_move_to_common_values_and_counts_never_to_one():
    article = analyse("The team began 24-hour monitoring in late November. She won two landmark races this year.")
    hours = choose(fact(article, "24-hour"), article, [], seed=1, fits=lambda text: True)
    assert len(hours) == 4 and not {"23-hour", "25-hour", "26-hour"} & set(hours)
    assert {int(choice.split("-")[0]) for choice in hours} <= {1, 2, 3, 4, 6, 8, 10, 12, 18, 24, 36, 48, 72, 96}
    for seed in range(4):
        counts = choose(fact(article, "two"), article, [], seed=seed, fits=lambda text: True)
        assert "one" not in counts and len(counts) == 4


def test_another_count_is_offered_only_when_it_counts_the_same_things():
    article = analyse(
        "About 40 firefighters from four departments fought the fire. The family's 12 horses were moved. "
        "It was one of 14 barns on the list, and 30 firefighters came back the next day."
    )
    firefighters = choose(fact(article, "40"), article, [], seed=1, fits=lambda text: True)
    assert "30" in firefighters and not {"4", "12", "14"} & set(firefighters)


def test_a_figure_with_decimals_gets_no_made_up_round_figures():
    article = analyse("Pi Mensae c orbits its sun every 6.3 days, and LHS 3844 b every 11 hours, at 26.2 miles a second.")
    for answer in ("6.3 days", "26.2 miles"):
        choices = choose(fact(article, answer), article, [], seed=2, fits=lambda text: True)
        assert len(choices) == 4 and not any(choice.split()[0].endswith(".0") for choice in choices)


def test_a_share_stays_under_a_hundred_percent_and_thousands_get_separators():
    article = analyse("The measure passed with 62% of the vote on Tuesday. The school would hold 600 students from 2025.")
    for seed in range(4):
        shares = choose(fact(article, "62%"), article, [], seed=seed, fits=lambda text: True)
        assert all(float(choice.rstrip("%")) <= 100 for choice in shares)
        students = choose(fact(article, "600"), article, [], seed=seed, fits=lambda text: True)
        assert not any(re.fullmatch(r"\d{4,}", choice) for choice in students)


def test_a_year_or_date_is_offered_only_on_the_answers_side_of_the_others_its_sentence_names():
    article = analyse(
        "The government declared a state of emergency on November 15, 2019, shut down all schools as of "
        "November 17, 2019, and banned gatherings. Parliament banned face veils after the attacks of 2015 "
        "and a bill proposed in 2016."
    )
    for seed in range(4):
        declared = choose(fact(article, "November 15, 2019"), article, [], seed=seed, fits=lambda text: True)
        assert len(declared) == 4 and all(int(choice.split()[1].rstrip(",")) < 17 for choice in declared), declared
        attacks = choose(fact(article, "2015"), article, [], seed=seed, fits=lambda text: True)
        assert len(attacks) == 4 and all(int(choice) < 2016 for choice in attacks), attacks
