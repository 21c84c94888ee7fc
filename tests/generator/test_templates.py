"""Prompts that stand alone: cloze, wh- questions, and pronouns replaced only when certain."""

from __future__ import annotations

from quiz.generator.facts import analyse
from quiz.generator.templates import BLANK, draft_for


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


def test_wh_templates_for_ages_at_death_and_quotations():
    text = (
        "Jane Doe skated for many years in Canada, where she grew up. She died at the age of 19 on March 31, 2015. "
        '"She was never afraid of anything at all," Ann Roe said in an interview.'
    )
    found = drafts(text)
    assert found["19"].prompt == "According to the article, at what age did Jane Doe die?"
    assert found["Ann Roe"].prompt == "According to the article, who said: “She was never afraid of anything at all”?"
