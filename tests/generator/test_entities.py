"""Names classified by their endings and context, linked, and given a gender."""

from __future__ import annotations

from quiz.generator.entities import ORGANISATION, PERSON, PLACE, TITLE, describes_someone, find_entities, main_subjects
from quiz.generator.sentences import split_sentences

TEXT = (
    "NEW YORK - Cisco CEO Chuck Robbins met Jane Doe in Dearborn, Michigan. "
    "Doe said she was pleased. Her company, Acme Widgets Inc., moved to Boise. "
    "Later she sang \"Always Smile\" at the Harbor Festival with her boyfriend Tom Reed. "
    "Doe called him. Doe left."
)


def by_name():
    return {entity.name: entity for entity in find_entities(TEXT, split_sentences(TEXT))}


def test_kinds_come_from_endings_roles_and_context():
    entities = by_name()
    assert {name: entity.kind for name, entity in entities.items() if entity.kind} == {
        "Cisco": ORGANISATION,
        "Chuck Robbins": PERSON,
        "Jane Doe": PERSON,
        "Dearborn": PLACE,
        "Michigan": PLACE,
        "Acme Widgets Inc.": ORGANISATION,
        "Boise": PLACE,
        "Always Smile": TITLE,
        "Harbor Festival": ORGANISATION,
        "Tom Reed": PERSON,
    }
    assert "NEW YORK" not in entities and "YORK" not in entities  # a dateline


def test_short_names_are_linked_and_genders_read():
    entities = by_name()
    doe = entities["Jane Doe"]
    assert [mention.text for mention in doe.mentions] == ["Jane Doe", "Doe", "Doe", "Doe"]
    assert doe.display_name == "Doe"
    assert doe.gender == "female"
    assert entities["Tom Reed"].gender == "male"


def test_the_most_mentioned_person_is_a_main_subject():
    assert "Jane Doe" in main_subjects(find_entities(TEXT, split_sentences(TEXT)))


def entities_of(text):
    return {entity.name: entity for entity in find_entities(text, split_sentences(text))}


def test_a_post_and_a_newspaper_are_not_people():
    found = entities_of(
        "“We are excited,” said Adam Ramsey, Reid Park Zoo’s Director of Animal Care. "
        "The calf was born Friday, The St. Louis Post-Dispatch reported. Mary Poe said so."
    )
    assert "Animal Care" not in found
    assert found["Adam Ramsey"].kind == PERSON
    assert found["St. Louis Post-Dispatch"].kind != PERSON
    assert found["Reid Park Zoo"].kind == ORGANISATION


def test_names_in_either_order_and_shared_family_names_are_linked():
    found = entities_of(
        "Dado Firehiwot of Ethiopia crossed the line first in the women's division. "
        "Firehiwot Dado won the title. Dado was happy. "
        "Eleanor Whitfield died on Saturday. Her son, Michael Whitfield, said so. Whitfield was 87."
    )
    dado = found["Dado Firehiwot"]
    assert "Firehiwot Dado" not in found and "Dado" not in found
    assert [mention.text for mention in dado.mentions] == ["Dado Firehiwot", "Firehiwot Dado", "Dado"]
    assert dado.gender == "female"  # "the women's division", with no pronoun at all
    assert [mention.text for mention in found["Eleanor Whitfield"].mentions] == ["Eleanor Whitfield", "Whitfield"]


def test_object_pronouns_do_not_give_a_gender():
    found = entities_of(
        "Eleanor Whitfield died on Saturday at the age of 87 in her home. "
        '"She never played a song the same way twice," said the saxophonist Wayne Carter, who toured with her.'
    )
    assert found["Eleanor Whitfield"].gender == "female"
    assert found["Wayne Carter"].gender is None


def test_a_person_described_but_not_named():
    assert describes_someone("The 30-year-old has established himself as the favorite.")
    assert describes_someone("The 55-year-old entrepreneur with North County ties was riding.")
    assert not describes_someone("The 27-year-old Dado won in an unofficial time.")
    assert not describes_someone("The 2011 Boston Marathon winner crossed the line.")
    assert not describes_someone("The zoo released a statement.")


def test_words_between_titles_belong_to_the_post_and_common_words_name_no_organisation():
    found = entities_of(
        "Carlsberg Chief Executive Jacob Aarup-Andersen said so. Acme Chief Financial Officer Amy Hood agreed. "
        "Fire Chief Dana Brooks said the fire burned for five hours."
    )
    assert {"Carlsberg", "Jacob Aarup-Andersen", "Acme", "Amy Hood", "Dana Brooks"} <= set(found)
    assert not {"Executive Jacob Aarup-Andersen", "Financial", "Fire"} & set(found)


def test_ranks_suffixes_initials_and_designations():
    found = entities_of(
        "Fire Capt. Bob Stoffel said the crews would be back after the Martin Luther King Jr. holiday. "
        "NASA's Transiting Exoplanet Survey Satellite, better known as TESS, was built by Acme Widgets Inc. "
        "The discovery of LHS 3844 b was announced on Thursday by MIT researchers, Stoffel said."
    )
    assert found["Bob Stoffel"].kind == PERSON
    assert "Jr." not in found and "Martin Luther" not in found
    assert "TESS" not in found  # the initials of the satellite's name, folded into it
    assert [mention.text for mention in found["Transiting Exoplanet Survey Satellite"].mentions] == [
        "Transiting Exoplanet Survey Satellite", "TESS",
    ]
    assert found["Transiting Exoplanet Survey Satellite"].kind != ORGANISATION
    assert "LHS" not in found  # a designation


def test_a_post_of_several_words_before_a_name_is_no_part_of_it():
    found = entities_of('"It was terrifying," Assistant U.S. Attorney Laura Perez said in a statement on Tuesday.')
    assert "Laura Perez" in found and not any("Assistant" in name or "Attorney" in name for name in found)


def test_items_of_a_list_are_no_places_and_a_realm_is_no_person():
    found = entities_of(
        "Warner worked on stage for 60 years, appearing in movies including Titanic, Tron, and The Omen. "
        "He later won an Emmy award for his work in Masada, a 1981 miniseries set during the days of the Roman Empire. "
        "Teams from Coconino, Gila and Maricopa counties helped make the save."
    )
    # "Titanic, Tron, and The Omen" is no town and its region; "from Coconino" is a place.
    for name in ("Titanic", "Tron", "Gila"):
        assert name not in found or found[name].kind != PLACE, name
    assert "Roman Empire" not in found or found["Roman Empire"].kind != PERSON


def test_a_name_that_only_speaks_is_no_person_and_a_possessive_is_no_place():
    found = entities_of(
        "Airbus said Wednesday that it had won an order, and Airbus said it was pleased. "
        "John Feren, Chicago-based Boeing's vice president, said so. "
        "It was a key step in Musk’s plan to build a cheap rocket in Florida, Elon Musk said."
    )
    assert found["Airbus"].kind != PERSON
    assert "Chicago-based Boeing" not in found
    assert "Musk" not in found or found["Musk"].kind != PLACE


def test_a_name_with_a_role_after_it_is_a_person():
    text = "Alex Lagakos, deputy director of the Greek Energy Forum, said the project is political. Lagakos said he doubted it."
    entities = {entity.name: entity for entity in find_entities(text, split_sentences(text))}
    assert (entities["Alex Lagakos"].kind, entities["Alex Lagakos"].gender) == (PERSON, "male")


def test_a_role_before_a_name_outweighs_a_family_named_with_the():
    found = entities_of(
        "U.S. heiress Gloria Vanderbilt died on Monday at the age of 95, her son announced. "
        "Vanderbilt was born in 1924 into the Vanderbilt family. Vanderbilt wrote books. Vanderbilt painted."
    )
    assert found["Gloria Vanderbilt"].kind == PERSON
    assert found["Gloria Vanderbilt"].gender == "female"
