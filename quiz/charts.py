"""Geometry for the statistics charts, which templates draw as inline SVG.

Charts are drawn on the server: no chart library, no script, nothing fetched. Each chart is
an image with a title and a description for screen readers, and the page shows the same
numbers in a table next to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


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
    id: str, title: str, description: str, values: list[tuple[str, float]], *, width: int = 640, height: int = 260
) -> Chart:
    """Vertical bars, e.g. a score histogram; labels under the bars, counts above them."""
    left, right, top, bottom = 48.0, width - 8.0, 16.0, height - 40.0
    ceiling = _nice_ceiling(max((value for _, value in values), default=0))
    slot = (right - left) / max(len(values), 1)
    bars = []
    for index, (label, value) in enumerate(values):
        bar_height = (bottom - top) * value / ceiling
        bars.append(
            Bar(label, value, f"{value:,.0f}", left + index * slot + slot * 0.1, bottom - bar_height, slot * 0.8, bar_height)
        )
    ticks = [
        Tick(bottom - (bottom - top) * fraction, f"{ceiling * fraction:,.0f}")
        for fraction in (0, 0.25, 0.5, 0.75, 1)
    ]
    return Chart(id, title, description, width, height, bars, ticks, left, bottom, right, top)


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
        text = f"{value:.0%}" if percent else f"{value:,.2f}"
        bars.append(Bar(label, value, text, left, top + index * row + row * 0.15, bar_width, row * 0.7, css))
    ticks = [
        Tick(left + (right - left) * fraction, f"{maximum * fraction:.0%}" if percent else f"{maximum * fraction:g}")
        for fraction in (0, 0.25, 0.5, 0.75, 1)
    ]
    return Chart(id, title, description, width, height, bars, ticks, left, bottom, right, top)


def _nice_ceiling(value: float) -> float:
    """The smallest 1, 2 or 5 times a power of ten at or above ``value`` (at least 1)."""
    if value <= 1:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 5, 10):
        if value <= step * power:
            return float(step * power)
    raise AssertionError("unreachable")
