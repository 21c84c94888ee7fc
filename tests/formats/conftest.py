"""A small bank with every kind of question, special characters and one unsourced question."""

from __future__ import annotations

from typing import Any

import pytest

from quiz.bank import parse_bank
from quiz.formats import bank_document

BANK = r"""version: 1
articles:
  - id: sky
    title: The sky & the "grass"
    text: "The sky is blue. The grass is green. It’s sunny today. Clouds are white."
quizzes:
  - id: colours
    title: Colours / weather
    article: sky
    settings:
      shuffle_choices: false
questions:
  - id: sky
    difficulty: easy
    prompt: "What colour is the sky? {a: b} ~ = # \\ <b>bold</b>"
    choices: [Blue, "=Green", "Red #1"]
    correct: Blue
    explanation: "The article says so: plainly."
    source: The sky is blue.
    tags: [sky, easy-ones]
    time_limit: 20
  - id: colours-named
    kind: multi
    prompt: Which colours does the article name?
    choices: [Blue, Green, Purple]
    correct: [Blue, Green]
    explanation: Two colours are named.
    source: [The sky is blue., The grass is green.]
  - id: sunny
    kind: true_false
    prompt: It is sunny today.
    correct: true
    explanation: The weather is fair.
    source: It's sunny today.
  - id: clouds
    kind: true_false
    difficulty: hard
    prompt: Clouds are grey.
    correct: false
    explanation: They are white.
"""


@pytest.fixture
def document() -> dict[str, Any]:
    """BANK, checked, as a bank document."""
    return bank_document(parse_bank(BANK.encode(), "bank.yaml", base_dir=None))


def questions_by_id(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in entries}
