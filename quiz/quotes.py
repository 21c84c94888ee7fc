"""Finding a source quote in its article despite typographic differences.

Authors type straight quotes where the article has curly ones, a hyphen for a dash, or wrap a
quote over several lines. Both texts are folded to a canonical form for the search, and the
match is mapped back to the exact character span of the original article.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

_FOLD = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    }
)
_WHITESPACE = re.compile(r"\s+")
#: Any character that folding changes; most texts have none, and a search is far quicker than
#: str.translate, which looks up every character.
_FOLDABLE = re.compile("[" + re.escape("".join(map(chr, _FOLD))) + "]")


def _fold_characters(text: str) -> str:
    """``text.translate(_FOLD)``: each character folded to one character."""
    return _FOLDABLE.sub(lambda match: _FOLD[ord(match[0])], text)


@dataclass(frozen=True)
class Span:
    start: int
    end: int


class FoldedText:
    """A text folded for matching, remembering which original characters each folded one covers.

    Folding keeps every character but whitespace in place (the translation is one character
    for one), and turns each run of whitespace into a single space; so the runs alone, with
    where they fall in both texts, map any folded position back to the original.
    """

    def __init__(self, text: str):
        self.original = text
        translated = _fold_characters(text)
        pieces: list[str] = []
        #: For each whitespace run: its space's place in the folded text, its start and end in the original.
        self._run_at: list[int] = []
        self._run_start: list[int] = []
        self._run_end: list[int] = []
        position = folded_length = 0
        for run in _WHITESPACE.finditer(text):
            pieces.append(translated[position : run.start()])
            folded_length += run.start() - position
            self._run_at.append(folded_length)
            self._run_start.append(run.start())
            self._run_end.append(run.end())
            pieces.append(" ")
            folded_length += 1
            position = run.end()
        pieces.append(translated[position:])
        self.folded = "".join(pieces)

    def _span_of(self, at: int) -> tuple[int, int]:
        """The original characters that the folded character at ``at`` stands for."""
        runs = bisect_right(self._run_at, at)
        if runs and self._run_at[runs - 1] == at:
            return self._run_start[runs - 1], self._run_end[runs - 1]
        start = at if not runs else self._run_end[runs - 1] + at - self._run_at[runs - 1] - 1
        return start, start + 1

    def find(self, quote: str) -> Span | None:
        """The span of the first occurrence of ``quote`` in the original text, or None."""
        needle = fold(quote)
        if not needle:
            return None
        at = self.folded.find(needle)
        if at < 0:
            return None
        return Span(self._span_of(at)[0], self._span_of(at + len(needle) - 1)[1])

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
    # str.split() splits on exactly the characters that \s matches in a str pattern.
    return " ".join(_fold_characters(text).split())
