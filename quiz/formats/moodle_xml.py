"""Moodle XML, the format Moodle's question bank imports and exports with every detail.

Writing, each quiz becomes a ``category`` question followed by its questions: ``multichoice``
(one or several answers), ``truefalse``, ``shortanswer`` (typed answers), ``numerical``
(numbers) and ``ordering`` (Moodle's ordering question type, graded by absolute position as
here). Polls have no counterpart and are left out. Texts are HTML, escaped by the XML writer.
The general feedback holds the explanation and the source quotes, since Moodle has no place for
sources.

Reading takes the same five types back; categories and Moodle's tags become tags, the general
feedback (else the right answer's own) the explanation, and HTML its plain text, with each image
or link address it held reported. Other types (essay, matching, cloze...) and what our kinds
cannot grade (partial credit, wildcards) are left out, each reported at its place.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from quiz.bank.errors import BankError
from quiz.formats.html_text import plain_text
from quiz.formats.incoming import (
    Draft,
    Place,
    Read,
    category_tag,
    check_size,
    plain_number,
    question_entries,
    refuse,
    slug_for,
)
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


# Reading ---------------------------------------------------------------------------------------

#: What each of Moodle's other question types is, for saying why it was left out.
_OTHER_TYPES = {
    "essay": "an essay question", "match": "a matching question", "matching": "a matching question",
    "description": "a description (text without a question)", "multianswer": "an embedded answers (cloze) question",
    "cloze": "an embedded answers (cloze) question", "calculated": "a calculated question",
    "calculatedsimple": "a calculated question", "calculatedmulti": "a calculated question",
    "randomsamatch": "a random short-answer matching question", "random": "a random question",
    "ddwtos": "a drag and drop into text question", "gapselect": "a select missing words question",
    "ddimageortext": "a drag and drop onto image question", "ddmarker": "a drag and drop markers question",
}
_SUPPORTED = "only multichoice, truefalse, shortanswer, numerical and ordering questions can be imported"


def read(data: bytes, filename: str) -> Read:
    """The questions of a Moodle XML file that this app's kinds can hold."""
    check_size(data, filename)
    builder = _PlacedTreeBuilder()
    parser = DefusedXMLParser(target=builder)
    builder.parser = parser
    try:
        parser.feed(data)
        root = parser.close()
    except ParseError as exc:
        line, column = exc.position
        refuse(filename, Place(line, column + 1), f"invalid XML: {str(exc).split(':')[0]}")
    except DefusedXmlException:
        refuse(filename, Place(1, 1), "entity declarations and external references are not read, for safety; remove the DOCTYPE")
    reader = _Reader(filename, builder.places)
    if root.tag != "quiz":
        refuse(filename, reader.place(root), f"the root element is <{root.tag}>; a Moodle XML file holds <quiz> and its <question> elements")
    for element in root.findall("question"):
        reader.question(element)
    return question_entries(filename, reader.drafts, reader.errors, reader.skipped, reader.notes)


class _PlacedTreeBuilder(ET.TreeBuilder):
    """Builds the tree and notes where each element starts (ElementTree keeps no positions)."""

    def __init__(self) -> None:
        super().__init__()
        self.parser: DefusedXMLParser | None = None
        self.places: dict[ET.Element, tuple[int, int]] = {}

    def start(self, tag: Any, attrs: dict[str, str]) -> ET.Element:
        element = super().start(tag, attrs)
        # The pure-Python parser that defusedxml uses exposes expat, which knows where it is.
        expat = self.parser.parser  # type: ignore[union-attr]
        self.places[element] = (expat.CurrentLineNumber, expat.CurrentColumnNumber + 1)
        return element


class _LeftOut(Exception):
    """A question Moodle holds well that cannot be kept here."""


class _Reader:
    def __init__(self, file: str, places: dict[ET.Element, tuple[int, int]]):
        self.file = file
        self.places = places
        self.drafts: list[Draft] = []
        self.errors: list[BankError] = []
        self.skipped: list[BankError] = []
        self.notes: list[BankError] = []
        self.count = 0
        #: The tag of the category the questions that follow belong to.
        self.category: str | None = None

    def place(self, element: ET.Element, location: str = "") -> Place:
        line, column = self.places.get(element, (1, 1))
        return Place(line, column, location)

    def question(self, element: ET.Element) -> None:
        question_type = (element.get("type") or "").strip().lower()
        if question_type == "category":
            self.category = category_tag(_inner_text(element.find("category")))
            return
        self.count += 1
        place = self.place(element, f"question {self.count}")
        read = _READERS.get(question_type)
        try:
            if read is None:
                what = _OTHER_TYPES.get(question_type, f"a question of type {question_type!r}")
                raise _LeftOut(f"{what} cannot be imported; {_SUPPORTED}")
            draft = read(self, element, place)
        except _LeftOut as left_out:
            self.skipped.append(place.error(self.file, str(left_out)))
            return
        except ValueError as problem:
            self.errors.append(place.error(self.file, str(problem)))
            return
        tags = [self.category] if self.category else []
        tags += [slug_for(text) for tag in element.iterfind("tags/tag") if (text := _inner_text(tag).strip())]
        draft.tags = list(dict.fromkeys(tags))
        self.drafts.append(draft)

    def rich(self, element: ET.Element | None, place: Place, where: str) -> str:
        """The plain text of a Moodle text element (``<questiontext format="html"><text>``),
        noting what it lost."""
        if element is None:
            return ""
        text = _inner_text(element)
        text_format = element.get("format", "moodle_auto_format")
        if text_format not in ("html", "moodle_auto_format"):
            return text.strip()  # plain_text and markdown read as they are written
        if text_format == "moodle_auto_format":
            text = text.replace("\n", "<br>")  # as Moodle shows it
        text, lost = plain_text(text)
        referenced = " ".join(lost)
        lost += [f"an attached file ({name})" for file in element.iterfind("file")
                 if (name := file.get("name", "")) and name not in referenced]
        place = self.place(element, place.location)
        self.notes += [place.error(self.file, f"{where} loses {item}") for item in lost]
        return text

    def answers(self, element: ET.Element, place: Place) -> list[tuple[str, float, str]]:
        """Each answer's text, fraction (percent of the mark) and feedback."""
        found = []
        for number, answer in enumerate(element.iterfind("answer"), 1):
            fraction_text = answer.get("fraction", "0")
            try:
                fraction = float(fraction_text)
            except ValueError:
                raise ValueError(f"answer {number}: fraction {fraction_text!r} is not a number") from None
            text = self.rich(answer, place, f"answer {number}")
            feedback = self.rich(answer.find("feedback"), place, f"the feedback of answer {number}")
            found.append((text, fraction, feedback))
        return found

    def draft(self, element: ET.Element, place: Place, kind: str, **details: Any) -> Draft:
        prompt = self.rich(element.find("questiontext"), place, "the question text")
        if not prompt:
            raise ValueError("the question has no text (<questiontext><text>)")
        explanation = self.rich(element.find("generalfeedback"), place, "the general feedback")
        name = _inner_text(element.find("idnumber")) if element.find("idnumber") is not None else ""
        name = name or _inner_text(element.find("name"))
        return Draft(place, kind, prompt, explanation=explanation, name=name.strip(), **details)


def _multichoice(reader: _Reader, element: ET.Element, place: Place) -> Draft:
    single = (element.findtext("single") or "true").strip().lower() in ("true", "1")
    answers = reader.answers(element, place)
    if single and any(0 < fraction < 100 for _, fraction, _ in answers):
        raise _LeftOut("partial credit (an answer worth part of the mark) cannot be kept; a choice here is right or wrong")
    choices = [(text, fraction > 0) for text, fraction, _ in answers]
    draft = reader.draft(element, place, "single" if single else "multi", choices=choices)
    draft.explanation = draft.explanation or _right_feedback(answers)
    return draft


def _truefalse(reader: _Reader, element: ET.Element, place: Place) -> Draft:
    answers = reader.answers(element, place)
    right = [text.strip().lower() for text, fraction, _ in answers if fraction > 0]
    if len(right) != 1 or right[0] not in ("true", "false"):
        raise ValueError("a truefalse question has the answers true and false, one of them with fraction 100")
    is_true = right[0] == "true"
    draft = reader.draft(element, place, "true_false", choices=[("True", is_true), ("False", not is_true)])
    draft.explanation = draft.explanation or _right_feedback(answers)
    return draft


def _shortanswer(reader: _Reader, element: ET.Element, place: Place) -> Draft:
    answers = reader.answers(element, place)
    if any(0 < fraction < 100 for _, fraction, _ in answers):
        raise _LeftOut("partial credit (an answer worth part of the mark) cannot be kept; a typed answer is right or not")
    accepted = [text for text, fraction, _ in answers if fraction >= 100]
    if any("*" in text for text in accepted):
        raise _LeftOut("an accepted answer with a wildcard (*) cannot be kept; answers here are matched whole")
    draft = reader.draft(element, place, "text", choices=[], answer_key={"accept": accepted, "fuzzy": False})
    if (element.findtext("usecase") or "0").strip() == "1":
        reader.notes.append(place.error(reader.file, "case-sensitive grading is not kept: case never matters here"))
    draft.explanation = draft.explanation or _right_feedback(answers)
    return draft


def _numerical(reader: _Reader, element: ET.Element, place: Place) -> Draft:
    answers = reader.answers(element, place)
    right = [(answer, text) for answer, (text, fraction, _) in zip(element.iterfind("answer"), answers) if fraction >= 100]
    if len(right) != 1 or any(0 < fraction < 100 for _, fraction, _ in answers):
        raise _LeftOut("a numerical question with several graded answers cannot be kept; a number here has one answer")
    answer, text = right[0]
    try:
        value, tolerance = float(text), abs(float(answer.findtext("tolerance") or 0))
    except ValueError:
        raise _LeftOut(f"the answer {text!r} is not a number (any answer, *, cannot be kept)") from None
    key: dict[str, Any] = {"answer": plain_number(value), "tolerance": plain_number(tolerance)}
    units = [
        ((unit.findtext("unit_name") or "").strip(), (unit.findtext("multiplier") or "1").strip())
        for unit in element.iterfind("units/unit")
    ]
    # The unit the answer is in is the one with multiplier 1; a number here has one unit.
    base = next((name for name, multiplier in units if name and _is_one(multiplier)), None)
    if base:
        key["unit"] = base
    for name, multiplier in units:
        if name != base:
            reader.notes.append(place.error(reader.file, f"the unit {name} (× {multiplier}) is not kept; answers are in {base or 'no unit'}"))
    draft = reader.draft(element, place, "number", choices=[], answer_key=key)
    draft.explanation = draft.explanation or _right_feedback(answers)
    return draft


def _ordering(reader: _Reader, element: ET.Element, place: Place) -> Draft:
    answers = reader.answers(element, place)
    # Moodle lists the items in the right order, each item's fraction being its place.
    places = [fraction for _, fraction, _ in answers]
    if len(set(places)) == len(places) and all(fraction > 0 for fraction in places):
        answers = sorted(answers, key=lambda answer: answer[1])
    grading = (element.findtext("gradingtype") or "ABSOLUTE_POSITION").strip().upper()
    if grading not in ("ABSOLUTE_POSITION", "ALL_OR_NOTHING"):
        reader.notes.append(place.error(reader.file, (
            f"the grading {grading} is not kept: here each item earns its share when it is in its right place"
        )))
    if (element.findtext("selecttype") or "ALL").strip().upper() != "ALL":
        reader.notes.append(place.error(reader.file, "showing a subset of the items is not kept: every item is shown"))
    return reader.draft(element, place, "ordering", choices=[(text, False) for text, _, _ in answers])


_READERS = {
    "multichoice": _multichoice, "truefalse": _truefalse, "shortanswer": _shortanswer, "numerical": _numerical,
    "ordering": _ordering,
}


def _inner_text(element: ET.Element | None) -> str:
    """The ``<text>`` of a Moodle text element, or its own text when it has none."""
    if element is None:
        return ""
    inner = element.find("text")
    return (inner.text if inner is not None else element.text) or ""


def _right_feedback(answers: list[tuple[str, float, str]]) -> str:
    """What the best answer's own feedback says, to explain it when there is no general feedback."""
    graded = [answer for answer in answers if answer[1] > 0]
    best = max(graded, key=lambda answer: answer[1], default=None)
    return best[2] if best is not None else ""



def _is_one(multiplier: str) -> bool:
    try:
        return float(multiplier) == 1
    except ValueError:
        return False
