"""Typed-answer questions: right when the text matches one of the accepted answers.

Matching ignores case, accents, punctuation and spacing ("Saint-Jérôme" is "saint jerome").
With ``fuzzy: true``, one typo (a letter missing, extra, wrong, or two swapped) is forgiven in
answers of six letters or more.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from quiz.kinds.base import (
    AnswerGroups,
    ChoiceData,
    Content,
    Graded,
    Kind,
    Report,
    Reveal,
    Submission,
    Tally,
    TallyRow,
    one_value,
    response_value,
    verdict,
)
from quiz.refusals import InvalidAnswer

#: The most characters a typed answer may have.
MAX_TYPED = 200
#: Letters an accepted answer needs before a typo in it is forgiven.
FUZZY_FROM = 6
#: Distinct answers a tally shows; the rest are counted together.
TALLY_ROWS = 8


def normalise(text: str) -> str:
    """``text`` folded for matching: lower case, without accents, punctuation or spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if unicodedata.category(ch)[0] in "LN")


def within_one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by at most one insertion, deletion, substitution or swap of
    two neighbouring characters."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    if len(a) == len(b):
        return a[1:] == b[1:] or (len(a) >= 2 and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:])
    return a[1:] == b or b[1:] == a


def matches(typed: str, key: dict) -> bool:
    given = normalise(typed)
    if not given:
        return False
    for accepted in key.get("accept", []):
        wanted = normalise(accepted)
        if given == wanted or (key.get("fuzzy") and len(wanted) >= FUZZY_FROM and within_one_edit(given, wanted)):
            return True
    return False


class TextKind(Kind):
    name = "text"
    label = _l("A typed answer")
    instruction_message = _l("Type your answer.")
    template = "kinds/text.html"
    answer_field = "text"
    shows_choices = False
    fields = frozenset({"accept", "fuzzy"})
    formats = frozenset({"yaml", "csv", "gift", "moodle-xml"})

    def check(self, spec: Any, report: Report) -> Content | None:
        if not spec.accept:
            report(("accept",), "a text question needs at least one accepted answer (accept: [...])")
            return None
        seen: dict[str, int] = {}
        for index, text in enumerate(spec.accept):
            key = normalise(text)
            if not key:
                report(("accept", index), "an accepted answer needs letters or digits")
                return None
            if key in seen:
                report(("accept", index), f"matches accepted answer {seen[key] + 1} already")
                return None
            seen[key] = index
        return Content((), {"accept": list(spec.accept), "fuzzy": bool(spec.fuzzy)})

    def entry(self, content: Content) -> dict[str, Any]:
        key = content.answer_key or {}
        entry: dict[str, Any] = {"accept": list(key.get("accept", []))}
        if key.get("fuzzy"):
            entry["fuzzy"] = True
        return entry

    def read_form(self, form: Mapping[str, list[str]], shown: Sequence[ChoiceData]) -> Submission:
        typed = one_value(form, "text").strip()
        if not typed:
            raise InvalidAnswer(_("Type an answer."), "text")
        return Submission(text=typed)

    def grade(self, shown: Sequence[ChoiceData], answer_key: dict | None, submission: Submission) -> Graded:
        typed = " ".join((submission.text or "").split())
        if not typed:
            raise InvalidAnswer(_("Type an answer."), "text")
        if len(typed) > MAX_TYPED:
            raise InvalidAnswer(_("An answer of at most %(count)s characters.", count=MAX_TYPED), "text")
        return Graded(0, json.dumps(typed, ensure_ascii=False), 1.0 if matches(typed, answer_key or {}) else 0.0)

    def expected(self, shown: Sequence[ChoiceData], answer_key: dict | None) -> str:
        return (answer_key or {}).get("accept", [""])[0]

    def answer_phrases(self, choices, answer_key) -> list[str]:
        return list((answer_key or {}).get("accept", []))

    def answer_text(self, shown: Sequence[ChoiceData], selected_mask: int, response: str | None) -> str:
        return response_value(response) or ""

    def reveal(
        self, shown: Sequence[ChoiceData], answer_key: dict | None, selected_mask: int, response: str | None,
        credit: float | None,
    ) -> Reveal:
        return Reveal([], given=response_value(response), expected=self.expected(shown, answer_key), credit=credit,
                      verdict=verdict(credit))

    def tally(self, shown: Sequence[ChoiceData], answer_key: dict | None, groups: AnswerGroups) -> Tally:
        """The answers typed, grouped as matching groups them, most typed first; each group
        shown as it was most often written."""
        counts: Counter[str] = Counter()
        spellings: dict[str, Counter[str]] = {}
        for _mask, response, count in groups:
            typed = response_value(response)
            if typed is None:
                continue
            key = normalise(typed)
            counts[key] += count
            spellings.setdefault(key, Counter())[typed] += count
        total = sum(counts.values())
        top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TALLY_ROWS]
        rows = []
        for key, count in top:
            written = spellings[key].most_common(1)[0][0]
            rows.append(TallyRow(written, count, count / total if total else 0.0, matches(written, answer_key or {})))
        return Tally(_("Answers typed"), rows, total, total - sum(count for _key, count in top))
