"""Ordering questions: put items (a timeline's events, say) in the right order.

The bank lists the items in the right order; players see them shuffled, never in that order.
Full credit takes the exact order. Partial credit is the share of items in their right place
("3 of 4 in the right place" earns 0.75): it scales speed points and shows in feedback and
statistics, while plain scoring's point, like the answer's "right", needs the exact order.
"""

from __future__ import annotations

import json
import random
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
    response_value,
    verdict,
)
from quiz.refusals import InvalidAnswer

MIN_ITEMS = 2
MAX_ITEMS = 8


class OrderingKind(Kind):
    name = "ordering"
    label = _l("Put in order")
    instruction_message = _l("Put the items in the right order.")
    expected_label = _l("The right order")
    template = "kinds/ordering.html"
    answer_field = "order"
    script = "js/ordering.js"
    fields = frozenset({"items"})
    choices_field = "items"
    formats = frozenset({"yaml", "csv", "moodle-xml"})

    def check(self, spec: Any, report: Report) -> Content | None:
        items = spec.items
        if items is None or not MIN_ITEMS <= len(items) <= MAX_ITEMS:
            report(("items",), f"an ordering question lists {MIN_ITEMS} to {MAX_ITEMS} items, in the right order")
            return None
        # An item's right place is its position; whether it "is correct" means nothing here.
        return Content(tuple((text, False) for text in items))

    def entry(self, content: Content) -> dict[str, Any]:
        return {"items": [text for text, _is_correct in content.choices]}

    def shown_order(
        self, choices: Sequence[ChoiceData], *, seed: int, question_id: int, shuffle: bool
    ) -> tuple[ChoiceData, ...]:
        # Always shuffled, whatever the quiz says of choices: the order shown is never the answer.
        order = list(choices)
        random.Random(f"{seed}:{question_id}").shuffle(order)
        if order == list(choices):
            order = order[1:] + order[:1]
        return tuple(order)

    def read_form(self, form: Mapping[str, list[str]], shown: Sequence[ChoiceData]) -> Submission:
        """Each item's place, chosen in a select named ``place-<its number>``."""
        places: dict[int, int] = {}
        for number in range(1, len(shown) + 1):
            value = (form.get(f"place-{number}") or [""])[0]
            if not value.isdigit():
                raise InvalidAnswer(_("Give every item a place."), "order")
            places[number] = int(value)
        if sorted(places.values()) != list(range(1, len(shown) + 1)):
            raise InvalidAnswer(_("Give each item a different place, from 1 to %(count)s.", count=len(shown)), "order")
        return Submission(order=tuple(sorted(places, key=places.__getitem__)))

    def grade(self, shown: Sequence[ChoiceData], answer_key: dict | None, submission: Submission) -> Graded:
        order = submission.order
        if sorted(order) != list(range(1, len(shown) + 1)):
            raise InvalidAnswer(
                _("List each of the %(count)s items' numbers once, in your order.", count=len(shown)), "order"
            )
        positions = [shown[number - 1].position for number in order]
        return Graded(0, json.dumps(positions), self._credit(positions))

    @staticmethod
    def _credit(positions: Sequence[int]) -> float:
        return sum(place == position for place, position in enumerate(positions)) / len(positions)

    def reveal(
        self, shown: Sequence[ChoiceData], answer_key: dict | None, selected_mask: int, response: str | None,
        credit: float | None,
    ) -> Reveal:
        given = response_value(response) or []
        placed = {position: place for place, position in enumerate(given, 1)}
        numbers = {choice.position: number for number, choice in enumerate(shown, 1)}
        # In the right order, each with the place the player gave it.
        items = [
            RevealedChoice(numbers[choice.position], choice.text, placed.get(choice.position) == choice.position + 1,
                           placed=placed.get(choice.position))
            for choice in sorted(shown, key=lambda choice: choice.position)
        ]
        right = sum(item.is_correct for item in items)
        given = _("%(right)s of %(count)s in the right place", right=right, count=len(items))
        return Reveal(items, given=given, credit=credit, verdict=verdict(credit))

    def expected(self, shown: Sequence[ChoiceData], answer_key: dict | None) -> str:
        return " → ".join(choice.text for choice in sorted(shown, key=lambda choice: choice.position))

    def answer_phrases(self, choices, answer_key) -> list[str]:
        return []  # the answer is the order, which the items' texts do not tell

    def answer_text(self, shown: Sequence[ChoiceData], selected_mask: int, response: str | None) -> str:
        texts = {choice.position: choice.text for choice in shown}
        return " → ".join(texts[position] for position in response_value(response) or [] if position in texts)

    def tally(self, shown: Sequence[ChoiceData], answer_key: dict | None, groups: AnswerGroups) -> Tally:
        """Per item, in the right order: how many put it in its right place."""
        right = dict.fromkeys((choice.position for choice in shown), 0)
        total = 0
        for _mask, response, count in groups:
            total += count
            for place, position in enumerate(response_value(response) or []):
                if place == position and position in right:
                    right[position] += count
        numbers = {choice.position: number for number, choice in enumerate(shown, 1)}
        rows = [
            # Every bar counts right placements already: none is "the correct answer" to mark.
            TallyRow(choice.text, right[choice.position], right[choice.position] / total if total else 0.0, False,
                     numbers[choice.position])
            for choice in sorted(shown, key=lambda choice: choice.position)
        ]
        return Tally(_("Put in the right place"), rows, total)
