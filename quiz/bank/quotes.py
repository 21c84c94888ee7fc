"""Finding a source quote in its article despite typographic differences.

Authors type straight quotes where the article has curly ones, a hyphen for a dash, or wrap a
quote over several lines. Both texts are folded to a canonical form for the search, and the
match is mapped back to the exact character span of the original article.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FOLD = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    }
)
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Span:
    start: int
    end: int


class FoldedText:
    """A text folded for matching, remembering which original characters each folded one covers."""

    def __init__(self, text: str):
        self.original = text
        folded: list[str] = []
        self._starts: list[int] = []
        self._ends: list[int] = []
        position = 0
        for run in [*_WHITESPACE.finditer(text), None]:
            run_start = run.start() if run else len(text)
            for index in range(position, run_start):
                folded.append(text[index].translate(_FOLD))
                self._starts.append(index)
                self._ends.append(index + 1)
            if run:
                folded.append(" ")
                self._starts.append(run.start())
                self._ends.append(run.end())
                position = run.end()
        self.folded = "".join(folded)

    def find(self, quote: str) -> Span | None:
        """The span of the first occurrence of ``quote`` in the original text, or None."""
        needle = fold(quote)
        if not needle:
            return None
        at = self.folded.find(needle)
        if at < 0:
            return None
        return Span(self._starts[at], self._ends[at + len(needle) - 1])

    def longest_prefix_found(self, quote: str) -> str:
        """The longest start of ``quote`` (folded) that does occur, to say where a quote goes wrong."""
        needle = fold(quote)
        low, high = 0, len(needle)
        while low < high:
            middle = (low + high + 1) // 2
            if needle[:middle] in self.folded:
                low = middle
            else:
                high = middle - 1
        return needle[:low]


def fold(text: str) -> str:
    """Canonical form for matching: straight quotes, hyphens, single spaces, no outer spaces."""
    return _WHITESPACE.sub(" ", text.translate(_FOLD)).strip()
