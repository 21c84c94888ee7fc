"""Facts of every kind, without overlaps."""

from __future__ import annotations

from quiz.generator.facts import FACT_KINDS, analyse


def test_each_kind_is_found_once_and_spans_point_into_the_text():
    text = (
        "Jane Doe was born in Boise in 1970. She died at the age of 54 on March 3, 2024, two weeks "
        "after her company paid $4.5 billion for a 31.8% stake and three factories 6,000 miles away. "
        "The 27-year-old runner finished in 2:05:06."
    )
    article = analyse(text)
    found = [(fact.kind, fact.text) for fact in article.facts]
    assert ("year", "1970") in found
    assert ("age", "54") in found
    assert ("date", "March 3, 2024") in found
    assert ("year", "2024") not in found  # part of the date
    assert ("duration", "two weeks") in found
    assert ("quantity", "$4.5 billion") in found
    assert ("quantity", "31.8%") in found
    assert ("quantity", "three") in found
    assert ("quantity", "6,000 miles") in found
    assert ("age", "27-year-old") in found
    assert ("quantity", "2:05:06") in found
    assert ("place", "Boise") in found
    for fact in article.facts:
        assert text[fact.start : fact.end] == fact.text
        assert fact.kind in FACT_KINDS
        assert article.sentences[fact.sentence].start <= fact.start < article.sentences[fact.sentence].end
    spans = sorted((fact.start, fact.end) for fact in article.facts)
    assert all(end <= next_start for (_, end), (next_start, _) in zip(spans, spans[1:]))
