"""Scoring rules: how many points an answer earns.

- ``plain``: one point for a right answer (an ordering question needs the exact order).
  Solo play always scores so.
- ``speed``: a right answer after ``t`` of ``T`` seconds earns ``round(1000 * (1 - t / (2*T)))``,
  so 1000 for an instant answer and 500 at the buzzer; plus a streak bonus of 100 points for
  each right answer in a row before this one, at most 500. A partly right answer (an ordering
  with some items in place) earns that share of the speed points, no bonus, and ends the
  streak; a wrong one earns nothing and ends it too.

A poll earns nothing under any rule, and neither extends nor ends a streak.
"""

from __future__ import annotations

from collections.abc import Callable

STREAK_BONUS = 100
STREAK_BONUS_CAP = 500


def plain(credit: float, elapsed_ms: int, time_limit: int, streak: int) -> int:
    return 1 if credit == 1.0 else 0


def speed(credit: float, elapsed_ms: int, time_limit: int, streak: int) -> int:
    """``streak`` counts the right answers in a row before this one."""
    if credit <= 0:
        return 0
    seconds = min(max(elapsed_ms / 1000, 0.0), time_limit)
    base = round(1000 * credit * (1 - seconds / (2 * time_limit)))
    return base + (min(streak * STREAK_BONUS, STREAK_BONUS_CAP) if credit == 1.0 else 0)


#: Rule name -> points for (credit from 0 to 1, elapsed_ms, time_limit_seconds, streak_before).
RULES: dict[str, Callable[[float, int, int, int], int]] = {"plain": plain, "speed": speed}


def points(rule: str, credit: float | None, elapsed_ms: int, time_limit: int, streak: int) -> int:
    """The points of an answer with ``credit`` (None for a poll, which earns none)."""
    return 0 if credit is None else RULES[rule](credit, elapsed_ms, time_limit, streak)


def next_streak(credit: float | None, streak: int) -> int:
    """The run of right answers after an answer with ``credit``: a poll leaves it as it was."""
    if credit is None:
        return streak
    return streak + 1 if credit == 1.0 else 0
