"""Question kinds: what a kind accepts as choices, and how an answer to it is graded.

Adding a kind means adding an entry to :data:`KINDS`; the bank, the forms and grading all
look it up here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    name: str
    #: The instruction shown above the choices.
    instruction: str
    #: Several choices may be picked (check boxes) rather than one (radio buttons).
    multiple: bool
    #: The choices every question of this kind has, when authors do not write their own.
    fixed_choices: tuple[str, ...] | None = None

    def correct_count_error(self, correct: int, choices: int) -> str | None:
        """Why ``correct`` correct choices out of ``choices`` do not suit this kind, or None."""
        if not self.multiple and correct != 1:
            return f"a {self.name} question needs exactly one correct choice, not {correct}"
        if self.multiple and correct < 1:
            return f"a {self.name} question needs at least one correct choice"
        if self.multiple and correct == choices:
            return f"a {self.name} question needs at least one wrong choice"
        return None

    @staticmethod
    def is_correct(selected_mask: int, correct_mask: int) -> bool:
        """Right only when exactly the correct choices were picked, none missing, none extra."""
        return selected_mask == correct_mask


KINDS: dict[str, Kind] = {
    "single": Kind("single", "Choose one answer.", multiple=False),
    "multi": Kind("multi", "Choose every correct answer.", multiple=True),
    "true_false": Kind("true_false", "True or false?", multiple=False, fixed_choices=("True", "False")),
}
