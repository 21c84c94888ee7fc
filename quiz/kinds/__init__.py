"""Question kinds, each a class that owns its behaviour (see :mod:`quiz.kinds.base`).

Adding a kind: a module here with its class, an entry in :data:`KINDS`, and its template under
``templates/kinds/``; the bank, play, classroom sessions, the API, statistics and the formats
all ask the kind.
"""

from __future__ import annotations

from quiz.kinds.base import (
    COMMON_FIELDS,
    ChoiceData,
    Content,
    Graded,
    Kind,
    Reveal,
    RevealedChoice,
    Submission,
    Tally,
    TallyRow,
)
from quiz.kinds.choice import MultiKind, PollKind, SingleKind, TrueFalseKind
from quiz.kinds.number import NumberKind
from quiz.kinds.ordering import OrderingKind
from quiz.kinds.text import TextKind

#: Every kind by its name, as bank files write it; the first is the default.
KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (SingleKind(), MultiKind(), TrueFalseKind(), OrderingKind(), NumberKind(), TextKind(), PollKind())
}

__all__ = [
    "COMMON_FIELDS", "KINDS", "ChoiceData", "Content", "Graded", "Kind", "Reveal", "RevealedChoice", "Submission",
    "Tally", "TallyRow",
]
