"""Finding a quote in its article despite typography, and mapping it back to the article's characters."""

from __future__ import annotations

import random
import re

import pytest

from quiz.bank import load_bank
from quiz.quotes import _FOLD, FoldedText, Span, fold

ARTICLE = (
    "She said \u201cIt\u2019s fine\u201d \u2014 twice.\n\n"
    "  Then   she left\u2013right, \u2018quietly\u2019.\tEnd\u00a0here."
)


def found(quote: str, text: str = ARTICLE) -> str | None:
    """The article's own characters matched by ``quote``, or None."""
    span = FoldedText(text).find(quote)
    return None if span is None else text[span.start : span.end]


def test_straight_apostrophe_matches_a_curly_one():
    assert found("It's fine") == "It\u2019s fine"


def test_straight_double_quotes_match_curly_ones():
    assert found('"It\'s fine"') == "\u201cIt\u2019s fine\u201d"


def test_straight_single_quotes_match_curly_ones():
    assert found("'quietly'") == "\u2018quietly\u2019"


def test_hyphen_matches_an_em_dash():
    assert found("fine\" - twice") == "fine\u201d \u2014 twice"


def test_hyphen_matches_an_en_dash():
    assert found("left-right") == "left\u2013right"


def test_curly_quote_in_the_quote_matches_a_straight_one_in_the_article():
    assert found("\u201cok\u201d \u2014 it\u2019s", 'He said "ok" - it\'s done.') == '"ok" - it\'s'


def test_single_space_matches_a_run_of_whitespace_and_newlines():
    assert found("twice. Then she") == "twice.\n\n  Then   she"


def test_newline_in_the_quote_matches_a_space_in_the_article():
    assert found("she\nleft") == "she left"


def test_tab_and_no_break_space_count_as_whitespace():
    assert found("'quietly'. End here.") == "\u2018quietly\u2019.\tEnd\u00a0here."


def test_spaces_around_the_quote_are_ignored():
    assert found("  \n It's fine \n") == "It\u2019s fine"


def test_span_covers_the_exact_original_characters():
    span = FoldedText(ARTICLE).find("fine\" - twice. Then")
    assert span == Span(ARTICLE.index("fine"), ARTICLE.index("Then") + len("Then"))


def test_match_at_the_very_start_and_end_of_the_article():
    assert found("She said") == "She said"
    assert found("End here.") == "End\u00a0here."
    assert FoldedText(ARTICLE).find("End here.").end == len(ARTICLE)


def test_first_occurrence_is_found():
    text = "one two, one two"
    assert FoldedText(text).find("one two") == Span(0, 7)


@pytest.mark.parametrize("quote", ["It's not fine", "twice twice", "shout", "ITS FINE"])
def test_absent_quote_is_none(quote):
    assert FoldedText(ARTICLE).find(quote) is None


@pytest.mark.parametrize("quote", ["", "   ", "\n\t"])
def test_empty_quote_is_none(quote):
    assert FoldedText(ARTICLE).find(quote) is None


def test_longest_prefix_found_says_where_a_quote_goes_wrong():
    assert FoldedText(ARTICLE).longest_prefix_found("It\u2019s fine\u201d \u2014 thrice") == "It's fine\" - t"


def test_fold_normalises_quotes_dashes_and_whitespace():
    assert fold("  \u201cA\u2019b\u201d\u2014c \n\t d  ") == "\"A'b\"-c d"


BANK = """\
version: 1
articles:
  - id: a
    title: A
    text: "Carley\u2019s song \u2014 \u201cMore Than This\u201d \u2014 went viral."
quizzes:
  - id: q
    title: Q
    article: a
questions:
  - id: song
    prompt: Which song?
    choices: [More Than This, Yellow]
    correct: More Than This
    explanation: Her recording of it spread widely online.
    source:
      - Carley's song - "More Than This"
      - went
        viral.
"""


def test_loader_stores_the_articles_own_characters_as_excerpt(write_bank):
    bank = load_bank(write_bank(BANK))
    text = bank.articles[0].text
    first, second = bank.questions[0].quotes
    assert first.excerpt == "Carley\u2019s song \u2014 \u201cMore Than This\u201d"
    assert text[first.span_start : first.span_end] == first.excerpt
    assert (second.excerpt, text[second.span_start : second.span_end]) == ("went viral.", "went viral.")


def test_every_quote_of_random_texts_maps_back_to_the_span_it_matches():
    """The run-based mapping gives what folding character by character would: for any text and
    any stretch of it, the span found covers exactly the original characters of the stretch."""
    rng = random.Random(3)
    alphabet = "ab c\n\t\u00a0\u2009\u2019'`\u2014-\u201c\"\u00ab"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40)))
        folded, origins = _fold_by_character(text)
        assert FoldedText(text).folded == folded
        start = rng.randrange(len(text))
        quote = text[start : rng.randrange(start, len(text)) + 1]
        needle = fold(quote)
        span = FoldedText(text).find(quote)
        if not needle:
            assert span is None
            continue
        at = folded.find(needle)
        assert span == Span(origins[at][0], origins[at + len(needle) - 1][1]), (text, quote)


def _fold_by_character(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The folded text and, for each of its characters, the original span it stands for."""
    folded, origins, index = [], [], 0
    while index < len(text):
        if text[index].isspace():
            end = index
            while end < len(text) and text[end].isspace():
                end += 1
            folded.append(" ")
            origins.append((index, end))
            index = end
        else:
            folded.append(text[index].translate(_FOLD))
            origins.append((index, index + 1))
            index += 1
    return "".join(folded), origins


def test_fold_agrees_with_translating_then_collapsing_whitespace_for_every_character():
    every = "".join(chr(code) for code in range(0x110000) if not 0xD800 <= code <= 0xDFFF)
    assert fold(f"x {every} x") == re.sub(r"\s+", " ", f"x {every} x".translate(_FOLD)).strip()
