"""Solo play's domain functions, called directly with a database session (no HTTP)."""

from __future__ import annotations

import random
import shutil
import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa

from quiz import answering, play
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import Answer, Attempt, BestScore, Player, utcnow
from quiz.paths import bundled_bank
from tests.answers import answer_solo, play_through, right_answer, turn_of
from tests.conftest import BUNDLED_ASKED


@pytest.fixture
def quiz(bundled, app_ctx):
    return play.quiz_by_slug(db.session, "kiss-and-cry")


@pytest.fixture
def new_player(app_ctx):
    def create(nickname: str | None = None):
        player = play.create_player(db.session)
        play.set_nickname(db.session, player, nickname)
        return player

    return create


def answer_of(attempt, position):
    return db.session.scalar(
        sa.select(Answer).where(Answer.attempt_id == attempt.id, Answer.question_id == turn_of(attempt, position).question_id)
    )


def test_standard_attempt_asks_the_quiz_length_of_distinct_questions(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz, rng=random.Random(1))
    question_ids = [slot.question_id for slot in attempt.slots]
    assert attempt.question_count == quiz.questions_per_attempt == len(question_ids)
    assert len(set(question_ids)) == len(question_ids)


def test_all_length_asks_every_active_question(quiz, new_player):
    total = play.question_counts(db.session, quiz).total
    attempt = play.start_attempt(db.session, new_player(), quiz, length=play.LENGTH_ALL)
    assert attempt.question_count == total == BUNDLED_ASKED


def test_difficulty_filter_asks_only_that_difficulty(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz, length=play.LENGTH_ALL, difficulty="hard")
    assert attempt.question_count == play.question_counts(db.session, quiz).by_difficulty["hard"]
    assert {slot.revision.difficulty for slot in attempt.slots} == {"hard"}


def test_an_attempt_with_no_matching_question_is_refused(quiz, new_player):
    with pytest.raises(play.NoQuestions):
        play.start_attempt(db.session, new_player(), quiz, difficulty="impossible")


def test_choice_order_is_shuffled_per_attempt_and_stable_across_reloads(quiz, new_player):
    player = new_player()
    first = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL, rng=random.Random(1))
    second = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL, rng=random.Random(2))

    def orders(attempt):
        return {
            turn.question_id: [choice.position for choice in turn.order]
            for turn in (turn_of(attempt, position) for position in range(1, attempt.question_count + 1))
        }

    assert orders(first) == orders(first)
    assert orders(first) != orders(second)
    canonical = {slot.question_id: [choice.position for choice in slot.revision.choices] for slot in first.slots}
    assert orders(first) != canonical


def test_a_right_answer_scores_a_point_and_points_at_its_revision(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz)
    assert answer_solo(attempt, 1, right=True)
    answer = answer_of(attempt, 1)
    assert (answer.is_correct, answer.credit, answer.points, answer.revision_id) == (
        True, 1.0, 1, attempt.slots[0].revision_id)
    assert (attempt.score, attempt.answered_count) == (1, 1)


def test_answering_twice_records_the_first_answer_only(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz)
    assert answer_solo(attempt, 1, right=False)
    assert not answer_solo(attempt, 1, right=True)
    answers = db.session.scalars(sa.select(Answer).where(Answer.attempt_id == attempt.id)).all()
    assert [answer.is_correct for answer in answers] == [False]
    assert (attempt.score, attempt.answered_count) == (0, 1)


def test_a_choice_number_off_the_screen_is_refused(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz)
    turn = turn_of(attempt, 1)
    with pytest.raises(answering.InvalidAnswer):
        answer_solo(attempt, 1, [len(turn.order) + 1])
    assert answer_of(attempt, 1) is None


def test_multi_questions_need_exactly_the_correct_set(quiz, new_player):
    player = new_player()
    outcomes = []
    for pick in (lambda numbers: numbers[:1], lambda numbers: numbers):
        attempt = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL)
        position = next(slot.position for slot in attempt.slots if slot.revision.kind == "multi")
        for earlier in range(1, position):
            answer_solo(attempt, earlier)
        turn = turn_of(attempt, position)
        answer_solo(attempt, position, pick(list(right_answer(turn.revision, turn.order).choices)))
        outcomes.append(answer_of(attempt, position).is_correct)
    assert outcomes == [False, True]


def test_time_to_answer_is_measured_from_the_first_showing(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz)
    shown = utcnow()
    play.show(db.session, turn_of(attempt, 1), now=shown)
    play.show(db.session, turn_of(attempt, 1), now=shown + timedelta(seconds=3))  # a reload
    answer_solo(attempt, 1, now=shown + timedelta(seconds=7), shown=False)
    assert answer_of(attempt, 1).elapsed_ms == 7000


def test_an_answer_to_a_question_never_shown_has_no_time(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz)
    answer_solo(attempt, 1, shown=False)
    assert answer_of(attempt, 1).elapsed_ms is None


def test_an_attempt_finished_a_month_later_keeps_times_the_database_can_hold(quiz, new_player):
    attempt = play.start_attempt(db.session, new_player(), quiz)
    month_later = attempt.started_at + timedelta(days=30)
    play_through(attempt, right=1, now=month_later)
    db.session.commit()
    assert attempt.duration_ms == 2**31 - 1
    assert answer_of(attempt, 1).elapsed_ms == 0


def test_finishing_records_duration_and_best_score(quiz, new_player):
    player = new_player("Ana")
    attempt = play.start_attempt(db.session, player, quiz)
    play_through(attempt, right=6)
    assert attempt.finished_at is not None and attempt.duration_ms is not None
    assert play.next_position(attempt) is None
    best = play.personal_best(db.session, quiz, player)
    assert (best.attempt_id, best.score) == (attempt.id, 6)


def test_a_worse_attempt_keeps_the_best_and_a_better_one_replaces_it(quiz, new_player):
    player = new_player("Ana")
    good = play.start_attempt(db.session, player, quiz)
    play_through(good, right=7)
    worse = play.start_attempt(db.session, player, quiz)
    play_through(worse, right=3)
    assert play.personal_best(db.session, quiz, player).attempt_id == good.id
    better = play.start_attempt(db.session, player, quiz)
    play_through(better, right=9)
    assert play.personal_best(db.session, quiz, player).attempt_id == better.id
    assert db.session.scalar(sa.select(sa.func.count()).select_from(BestScore)) == 1


def test_retry_asks_only_the_missed_questions_and_stays_off_the_leaderboard(quiz, new_player):
    player = new_player("Ana")
    attempt = play.start_attempt(db.session, player, quiz)
    play_through(attempt, right=6)
    missed = {slot.question_id for slot in attempt.slots[6:]}
    retry = play.retry_missed(db.session, attempt)
    assert {slot.question_id for slot in retry.slots} == missed
    assert retry.retry_of_id == attempt.id
    play_through(retry, right=4)
    assert play.personal_best(db.session, quiz, player).attempt_id == attempt.id
    assert play.retry_missed(db.session, retry) is None


def test_leaderboard_ranks_by_score_then_time_then_finish_and_lists_named_players_only(quiz, new_player):
    start = utcnow()
    entries = [("slow", 8, 50), ("fast", 8, 20), ("top", 9, 90), ("low", 2, 5), (None, 10, 1)]
    for nickname, right, seconds in entries:
        attempt = play.start_attempt(db.session, new_player(nickname), quiz)
        attempt.started_at = start
        play_through(attempt, right=right, now=start + timedelta(seconds=seconds))
    tie = play.start_attempt(db.session, new_player("tie-later"), quiz)
    tie.started_at = start + timedelta(seconds=30)
    play_through(tie, right=8, now=start + timedelta(seconds=50))  # same 20 s as "fast", later

    rows = play.leaderboard(db.session, quiz)
    assert [(row.rank, row.nickname, row.score) for row in rows] == [
        (1, "top", 9), (2, "fast", 8), (3, "tie-later", 8), (4, "slow", 8), (5, "low", 2)
    ]
    best = play.personal_best(db.session, quiz, db.session.get(Player, tie.player_id))
    assert play.rank_of(db.session, best) == 3


def test_an_edited_question_keeps_old_attempts_on_their_revision(quiz, new_player, tmp_path):
    attempt = play.start_attempt(db.session, new_player(), quiz, length=play.LENGTH_ALL)
    slot = attempt.slots[0]
    old_revision, prompt = slot.revision_id, slot.revision.prompt
    edited = bundled_bank().read_text().replace(prompt, prompt + " (edited)")
    shutil.copytree(bundled_bank().parent / "articles", tmp_path / "articles")
    (tmp_path / "edited.yaml").write_text(edited)

    import_bank(db.session, load_bank(tmp_path / "edited.yaml"))
    answer_solo(attempt, 1)

    assert answer_of(attempt, 1).revision_id == old_revision
    assert turn_of(attempt, 1).revision.prompt == prompt
    db.session.refresh(slot.question)
    assert slot.question.current_revision_id != old_revision


def test_simultaneous_submissions_record_one_answer(bundled, tmp_path):
    """Two threads with their own connections answer the same question at the same instant."""
    with bundled.app_context():
        player = play.create_player(db.session)
        attempt = play.start_attempt(db.session, player, play.quiz_by_slug(db.session, "kiss-and-cry"))
        public_id, token = attempt.public_id, player.token
        db.session.commit()

    barrier = threading.Barrier(4)
    outcomes: list[bool] = []

    def submit():
        with bundled.app_context():
            turn = play.turn(db.session, public_id, token, 1)
            db.session.commit()  # each thread read on its own; none holds a lock while waiting
            barrier.wait()
            outcome = answering.answer_solo(db.session, turn, right_answer(turn.revision, turn.order))
            outcomes.append(outcome.recorded)
            db.session.commit()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    with bundled.app_context():
        attempt = db.session.scalar(sa.select(Attempt).where(Attempt.public_id == public_id))
        assert sorted(outcomes) == [False, False, False, True]
        assert (attempt.answered_count, attempt.score) == (1, 1)
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Answer)) == 1


def test_rank_is_counted_only_within_the_ranked_places(quiz, new_player, monkeypatch):
    start = utcnow()
    for index, nickname in enumerate(["a", "b", "c", "d"]):
        attempt = play.start_attempt(db.session, new_player(nickname), quiz)
        attempt.started_at = start
        play_through(attempt, right=9, now=start + timedelta(seconds=10 + index))
    last = play.personal_best(db.session, quiz, db.session.get(Player, attempt.player_id))
    assert play.rank_of(db.session, last) == 4
    monkeypatch.setattr(play, "RANKED_PLACES", 3)
    assert play.rank_of(db.session, last) is None
    monkeypatch.setattr(play, "RANKED_PLACES", 4)
    assert play.rank_of(db.session, last) == 4
