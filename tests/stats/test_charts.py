"""The score histogram as the page draws it: whole-number ticks, evenly spaced from 0, and bars
exactly as tall as their counts on that axis. Read from the rendered SVG, as a browser gets it."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from defusedxml import ElementTree
from flask import render_template_string

from quiz import charts, play
from quiz.extensions import db
from quiz.models import Quiz
from tests.answers import answer_solo
from tests.web.live_helpers import QUIZ_SLUG, log_in

#: A bar's top may sit this far from its count's place on the axis (the SVG rounds to 0.1 px).
TOLERANCE_PX = 0.5


@dataclass
class DrawnChart:
    #: (label, y) of each tick, bottom to top.
    ticks: list[tuple[int, float]]
    #: (top y, bottom y) of each bar, left to right.
    bars: list[tuple[float, float]]
    #: The counts printed above the bars that have one.
    printed: list[int]
    axis_y: float
    title: str
    description: str

    def y_of(self, count: float) -> float:
        """Where ``count`` lies on the axis, read from its first and last ticks."""
        (low, low_y), (high, high_y) = self.ticks[0], self.ticks[-1]
        return low_y + (high_y - low_y) * (count - low) / (high - low)


def read_column_chart(markup: str) -> DrawnChart:
    svg = ElementTree.fromstring(re.search(r"<svg\b.*?</svg>", markup, re.S).group(0))

    def of_class(tag: str, name: str) -> list:
        return [element for element in svg.iter(tag) if name in (element.get("class") or "").split()]

    grid = [float(line.get("y1")) for line in of_class("line", "grid")]
    labels = [int(text.text.replace(",", "")) for text in of_class("text", "tick")]
    assert len(grid) == len(labels)
    labelledby = svg.get("aria-labelledby").split()
    assert svg.get("role") == "img"
    assert [element.get("id") for element in (svg.find("title"), svg.find("desc"))] == labelledby
    return DrawnChart(
        ticks=list(zip(labels, grid)),
        bars=[(float(rect.get("y")), float(rect.get("y")) + float(rect.get("height"))) for rect in of_class("rect", "bar")],
        printed=[int(text.text.replace(",", "")) for text in of_class("text", "value")],
        axis_y=float(of_class("line", "axis")[0].get("y1")),
        title=svg.find("title").text,
        description=svg.find("desc").text,
    )


def assert_drawn_to_scale(drawn: DrawnChart, counts: list[int]) -> None:
    labels = [label for label, _ in drawn.ticks]
    ys = [y for _, y in drawn.ticks]
    steps = {b - a for a, b in zip(labels, labels[1:])}
    assert labels[0] == 0 and len(steps) == 1, labels
    assert labels[-1] >= max(counts, default=0)
    assert max(ys) - min(ys) > 100, "the axis should span most of the chart"
    gaps = [b - a for a, b in zip(ys, ys[1:])]
    assert max(gaps) - min(gaps) <= TOLERANCE_PX, "ticks should be evenly spaced"
    assert drawn.axis_y == pytest.approx(drawn.y_of(0), abs=TOLERANCE_PX)
    assert len(drawn.bars) == len(counts)
    for count, (top, bottom) in zip(counts, drawn.bars):
        assert top == pytest.approx(drawn.y_of(count), abs=TOLERANCE_PX), count
        assert bottom == pytest.approx(drawn.y_of(0), abs=TOLERANCE_PX), count
    assert drawn.printed == [count for count in counts if count]


def histogram_markup(counts: list[int]) -> str:
    chart = charts.column_chart(
        "chart-scores", "Scores of finished attempts", "Attempts per band of percent right.",
        [(f"{10 * index}–{10 * index + 10}%", count) for index, count in enumerate(counts)],
    )
    return render_template_string('{% import "stats/_parts.html" as parts %}{{ parts.column_chart(chart) }}', chart=chart)


@pytest.mark.parametrize(
    ("counts", "ticks"),
    [
        ([0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [0, 1]),
        ([0, 0, 1, 2, 0, 0, 1, 0, 0, 0], [0, 1, 2]),
        # The data set whose axis read "0, 1, 2, 4, 5", with a bar of 2 at 1.6.
        ([0, 1, 2, 5, 4, 3, 0, 0, 1, 0], [0, 1, 2, 3, 4, 5]),
        ([0, 0, 3, 7, 6, 2, 1, 0, 0, 0], [0, 2, 4, 6, 8]),
        ([1, 0, 4, 13, 9, 11, 2, 0, 0, 0], [0, 5, 10, 15]),
        ([3, 8, 19, 44, 100, 71, 38, 12, 5, 1], [0, 20, 40, 60, 80, 100]),
        ([0] * 10, [0, 1]),
        ([1500, 2600, 4100, 0, 0, 0, 0, 0, 0, 0], [0, 1000, 2000, 3000, 4000, 5000]),
    ],
    ids=["max-1", "max-2", "max-5", "max-7", "max-13", "max-100", "no-attempts", "max-4100"],
)
def test_histogram_ticks_are_whole_counts_and_bars_reach_their_count(app_ctx, counts, ticks):
    drawn = read_column_chart(histogram_markup(counts))
    assert [label for label, _ in drawn.ticks] == ticks
    assert_drawn_to_scale(drawn, counts)


@pytest.mark.parametrize("largest", [0, 1, 2, 3, 5, 6, 7, 9, 11, 13, 19, 26, 49, 51, 100, 101, 999, 1001, 123_456])
def test_count_ticks_end_at_or_above_the_largest_count_in_few_nice_steps(largest):
    marks = charts.count_ticks(largest)
    step = marks[1] - marks[0]
    assert marks == list(range(0, marks[-1] + 1, step))
    assert marks[-1] >= largest and marks[-2] < max(largest, 1)
    assert len(marks) - 1 <= charts.MOST_COUNT_INTERVALS
    assert str(step).rstrip("0") in ("1", "2", "5")


def test_the_quiz_page_draws_its_own_histogram_to_scale(bundled):
    rng = random.Random(11)
    with bundled.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == QUIZ_SLUG))
        for _ in range(9):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, rng=rng)
            for position in range(1, attempt.question_count + 1):
                answer_solo(attempt, position, right=rng.random() < 0.7)
        db.session.commit()
    teacher = log_in(bundled, "teacher")
    counts = [bin["attempts"] for bin in teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json").get_json()["scores"]]
    assert sum(counts) == 9 and max(counts) >= 2

    drawn = read_column_chart(teacher.get(f"/stats/quiz/{QUIZ_SLUG}").get_data(as_text=True))
    assert drawn.title == "Scores of finished attempts"
    assert_drawn_to_scale(drawn, counts)
    # The description gives screen readers the same counts.
    assert [int(count) for count in re.findall(r"%: (\d+)", drawn.description)] == counts
