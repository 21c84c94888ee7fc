"""Reliability (KR-20): shown only from enough attempts, and explained in words whenever there is
no coefficient to show or the coefficient is one a teacher would misread."""

from __future__ import annotations

import pytest
from flask import render_template_string

from quiz import stats
from quiz.extensions import db

RIGHT, WRONG = 0, 1
SLUGS = ("opened", "holds", "coach")


def play_pattern(play_attempt, pattern: str, times: int = 1) -> None:
    """Play ``times`` attempts right ("1") or wrong ("0") on opened, holds and coach in turn."""
    for _ in range(times):
        play_attempt({slug: RIGHT if mark == "1" else WRONG for slug, mark in zip(SLUGS, pattern)})


def summary_markup(figures: stats.QuizStats) -> str:
    """The summary as the quiz and session pages render it."""
    links = {"summary": "/summary.csv"}
    return render_template_string(
        '{% import "stats/_parts.html" as parts %}{{ parts.summary(stats, links) }}', stats=figures, links=links
    )


def item(facility: float | None, answers: int = 40) -> stats.ItemStats:
    return stats.ItemStats(
        revision_id=1, question_id=1, slug="q", revision_number=1, superseded=False, position=0, kind="single",
        prompt="?", answers=answers, right=round((facility or 0) * answers), facility=facility, discrimination=None,
        median_seconds=None, choices=[],
    )


def test_below_the_minimum_no_coefficient_but_how_many_attempts_there_are(quiz, play_attempt):
    # Scores 3, 2, 1, 1 and 0 of 3: KR-20 would be computable, and on so few attempts as likely
    # negative as not.
    for pattern in ("111", "110", "100", "010", "000"):
        play_pattern(play_attempt, pattern)
    figures = stats.quiz_stats(db.session, quiz)
    assert figures.reliability is None
    assert (figures.reliability_attempts, figures.reliability_length) == (5, 3)
    assert figures.reliability_note == (
        f"5 finished attempts of 3 questions so far: reliability is shown from "
        f"{stats.MIN_ATTEMPTS_FOR_RELIABILITY} such attempts."
    )
    summary = stats.as_json(figures)["summary"]
    assert (summary["reliability_kr20"], summary["reliability_status"], summary["reliability_min_attempts"]) == (
        None, "too_few_attempts", stats.MIN_ATTEMPTS_FOR_RELIABILITY
    )
    assert summary["reliability_note"] == figures.reliability_note
    page = summary_markup(figures)
    assert "reliability is shown from 30 such attempts" in page
    assert '<dt>Reliability (KR-20)</dt><dd><span class="note">5 finished' in page  # a sentence, no number or dash


def test_the_minimum_is_a_threshold_the_caller_can_set(quiz, play_attempt):
    for pattern in ("111", "110", "100", "010"):
        play_pattern(play_attempt, pattern)
    assert stats.quiz_stats(db.session, quiz, min_attempts_for_reliability=5).reliability is None
    at_four = stats.quiz_stats(db.session, quiz, min_attempts_for_reliability=4)
    assert at_four.reliability == pytest.approx(3 / 11) and at_four.reliability_note is None
    assert (at_four.reliability_status, at_four.reliability_min_attempts) == (stats.RELIABILITY_SHOWN, 4)
    assert "over 4 attempts of 3 questions" in summary_markup(at_four)


def test_a_negative_coefficient_says_what_it_means(quiz, play_attempt):
    # Players right on opened and holds are wrong on coach, and the other way round: the
    # questions pull apart. Items p = 1/2 each, totals 2 or 1: KR-20 = 3/2 (1 - 0.75/0.25) = -3.
    play_pattern(play_attempt, "110", times=15)
    play_pattern(play_attempt, "001", times=15)
    figures = stats.quiz_stats(db.session, quiz)
    assert figures.reliability_attempts == stats.MIN_ATTEMPTS_FOR_RELIABILITY
    assert figures.reliability == pytest.approx(-3.0)
    assert figures.reliability_note.startswith("Below zero: on these attempts the questions do not measure one thing")
    assert figures.reliability_status == stats.RELIABILITY_NEGATIVE
    page = summary_markup(figures)
    assert "-3.00" in page and "Below zero" in page
    assert stats.as_json(figures)["summary"]["reliability_kr20"] == -3.0


def test_scores_all_equal_say_why_there_is_no_coefficient(quiz, play_attempt):
    # Every attempt one right of three, each on a different question.
    for pattern in ("100", "010", "001"):
        play_pattern(play_attempt, pattern, times=10)
    figures = stats.quiz_stats(db.session, quiz)
    assert (figures.reliability, figures.reliability_status) == (None, stats.RELIABILITY_SAME_SCORES)
    assert figures.reliability_note == (
        "All 30 finished attempts of 3 questions have the same score, so reliability cannot be computed: "
        "the scores do not tell players apart."
    )
    assert "the scores do not tell players apart" in summary_markup(figures)


def test_a_plain_coefficient_has_no_note(quiz, play_attempt):
    for pattern, times in (("111", 10), ("110", 8), ("100", 7), ("000", 5)):
        play_pattern(play_attempt, pattern, times)
    figures = stats.quiz_stats(db.session, quiz)
    assert 0 < figures.reliability <= 1 and figures.reliability_note is None
    assert figures.reliability_status == stats.RELIABILITY_SHOWN
    assert "over 30 attempts of 3 questions" in summary_markup(figures)


def test_above_one_is_not_shown_as_a_reliability():
    # Attempts of two questions drawn from four: two always right, two always wrong. The scores
    # vary only with which questions were drawn, and KR-20 comes out at 2.
    lengths = {(2, 2): 10, (1, 2): 20, (0, 2): 10}
    figures = stats.reliability(lengths, [item(1.0), item(1.0), item(0.0), item(0.0)])
    assert figures.coefficient is None and (figures.length, figures.attempts) == (2, 40)
    assert figures.status == stats.RELIABILITY_ABOVE_ONE
    assert figures.note.startswith("Above 1, which a reliability cannot be")


def test_attempts_of_one_question_have_no_reliability():
    figures = stats.reliability({(1, 1): 20, (0, 1): 20}, [item(0.5)])
    assert (figures.coefficient, figures.status) == (None, stats.RELIABILITY_TOO_SHORT)
    assert figures.note == "40 finished attempts of 1 question: reliability needs attempts of at least two questions."


def test_polls_do_not_water_down_the_item_variance():
    # Polls are never right or wrong (facility None): their answers must not count in the mean
    # item variance, or every poll would raise KR-20.
    lengths = {(3, 3): 12, (2, 3): 10, (1, 3): 5, (0, 3): 3}
    scored = [item(0.7, answers=30), item(0.6, answers=30), item(0.5, answers=30)]
    without_poll = stats.reliability(lengths, scored)
    with_poll = stats.reliability(lengths, [*scored, item(None, answers=30)])
    assert with_poll.coefficient == pytest.approx(without_poll.coefficient)


def test_no_attempts_no_note(quiz):
    figures = stats.quiz_stats(db.session, quiz)
    assert (figures.reliability, figures.reliability_length, figures.reliability_note) == (None, None, None)
    assert figures.reliability_status == stats.RELIABILITY_NO_ATTEMPTS
    assert "<dt>Reliability (KR-20)</dt><dd>–</dd>" in summary_markup(figures)
