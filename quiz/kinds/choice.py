"""Kinds answered by picking choices: one answer, several, true or false, and polls."""

from __future__ import annotations

import difflib
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
    RevealedChoice,
    Submission,
    Tally,
    TallyRow,
    verdict,
)
from quiz.refusals import InvalidAnswer


class ChoiceKind(Kind):
    """Choices listed under ``choices``, the right ones named under ``correct``."""

    template = "kinds/choice.html"
    answer_field = "choices"
    fields = frozenset({"choices", "correct"})
    choices_field = "choices"
    picks = True
    formats = frozenset({"yaml", "csv", "gift", "moodle-xml"})

    def check(self, spec: Any, report: Report) -> Content | None:
        if spec.choices is None:
            report(("choices",), f"a {self.name} question needs 2 to 6 choices")
            return None
        if spec.correct is None:
            report(("correct",), f"a {self.name} question needs its correct choice (correct: ...)")
            return None
        if isinstance(spec.correct, bool):
            report(("correct",), "name the correct choice by its text (true/false is for true_false questions)")
            return None
        correct = [spec.correct] if isinstance(spec.correct, str) else spec.correct
        found = True
        for text in correct:
            if text not in spec.choices:
                close = difflib.get_close_matches(text, spec.choices, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                report(("correct",), f"'{text}' is not one of the choices{hint}")
                found = False
        if len(set(correct)) != len(correct):
            report(("correct",), "a correct choice is listed twice")
            return None
        if not found:
            return None
        message = self.correct_count_error(len(correct), len(spec.choices))
        if message:
            report(("correct",), message)
            return None
        return Content(tuple((text, text in correct) for text in spec.choices))

    def correct_count_error(self, correct: int, choices: int) -> str | None:
        """Why ``correct`` correct choices out of ``choices`` do not suit this kind, or None."""
        if correct != 1:
            return f"a {self.name} question needs exactly one correct choice, not {correct}"
        return None

    def entry(self, content: Content) -> dict[str, Any]:
        correct = [text for text, is_correct in content.choices if is_correct]
        return {
            "choices": [text for text, _is_correct in content.choices],
            "correct": correct if self.multiple else correct[0],
        }

    def read_form(self, form: Mapping[str, list[str]], shown: Sequence[ChoiceData]) -> Submission:
        values = [value for value in form.get("choice") or [] if value]
        if not values:
            raise InvalidAnswer(self.missing_message, "choices")
        try:
            return Submission(choices=tuple(int(value) for value in values))
        except ValueError:
            raise InvalidAnswer(_("Choose one of the answers shown."), "choices") from None

    @property
    def missing_message(self) -> str:
        return _("Choose at least one answer.") if self.multiple else _("Choose an answer.")

    def grade(self, shown: Sequence[ChoiceData], answer_key: dict | None, submission: Submission) -> Graded:
        picked = submission.choices
        if not picked:
            raise InvalidAnswer(self.missing_message, "choices")
        if not all(1 <= number <= len(shown) for number in picked):
            raise InvalidAnswer(_("The question has %(count)s choices.", count=len(shown)), "choices")
        if not self.multiple and len(set(picked)) > 1:
            raise InvalidAnswer(_("Pick exactly one choice."), "choices")
        selected_mask = 0
        for number in picked:
            selected_mask |= 1 << shown[number - 1].position
        return Graded(selected_mask, None, self.credit(shown, selected_mask))

    def credit(self, shown: Sequence[ChoiceData], selected_mask: int) -> float | None:
        """Right only when exactly the correct choices were picked, none missing, none extra."""
        correct_mask = sum(1 << choice.position for choice in shown if choice.is_correct)
        return 1.0 if selected_mask == correct_mask else 0.0

    def reveal(
        self, shown: Sequence[ChoiceData], answer_key: dict | None, selected_mask: int, response: str | None,
        credit: float | None,
    ) -> Reveal:
        choices = [
            RevealedChoice(number, choice.text, choice.is_correct, bool(selected_mask & (1 << choice.position)))
            for number, choice in enumerate(shown, 1)
        ]
        return Reveal(choices, credit=credit, verdict=verdict(credit))

    def tally(self, shown: Sequence[ChoiceData], answer_key: dict | None, groups: AnswerGroups) -> Tally:
        counts = dict.fromkeys((choice.position for choice in shown), 0)
        total = 0
        for mask, _response, count in groups:
            total += count
            for position in counts:
                if mask & (1 << position):
                    counts[position] += count
        rows = [
            TallyRow(choice.text, counts[choice.position], counts[choice.position] / total if total else 0.0,
                     choice.is_correct, number)
            for number, choice in enumerate(shown, 1)
        ]
        return Tally(_("Answers"), rows, total)


class SingleKind(ChoiceKind):
    name = "single"
    label = _l("One answer")
    instruction_message = _l("Choose one answer.")


class MultiKind(ChoiceKind):
    name = "multi"
    label = _l("Several answers")
    instruction_message = _l("Choose every correct answer.")
    multiple = True

    def correct_count_error(self, correct: int, choices: int) -> str | None:
        if correct < 1:
            return f"a {self.name} question needs at least one correct choice"
        if correct == choices:
            return f"a {self.name} question needs at least one wrong choice"
        return None


class TrueFalseKind(ChoiceKind):
    name = "true_false"
    label = _l("True or false")
    instruction_message = _l("True or false?")
    fields = frozenset({"choices", "correct"})
    choices_field = None
    fixed_choices = ("True", "False")
    fixed_choices_by_language = {"fr": ("Vrai", "Faux")}

    def check(self, spec: Any, report: Report) -> Content | None:
        fixed = self.fixed_choices
        if spec.choices is not None and tuple(spec.choices) != fixed:
            report(("choices",), f"{self.name} questions always have the choices {' and '.join(fixed)}; leave choices out")
            return None
        correct = spec.correct
        if isinstance(correct, str) and correct.capitalize() in fixed:
            correct = correct.capitalize() == fixed[0]
        if not isinstance(correct, bool):
            report(("correct",), f"a {self.name} question's answer is true or false")
            return None
        return Content(((fixed[0], correct), (fixed[1], not correct)))

    def entry(self, content: Content) -> dict[str, Any]:
        # The choices go without saying; the answer is whether the first one ("True") is right.
        return {"correct": content.choices[0][1]}

    def answer_phrases(self, choices, answer_key) -> list[str]:
        return []  # "True" and "False" are words of every text

    def shown_order(
        self, choices: Sequence[ChoiceData], *, seed: int, question_id: int, shuffle: bool
    ) -> tuple[ChoiceData, ...]:
        return tuple(choices)  # True, then False, always


class PollKind(ChoiceKind):
    """A question with no right answer: the class votes, and the reveal shows how."""

    name = "poll"
    label = _l("Poll")
    instruction_message = _l("Vote for one answer: none is wrong.")
    scored = False
    fields = frozenset({"choices"})
    # Moodle and GIFT have no question without a right answer.
    formats = frozenset({"yaml", "csv"})

    def check(self, spec: Any, report: Report) -> Content | None:
        if spec.choices is None:
            report(("choices",), "a poll needs 2 to 6 choices")
            return None
        return Content(tuple((text, False) for text in spec.choices))

    def entry(self, content: Content) -> dict[str, Any]:
        return {"choices": [text for text, _is_correct in content.choices]}

    def credit(self, shown: Sequence[ChoiceData], selected_mask: int) -> float | None:
        return None

    def expected(self, shown: Sequence[ChoiceData], answer_key: dict | None) -> str:
        return ""

    def answer_phrases(self, choices, answer_key) -> list[str]:
        return []

    def tally(self, shown: Sequence[ChoiceData], answer_key: dict | None, groups: AnswerGroups) -> Tally:
        counted = super().tally(shown, answer_key, groups)
        return Tally(_("Votes"), counted.rows, counted.total)
