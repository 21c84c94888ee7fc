"""Scoring rules for classroom sessions: how many points a right answer earns.

- ``plain``: one point per right answer.
- ``speed``: a right answer after ``t`` of ``T`` seconds earns ``round(1000 * (1 - t / (2*T)))``,
  so 1000 for an instant answer and 500 at the buzzer; plus a streak bonus of 100 points for
  each right answer in a row before this one, at most 500. A wrong answer earns nothing and
  ends the streak.
"""

from __future__ import annotations

from collections.abc import Callable

STREAK_BONUS = 100
STREAK_BONUS_CAP = 500


def plain(is_correct: bool, elapsed_ms: int, time_limit: int, streak: int) -> int:
    return 1 if is_correct else 0


def speed(is_correct: bool, elapsed_ms: int, time_limit: int, streak: int) -> int:
    """``streak`` counts the right answers in a row before this one."""
    if not is_correct:
        return 0
    seconds = min(max(elapsed_ms / 1000, 0.0), time_limit)
    base = round(1000 * (1 - seconds / (2 * time_limit)))
    return base + min(streak * STREAK_BONUS, STREAK_BONUS_CAP)


#: Rule name -> points for (is_correct, elapsed_ms, time_limit_seconds, streak_before).
RULES: dict[str, Callable[[bool, int, int, int], int]] = {"plain": plain, "speed": speed}
