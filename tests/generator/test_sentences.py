"""Sentence splitting with offsets."""

from __future__ import annotations

from quiz.generator.sentences import split_sentences


def texts(text: str) -> list[str]:
    return [sentence.text for sentence in split_sentences(text)]


def test_abbreviations_initials_and_decimals_do_not_end_sentences():
    text = (
        "Dr. Smith met John F. Kennedy in the U.S. capital on Nov. 6 at 4.5 p.m. sharp. "
        "Acme Inc. grew 3.5% in Jan. last year. It rained."
    )
    assert texts(text) == [
        "Dr. Smith met John F. Kennedy in the U.S. capital on Nov. 6 at 4.5 p.m. sharp.",
        "Acme Inc. grew 3.5% in Jan. last year.",
        "It rained.",
    ]


def test_closing_quotes_belong_to_the_sentence():
    text = 'She said, "It was therapeutic." Then she left! “Is it over?” he asked. Yes.'
    assert texts(text) == ['She said, "It was therapeutic."', "Then she left!", "“Is it over?” he asked.", "Yes."]


def test_offsets_point_into_the_text_and_lines_end_sentences():
    text = "A Heading\n\nFirst one. Second one\nlist item\n\nNext paragraph."
    sentences = split_sentences(text)
    assert [text[s.start : s.end] for s in sentences] == [s.text for s in sentences]
    assert [s.text for s in sentences] == ["A Heading", "First one.", "Second one", "list item", "Next paragraph."]
    assert [s.paragraph for s in sentences] == [0, 1, 1, 1, 2]
