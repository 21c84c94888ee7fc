"""Geometry for the statistics charts, which templates draw as inline SVG.

Charts are drawn on the server: no chart library, no script, nothing fetched. Each chart is
an image with a title and a description for screen readers, and the page shows the same
numbers in a table next to it. The numbers a chart prints are written the way the page's
language writes them ("1,500" and "25%", or "1 500" and "25 %" in French).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from flask_babel import format_decimal, format_percent


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    #: The value as the chart prints it beside the bar.
    text: str
    x: float
    y: float
    width: float
    height: float
    #: Extra CSS class, e.g. to mark a flagged question (never the only cue: text says it too).
    css: str = ""


@dataclass(frozen=True)
class Tick:
    position: float
    text: str


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    description: str
    width: int
    height: int
    bars: list[Bar]
    ticks: list[Tick]
    #: Where the plot area starts and ends, for drawing the axis.
    left: float
    bottom: float
    right: float
    top: float


def column_chart(
    id: str, title: str, description: str, values: list[tuple[str, int]], *, width: int = 640, height: int = 260
) -> Chart:
    """Vertical bars of counts, e.g. a score histogram; labels under the bars, counts above them.

    The axis is marked in whole numbers (see :func:`count_ticks`) and every bar is scaled
    against its top mark, so that a bar of 2 ends exactly on the gridline marked 2.
    """
    left, right, top, bottom = 48.0, width - 8.0, 16.0, height - 40.0
    marks = count_ticks(max((value for _, value in values), default=0))
    ceiling = marks[-1]

    def y_of(count: float) -> float:
        return bottom - (bottom - top) * count / ceiling

    slot = (right - left) / max(len(values), 1)
    bars = [
        Bar(label, value, format_decimal(value), left + index * slot + slot * 0.1, y_of(value), slot * 0.8, bottom - y_of(value))
        for index, (label, value) in enumerate(values)
    ]
    ticks = [Tick(y_of(mark), format_decimal(mark)) for mark in marks]
    return Chart(id, title, description, width, height, bars, ticks, left, bottom, right, top)


#: Most gridlines a count axis gets above zero; more would crowd a chart 200 pixels high.
MOST_COUNT_INTERVALS = 5


def count_ticks(largest: float, most_intervals: int = MOST_COUNT_INTERVALS) -> list[int]:
    """Whole-number marks for an axis of counts up to ``largest``: 0, then evenly spaced by the
    smallest of 1, 2, 5, 10, 20, 50... that needs at most ``most_intervals`` steps, up to the
    first mark at or above ``largest`` (0 and 1 when there is nothing to count)."""
    step = next(step for step in _nice_steps() if math.ceil(largest / step) <= most_intervals)
    intervals = max(1, math.ceil(largest / step))
    return [index * step for index in range(intervals + 1)]


def bar_chart(
    id: str,
    title: str,
    description: str,
    values: list[tuple[str, float, str]],
    *,
    maximum: float = 1.0,
    percent: bool = True,
    width: int = 640,
    row: int = 22,
) -> Chart:
    """Horizontal bars, one row each, e.g. facility per question; ``values`` are (label, value, css)."""
    label_width, text_width = 220.0, 56.0
    left, right, top = label_width, width - text_width, 8.0
    height = int(top + row * len(values) + 28)
    bottom = top + row * len(values)
    bars = []
    for index, (label, value, css) in enumerate(values):
        bar_width = (right - left) * max(0.0, min(value, maximum)) / maximum
        text = format_percent(value) if percent else format_decimal(value, "#,##0.00")
        bars.append(Bar(label, value, text, left, top + index * row + row * 0.15, bar_width, row * 0.7, css))
    ticks = [
        Tick(left + (right - left) * fraction, (format_percent if percent else format_decimal)(maximum * fraction))
        for fraction in (0, 0.25, 0.5, 0.75, 1)
    ]
    return Chart(id, title, description, width, height, bars, ticks, left, bottom, right, top)


def _nice_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 50, 100...: steps whose marks people read at a glance."""
    for power in itertools.count():
        for factor in (1, 2, 5):
            yield factor * 10**power
