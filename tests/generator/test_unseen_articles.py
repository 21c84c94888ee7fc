"""What blind grading on unseen articles found wrong with drafts, each now refused or avoided."""

from __future__ import annotations

import pytest

from quiz.generator import draft_bank, drafting, generate_questions, read_article
from quiz.generator.distractors import choose
from quiz.generator.entities import PERSON, PLACE
from quiz.generator.facts import analyse
from quiz.generator.templates import BLANK, draft_for
from quiz.generator.validation import Candidate, problems
from tests.conftest import REPO


def fact(article, text):
    return next(item for item in article.facts if item.text == text)


def failed(text: str, answer: str, choices: tuple[str, ...]) -> set[str]:
    article = analyse(text)
    draft = draft_for(fact(article, answer), article)
    assert draft is not None, "no prompt was drafted"
    return {problem.split(":")[0] for problem in problems(Candidate(draft, choices, article))}


def prompts(text: str, names: bool = True) -> list[str]:
    return [question["prompt"] for question in generate_questions(text, names=names)]


def test_a_blank_inside_a_longer_name_is_refused():
    text = (
        "In April, the House Oversight and Reform Committee authorized subpoenas for the documents. "
        "The Census Bureau and the Justice Department objected in May. The Commerce Department agreed in June."
    )
    assert "inside-a-name" in failed(text, "Reform Committee", ("Reform Committee", "Census Bureau", "Justice Department"))


def test_bounds_ranges_conversions_and_counted_names_are_refused():
    text = (
        "The tanker had over ten crewmembers when it left port in 2018. "
        "Estimates of the damage ranged from 45% to 60% across the islands in 2019. "
        "The epicenter was about eight kilometers (five miles) southwest of the town, officials said. "
        "NASA has selected two astronauts, Doug Hurley and Bob Behnken, for the first crewed mission."
    )
    assert "number-cues" in failed(text, "ten", ("nine", "ten", "eleven", "twelve"))
    assert "number-cues" in failed(text, "60%", ("30%", "40%", "60%", "80%"))
    # A conversion in words spells the figure out: neither is a fact to ask.
    assert not {"eight kilometers", "five miles"} & {fact.text for fact in analyse(text).facts}
    assert "number-cues" in failed(text, "two", ("two", "three", "four", "five"))


def test_a_value_joined_to_the_blank_and_a_count_of_one_are_refused():
    text = (
        "Officials said an estimated two to three hundred vehicles had been damaged or destroyed in the fire. "
        "Woolworths and Coles introduced the limits on March 4 and 5 respectively in 2020. "
        "The government banned face veils for one week after the attacks in 2019. "
        "A one-day strike closed 40 schools in the city in 2019."
    )
    assert "number-cues" in failed(text, "three", ("two", "three", "four", "five"))
    assert "number-cues" in failed(text, "March 4", ("March 1", "March 4", "March 7", "March 9"))
    assert "number-cues" in failed(text, "one week", ("one week", "two weeks", "three weeks", "four weeks"))
    assert "number-cues" not in failed(text, "one-day", ("one-day", "two-day", "three-day", "four-day"))
    trade = "Currently about 16–17 percent of African trade in 2019 occurs between African countries."
    assert "number-cues" in failed(trade, "17 percent", ("14 percent", "15 percent", "17 percent", "60 percent"))


def test_a_date_or_year_with_another_close_by_in_its_sentence_is_refused():
    text = (
        "The government declared a state of emergency on November 15, 2019, and shut down all schools as of "
        "November 17, 2019. Parliament banned face veils after the attacks of 2015 and a bill proposed in 2016. "
        "The old museum of the town opened in 1968 and stayed open until 1973."
    )
    assert "number-cues" in failed(text, "November 15, 2019", ("November 9, 2019", "November 12, 2019", "November 15, 2019"))
    assert "number-cues" in failed(text, "2015", ("2013", "2014", "2015", "2016"))
    assert "number-cues" not in failed(text, "1968", ("1966", "1967", "1968", "1969"))


def test_a_date_of_reporting_and_a_town_then_state_are_refused():
    text = (
        "Coles, in its March 8 media release, reported that many stores were still selling out within an hour. "
        "Doris Day was born in Cincinnati, Ohio, in 1922. The family moved to Texas in 1930."
    )
    assert "reported-when" in failed(text, "March 8", ("March 5", "March 8", "March 11", "March 14"))
    assert "known-to-everyone" in failed(text, "Ohio", ("Ohio", "Texas", "Utah"))


def test_prompts_that_point_back_at_what_the_player_has_not_read_are_not_drafted():
    text = (
        "Five children in a church bus died in the crash near Gainesville in 2019. "
        "The children were all from Marksville, where 5,000 people live. "
        "Cyprus and Egypt signed a deal in 2018 to export the gas through these ports via a new pipeline. "
        "The Avoyelles House of Mercy, a Pentecostal church, had been travelling 700 miles to Orlando."
    )
    drafted = " ".join(prompts(text))
    # "The children" leans on the sentence before, which comes first; "these ports" on nothing shown.
    leaning = [prompt for prompt in prompts(text) if "people live" in prompt]
    assert leaning and all(prompt.startswith("The article says: “Five children in a church bus") for prompt in leaning)
    assert "these ports" not in drafted
    assert "Avoyelles House of Mercy" in drafted  # a "The" that names its noun leans on nothing


@pytest.mark.parametrize("sentence", [
    "A similar volcanic eruption in Alaska in 2008 was linked to more salmon.",
    "The vaccination drive itself started on November 20, 2019.",
    "Lukas Nowak, having thus armed himself, joined the chase in 2019 with 12 others.",
    "However, 40 people were still missing in 2019.",
    "Another suspect, aged 40, was arrested in 2019.",
    "Specifically, 12 counts of abuse were filed in 2019.",
    "In addition, 40 people were still missing in 2019.",
])
def test_a_sentence_that_follows_on_from_an_earlier_one_comes_after_it_or_not_at_all(sentence):
    opening = "Volcanoes erupted on Hawaii in 2018, and the Samoa measles drive ran for two days in 2019. "
    added = [prompt for prompt in prompts(opening + sentence) if prompt not in prompts(opening)]
    assert all(prompt.startswith(f"The article says: “{opening.strip()}” Complete the sentence that follows: ") for prompt in added)


def test_such_as_leans_on_nothing_and_before_a_year_is_a_bound():
    assert prompts("Blue Harbor recorded 29 studio albums with guest singers, such as Les Brown, before 2019.", names=False) == [
        "Complete the sentence from the article: Blue Harbor recorded ____ studio albums with guest singers, such as Les Brown, before 2019."
    ]


def test_a_name_of_undecided_kind_before_a_pronoun_keeps_it_unresolved():
    text = (
        "On Friday in Pakistan, Mohammed Waseem was sentenced by a court in Multan. Mufti Abdul Qawi was acquitted, "
        "and Qawi said he was innocent. Waseem appeared in a news conference after his 2016 arrest, officials said."
    )
    assert not any("Qawi's 2016" in prompt or "Qawi’s" in prompt for prompt in prompts(text))


def test_titles_counts_and_plural_roles_are_no_names_and_countries_are_places():
    article = analyse(
        "Attorney General William Barr spoke in Washington. Four Navy ships searched the sea near Syria. "
        "Unlike Senators, who serve six-year terms, members of the House serve two. Les Brown and His Band played."
    )
    kinds = {entity.name: entity.kind for entity in article.entities}
    assert kinds.get("General") is None and kinds.get("Four Navy") is None and kinds.get("Senators") is None
    assert kinds.get("His Band") is None
    assert kinds["William Barr"] == PERSON and kinds["Syria"] == PLACE


def test_years_stay_within_the_story_and_its_dateline_lends_no_date():
    article = analyse(
        "Friday, January 10, 2020\n\nKimura joined Stardom in 2019 after her debut in 2016. "
        "The ship vanished on December 27 or December 28, industry publications said."
    )
    years = choose(fact(article, "2019"), article, [], seed=3, fits=lambda text: True)
    assert max(int(year) for year in years) <= 2020
    dates = choose(fact(article, "December 27"), article, [], seed=0, fits=lambda text: True)
    assert "January 10" not in dates


def test_a_count_of_the_names_listed_a_figure_the_prompt_repeats_or_a_time_ago_is_refused():
    text = (
        "Singapore, India, and Australia searched the Java Sea in 2018: all three nations offered help. "
        "Egypt has two usable gas terminals in the Nile Delta, in Damietta and Idku. "
        "Police and Fire Services found two bodies in the house in 2019. "
        "In a thirty hour period of Monday and Tuesday, the storm Dorian only traversed thirty miles. "
        "Publications reported that the ship went missing on either December 27 or December 28. "
        "The disease was first recognized about two months ago in Wuhan, China."
    )
    assert "number-cues" in failed(text, "three", ("two", "three", "four", "five"))
    assert "number-cues" in failed(text, "two", ("two", "three", "four", "five"))
    assert "number-cues" in failed(text, "thirty hour", ("ten hour", "twenty hour", "thirty hour"))
    assert "number-cues" in failed(text, "December 28", ("December 25", "December 28", "December 30"))
    assert "number-cues" in failed(text, "two months", ("one month", "two months", "three months"))
    # Two names that are not what is counted ("found two bodies") leave the count alone.
    article = analyse(text)
    bodies = [item for item in article.facts if item.text == "two"][1]
    assert not problems(Candidate(draft_for(bodies, article), ("two", "three", "four", "five"), article))


def test_a_pronoun_is_not_read_as_the_main_person_when_an_undecided_name_is_nearer():
    text = (
        "Kyriakos Mitsotakis, the Greek prime minister, backed the pipeline in 2020. "
        "Mitsotakis said he wanted more countries to join. Mitsotakis spoke in Athens. "
        "The pipeline would carry gas from Israel to Italy. The gas would come from fields off Cyprus. "
        "Ravel Orlan of the Greek Energy Forum doubted that the project made economic sense. "
        "The estimated cost is six billion euros, but competition is likely to keep investors away, he noted."
    )
    assert not any("Mitsotakis noted" in prompt for prompt in prompts(text))
    assert any(prompt.endswith("Mitsotakis, the Greek prime minister, backed the pipeline in ____.") for prompt in prompts(text))


#: People named in full, then by the surname alone.
PEOPLE = (
    "Singer Doris Day died in 2019 at her home in Carmel Valley. Day made 29 studio albums. "
    "Day played singer Ruth Etting in one film, and her son Terry Melcher produced records. "
    "Humane Society director Sara Amundson praised Day's work for animals in a statement. "
    "Amundson led the campaign against research on chimpanzees in the United States."
)


def test_a_person_is_typed_by_full_name_or_by_the_surname_the_article_also_uses():
    asked = next(question for question in generate_questions(PEOPLE) if question["id"] == "person-sara-amundson")
    assert asked["prompt"].endswith(": Humane Society director ____ praised Doris Day's work for animals in a statement.")
    assert (asked["kind"], asked["accept"], asked["fuzzy"]) == ("text", ["Sara Amundson", "Amundson"], True)
    assert "choices" not in asked and "correct" not in asked
    assert asked["explanation"].startswith("According to the article, Humane Society director Sara Amundson praised")


def test_a_surname_is_right_unless_another_person_of_the_article_bears_it():
    accepted = {question["id"]: question["accept"] for question in generate_questions(PEOPLE) if question["kind"] == "text"}
    assert accepted["person-terry-melcher"] == ["Terry Melcher", "Melcher"]
    shared = "Tom Reed, a coach from Boise, spoke in 2019. Ann Reed, his sister, watched the team with Tom Reed on Monday in Salem."
    accepted = {question["id"]: question["accept"] for question in generate_questions(shared) if question["kind"] == "text"}
    assert accepted["person-ann-reed"] == ["Ann Reed"]


def test_names_are_asked_unless_left_out():
    numeric = {"date", "year", "quantity", "duration", "age"}
    assert PERSON in {question["tags"][1] for question in generate_questions(PEOPLE)}
    assert {question["tags"][1] for question in generate_questions(PEOPLE, names=False)} <= numeric


def test_who_said_something_is_not_asked():
    text = (
        "Humane Society director Sara Amundson praised the work of Doris Day in 2019, as did Terry Melcher. "
        "Amundson said the foundation changed federal law, and Ruth Etting agreed with her."
    )
    assert not any(prompt.endswith(": ____ said the foundation changed federal law, and Ruth Etting agreed with her.") for prompt in prompts(text))
    article = analyse(text)
    spoke = [item for item in article.facts if item.text == "Amundson"][0]
    assert "speaker" in {problem.split(":")[0] for problem in problems(Candidate(draft_for(spoke, article), ("Sara Amundson", "Terry Melcher", "Ruth Etting"), article))}


def test_an_amount_in_us_dollars_is_asked_beside_the_word_us():
    text = "NASA pays the US government roughly US$80 million per astronaut in 2019, officials said."
    asked = next(question for question in generate_questions(text) if question.get("correct") == "US$80 million")
    assert len(asked["choices"]) == 4 and all(choice.startswith("US$") for choice in asked["choices"])


def test_the_sentence_before_is_shown_only_when_it_is_what_the_prompt_leans_on():
    # "Its" is the hurricane the sentence before names: that sentence comes first.
    text = (
        "Dorian made its initial landfall as a Category 5 hurricane in the Abaco Islands. "
        "Its wind speeds reached 185 mph, tied for the strongest winds at landfall on record."
    )
    assert prompts(text)[-1] == (
        "The article says: “Dorian made its initial landfall as a Category 5 hurricane in the Abaco Islands.” "
        "Complete the sentence that follows: Its wind speeds reached ____ mph, tied for the strongest winds at landfall on record."
    )
    unhelpful = [
        # Nothing in common: the sentence before is not the one leant on.
        "Green algae form the basis of the food chain in the ocean. A similar eruption in Alaska in 2008 helped the salmon.",
        # "that day" stays undated, and a sentence before that leans itself explains nothing.
        "Kathimerini said Greece and Cyprus had to speed up in 2019. Earlier that day, Energean sold two billion cubic meters of gas.",
        "Under the law, that number drops to six in 2019. The fine for breaking this rule of the law was set at US$500.",
    ]
    for text in unhelpful:
        assert not any(prompt.startswith("The article says:") for prompt in prompts(text)), text


def test_a_country_whose_people_the_prompt_names_is_not_asked():
    text = "The cargo ship Namse Bangdzod is owned and operated by Indonesian companies and registered in Indonesia since 2018."
    assert "known-to-everyone" in failed(text, "Indonesia", ("Indonesia", "Malaysia", "Singapore"))
    assert "known-to-everyone" not in failed(text.replace("Indonesian", "local"), "Indonesia", ("Indonesia", "Malaysia", "Singapore"))


def test_a_place_is_right_without_the_word_ending_its_name_but_not_as_that_word_alone():
    text = (
        "Over 2,000 residents near Mount Apo in Kidapawan City have been moved since 2019. "
        "The nearest settlement to the base is Rachel in Lincoln County. County sheriff Kerry Lee spoke on Friday."
    )
    accepted = {question["id"]: question["accept"] for question in generate_questions(text) if question["kind"] == "text"}
    assert accepted["place-kidapawan-city"] == ["Kidapawan City", "Kidapawan"]
    assert accepted["place-lincoln-county"] == ["Lincoln County", "Lincoln"]


def test_a_place_whose_ending_is_part_of_its_name_needs_it():
    _, text = read_article((REPO / "bench" / "articles" / "dev" / "actor-doris-day-dies-at-97.txt").read_bytes(), "day")
    accepted = {question["id"]: question["accept"] for question in generate_questions(text) if question["kind"] == "text"}
    assert accepted["place-carmel-valley"] == ["Carmel Valley"]  # Carmel is another town


def test_a_word_ending_place_names_a_journal_and_a_department_are_no_places():
    found = {
        entity.name: entity.kind
        for entity in analyse(
            "State media reported the recorder was found in 2019. In findings published on Thursday in PLoS "
            "Computational Biology, scientists reported wing-flapping. Last April, the United States Department of "
            "State designated the group."
        ).entities
    }
    assert found.get("State") is None
    assert found["PLoS Computational Biology"] != PLACE
    assert found["United States Department of State"] != PLACE


def test_a_conversion_after_a_tilde_and_a_number_inside_a_name_are_not_asked():
    text = "A search with three helicopters covered 160 square miles (~415 km2) in 2019 and found nothing."
    assert "number-cues" in failed(text, "160", ("120", "160", "200"))
    named = analyse(
        "The EU law Electronic Commerce Directive 2000 protects hosting sites. Hungary launched Zrínyi 2026 in 2017. "
        "Thousands said they would storm Area 51 in 2019. Area 51 has for decades drawn 300 visitors a year."
    )
    assert [item.text for item in named.facts if item.kind in ("year", "quantity")] == ["2017", "2019", "300"]


def test_the_year_of_an_election_a_games_or_a_yearly_event_and_a_year_inside_a_code_are_not_asked():
    text = "Groups claimed the 2020 U.S. presidential election was stolen, and athletes trained for the 2021 Summer Olympics."
    assert "known-to-everyone" in failed(text, "2020", ("2017", "2018", "2019", "2020"))
    assert "known-to-everyone" in failed(text, "2021", ("2019", "2020", "2021", "2022"))
    assert "known-to-everyone" not in failed("The bridge opened in 2020 after a long delay.", "2020", ("2017", "2018", "2019", "2020"))
    marathon = "Brigid Kosgei of Kenya won the 2019 Chicago Marathon and broke the world record set in 2003."
    assert "known-to-everyone" in failed(marathon, "2019", ("2016", "2017", "2018", "2019"))
    assert [item.text for item in analyse("The virus, called 2019-nCoV, spread in 2020.").facts if item.kind == "year"] == ["2020"]


def test_the_other_end_of_a_change_and_more_than_half_tell_the_choices():
    toll = "Aftershocks in 2019 have increased the death toll of the event from five people to six after a landslide."
    assert "number-cues" in failed(toll, "five", ("five", "seven", "eight", "nine"))
    nevada = "Nevada became the first state in 2019 in which more than half of the officials were women, at 50.8 percent."
    assert "number-cues" in failed(nevada, "50.8 percent", ("32.5 percent", "36.6 percent", "42.2 percent", "50.8 percent"))
    fans = "The club drew 65,000 fans from 12 countries in 2019, a record for the ground."
    assert "number-cues" not in failed(fans, "65,000", ("45,000", "55,000", "65,000", "75,000"))


def test_a_year_of_birth_is_not_asked_beside_an_age():
    aged = (
        "Heiress Gloria Vanderbilt died at her home in New York City on Monday at the age of 95. "
        "Gloria Vanderbilt was born in 1924 into the wealthy Vanderbilt family of railroad owners."
    )
    assert "birth-year" in failed(aged, "1924", ("1923", "1924", "1925", "1926"))
    unaged = "Gloria Vanderbilt was born in 1924 into the wealthy Vanderbilt family of railroad owners."
    assert "birth-year" not in failed(unaged, "1924", ("1923", "1924", "1925", "1926"))
    bridge = (
        "Heiress Gloria Vanderbilt died at her home in New York City on Monday at the age of 95. "
        "The bridge her family paid for opened in 1924 after a decade of work by the railroad owners."
    )
    assert "birth-year" not in failed(bridge, "1924", ("1923", "1924", "1925", "1926"))


def test_a_year_of_birth_is_not_asked_when_the_headline_gives_an_age():
    text = (
        "US singer Doris Day died on Monday at her home in Carmel Valley, California. "
        "Doris Day was born Doris Mary Ann Kappelhoff in Cincinnati, Ohio in 1922. "
        "She made her last movie in 1968 and hosted The Doris Day Show on television until 1973."
    )

    def asked(title: str) -> set[str]:
        return {
            question["correct"] for question in draft_bank(text, title=title, article_id="day", quiz_id="day")["questions"]
            if "correct" in question
        }

    assert "1922" in asked("Actor Doris Day remembered")
    assert "1922" not in asked("Actor Doris Day dies at 97")
    assert "1968" in asked("Actor Doris Day dies at 97")


def test_no_wrong_choice_is_part_of_another_answer():
    text = (
        "Pranab Mukherjee was born on December 11, 1935, in Mirati, a village of West Bengal. "
        "Pranab Mukherjee was hospitalized on August 10 after a reported fall at home."
    )
    article = analyse(text)
    draft = draft_for(fact(article, "August 10"), article)
    avoid = frozenset({"december 11, 1935"})
    fits = drafting._fits(draft, avoid, frozenset(drafting._word_spans("december 11, 1935")))
    assert not fits("December 11")
    assert fits("August 13")


def test_an_age_or_a_span_joined_to_its_unit_is_typed():
    # As choices, "15-", "16-", "17-" and "19-year-old" gave the odd one away by its form.
    text = (
        "Harry Dunn, a 19-year-old motorcyclist, was struck by a car driving on the wrong side of the road in 2019. "
        "The two officers each received seven-year prison terms after the trial in Paris in 2019."
    )
    by_answer = {question.get("answer"): question for question in generate_questions(text)}
    assert by_answer[19]["prompt"].endswith(f"Harry Dunn, a {BLANK}-year-old motorcyclist, was struck by a car driving on the wrong side of the road in 2019.")
    assert (by_answer[19]["kind"], by_answer[19]["unit"]) == ("number", "years")
    assert f"{BLANK}-year prison terms" in by_answer[7]["prompt"] and by_answer[7]["unit"] == "years"


def test_a_quakes_magnitude_and_an_age_after_age_are_asked_typed():
    # Facts a teacher lists first for such stories, which the generator did not find.
    text = (
        "On Wednesday morning, a magnitude 5.2 earthquake hit the already rattled island of Puerto Rico in 2020. "
        "The island has had dozens of earthquakes over magnitude 4.5 since late December, officials said in 2020. "
        "Emily Spanton, 39, met two officers at an Irish pub in Paris in 2014. "
        "Wrestler Hana Kimura, age 22, has died in Tokyo, the wrestling promotion said on Saturday."
    )
    found = {item.text: item.kind for item in analyse(text).facts}
    assert found["5.2"] == "quantity" and "4.5" not in found
    # An age set beside a name ("Emily Spanton, 39,") is left alone: graded blind, those asked
    # were side facts (round 37).
    assert found["22"] == "age" and "39" not in found
    by_answer = {question.get("answer"): question for question in generate_questions(text)}
    assert by_answer[5.2]["kind"] == "number" and f"A magnitude {BLANK} earthquake hit" in by_answer[5.2]["prompt"]
    assert f"Hana Kimura, age {BLANK}, has died" in by_answer[22]["prompt"]


def test_a_storms_category_and_a_count_opening_a_sentence_are_asked():
    text = (
        "Hurricane Dorian made its initial landfall as a Category 5 hurricane in the Abaco Islands in 2019. "
        "Four Navy ships assisted by aircraft are searching for the missing cargo ship near Jakarta."
    )
    found = {item.text: item.kind for item in analyse(text).facts}
    assert found["5"] == found["Four"] == "quantity"
    by_answer = {question.get("answer"): question for question in generate_questions(text)}
    assert f"as a Category {BLANK} hurricane" in by_answer[5]["prompt"]
    assert f"article: {BLANK} Navy ships assisted by aircraft" in by_answer[4]["prompt"]
