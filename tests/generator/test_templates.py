"""Prompts that stand alone: cloze, wh- questions, and pronouns replaced only when certain."""

from __future__ import annotations

import pytest

from quiz.generator.facts import analyse
from quiz.generator.templates import BLANK, draft_for, without_outside_references


def drafts(text: str) -> dict[str, object]:
    article = analyse(text)
    return {fact.text: draft_for(fact, article) for fact in article.facts}


def test_cloze_blanks_the_fact_and_resolves_an_unambiguous_pronoun():
    text = "Jane Doe skated for Canada as a child, and she loved it. She moved to Boise in 1990 with her two dogs."
    draft = drafts(text)["1990"]
    assert draft.template == "cloze"
    assert draft.prompt == f"Complete the sentence from the article: Jane Doe moved to Boise in {BLANK} with her two dogs."
    assert draft.quote == "She moved to Boise in 1990 with her two dogs."
    assert draft.explanation == "According to the article, Jane Doe moved to Boise in 1990 with her two dogs."


def test_an_ambiguous_pronoun_or_a_leaning_opener_gives_no_question():
    text = (
        "Jane Doe met Ann Roe at the rink in Ottawa last winter. She moved to Boise in 1990 with two dogs. "
        "It rained for three days in a row after the show."
    )
    found = drafts(text)
    assert found["1990"] is None  # Jane or Ann?
    assert found["three days"] is None  # "It" leans on the sentence before
    here = "Scientists studied frogs in Florida in 2019. Here, researchers evaluated CT scans of 158 different species of frogs."
    assert drafts(here)["158"].prompt.startswith("The article says: “Scientists studied frogs in Florida in 2019.”")


def test_wh_templates_for_ages_at_death_and_quotations():
    text = (
        "Jane Doe skated for many years in Canada, where she grew up. She died at the age of 19 on March 31, 2015. "
        '"She was never afraid of anything at all," Ann Roe said in an interview.'
    )
    found = drafts(text)
    assert found["19"].prompt == "According to the article, at what age did Jane Doe die?"
    assert found["Ann Roe"].prompt == "According to the article, who said: “She was never afraid of anything at all”?"


def test_no_question_from_a_sentence_cut_inside_a_quotation():
    text = (
        "Ken Block died on Monday in Utah, the sheriff said in a statement. "
        "The entrepreneur from Carlsbad “was riding a snowmobile on a steep slope in 2023 when it upended. "
        "He was pronounced deceased at the scene in Wasatch County at 4 p.m.,” according to the statement."
    )
    found = drafts(text)
    assert found["2023"] is None  # the quotation goes on in the next sentence
    assert found["Wasatch County"] is None  # the sentence starts inside it


def test_a_pronoun_inside_a_quotation_is_never_replaced():
    text = (
        "Martha Fischer has looked after the elephants at the zoo since 1990. "
        '"She was born in 2013 and she is a star," Fischer said of the calf on Saturday.'
    )
    draft = drafts(text)["2013"]
    assert draft.prompt == f'Complete the sentence from the article: "She was born in {BLANK} and she is a star," Martha Fischer said of the calf.'
    assert draft.quote.endswith("Fischer said of the calf on Saturday.")


def test_an_explanation_reads_on_after_its_attribution():
    found = drafts(
        "Franky Zapata flew across the Channel on a hoverboard. "
        "Upon arrival in Dover, Franky Zapata said the crossing had taken 22 minutes. "
        "According to CNN, Hurricane Dorian only traversed 30 miles in two days."
    )
    assert found["Franky Zapata"].explanation.startswith("According to the article, upon arrival in Dover, ")
    assert found["22 minutes"].explanation.startswith("According to the article, upon arrival in Dover, ")
    # A sentence that names its source is not attributed twice.
    assert found["30 miles"].explanation == "According to CNN, Hurricane Dorian only traversed 30 miles in two days."


def test_a_person_called_by_the_surname_alone_is_named_in_full():
    text = (
        "Police named the attacker as Usman Khan, a man from Stafford. "
        "Khan had served eight years of a sixteen-year sentence before his release in 2018. "
        "Mr Khan was wearing a fake vest in 2019, police said."
    )
    found = drafts(text)
    assert found["2018"].prompt.endswith(f": Usman Khan had served eight years of a sixteen-year sentence before his release in {BLANK}.")
    assert found["2018"].quote.startswith("Khan had served")
    # A title says who is meant; the name asked for stays a blank.
    assert found["2019"].prompt.endswith(f": Mr Khan was wearing a fake vest in {BLANK}, police said.")
    article = analyse(text)
    asked = draft_for(next(fact for fact in article.facts if fact.text == "Khan"), article)
    assert asked.prompt.endswith(f": {BLANK} had served eight years of a sixteen-year sentence before his release in 2018.")


def test_a_name_of_undecided_kind_called_by_the_surname_alone_is_named_in_full():
    text = "Cream formed with Jack Bruce on bass. In 1968 the band split, Ginger Baker and Bruce having fallen out over 14 months."
    assert drafts(text)["14 months"].prompt.endswith(f": In 1968 the band split, Ginger Baker and Jack Bruce having fallen out over {BLANK}.")


@pytest.mark.parametrize("stem, shown", [
    (f"On Thursday, police said {BLANK} people died.", f"Police said {BLANK} people died."),
    (f"On Thursday local time, the government began a {BLANK} shutdown.", f"The government began a {BLANK} shutdown."),
    (f"Coles limited sales to {BLANK} packs last week.", f"Coles limited sales to {BLANK} packs."),
    (f"As of Wednesday, {BLANK} cases were confirmed.", f"{BLANK} cases were confirmed."),
    (f"Schools have been closed as of Wednesday, and {BLANK} cases were confirmed.",
     f"Schools have been closed, and {BLANK} cases were confirmed."),
    (f"The WHO said Tuesday that {BLANK} people died.", f"The WHO said that {BLANK} people died."),
    (f"Police said on Friday evening that {BLANK} were found, and on Saturday they were moved.",
     f"Police said that {BLANK} were found, and they were moved."),
    # What the day is part of stays: a period, a deadline, a quotation.
    (f"In a {BLANK} period of Monday and Tuesday, the storm moved slowly.", None),
    (f"The ship has been missing since Monday with {BLANK} crew aboard.", None),
    (f'"We met on Tuesday," {BLANK} said.', None),
    (f"Last year was the {BLANK} hottest on record.", None),
    # "also" adds to a sentence the player has not read; "but also" and "also known as" stay.
    (f"Costco's store also limited sales to {BLANK} packs.", f"Costco's store limited sales to {BLANK} packs."),
    (f"On Thursday, police said {BLANK} others were also hurt.", f"Police said {BLANK} others were hurt."),
    (f"Not only the city but also {BLANK} towns were flooded.", None),
    (f"She flew to {BLANK} for the assembly, which took place this week.", None),
    (f"The island, also known as {BLANK}, was evacuated.", None),
    (f'"We also won," {BLANK} said.', None),
])
def test_days_told_from_the_day_the_story_was_filed_are_left_out_of_a_prompt(stem, shown):
    assert without_outside_references(stem) == (shown or stem)


def test_the_explanation_leaves_out_the_days_the_prompt_leaves_out():
    found = drafts("Yesterday morning, English drummer Peter Baker died in a hospital at the age of 80.")
    assert found["80"].prompt.endswith(": English drummer Peter Baker died in a hospital at the age of ____.")
    assert found["80"].explanation == "According to the article, English drummer Peter Baker died in a hospital at the age of 80."
    assert found["80"].quote.startswith("Yesterday morning,")


def test_the_dateline_is_never_asked_nor_quoted():
    text = "ST. LOUIS, April 28 (UPI) -- A 251-pound female baby elephant born at the zoo is healthy, officials said."
    found = drafts(text)
    assert found["April 28"] is None
    assert found["251-pound"].quote == "A 251-pound female baby elephant born at the zoo is healthy, officials said."


def test_a_person_described_but_not_named_is_not_a_prompt_nor_an_antecedent():
    text = (
        "The previous record was 2:07:43, set by Tesfaye Jifar of Ethiopia in 2001. "
        "The 30-year-old has established himself as the favorite after two landmark performances this year. "
        "In April, he ran the fastest 26.2 miles in history in Boston."
    )
    found = drafts(text)
    assert found["two"] is None  # "The ____ has established himself": who?
    assert found["26.2 miles"] is None  # "he" is the 30-year-old, not Jifar


def test_there_meaning_a_place_named_before_leans_on_it():
    found = drafts("The season opens in Boston in April. Rivera finished 12th there in 2023.")
    assert found["2023"] is None
    # The sentence before, which names the place, is shown first.
    found = drafts("Rivera will next run the Chicago Marathon in October. Rivera finished 12th there in 2023.")
    assert found["2023"].prompt == (
        "The article says: “Rivera will next run the Chicago Marathon in October.” "
        f"Complete the sentence that follows: Rivera finished 12th there in {BLANK}."
    )
    assert drafts("There were 6,500 runners in the race on Sunday morning.")["6,500"] is not None


def test_the_election_or_the_study_of_the_sentences_before_leans_on_them():
    assert drafts("Thai parties named their candidates in 2019. The election is scheduled for March 24.")["March 24"] is None
    found = drafts("Thailand will hold a general election in 2019. The election is scheduled for March 24.")
    assert found["March 24"].prompt.startswith("The article says: “Thailand will hold a general election in 2019.”")


def test_the_thing_the_headline_names_leans_on_nothing_the_player_has_not_read():
    text = (
        "Five children in a church van died when a truck crossed a highway near Gainesville, Florida. "
        "The children were all from Marksville, Louisiana, and were on their way to Disney World."
    )
    headlined = analyse(text, headline="Florida highway pileup, fire kills five children")
    marksville = next(fact for fact in headlined.facts if fact.text == "Marksville")
    assert draft_for(marksville, headlined).prompt == (
        f"Complete the sentence from the article: The children were all from {BLANK}, Louisiana, and were on their way "
        "to Disney World."
    )
    assert drafts(text)["Marksville"].prompt.startswith("The article says: “Five children in a church van died")
    # Only the thing itself: "the two explosions" counts what came before, headline or not.
    blasts = (
        "A gas explosion hit an apartment block in Magnitogorsk and a minibus exploded nearby on Monday. "
        "Officials said 39 people died in the explosion at the block. "
        "The FSB denies the two explosions are related."
    )
    counted = analyse(blasts, headline="Apartment block collapses after explosion")
    two = draft_for(next(fact for fact in counted.facts if fact.text == "two"), counted)
    assert two.prompt.startswith("The article says: “Officials said 39 people died in the explosion")
    example = "Pollution from Indiana reaches Ohio every year. For example, 37% of it comes from one plant."
    assert drafts(example)["37%"] is None


def test_a_thing_counted_or_ordered_that_the_sentences_before_introduced_leans_on_them():
    text = (
        "A gas explosion hit an apartment block in Magnitogorsk and a minibus exploded nearby on Monday. "
        "Officials said 39 people died in the explosion at the block. "
        "The FSB denies the two explosions are related."
    )
    assert drafts(text)["two"] is None
    debates = "Two debates were held in Ohio and in Utah. The final debate is scheduled for October 22."
    assert drafts(debates)["October 22"].prompt.startswith("The article says: “Two debates were held")


def test_a_question_is_no_fact_to_ask_nor_a_sentence_to_show_before_one():
    found = drafts(
        "Siegel studied gun ownership in 2019. Given that some key data is from 2004, how well do you think "
        "your results apply today? They apply to 50 states."
    )
    assert found["2004"] is None
    assert found["50"] is None or "apply today?" not in found["50"].prompt


def test_a_time_from_the_filing_day_that_the_prompt_must_keep_leaves_the_sentence_unused():
    found = drafts(
        "The PALM trial began last November and collected data from 499 patients. "
        "The population was 144% greater than last year, with the highest count since 2006. "
        "Phivolcs recorded 611 aftershocks as of Saturday 8:00 p.m. (1200 UTC)."
    )
    assert found["499"] is None and found["144%"] is None and found["611"] is None
    # Left out where it can be: "on Thursday" says nothing the player misses.
    assert drafts("Police arrested 12 people on Thursday.")["12"].prompt.endswith(f"Police arrested {BLANK} people.")


def test_both_and_another_lean_on_the_sentence_before():
    found = drafts("Carlsberg made two offers in June. Both were rejected before the third was accepted on July 8.")
    assert found["July 8"] is None


def test_a_time_is_no_clause_boundary_and_a_list_gives_a_count_away():
    long = (
        "Stoffel said the complex -- which housed the offices of the American Cancer Society, the Solano "
        "County Bar Association, psychologist and real estate offices, among others -- was unoccupied when "
        "the first of five alarms was called in at 6:53 p.m. Some 50 firefighters, including crews from "
        "Vacaville, Dixon, Travis Air Force Base and Suisun, among a dozen, responded to the scene."
    )
    draft = drafts(long)["five"]
    assert draft is None or not draft.quote.endswith("at 6")
    listed = drafts(
        "The 37-year-old Williams appeared in three finals at the five most prestigious tournaments of the "
        "season: the Australian Open, Wimbledon, and here in Singapore."
    )
    assert listed["three"] is None


def test_a_sentence_announcing_a_list_or_naming_no_owner_is_not_a_prompt():
    found = drafts(
        "Shares of Allergan plc jumped 27% on news that AbbVie Inc. would buy it for $63 billion.\n\n"
        "In an announcement, the companies cited the following four reasons for the deal:\n\n"
        "Significant cash flow generation\n\n"
        "However, AbbVie stock is not faring so well. As of this morning, shares were down almost 15% to $66.84."
    )
    assert found["four"] is None
    assert found["15%"] is None and found["$66.84"] is None  # whose shares?


def test_a_count_whose_items_or_next_ordinal_follow_is_not_asked():
    found = drafts(
        "ILFC exercised an option to purchase a total of 10 planes - six 737-800s, two 777-300ERs and two 787 Dreamliners - last year. "
        "Seager’s first two homers were routine, but he got some help on the third one from the wind."
    )
    assert found["10"] is None
    assert found["two"] is None


def test_a_time_the_prompt_leaves_out_leans_on_nothing():
    found = drafts("A deadly boat fire earlier this week near Santa Cruz Island resulted in the death of all 33 passengers.")
    assert found["33"].prompt == (
        f"Complete the sentence from the article: A deadly boat fire near Santa Cruz Island resulted in the death of all {BLANK} passengers."
    )
    assert drafts("A deadly boat fire this week near Santa Cruz Island killed 33 people.")["33"] is not None


def test_former_opening_a_sentence_is_an_adjective():
    found = drafts("Former CIA agent Tony Mendez died on Saturday, aged 78, at a Maryland care home.")
    assert found["78"] is not None
    assert drafts("Tom Reed and Ann Roe ran. The former won in 2003 by a second.")["2003"] is None
