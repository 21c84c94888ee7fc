"""Lookups on spans answer as a scan of every span would."""

from __future__ import annotations

import random

from quiz.generator.spans import Disjoint, Enclosing


def test_a_span_overlaps_a_kept_one_exactly_when_a_scan_says_so():
    rng = random.Random(3)
    for _ in range(300):
        kept: list[tuple[int, int]] = []
        disjoint = Disjoint()
        for _ in range(20):
            start = rng.randrange(60)
            end = start + rng.randrange(6)
            scanned = any(start < other_end and other_start < end for other_start, other_end in kept)
            assert disjoint.overlaps(start, end) == scanned, (kept, start, end)
            if not scanned:
                kept.append((start, end))
                disjoint.add(start, end)


def test_nested_and_overlapping_spans_are_looked_up_exactly():
    rng = random.Random(5)
    for _ in range(300):
        spans = [(start, start + rng.randrange(12)) for start in (rng.randrange(50) for _ in range(rng.randrange(6)))]
        enclosing = Enclosing(spans)
        for position in range(-1, 64):
            assert enclosing.strictly_inside(position) == any(opened < position < closed for opened, closed in spans)
        start = rng.randrange(50)
        end = start + rng.randrange(20)
        covered = {at for left, right in enclosing.covered(start, end) for at in range(left, right)}
        assert covered == {at for opened, closed in spans for at in range(max(opened, start), min(closed, end))}
        parts = enclosing.covered(start, end)
        assert parts == sorted(parts) and all(left < right for left, right in parts)
