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


def test_one_value_written_two_ways_has_one_key():
    article = analyse(
        "It arrives on the 14th of July 2015, and is due by July 14, 2015. A 251-pound calf weighs 251 pounds. "
        "Shares rose 30% on Monday and 30 percent in a year. Dado Firehiwot of Ethiopia won. Firehiwot Dado said so."
    )
    keys: dict[str, object] = {fact.text: fact.value_key for fact in article.facts}
    assert keys["14th of July 2015"] == keys["July 14, 2015"]
    assert keys["251-pound"] == keys["251 pounds"]
    assert keys["30%"] == keys["30 percent"]
    assert keys["Dado Firehiwot"] == keys["Firehiwot Dado"]
    assert keys["251-pound"] != keys["30%"]


def test_the_parts_of_a_running_time_are_not_facts():
    article = analyse("Mutai won in two hours, five minutes and six seconds. Dado won in 2 hours, 23, minutes 15 seconds.")
    assert [fact.text for fact in article.facts if fact.kind in ("duration", "quantity")] == []


def test_a_market_term_is_no_duration():
    article = analyse("Shares rose to $165, against a 52-week low of $114.27 and a 10-year high reached two years ago.")
    assert [fact.text for fact in article.facts if fact.kind == "duration"] == ["two years"]


def test_vague_word_numbers_are_no_facts_and_break_nothing():
    article = analyse("Tsunamis can hit coasts within a hundred kilometers of the epicenter, 62 miles, officials said.")
    assert [fact.text for fact in article.facts if fact.kind == "quantity"] == ["62 miles"]


def test_a_measure_and_its_conversion_are_not_asked():
    article = analyse(
        "Tsunamis can hit coasts within a hundred kilometers (62 miles) of the epicenter. "
        "The quake was 132 miles (212 km) below the seabed and 40 miles from the coast. "
        "Its winds reached 185 mph (~295 km/h) at landfall."
    )
    assert [fact.text for fact in article.facts if fact.kind == "quantity"] == ["40 miles"]


def test_model_numbers_ranges_and_currency_conversions_are_not_asked():
    article = analyse(
        "Boeing will sell Flyington Freighters four 777 freighters this year. "
        "The deal is worth around US$1.2 billion (euro958 million) at list prices, and $5 million more in fees. "
        "Last weekend's (June 8-11) festival drew 65,000 fans, and the next one starts on June 20."
    )
    found = [fact.text for fact in article.facts if fact.kind in ("quantity", "date")]
    assert found == ["$5 million", "65,000", "June 20"]
    assert analyse("It cost US$3 million in 2019.").facts[0].text == "US$3 million"


def test_a_time_of_day_in_four_figures_is_no_year():
    article = analyse("SpaceX launched its first crewed mission at 1922 UTC from Florida in 2020, at 1100 GMT in London.")
    assert [fact.text for fact in article.facts if fact.kind == "year"] == ["2020"]
