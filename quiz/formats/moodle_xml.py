"""Moodle XML, the format Moodle's question bank imports with every detail.

Each quiz becomes a ``category`` question followed by its questions: ``multichoice`` (one or
several answers), ``truefalse``, ``shortanswer`` (typed answers), ``numerical`` (numbers) and
``ordering`` (Moodle's ordering question type, graded by absolute position as here). Polls have
no counterpart and are left out. Texts are HTML, escaped by the XML writer. The general
feedback holds the explanation and the source quotes, since Moodle has no place for sources.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from typing import Any

from quiz.formats.outgoing import OutgoingQuestion, OutgoingQuiz, outgoing_quizzes
from quiz.kinds.number import format_number

#: Moodle's question type for each of our kinds.
QUESTION_TYPES = {
    "single": "multichoice", "multi": "multichoice", "true_false": "truefalse", "text": "shortanswer",
    "number": "numerical", "ordering": "ordering",
}


def write(document: dict[str, Any]) -> bytes:
    root = ET.Element("quiz")
    root.append(ET.Comment(" Questions exported from quiz; each answer is backed by a quote from an article. "))
    for quiz in outgoing_quizzes(document, "moodle-xml"):
        if quiz.id is not None:
            root.append(_category(quiz))
        for question in quiz.questions:
            root.append(_question(question, quiz))
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _category(quiz: OutgoingQuiz) -> ET.Element:
    element = ET.Element("question", type="category")
    # Moodle reads "/" in a category path as a subcategory; "//" is a slash in a name.
    name = " ".join((quiz.title or quiz.id or "").split()).replace("/", "//")
    _text(element, "category", f"$course$/top/{name}")
    return element


def _question(question: OutgoingQuestion, quiz: OutgoingQuiz) -> ET.Element:
    true_false = question.kind == "true_false"
    element = ET.Element("question", type=QUESTION_TYPES[question.kind])
    _text(element, "name", question.id)
    _text(element, "questiontext", _html(question.prompt), format="html")
    _text(element, "generalfeedback", _feedback_html(question, quiz.article_title), format="html")
    ET.SubElement(element, "defaultgrade").text = "1"
    # A wrong try costs everything for true/false (two choices) and a third for the others.
    ET.SubElement(element, "penalty").text = "1" if true_false else "0.3333333"
    ET.SubElement(element, "hidden").text = "0"
    ET.SubElement(element, "idnumber").text = question.id
    key = question.answer_key or {}
    if true_false:
        is_true = question.choices[0][1]
        _answer(element, "true", 100 if is_true else 0, answer_format="moodle_auto_format")
        _answer(element, "false", 0 if is_true else 100, answer_format="moodle_auto_format")
    elif question.kind == "text":
        # Case never matters here; Moodle is told so. (Moodle does not forgive accents or typos.)
        ET.SubElement(element, "usecase").text = "0"
        for text in key.get("accept", []):
            _answer(element, html.escape(text, quote=False), 100, answer_format="moodle_auto_format")
    elif question.kind == "number":
        answer = ET.SubElement(element, "answer", fraction="100", format="moodle_auto_format")
        ET.SubElement(answer, "text").text = format_number(key["answer"])
        _text(answer, "feedback", "", format="html")
        ET.SubElement(answer, "tolerance").text = format_number(key.get("tolerance") or 0)
        if key.get("unit"):
            units = ET.SubElement(ET.SubElement(element, "units"), "unit")
            ET.SubElement(units, "multiplier").text = "1"
            ET.SubElement(units, "unit_name").text = key["unit"]
            # Shown beside the box, and not graded: a number without its unit is right too.
            ET.SubElement(element, "showunits").text = "3"
            ET.SubElement(element, "unitsleft").text = "0"
    elif question.kind == "ordering":
        for name, value in (("layouttype", "VERTICAL"), ("selecttype", "ALL"), ("selectcount", "0"),
                            ("gradingtype", "ABSOLUTE_POSITION"), ("showgrading", "SHOW"),
                            ("numberingstyle", "none")):
            ET.SubElement(element, name).text = value
        # Listed in the right order; the fraction of each item is its place, as Moodle writes it.
        for place, (text, _) in enumerate(question.choices, 1):
            _answer(element, html.escape(text, quote=False), place, answer_format="html", percent=False)
    else:
        single = question.kind == "single"
        ET.SubElement(element, "single").text = "true" if single else "false"
        ET.SubElement(element, "shuffleanswers").text = "true" if quiz.shuffle_choices else "false"
        ET.SubElement(element, "answernumbering").text = "abc"
        for (text, is_correct), fraction in zip(question.choices, fractions(question)):
            _answer(element, html.escape(text, quote=False), fraction, answer_format="html")
    if question.tags:
        tags = ET.SubElement(element, "tags")
        for tag in question.tags:
            _text(tags, "tag", tag)
    return element


def fractions(question: OutgoingQuestion) -> list[float]:
    """The percentage of the mark each choice gives, as Moodle's importer checks them: 100 for
    the one right choice; for several, right ones adding up to 100 and wrong ones to -100."""
    if question.kind != "multi":
        return [100 if is_correct else 0 for _, is_correct in question.choices]
    right = question.correct_count
    wrong = len(question.choices) - right
    return [100 / right if is_correct else -100 / wrong for _, is_correct in question.choices]


def _answer(parent: ET.Element, text: str, fraction: float, *, answer_format: str, percent: bool = True) -> None:
    written = f"{fraction:.7g}" if percent else f"{fraction:.7f}"
    answer = ET.SubElement(parent, "answer", fraction=written, format=answer_format)
    ET.SubElement(answer, "text").text = text
    _text(answer, "feedback", "", format="html")


def _text(parent: ET.Element, tag: str, text: str, **attributes: str) -> None:
    """``<tag><text>text</text></tag>``, the shape of every text in Moodle XML."""
    element = ET.SubElement(parent, tag, **attributes)
    ET.SubElement(element, "text").text = text


def _html(text: str) -> str:
    paragraphs = [part.strip() for part in text.replace("\r\n", "\n").split("\n\n") if part.strip()]
    return "".join(f"<p>{html.escape(part, quote=False).replace(chr(10), '<br>')}</p>" for part in paragraphs)


def _feedback_html(question: OutgoingQuestion, article_title: str | None) -> str:
    parts = [_html(question.explanation)]
    if question.quotes:
        cited = f"<cite>{html.escape(article_title, quote=False)}</cite>" if article_title else "the article"
        parts.append(f"<p>From {cited}:</p>")
        parts += [f"<blockquote>{_html(quote)}</blockquote>" for quote in question.quotes]
    return "".join(parts)
