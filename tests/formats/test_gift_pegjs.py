"""GIFT exports read by gift-pegjs, a GIFT parser written apart from this app (pinned in
tests/js): each question must come back as it was written, kind by kind.

The parse runs in Node.js (tests/js/parse_gift.mjs). Without node or the package, these tests
fail rather than skip: a suite that passes without reading the exports proves nothing of them.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from quiz.bank import load_bank, parse_bank
from quiz.formats import bank_document, gift
from quiz.formats.outgoing import OutgoingQuestion, outgoing_quizzes

JS = Path(__file__).resolve().parents[1] / "js"
ROOT = JS.parents[1]
INSTALL = "run `npm ci --prefix tests/js` (Node.js and npm needed) to install gift-pegjs"

#: Questions whose texts look like GIFT syntax: weights and format markers at their starts,
#: every character GIFT escapes, line breaks; every kind GIFT carries, two quizzes.
HARD_BANK = r"""version: 1
articles:
  - id: prices
    title: "Prices: {all} ~ = # \\ of them"
    text: "Entry is free. The map costs 5 $. Tea is 2 $, coffee 3 $."
  - id: weather
    title: "[html] <i>Weather</i> // today"
    text: "It was -3.75 °C at noon. The station opened in 1990. Half a millimetre of rain fell."
quizzes:
  - id: prices
    title: "Prices / costs: 100% {free}"
    article: prices
  - id: weather
    title: "[plain] weather"
    article: weather
    settings:
      shuffle_choices: false
questions:
  - id: entry
    quiz: prices
    difficulty: easy
    prompt: "[html] <b>What</b> does entry cost? {~=#:} \\ \\n"
    choices: ["%100% free", "[moodle] five", "[plain] six", "a ~ b = c", "#1 {x}: y\\z", "line one\nline two"]
    correct: "%100% free"
    explanation: "[note] Nothing to pay."
    source: Entry is free.
    tags: [money, entry-fee]
    time_limit: 20
  - id: percent-prompt
    quiz: prices
    prompt: "%50% of what? = the map"
    choices: ["=5 $", "~3 $", "#2 $"]
    correct: "=5 $"
    explanation: "%: a percent sign first; then\nsecond line: ~ = # { } \\"
    source: [The map costs 5 $., "Tea is 2 $, coffee 3 $."]
  - id: drinks
    quiz: prices
    kind: multi
    difficulty: hard
    prompt: "Which cost {less} than 4 $?\nTick every one."
    choices: ["%50% Tea", "[html]<b>Coffee</b>", "Map: 5 $", "Entry = 0 $", "~ # \\"]
    correct: ["%50% Tea", "[html]<b>Coffee</b>", "Entry = 0 $"]
    explanation: "[plain] Tea, coffee and the free entry."
    source: "Tea is 2 $, coffee 3 $."
  - id: two-of-three
    quiz: prices
    kind: multi
    prompt: Which two are drinks?
    choices: [Tea, Coffee, Map]
    correct: [Tea, Coffee]
    explanation: "#2: tea and coffee."
  - id: free
    quiz: prices
    kind: true_false
    prompt: "T"
    correct: true
    explanation: "[html] <b>Yes</b>"
    source: Entry is free.
  - id: not-free
    quiz: prices
    kind: true_false
    prompt: "The map is free {T}: ~ = #"
    correct: false
    explanation: "%0 : it costs 5 $"
  - id: noon
    quiz: weather
    kind: number
    prompt: "How cold was it at noon, in °C? {#-3.75:0.25}"
    answer: -3.75
    tolerance: 0.25
    unit: °C
    explanation: "It was -3.75 °C."
    source: It was -3.75 °C at noon.
  - id: opened
    quiz: weather
    kind: number
    prompt: "In which year did the station open?"
    answer: 1990
    explanation: "1990."
  - id: rain
    quiz: weather
    kind: number
    prompt: "How many millimetres of rain fell?"
    answer: 0.5
    tolerance: 0.125
    explanation: "Half a millimetre."
  - id: rain-word
    quiz: weather
    kind: text
    prompt: "[plain] Half a what of rain fell?"
    accept: ["%50% millimetre", "[html] mm", "milli = metre", "C:\\rain", "x # y {z}", millimeter]
    fuzzy: true
    explanation: "~ Half a millimetre."
  - id: one-answer
    quiz: weather
    kind: text
    prompt: "Name the season: {=winter}"
    accept: [Winter]
    explanation: "=winter"
"""


def gift_pegjs(data: bytes) -> list[dict[str, Any]]:
    """What gift-pegjs reads in a GIFT file: its categories and questions, in order."""
    node = shutil.which("node")
    if node is None:
        pytest.fail(f"node is not on PATH; {INSTALL}")
    installed = JS / "node_modules" / "gift-pegjs" / "package.json"
    if not installed.is_file():
        pytest.fail(f"gift-pegjs is not installed; {INSTALL}")
    pinned = json.loads((JS / "package.json").read_text())["dependencies"]["gift-pegjs"]
    version = json.loads(installed.read_text())["version"]
    if version != pinned:
        pytest.fail(f"gift-pegjs {version} is installed, but tests/js/package.json pins {pinned}; {INSTALL}")
    run = subprocess.run(
        [node, str(JS / "parse_gift.mjs")], input=data, capture_output=True, cwd=JS, timeout=120, check=False
    )
    if run.returncode != 0:
        pytest.fail(f"gift-pegjs cannot parse the export:\n{run.stderr.decode()}\n{data.decode()}")
    return json.loads(run.stdout)


def plain(text: str) -> dict[str, str]:
    return {"format": "plain", "text": text}


def choice_text(text: str) -> dict[str, str]:
    """A choice as written: plain, or as HTML when "->" in it would read as a matching pair."""
    return {"format": "html", "text": html.escape(text, quote=False)} if "->" in text else plain(text)


def assert_read_as_written(document: dict[str, Any]) -> int:
    """Checks what gift-pegjs reads in ``document``'s GIFT export against what was written;
    the number of questions checked."""
    data = gift.write(document)
    items = gift_pegjs(data)
    expected: list[tuple[str, Any]] = []
    for quiz in outgoing_quizzes(document, "gift"):
        if quiz.id is not None:
            name = " ".join((quiz.title or quiz.id).split())
            # A "/" in a category name is written "//"; a single one would start a subcategory.
            expected.append(("Category", f"$course$/top/{name.replace('/', '//')}"))
        expected += [(question.id, (question, quiz.article_title)) for question in quiz.questions]
    found = [("Category" if item["type"] == "Category" else item.get("title"), item) for item in items]
    assert [key for key, _ in found] == [key for key, _ in expected]
    for (key, item), (_, written) in zip(found, expected):
        if key == "Category":
            assert item == {"type": "Category", "title": written}
        else:
            assert_question(item, *written)
    return sum(key != "Category" for key, _ in expected)


def assert_question(item: dict[str, Any], question: OutgoingQuestion, article_title: str | None) -> None:
    where = f"question {question.id}: gift-pegjs read {json.dumps(item, ensure_ascii=False)}"
    # Moodle's id and tags come from the comment line before the question.
    assert (item["id"], item["tags"]) == (question.id, list(question.tags) or None), where
    assert item["stem"] == plain(question.prompt), where
    assert item["hasEmbeddedAnswers"] is False, where
    assert item["globalFeedback"] == plain(gift.general_feedback(question, article_title)), where
    if question.kind == "single":
        assert item["type"] == "MC", where
        assert item["choices"] == [
            {"isCorrect": is_correct, "weight": None, "text": choice_text(text), "feedback": None}
            for text, is_correct in question.choices
        ], where
    elif question.kind == "multi":
        assert item["type"] == "MC", where
        choices = item["choices"]
        assert [(choice["text"], choice["feedback"]) for choice in choices] == [
            (choice_text(text), None) for text, _ in question.choices
        ], where
        # Every answer is "~" with a weight: the right ones share 100 %, the wrong ones -100 %.
        assert [choice["isCorrect"] for choice in choices] == [False] * len(choices), where
        weights = [choice["weight"] for choice in choices]
        assert [weight > 0 for weight in weights] == [is_correct for _, is_correct in question.choices], where
        for right in (True, False):
            share = [weight for weight, (_, is_correct) in zip(weights, question.choices) if is_correct == right]
            assert len(set(share)) == 1, where
            assert sum(share) == pytest.approx(100 if right else -100, abs=0.001), where
    elif question.kind == "true_false":
        assert item["type"] == "TF", where
        assert item["isTrue"] is dict(question.choices)["True"], where
        assert (item["trueFeedback"], item["falseFeedback"]) == (None, None), where
    elif question.kind == "number":
        key = question.answer_key or {}
        assert item["type"] == "Numerical", where
        assert item["choices"] == {"type": "range", "number": key["answer"], "range": key.get("tolerance") or 0}, where
    elif question.kind == "text":
        assert item["type"] == "Short", where
        assert item["choices"] == [
            {"isCorrect": True, "weight": None, "text": plain(text), "feedback": None}
            for text in (question.answer_key or {})["accept"]
        ], where
    else:
        raise AssertionError(f"question {question.id}: GIFT carries no {question.kind} question")


def test_the_small_bank_with_every_kind_is_read_as_written(document):
    assert assert_read_as_written(document) == 4


def test_texts_that_look_like_gift_syntax_are_read_as_written():
    document = bank_document(parse_bank(HARD_BANK.encode(), "bank.yaml", base_dir=None))
    assert assert_read_as_written(document) == 11


def test_the_apps_bank_is_read_as_written():
    document = bank_document(load_bank(ROOT / "questions.yaml"))
    expected = sum(len(quiz.questions) for quiz in outgoing_quizzes(document, "gift"))
    assert expected > 40  # every question but the kinds GIFT cannot carry
    assert assert_read_as_written(document) == expected


def one_quiz(questions: str) -> dict[str, Any]:
    """A bank document of ``questions`` (YAML list items) in a quiz of their own."""
    bank = (
        "version: 1\narticles: [{id: a, title: An article, text: Some text.}]\n"
        "quizzes: [{id: q, title: A quiz, article: a}]\nquestions:\n" + questions
    )
    return bank_document(parse_bank(bank.encode(), "bank.yaml", base_dir=None))


@pytest.mark.parametrize(
    "question",
    [
        "{id: pi, kind: number, prompt: What is pi?, answer: 3.14159, tolerance: 0.00001, explanation: E}",
        "{id: tiny, kind: number, prompt: How much?, answer: -0.00002, explanation: E}",
        "{id: huge, kind: number, prompt: How many?, answer: 1.0e+20, explanation: E}",
    ],
    ids=["small-tolerance", "small-answer", "large-answer"],
)
def test_numbers_of_every_size_are_read_as_written(question):
    # GIFT numbers are decimals: a reader takes the "e" of "1e-05" for the end of the number.
    assert assert_read_as_written(one_quiz(f"  - {question}\n")) == 1


@pytest.mark.parametrize(
    "question",
    [
        '{id: way, prompt: Which way?, choices: ["left -> right", up], correct: "left -> right", explanation: E}',
        '{id: way, kind: multi, prompt: Which way?, choices: ["left -> right", up, down], correct: ["left -> right", up],'
        ' explanation: E}',
    ],
    ids=["single", "multi"],
)
def test_an_arrow_in_a_choice_is_read_as_written(question):
    # "=a -> b" is how a matching question pairs its items: a choice like it is written as HTML.
    assert assert_read_as_written(one_quiz(f"  - {question}\n")) == 1


def test_a_typed_answer_with_an_arrow_is_left_out_of_gift():
    # Answers with "=" and "->" and no "~" make a matching question, in Moodle as in gift-pegjs.
    document = one_quiz(
        '  - {id: way, kind: text, prompt: Which way?, accept: ["left -> right", right], explanation: E}\n'
        '  - {id: up, kind: text, prompt: Which way is the sky?, accept: [up], explanation: E}\n'
    )
    assert [question.id for quiz in outgoing_quizzes(document, "gift") for question in quiz.questions] == ["up"]
    assert b"->" not in gift.write(document)
    assert assert_read_as_written(document) == 1
