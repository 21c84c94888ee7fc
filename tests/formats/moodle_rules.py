"""The rules Moodle's XML question importer (qformat_xml) and its question types apply to a file,
written down independently of our reader so that our exports and our test files are checked
against Moodle's expectations, not against our own code."""

from __future__ import annotations

import xml.etree.ElementTree as ET

#: The grades an answer may carry, in percent; Moodle refuses a file with any other.
GRADES = (100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571,
          12.5, 11.11111, 10, 5, 0)
TEXT_FORMATS = {"html", "moodle_auto_format", "plain_text", "markdown"}
TYPES = {
    "category", "multichoice", "truefalse", "shortanswer", "numerical", "ordering", "essay", "matching",
    "description", "multianswer", "calculated", "calculatedsimple", "calculatedmulti", "ddwtos", "gapselect",
    "randomsamatch", "random",
}
NUMBERINGS = {"abc", "ABCD", "123", "iii", "IIII", "none"}
ORDERING = {
    "layouttype": {"VERTICAL", "HORIZONTAL"},
    "selecttype": {"ALL", "RANDOM", "CONTIGUOUS"},
    "gradingtype": {
        "ALL_OR_NOTHING", "ABSOLUTE_POSITION", "RELATIVE_NEXT_EXCLUDE_LAST", "RELATIVE_NEXT_INCLUDE_LAST",
        "RELATIVE_ONE_PREVIOUS_AND_NEXT", "RELATIVE_ALL_PREVIOUS_AND_NEXT", "LONGEST_ORDERED_SUBSET",
        "LONGEST_CONTIGUOUS_SUBSET", "RELATIVE_TO_CORRECT",
    },
}


def problems(root: ET.Element) -> list[str]:
    """What Moodle would refuse in a parsed Moodle XML file; empty when it reads every question."""
    found: list[str] = []
    if root.tag != "quiz":
        return [f"the root is <{root.tag}>, not <quiz>"]
    for number, question in enumerate(root.findall("question"), 1):
        question_type = question.get("type")
        where = f"question {number} ({question_type})"
        if question_type not in TYPES:
            found.append(f"{where}: unknown type")
            continue
        if question_type == "category":
            if not (question.findtext("category/text") or "").startswith(("$course$/", "$system$/", "$module$/")):
                found.append(f"{where}: a category path starts with a context such as $course$/")
            continue
        found += [f"{where}: {problem}" for problem in _question_problems(question, question_type)]
    return found


def _question_problems(question: ET.Element, question_type: str) -> list[str]:
    found = []
    if not (question.findtext("name/text") or "").strip():
        found.append("no name")
    text = question.find("questiontext")
    if text is None or text.find("text") is None:
        found.append("no questiontext/text")
    elif text.get("format", "moodle_auto_format") not in TEXT_FORMATS:
        found.append(f"questiontext format {text.get('format')!r}")
    for tag in question.iterfind("tags/tag"):
        if not (tag.findtext("text") or "").strip():
            found.append("an empty tag")
    answers = question.findall("answer")
    fractions = []
    for answer in answers:
        try:
            fractions.append(float(answer.get("fraction", "0")))
        except ValueError:
            found.append(f"fraction {answer.get('fraction')!r} is not a number")
            return found
        if answer.find("text") is None:
            found.append("an answer without <text>")
    if question_type != "ordering":
        for fraction in fractions:
            if not any(abs(abs(fraction) - grade) < 1e-5 * 100 for grade in GRADES):
                found.append(f"fraction {fraction} is none of Moodle's grades")
    if question_type == "multichoice":
        single = (question.findtext("single") or "true").strip()
        if single not in ("true", "false", "1", "0"):
            found.append(f"single is {single!r}")
        if len(answers) < 2:
            found.append("fewer than two answers")
        if single in ("true", "1") and max(fractions, default=0) != 100:
            found.append("no answer is worth 100%")
        if single in ("false", "0") and abs(sum(f for f in fractions if f > 0) - 100) > 0.01:
            found.append("the positive grades do not add up to 100%")
        numbering = question.findtext("answernumbering")
        if numbering is not None and numbering not in NUMBERINGS:
            found.append(f"answernumbering {numbering!r}")
    elif question_type == "truefalse":
        texts = sorted((answer.findtext("text") or "").strip().lower() for answer in answers)
        if texts != ["false", "true"] or sorted(fractions) != [0, 100]:
            found.append("the answers are not true and false, one worth 100%")
    elif question_type == "shortanswer":
        if max(fractions, default=0) != 100:
            found.append("no answer is worth 100%")
        if (question.findtext("usecase") or "0").strip() not in ("0", "1"):
            found.append("usecase is not 0 or 1")
    elif question_type == "numerical":
        right = [answer for answer, fraction in zip(answers, fractions) if fraction == 100]
        if not right:
            found.append("no answer is worth 100%")
        for answer in answers:
            value = (answer.findtext("text") or "").strip()
            try:
                float(answer.findtext("tolerance") or 0)
                if value != "*":
                    float(value)
            except ValueError:
                found.append(f"the answer {value!r} or its tolerance is not a number")
    elif question_type == "ordering":
        for name, allowed in ORDERING.items():
            value = question.findtext(name)
            if value is not None and value not in allowed:
                found.append(f"{name} {value!r}")
        if len(answers) < 2:
            found.append("fewer than two items")
    return found
