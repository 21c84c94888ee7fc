"""The whole pipeline on every measured article: the mechanical parts of the quality rubric."""

from __future__ import annotations

import re

import pytest

from quiz.bank import parse_bank
from quiz.bank.quotes import fold
from quiz.bank.yamlfile import dump_yaml
from quiz.generator import draft_bank, generate_questions, read_article
from quiz.generator.validation import LENGTH_RATIO, LENGTH_SLACK
from tests.generator.conftest import ARTICLE_FILES


def folded(text: str) -> str:
    return fold(text).casefold()


@pytest.fixture(scope="module", params=ARTICLE_FILES, ids=lambda path: path.stem)
def drafted(request):
    _, text = read_article(request.param.read_bytes(), str(request.param))
    others = [read_article(path.read_bytes(), str(path))[1] for path in ARTICLE_FILES if path != request.param]
    return text, generate_questions(text, other_texts=others)


def test_every_question_is_sound(drafted):
    text, questions = drafted
    words = len(text.split())
    assert len(questions) * 1000 / words >= 10  # the yield aimed for
    for question in questions:
        answer, choices, quote = question["correct"], question["choices"], question["source"][0]
        assert folded(answer) in folded(quote), question["id"]
        assert folded(quote) in folded(text)
        assert answer in choices and 3 <= len(choices) <= 4
        keys = [folded(choice) for choice in choices]
        assert len(set(keys)) == len(keys)
        for key in keys:
            assert not any(re.search(rf"(?<!\w){re.escape(key)}(?!\w)", other) for other in keys if other != key)
        assert not re.search(rf"(?<!\w){re.escape(folded(answer))}(?!\w)", folded(question["prompt"])), question["id"]
        others = [len(choice) for choice in choices if choice != answer]
        assert len(answer) <= max(max(others) * LENGTH_RATIO, max(others) + LENGTH_SLACK)
        assert len(answer) >= min(min(others) / LENGTH_RATIO, min(others) - LENGTH_SLACK)
        assert question["tags"][0] == "generated" and question["kind"] == "single"


def test_the_answer_is_not_always_in_one_place(drafted):
    _, questions = drafted
    positions = {question["choices"].index(question["correct"]) for question in questions}
    assert len(positions) >= min(3, len(questions) - 1)


def test_drafts_are_deterministic_and_load_as_a_bank(drafted):
    text, questions = drafted
    document = draft_bank(text, title="A title", article_id="article", quiz_id="quiz")
    assert document["questions"] == [{"id": entry["id"], "quiz": "quiz", **entry} for entry in generate_questions(text)]
    dumped = dump_yaml(document)
    assert dumped == dump_yaml(draft_bank(text, title="A title", article_id="article", quiz_id="quiz"))
    bank = parse_bank(dumped.encode(), "draft.yaml", base_dir=None)
    assert len(bank.questions) == len(document["questions"])
    assert all(quote.excerpt in text for question in bank.questions for quote in question.quotes)


def test_max_questions_keeps_the_best_in_article_order():
    _, text = read_article(ARTICLE_FILES[0].read_bytes(), "article")
    every = generate_questions(text)
    some = generate_questions(text, max_questions=5)
    assert len(some) == 5
    assert [every.index(question) for question in some] == sorted(every.index(question) for question in some)
