"""Spans of the article, kept so that a question about them costs a lookup, not a scan.

Every stage asks the same few questions of spans many times: does a new date overlap a date
already found, does a fact overlap a stronger one, is a position inside a quotation, which
characters of a sentence are quoted. Asked of a list, each costs the whole list, and an
article twice as long takes four times as long; these answer by bisection.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable


class Disjoint:
    """Spans (start, end) that never overlap, in order; :meth:`overlaps` is exact for any span."""

    def __init__(self, spans: Iterable[tuple[int, int]] = ()):
        self._spans: list[tuple[int, int]] = []
        for start, end in spans:
            self.add(start, end)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether some span has ``other_start < end and start < other_end``."""
        # Spans that do not overlap, sorted by start, are sorted by end too: of those starting
        # before ``end``, the last reaches furthest.
        before = bisect.bisect_left(self._spans, (end,))
        return before > 0 and self._spans[before - 1][1] > start

    def add(self, start: int, end: int) -> None:
        """Keep a span; it must overlap none kept (callers check with :meth:`overlaps`)."""
        bisect.insort(self._spans, (start, end))


class Enclosing:
    """Spans (opened, closed) that may nest or overlap, such as quotations."""

    def __init__(self, spans: Iterable[tuple[int, int]]):
        ordered = sorted(spans)
        self._opened = [opened for opened, _ in ordered]
        #: The furthest any of the first n spans reaches.
        self._reach = list(itertools.accumulate((closed for _, closed in ordered), max))
        merged: list[list[int]] = []
        for opened, closed in ordered:
            if merged and opened <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], closed)
            elif opened < closed:
                merged.append([opened, closed])
        self._merged_starts = [start for start, _ in merged]
        self._merged = [(start, end) for start, end in merged]

    def strictly_inside(self, position: int) -> bool:
        """Whether some span has ``opened < position < closed``."""
        before = bisect.bisect_left(self._opened, position)
        return before > 0 and self._reach[before - 1] > position

    def covered(self, start: int, end: int) -> list[tuple[int, int]]:
        """The parts of ``start:end`` inside some span (``opened <= at < closed``), in order."""
        parts = []
        at = max(0, bisect.bisect_right(self._merged_starts, start) - 1)
        while at < len(self._merged) and self._merged[at][0] < end:
            left, right = max(self._merged[at][0], start), min(self._merged[at][1], end)
            if left < right:
                parts.append((left, right))
            at += 1
        return parts
