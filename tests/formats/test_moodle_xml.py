"""Moodle XML: the elements, attributes and fractions Moodle's question importer reads."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from defusedxml.ElementTree import fromstring

from quiz.formats import moodle_xml
from quiz.formats.outgoing import OutgoingQuestion


@pytest.fixture
def root(document) -> ET.Element:
    data = moodle_xml.write(document)
    assert data.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    return fromstring(data)


def question(root: ET.Element, name: str) -> ET.Element:
    (found,) = [element for element in root.iter("question") if element.findtext("name/text") == name]
    return found


def answers(element: ET.Element) -> list[tuple[str, float]]:
    return [(answer.findtext("text"), float(answer.get("fraction"))) for answer in element.findall("answer")]


def test_a_category_comes_before_the_quizs_questions(root):
    questions = root.findall("question")
    assert [element.get("type") for element in questions] == [
        "category", "multichoice", "multichoice", "truefalse", "truefalse",
    ]
    assert questions[0].findtext("category/text") == "$course$/top/Colours // weather"


def test_a_single_answer_question(root):
    element = question(root, "sky")
    assert element.get("type") == "multichoice"
    text = element.find("questiontext")
    assert text.get("format") == "html"
    # The prompt is escaped HTML: its own tags show as text, they do not become markup.
    assert text.findtext("text") == "<p>What colour is the sky? {a: b} ~ = # \\ &lt;b&gt;bold&lt;/b&gt;</p>"
    assert element.findtext("single") == "true"
    assert element.findtext("shuffleanswers") == "false"  # the quiz's setting
    assert element.findtext("answernumbering") == "abc"
    assert element.findtext("idnumber") == "sky"
    assert element.findtext("defaultgrade") == "1"
    assert answers(element) == [("Blue", 100), ("=Green", 0), ("Red #1", 0)]
    for answer in element.findall("answer"):
        assert answer.get("format") == "html"
        assert answer.find("feedback").get("format") == "html"
        assert answer.find("feedback/text") is not None
    assert [tag.findtext("text") for tag in element.findall("tags/tag")] == ["sky", "easy-ones"]


def test_the_general_feedback_holds_the_explanation_and_the_quotes(root):
    feedback = question(root, "colours-named").find("generalfeedback")
    assert feedback.get("format") == "html"
    assert feedback.findtext("text") == (
        "<p>Two colours are named.</p>"
        "<p>From <cite>The sky &amp; the \"grass\"</cite>:</p>"
        "<blockquote><p>The sky is blue.</p></blockquote>"
        "<blockquote><p>The grass is green.</p></blockquote>"
    )
    # An unsourced question has its explanation alone.
    assert question(root, "clouds").findtext("generalfeedback/text") == "<p>They are white.</p>"


def test_a_several_answer_question_has_right_fractions_adding_to_100_and_wrong_ones_negative(root):
    element = question(root, "colours-named")
    assert element.findtext("single") == "false"
    assert answers(element) == [("Blue", 50), ("Green", 50), ("Purple", -100)]


@pytest.mark.parametrize(("right", "wrong"), [(1, 1), (2, 1), (3, 2), (1, 5), (5, 1), (2, 4)])
def test_several_answer_fractions_add_up_as_moodle_checks(right, wrong):
    choices = tuple((f"c{n}", n < right) for n in range(right + wrong))
    q = OutgoingQuestion("q", "multi", "medium", "Which?", choices, "Because.", (), (), None)
    fractions = moodle_xml.fractions(q)
    # Moodle rounds the sum of the positive grades to two places and wants exactly 100 %.
    assert round(sum(f for f in fractions if f > 0), 2) == 100
    assert round(sum(f for f in fractions if f < 0), 2) == -100
    assert all(f > 0 for f in fractions[:right]) and all(f < 0 for f in fractions[right:])
    written = fromstring(moodle_xml.write({"version": 1, "questions": [{
        "id": "q", "kind": "multi", "prompt": "Which?", "choices": [text for text, _ in choices],
        "correct": [text for text, is_right in choices if is_right], "explanation": "Because.",
    }]}))
    attributes = [answer.get("fraction") for answer in written.iter("answer")]
    assert [float(value) for value in attributes] == pytest.approx(fractions, abs=1e-5)
    assert all(len(value) <= 9 for value in attributes)  # "33.33333", as Moodle itself writes


def test_true_false_questions(root):
    sunny, clouds = question(root, "sunny"), question(root, "clouds")
    assert sunny.get("type") == clouds.get("type") == "truefalse"
    assert answers(sunny) == [("true", 100), ("false", 0)]
    assert answers(clouds) == [("true", 0), ("false", 100)]
    assert sunny.find("single") is None  # not a multichoice element


def test_questions_without_a_quiz_have_no_category():
    root = fromstring(moodle_xml.write({"version": 1, "questions": [{
        "id": "q", "prompt": "Which?", "choices": ["a", "b"], "correct": "a", "explanation": "Because.",
    }]}))
    assert [element.get("type") for element in root.findall("question")] == ["multichoice"]
