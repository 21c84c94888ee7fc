"""Sentence splitting with offsets."""

from __future__ import annotations

from quiz.generator.sentences import quotation_spans, split_sentences


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


def test_a_dateline_is_set_apart_from_the_story():
    text = (
        "ST. LOUIS, April 28 (UPI) -- A calf was born.\n\n"
        "MIDLAND COUNTY, Mich. (WJRT) - A bridge reopened.\n\n"
        "NEW YORK - Geoffrey Mutai won. REGION — Not a dateline mid-line.\n\n"
        "Kenyan runner Geoffrey Mutai won - again.\n\n"
        "Jan. 15--With smoke still drifting, they left.\n\n"
        "(CBS Local) -- A telescope found two planets."
    )
    bodies = [(s.text[: s.body], s.text[s.body :]) for s in split_sentences(text)]
    assert bodies == [
        ("ST. LOUIS, April 28 (UPI) -- ", "A calf was born."),
        ("MIDLAND COUNTY, Mich. (WJRT) - ", "A bridge reopened."),
        ("NEW YORK - ", "Geoffrey Mutai won."),
        ("", "REGION — Not a dateline mid-line."),
        ("", "Kenyan runner Geoffrey Mutai won - again."),
        ("Jan. 15--", "With smoke still drifting, they left."),
        ("(CBS Local) -- ", "A telescope found two planets."),
    ]


def test_quotations_are_found_across_sentences_and_end_with_their_paragraph():
    text = (
        'He said "it was fine. We left." Then “it went on.\n\n'
        "It stopped” here. “Open to the end\n\n"
        "Plain."
    )
    assert [text[start:end] for start, end in quotation_spans(text)] == [
        '"it was fine. We left."',
        "“it went on.",
        "It stopped”",
        "“Open to the end",
    ]


def test_a_sentence_may_start_after_a_clock_time():
    assert texts("The alarm came in at 6:53 p.m. Some 50 firefighters came. They left at 5 p.m. Tuesday after some rest.") == [
        "The alarm came in at 6:53 p.m.", "Some 50 firefighters came.", "They left at 5 p.m. Tuesday after some rest.",
    ]


def test_a_capital_of_any_alphabet_starts_a_sentence():
    text = "The tusk came from the wall. Łukasz Koczocik took it down. Émile ran after him."
    assert [sentence.text for sentence in split_sentences(text)] == [
        "The tusk came from the wall.", "Łukasz Koczocik took it down.", "Émile ran after him."
    ]
