"""Markdown reduced to the plain text stored as the article, and the title line."""

from __future__ import annotations

from quiz.generator.markdown import plain_text, split_title


def test_markup_is_removed_and_lines_are_kept():
    markdown = (
        "# The *big* day\n\n"
        "Intro with **bold**, _italic_ and a [link](https://example.org) and `code`.\n\n"
        "- first item\n"
        "* second item\n"
        "1. numbered item\n\n"
        "> quoted line\n\n"
        "Sub heading\n"
        "-----------\n\n"
        "![a photo](photo.jpg) snake_case stays, 2 * 3 * 4 stays, \\*escaped\\*.\n"
        "<!-- https://example.org/source -->\n"
    )
    assert plain_text(markdown) == (
        "The big day\n\n"
        "Intro with bold, italic and a link and code.\n\n"
        "first item\nsecond item\nnumbered item\n\n"
        "quoted line\n\n"
        "Sub heading\n\n"
        "a photo snake_case stays, 2 * 3 * 4 stays, *escaped*."
    )


def test_plain_text_passes_through():
    text = "It’s 4.5 km away.\n\nA second paragraph — with a dash."
    assert plain_text(text) == text
    assert plain_text(plain_text(text)) == text


def test_a_short_first_line_without_a_full_stop_is_the_title():
    assert split_title("A Title Here\n\nThe body. More.") == ("A Title Here", "The body. More.")
    assert split_title(plain_text("# Heading\n\nBody.")) == ("Heading", "Body.")


def test_a_first_sentence_is_not_a_title():
    text = "The first line is a sentence.\n\nThe second."
    assert split_title(text) == (None, text)
    assert split_title("No blank line after it\nbody")[0] is None
