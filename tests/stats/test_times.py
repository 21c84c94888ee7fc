"""Time figures: an attempt's answering time is the sum of its answers' times, as the students
table shows it, never the span from start (or joining) to the last answer; attempts that
skipped questions or were left open are not timed; attempts without an answer do not count."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa

from quiz import accounts, answering, live, play, stats
from quiz.extensions import db
from quiz.models import Attempt, LiveSession, Quiz, User
from tests.answers import answer_live, live_right, live_wrong, right_answer, turn_of
from tests.stats.conftest import START
from tests.web.live_helpers import QUIZ_SLUG, log_in


def play_timed(quiz: Quiz, answers: list[tuple[float, float]], *, started: datetime = START) -> Attempt:
    """A solo attempt on every question: per question, (seconds after the previous answer that
    its page is shown, seconds it then takes to answer). The answers are all right."""
    attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL,
                                 rng=random.Random(1))
    attempt.started_at = started
    db.session.flush()
    now = started
    for position, (pause, answering_seconds) in enumerate(answers, start=1):
        turn = turn_of(attempt, position)
        now += timedelta(seconds=pause)
        play.show(db.session, turn, now)
        now += timedelta(seconds=answering_seconds)
        assert answering.answer_solo(db.session, turn, right_answer(turn.revision, turn.order), now).recorded
    db.session.commit()
    db.session.refresh(attempt)
    return attempt


def test_solo_answering_time_leaves_out_reading_feedback_and_interrupted_attempts(quiz):
    # Half a minute reading each feedback page: the start-to-finish spans are 75 s and 80 s,
    # the answering times 4 + 6 + 5 = 15 s and 5 + 5 + 10 = 20 s.
    first = play_timed(quiz, [(0, 4), (30, 6), (30, 5)])
    second = play_timed(quiz, [(0, 5), (30, 5), (30, 10)])
    assert (first.duration_ms, second.duration_ms) == (75_000, 80_000)
    # Left open over lunch on the second question: finished, counted, but not timed.
    play_timed(quiz, [(0, 5), (0, 2 * 3600), (0, 5)])
    # Not finished: neither counted nor timed.
    unfinished = play.start_attempt(db.session, play.create_player(db.session), quiz, length=play.LENGTH_ALL)
    turn = turn_of(unfinished, 1)
    play.show(db.session, turn, START)
    answering.answer_solo(db.session, turn, right_answer(turn.revision, turn.order), START + timedelta(seconds=3))
    db.session.commit()

    figures = stats.quiz_stats(db.session, quiz)
    assert (figures.attempts_started, figures.attempts_finished) == (4, 3)
    assert figures.answering_time == stats.AnsweringTime(
        median_seconds=17.5, mean_seconds=17.5, attempts=2, left_out=1,
        longest_answer_seconds=stats.INTERRUPTED_ANSWER_SECONDS,
    )
    summary = stats.summary_json(figures)
    assert (summary["mean_seconds"], summary["median_seconds"]) == (17.5, 17.5)
    assert (summary["timed_attempts"], summary["untimed_attempts"]) == (2, 1)
    assert summary["longest_answer_seconds"] == stats.INTERRUPTED_ANSWER_SECONDS


def test_an_answer_just_within_the_limit_is_timed(quiz):
    play_timed(quiz, [(0, 5), (0, stats.INTERRUPTED_ANSWER_SECONDS), (0, 5)])
    play_timed(quiz, [(0, 5), (0, stats.INTERRUPTED_ANSWER_SECONDS + 1), (0, 5)])
    timing = stats.quiz_stats(db.session, quiz).answering_time
    assert (timing.attempts, timing.left_out, timing.median_seconds) == (1, 1, stats.INTERRUPTED_ANSWER_SECONDS + 10)
    assert stats.answering_time(db.session, stats.Scope(quiz.id), longest_answer_seconds=10_000).attempts == 2


def run_classroom(quiz: Quiz, host: User) -> tuple[LiveSession, dict[str, list[float | None]]]:
    """A host-paced session of three questions: students wait two minutes in the lobby, and 20 s
    between questions for the reveal. ana, ben (always wrong) and cat answer everything; dan
    misses question 2; eve joins and never answers. Returns the session and each student's
    answering seconds per question."""
    session = live.create_session(
        db.session, host, quiz,
        live.Settings(pacing=live.HOST_PACED, question_count=3, time_limit=60, scoring="plain", show_leaderboard=False),
        rng=random.Random(4),
    )
    questions = session.question_count
    seconds = {"ana": [6.0, 8.0, 10.0], "ben": [9.0, 7.0, 12.0], "cat": [5.0, 6.0, 9.0], "dan": [11.0, None, 14.0]}
    now = START
    students = {name: live.join(db.session, session, play.create_player(db.session), name, now)
                for name in [*seconds, "eve"]}
    now += timedelta(minutes=2)
    assert live.start(db.session, session, now)
    for position in range(1, questions + 1):
        opened = now
        for name, times in sorted(seconds.items(), key=lambda entry: entry[1][position - 1] or 0):
            if times[position - 1] is None:
                continue
            submission = (live_right if name != "ben" else live_wrong)(students[name], session)
            assert answer_live(session, students[name], submission, now=opened + timedelta(seconds=times[position - 1]))
        now = opened + timedelta(seconds=60)
        live.reveal(db.session, session, now)
        now += timedelta(seconds=20)
        live.advance(db.session, session, now)
    db.session.commit()
    assert session.state == live.FINISHED
    return session, seconds


def new_host() -> User:
    return accounts.create_user(db.session, "host", "a long enough password", "teacher")


def test_a_classroom_attempt_is_timed_by_its_answers_not_from_joining(quiz):
    session, seconds = run_classroom(quiz, new_host())
    figures = stats.quiz_stats(db.session, quiz, stats.Scope(quiz.id, session_id=session.id))
    # eve never answered: not an attempt that says anything, and not a 0% score.
    assert (figures.attempts_started, figures.attempts_finished) == (4, 4)
    assert sum(bin.attempts for bin in figures.histogram) == 4
    assert figures.histogram[0].attempts == 1  # ben, all wrong; eve is not there
    totals = {name: sum(value for value in times if value) for name, times in seconds.items()}
    complete = sorted(totals[name] for name in ("ana", "ben", "cat"))
    timing = figures.answering_time
    assert (timing.attempts, timing.left_out) == (3, 1)  # dan skipped a question
    assert timing.median_seconds == pytest.approx(complete[1])
    assert timing.mean_seconds == pytest.approx(sum(complete) / 3)
    # The same measure as each student's row.
    rows = {student.nickname: student.total_ms / 1000 for student in live.results(db.session, session).students}
    assert {name: rows[name] for name in totals} == pytest.approx(totals)
    # From joining to the last answer, attempts took well over two minutes.
    durations = db.session.scalars(
        sa.select(Attempt.duration_ms).where(Attempt.live_session_id == session.id, Attempt.duration_ms.is_not(None))
    ).all()
    assert min(durations) > 120_000 > 1000 * timing.median_seconds


def test_the_index_counts_finished_attempts_as_the_quiz_page_does(quiz):
    run_classroom(quiz, new_host())
    overview = {row.quiz.id: row.attempts_finished for row in stats.quiz_overview(db.session)}
    assert overview[quiz.id] == stats.quiz_stats(db.session, quiz).attempts_finished == 4


def test_session_page_labels_each_time_figure(bundled):
    teacher = log_in(bundled, "host")
    with bundled.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == QUIZ_SLUG))
        host = db.session.scalar(sa.select(User).where(User.username == "host"))
        session, seconds = run_classroom(quiz, host)
        session_id = session.id
    page = teacher.get(f"/stats/sessions/{session_id}").get_data(as_text=True)
    complete = sorted(sum(seconds[name]) for name in ("ana", "ben", "cat"))
    assert "<dt>Answering time per attempt</dt>" in page
    assert f"<dd>{complete[1]:.0f} s <span class=\"hint\">median (mean {sum(complete) / 3:.0f} s) of the 3 attempts" in page
    assert "1 left out for skipping a question" in page
    assert '<th scope="col">Answering time</th>' in page and "Median time to answer" in page
    assert "Average time" not in page
    assert "<dt>Finished attempts</dt><dd>4</dd>" in page and "<dt>Started attempts</dt><dd>4</dd>" in page
