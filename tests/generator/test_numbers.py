"""Dates and numbers parsed and written again in the same style."""

from __future__ import annotations

from decimal import Decimal

from quiz.generator.numbers import find_dates, indefinite_article, parse_clock, parse_number


def test_dates_in_every_style_are_found_and_rewritten_alike():
    text = "On March 31, 2015 and in July of 2013, in August 2014, on Nov. 6 and the 14th of July 2015."
    found = {text[start:end]: form for start, end, form in find_dates(text)}
    assert list(found) == ["March 31, 2015", "July of 2013", "August 2014", "Nov. 6", "14th of July 2015"]
    assert all(form.render() == written for written, form in found.items())
    assert found["March 31, 2015"].moved(months=-1) is None  # there is no February 31
    assert found["March 31, 2015"].moved(months=1, days=0) is None
    assert found["July of 2013"].moved(months=6).render() == "January of 2014"
    assert found["Nov. 6"].moved(days=3).render() == "Nov. 9"


def test_numbers_keep_their_words_separators_and_units():
    assert parse_number("two", unit=" years").with_value(Decimal(1)).render() == "one year"
    assert parse_number("6,000", unit=" miles").with_value(Decimal(12000)).render() == "12,000 miles"
    assert parse_number("4.5", prefix="$", scale="billion").with_value(Decimal("6.75")).render() == "$6.8 billion"
    assert parse_number("two").with_value(Decimal(200)) is None
    assert parse_clock("2:05:06").with_value(Decimal(7200 + 83)).render() == "2:01:23"


def test_indefinite_article_reads_numbers_aloud():
    assert [indefinite_article(text) for text in ("8-year-old", "18", "11,000", "110", "one-inch", "hour", "apple", "$80")] == [
        "an", "an", "an", "a", "a", "an", "an", "an",
    ]


def test_a_unit_after_a_scale_stays_plural():
    assert parse_number("3", scale="billion", unit=" pounds").with_value(Decimal(1)).render() == "1 billion pounds"


def test_units_for_one_are_singular_even_when_irregular():
    assert parse_number("2", unit=" feet").with_value(Decimal(1)).render() == "1 foot"
    assert parse_number("8", unit=" inches").with_value(Decimal(1)).render() == "1 inch"
    assert parse_number("two", unit=" days").with_value(Decimal(1)).render() == "one day"
