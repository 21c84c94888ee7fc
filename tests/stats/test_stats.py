"""Item analysis: the formulas against a hand-computed example and against numpy/scipy, and
which attempts count."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

import numpy as np
import pytest
import sqlalchemy as sa
from scipy import stats as scipy_stats

from quiz import play, scores, stats
from quiz.kinds import Graded
from quiz.extensions import db
from quiz.models import Answer
from tests.stats.conftest import START

RIGHT, WRONG_B, WRONG_C = 0, 1, 2


def by_slug(figures: stats.QuizStats) -> dict[str, stats.ItemStats]:
    return {item.slug: item for item in figures.items}


def test_hand_computed_example(quiz, play_attempt):
    # Right (1) or wrong (0) per attempt, for opened / holds / coach:
    #   [1,1,1] [1,1,0] [1,0,0] [0,1,0]   totals 3, 2, 1, 1
    play_attempt({"opened": RIGHT, "holds": RIGHT, "coach": RIGHT}, {"opened": 2, "holds": 4, "coach": 6})
    play_attempt({"opened": RIGHT, "holds": RIGHT, "coach": WRONG_B}, {"opened": 3, "holds": 5, "coach": 7})
    play_attempt({"opened": RIGHT, "holds": WRONG_B, "coach": WRONG_C}, {"opened": 4, "holds": 6, "coach": 8})
    play_attempt({"opened": WRONG_B, "holds": RIGHT, "coach": WRONG_B}, {"opened": 10, "holds": 7, "coach": 9})

    figures = stats.quiz_stats(db.session, quiz)
    items = by_slug(figures)
    assert [item.slug for item in figures.items] == ["opened", "holds", "coach"]
    assert (figures.attempts_started, figures.attempts_finished, figures.answers) == (4, 4, 12)

    assert items["opened"].facility == pytest.approx(0.75)
    assert items["coach"].facility == pytest.approx(0.25)
    # opened: x = 1,1,1,0 against rest shares 1, 1/2, 0, 1/2: no correlation.
    assert items["opened"].discrimination == pytest.approx(0.0, abs=1e-12)
    # coach: x = 1,0,0,0 against rest shares 1, 1, 1/2, 1/2: 1/sqrt(3).
    assert items["coach"].discrimination == pytest.approx(1 / math.sqrt(3))

    # Choices of "coach": Ann 1, Bea 2, Cat 1 of 4.
    assert [(c.text, c.picks, c.share) for c in items["coach"].choices] == [
        ("Ann", 1, 0.25), ("Bea", 2, 0.5), ("Cat", 1, 0.25)
    ]
    # Median times: opened 2, 3, 4, 10 s -> 3.5 s; coach 6, 7, 8, 9 -> 7.5 s.
    assert items["opened"].median_seconds == pytest.approx(3.5)
    assert items["coach"].median_seconds == pytest.approx(7.5)

    # Scores 100, 66.7, 33.3, 33.3 percent.
    assert figures.mean_percent == pytest.approx(100 * 7 / 12)
    assert figures.median_percent == pytest.approx(50.0)
    assert figures.sd_percent == pytest.approx(100 * math.sqrt(11 / 16) / 3)
    # Four attempts are too few for reliability to be shown...
    assert figures.reliability is None
    assert (figures.reliability_length, figures.reliability_attempts) == (3, 4)
    # ...but its formula holds: KR-20 = 3/2 * (1 - (3 * 3/16) / (11/16)) = 3/11.
    assert stats.quiz_stats(db.session, quiz, min_attempts_for_reliability=4).reliability == pytest.approx(3 / 11)
    assert [bin.attempts for bin in figures.histogram] == [0, 0, 0, 2, 0, 0, 1, 0, 0, 1]
    # Answering time per attempt: 2+4+6, 3+5+7, 4+6+8, 10+7+9 = 12, 15, 18, 26 s.
    assert figures.answering_time == stats.AnsweringTime(16.5, 17.75, 4, 0, stats.INTERRUPTED_ANSWER_SECONDS)


def test_thirds_split_tied_attempts_evenly_across_a_boundary():
    # Shares 1/3, 1/3, 2/3, 1: the bottom third (4/3 attempts) takes 2/3 of each 1/3-attempt;
    # the top third takes 1/3 of the 2/3-attempt and the whole 3/3-attempt.
    weights = stats._third_weights({(1, 3): 2, (2, 3): 1, (3, 3): 1})
    assert weights[(1, 3)] == pytest.approx((2 / 3, 0.0))
    assert weights[(2, 3)] == pytest.approx((0.0, 1 / 3))
    assert weights[(3, 3)] == pytest.approx((0.0, 1.0))
    # Equal shares of different lengths are one tie.
    assert stats._third_weights({(1, 2): 3, (2, 4): 3})[(1, 2)] == pytest.approx((1 / 3, 1 / 3))


def test_the_figures_agree_with_numpy_and_scipy(quiz, play_attempt):
    rng = random.Random(7)
    slugs = ["opened", "holds", "coach"]
    matrix, times = [], {slug: [] for slug in slugs}
    for _ in range(60):
        ability = rng.gauss(0, 1)
        picks, seconds = {}, {}
        for index, slug in enumerate(slugs):
            right = rng.random() < 1 / (1 + math.exp(-(ability - (index - 1))))
            picks[slug] = RIGHT if right else rng.choice([WRONG_B, WRONG_C])
            seconds[slug] = round(rng.uniform(1, 20), 3)
            times[slug].append(seconds[slug])
        matrix.append([int(picks[slug] == RIGHT) for slug in slugs])
        play_attempt(picks, seconds)

    figures = stats.quiz_stats(db.session, quiz)
    items = by_slug(figures)
    x = np.array(matrix)
    totals = x.sum(axis=1)
    for column, slug in enumerate(slugs):
        rest = (totals - x[:, column]) / (len(slugs) - 1)
        assert items[slug].facility == pytest.approx(x[:, column].mean())
        assert items[slug].discrimination == pytest.approx(scipy_stats.pointbiserialr(x[:, column], rest).statistic)
        assert items[slug].median_seconds == pytest.approx(np.median(times[slug]), abs=1e-3)
    k = len(slugs)
    alpha = k / (k - 1) * (1 - x.var(axis=0, ddof=1).sum() / totals.var(ddof=1))
    assert figures.reliability == pytest.approx(alpha)
    percents = 100 * totals / k
    assert figures.mean_percent == pytest.approx(percents.mean())
    assert figures.sd_percent == pytest.approx(percents.std())
    assert figures.median_percent == pytest.approx(np.median(percents))


def test_only_finished_attempts_count_and_retries_never(quiz, play_attempt):
    done = play_attempt({"opened": WRONG_B, "holds": RIGHT, "coach": RIGHT})
    play_attempt({"opened": RIGHT, "holds": RIGHT, "coach": RIGHT}, finish=False)
    retry = play.retry_missed(db.session, done)
    db.session.commit()
    slot = retry.slots[0]
    scores.store_answer(db.session, retry.id, slot.question_id, slot.revision_id, Graded(1, None, 1.0),
                        points=1, now=datetime(2026, 3, 2), elapsed_ms=1000)
    db.session.refresh(retry)
    db.session.commit()
    assert retry.finished_at is not None

    figures = stats.quiz_stats(db.session, quiz)
    assert (figures.attempts_started, figures.attempts_finished, figures.answers) == (2, 1, 3)
    assert by_slug(figures)["opened"].facility == 0
    counted = db.session.scalars(sa.select(Answer).where(Answer.attempt_question_count.is_not(None))).all()
    assert {answer.attempt_id for answer in counted} == {done.id}
    assert {(a.attempt_correct_count, a.attempt_question_count) for a in counted} == {(2, 3)}


def test_an_edited_question_keeps_its_versions_apart(quiz, play_attempt, write_bank):
    from quiz.bank import load_bank
    from quiz.bank.importer import import_bank
    from tests.stats.conftest import BANK

    play_attempt({"opened": RIGHT, "holds": RIGHT, "coach": RIGHT})
    import_bank(db.session, load_bank(write_bank(BANK.replace("When did the rink open?", "In which year did the rink open?"))))
    db.session.commit()
    play_attempt({"opened": WRONG_B, "holds": RIGHT, "coach": RIGHT})

    opened = [item for item in stats.quiz_stats(db.session, quiz).items if item.slug == "opened"]
    assert [(item.revision_number, item.superseded, item.answers, item.facility) for item in opened] == [
        (1, True, 1, 1.0), (2, False, 1, 0.0)
    ]
    assert opened[1].prompt == "In which year did the rink open?"
    assert [item.label for item in opened] == ["opened (v1)", "opened (v2)"]


def test_scope_by_date_and_by_play(quiz, play_attempt):
    from quiz import accounts
    from quiz.models import LiveSession

    host = accounts.create_user(db.session, "host", "a long enough password", "teacher")
    live = LiveSession(code="123456", host_id=host.id, quiz_id=quiz.id, pacing="self", scoring="plain",
                       shuffle_seed=1, state="finished", question_count=3)
    db.session.add(live)
    db.session.commit()
    play_attempt({"opened": RIGHT, "holds": RIGHT, "coach": RIGHT}, started=START)
    play_attempt({"opened": WRONG_B, "holds": RIGHT, "coach": RIGHT}, started=START + timedelta(days=3))
    play_attempt({"opened": WRONG_C, "holds": RIGHT, "coach": RIGHT}, started=START, live_session_id=live.id)

    def opened_picks(scope: stats.Scope) -> list[int]:
        return [choice.picks for choice in by_slug(stats.quiz_stats(db.session, quiz, scope))["opened"].choices]

    assert opened_picks(stats.Scope(quiz.id)) == [1, 1, 1]
    assert opened_picks(stats.Scope(quiz.id, solo_only=True)) == [1, 1, 0]
    assert opened_picks(stats.Scope(quiz.id, session_id=live.id)) == [0, 0, 1]
    assert opened_picks(stats.Scope(quiz.id, started_from=START + timedelta(days=1))) == [0, 1, 0]
    assert opened_picks(stats.Scope(quiz.id, started_before=START + timedelta(days=1))) == [1, 0, 1]
    assert stats.quiz_stats(db.session, quiz, stats.Scope(quiz.id, session_id=live.id)).attempts_finished == 1


def test_no_answers_gives_empty_figures(quiz):
    figures = stats.quiz_stats(db.session, quiz)
    assert figures.items == [] and figures.attempts_finished == 0
    assert figures.mean_percent is None and figures.reliability is None
    assert [bin.attempts for bin in figures.histogram] == [0] * 10


def _item(facility: float, discrimination: float | None, choices: list[tuple[bool, float, float | None, float | None]], answers: int = 100):
    return stats.ItemStats(
        revision_id=1, question_id=1, slug="q", revision_number=1, superseded=False, position=0, kind="single",
        prompt="?", answers=answers, right=int(facility * answers), facility=facility, discrimination=discrimination,
        median_seconds=None,
        choices=[stats.ChoiceStats(i, f"choice {i}", correct, int(share * answers), share, top, bottom)
                 for i, (correct, share, top, bottom) in enumerate(choices)],
    )


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (_item(0.95, 0.3, [(True, 0.95, None, None), (False, 0.03, None, None), (False, 0.02, None, None)]), ["Too easy"]),
        (_item(0.2, 0.3, [(True, 0.2, None, None), (False, 0.4, None, None), (False, 0.4, None, None)]), ["Too hard"]),
        (_item(0.6, -0.2, [(True, 0.6, None, None), (False, 0.2, None, None), (False, 0.2, None, None)]), ["Negative discrimination"]),
        (_item(0.6, 0.1, [(True, 0.6, None, None), (False, 0.2, None, None), (False, 0.2, None, None)]), ["Weak discrimination"]),
        (_item(0.6, 0.4, [(True, 0.6, None, None), (False, 0.39, None, None), (False, 0.01, None, None)]), ["Dead distractor"]),
        (_item(0.6, 0.4, [(True, 0.6, 0.6, 0.6), (False, 0.2, 0.3, 0.1), (False, 0.2, 0.1, 0.3)]), ["Misleading distractor"]),
        (_item(0.6, 0.4, [(True, 0.6, 0.8, 0.4), (False, 0.2, 0.1, 0.3), (False, 0.2, 0.1, 0.3)]), []),
        (_item(1.0, None, [(True, 1.0, None, None), (False, 0.0, None, None)], answers=9), []),
    ],
)
def test_review_reasons(item, expected):
    assert [reason.split(":")[0].split(" (")[0] for reason in stats.review_reasons(item)] == expected


def test_leaderboard_reads_the_ranking_index_without_sorting(bundled):
    with bundled.app_context():
        query = str(
            sa.select(play.BestScore).where(play.BestScore.quiz_id == 1)
            .order_by(play.BestScore.score.desc(), play.BestScore.duration_ms, play.BestScore.finished_at)
            .limit(50).compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": True})
        )
        if db.engine.dialect.name == "sqlite":
            plan = " ".join(row[3] for row in db.session.execute(sa.text("EXPLAIN QUERY PLAN " + query)))
            assert "ix_best_score_ranking" in plan
            assert "TEMP B-TREE" not in plan
        else:
            # A small table is cheapest to scan and sort; with those priced out, the plan shows whether
            # the index alone can give the ranking order.
            db.session.execute(sa.text("SET LOCAL enable_seqscan = off"))
            db.session.execute(sa.text("SET LOCAL enable_bitmapscan = off"))
            plan = " ".join(row[0] for row in db.session.execute(sa.text("EXPLAIN " + query)))
            assert "ix_best_score_ranking" in plan
            assert "Sort" not in plan
