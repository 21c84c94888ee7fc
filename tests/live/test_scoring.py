"""The scoring rules of classroom sessions, as pure functions (quiz.scoring)."""

from __future__ import annotations

import pytest

from quiz import scoring


def test_the_rules_are_plain_and_speed():
    assert scoring.RULES == {"plain": scoring.plain, "speed": scoring.speed}


@pytest.mark.parametrize("elapsed_ms", [0, 1_500, 29_999, 30_000, 90_000])
@pytest.mark.parametrize("streak", [0, 3, 12])
def test_plain_scores_one_point_per_right_answer_whatever_the_time_or_streak(elapsed_ms, streak):
    assert scoring.plain(True, elapsed_ms, 30, streak) == 1
    assert scoring.plain(False, elapsed_ms, 30, streak) == 0


@pytest.mark.parametrize(
    ("elapsed_ms", "time_limit", "points"),
    [
        (0, 30, 1000),  # instant
        (15_000, 30, 750),  # half the time
        (30_000, 30, 500),  # at the buzzer
        (45_000, 30, 500),  # late: clamped to the buzzer
        (10_000, 20, 750),
        (5_000, 20, 875),  # round(1000 * (1 - 5/40))
        (7_000, 30, 883),  # round(883.33...)
        (1_000, 30, 983),  # round(983.33...)
        (2_000, 30, 967),  # round(966.66...)
        (239_000, 240, 502),  # round(502.08...)
        (-500, 30, 1000),  # a clock skew never earns more than an instant answer
    ],
)
def test_speed_scores_a_right_answer_by_the_time_taken(elapsed_ms, time_limit, points):
    assert scoring.speed(True, elapsed_ms, time_limit, 0) == points


def test_speed_decreases_as_time_passes_and_stays_between_500_and_1000():
    points = [scoring.speed(True, ms, 30, 0) for ms in range(0, 40_001, 500)]
    assert points == sorted(points, reverse=True)
    assert points[0] == 1000 and points[-1] == 500
    assert all(500 <= p <= 1000 for p in points)


@pytest.mark.parametrize(
    ("streak", "bonus"), [(0, 0), (1, 100), (2, 200), (4, 400), (5, 500), (6, 500), (20, 500)]
)
def test_speed_adds_100_per_right_answer_in_a_row_before_this_one_capped_at_500(streak, bonus):
    assert scoring.speed(True, 0, 30, streak) == 1000 + bonus
    assert scoring.speed(True, 30_000, 30, streak) == 500 + bonus
    assert scoring.speed(True, 15_000, 30, streak) == 750 + bonus


@pytest.mark.parametrize("streak", [0, 1, 5, 9])
@pytest.mark.parametrize("elapsed_ms", [0, 15_000, 60_000])
def test_speed_gives_nothing_for_a_wrong_answer_whatever_the_streak(streak, elapsed_ms):
    assert scoring.speed(False, elapsed_ms, 30, streak) == 0


def test_the_constants_match_the_documented_rule():
    assert (scoring.STREAK_BONUS, scoring.STREAK_BONUS_CAP) == (100, 500)
