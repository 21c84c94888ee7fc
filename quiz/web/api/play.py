"""Solo play through the API: quizzes, players, attempts, questions, answers, results."""

from __future__ import annotations

from flask import current_app

from quiz import answering, live, play
from quiz.extensions import db
from quiz.kinds import Kind
from quiz.models import Attempt, Player, Quiz
from quiz.refusals import AnswerRefused
from quiz.web.api import present, schemas
from quiz.web.api.blueprint import api
from quiz.web.api.errors import ApiError
from quiz.web.api.spec import PLAYER

_FINISHED = "The attempt is finished."


def quiz_or_404(quiz_id: str) -> Quiz:
    quiz = play.quiz_by_slug(db.session, quiz_id)
    if quiz is None:
        raise ApiError(404, "not_found", "No quiz in play has this id.")
    return quiz


# Quizzes ---------------------------------------------------------------------------------------


@api.operation("GET", "/quizzes", summary="List the quizzes", tag="quizzes", response=schemas.QuizList)
def list_quizzes():
    return schemas.QuizList(
        quizzes=[present.quiz_summary(item.quiz, item.question_count) for item in play.list_quizzes(db.session)]
    )


@api.operation("GET", "/quizzes/{quiz_id}", summary="Get a quiz", tag="quizzes", response=schemas.QuizDetail)
def get_quiz(quiz_id: str):
    quiz = quiz_or_404(quiz_id)
    counts = play.question_counts(db.session, quiz)
    summary = present.quiz_summary(quiz, counts.total)
    return schemas.QuizDetail(
        **dict(summary),
        difficulties=schemas.DifficultyCounts(**{level: counts.by_difficulty.get(level, 0) for level in ("easy", "medium", "hard")}),
        time_limit=quiz.time_limit,
    )


@api.operation(
    "GET", "/quizzes/{quiz_id}/leaderboard", summary="Get a quiz's leaderboard", tag="quizzes",
    response=schemas.Leaderboard,
)
def get_leaderboard(quiz_id: str):
    quiz = quiz_or_404(quiz_id)
    rows = play.leaderboard(db.session, quiz, current_app.config["LEADERBOARD_SIZE"])
    return schemas.Leaderboard(
        quiz=quiz.slug,
        rows=[
            schemas.LeaderboardRow(
                rank=row.rank, nickname=row.nickname, score=row.score, question_count=row.question_count,
                duration_ms=row.duration_ms, finished_at=row.finished_at,
            )
            for row in rows
        ],
    )


# Players ---------------------------------------------------------------------------------------


@api.operation(
    "POST", "/players", summary="Become a player", tag="players", body=schemas.NewPlayer, body_required=False,
    response=schemas.PlayerToken, status=201,
)
def create_player(body: schemas.NewPlayer):
    """A new player and their token. The body, and the nickname in it, are optional."""
    player = play.create_player(db.session)
    if body.nickname is not None:
        play.set_nickname(db.session, player, body.nickname)
    return schemas.PlayerToken(token=player.token, nickname=player.nickname)


@api.operation(
    "GET", "/player", summary="Get the player's nickname", tag="players", security=PLAYER,
    response=schemas.PlayerProfile,
)
def get_player(player: Player):
    return schemas.PlayerProfile(nickname=player.nickname)


@api.operation(
    "PUT", "/player", summary="Set or clear the player's nickname", tag="players", security=PLAYER,
    body=schemas.SetNickname, response=schemas.PlayerProfile,
)
def set_nickname(player: Player, body: schemas.SetNickname):
    """The nickname shows on leaderboards; null takes the player off them."""
    play.set_nickname(db.session, player, body.nickname)
    return schemas.PlayerProfile(nickname=player.nickname)


# Attempts --------------------------------------------------------------------------------------


def _owned(attempt_id: str, player: Player) -> Attempt:
    attempt = play.attempt_for_player(db.session, attempt_id, player)
    if attempt is None:
        raise ApiError(404, "not_found", "This player has no attempt with this id.")
    return attempt


def _turn(attempt_id: str, position: int, player: Player) -> play.Turn:
    """The attempt at ``position``, read as the question pages read it."""
    turn = play.turn(db.session, attempt_id, player.token, position)
    if turn is None:
        raise ApiError(404, "not_found", "This player has no attempt with this id.")
    # A host-paced session's questions open for everyone at once, through the live endpoints;
    # its attempts are never played, or previewed, here.
    if turn.session_pacing == live.HOST_PACED:
        raise ApiError(
            409, "answer_elsewhere", f"This attempt follows classroom session {turn.live_session_id}: "
            f"use /live/{turn.live_session_id}."
        )
    if turn.question_id is None:
        raise ApiError(404, "not_found", f"The attempt has no question {position}.")
    return turn


def _question(turn: play.Turn, feedback: schemas.Feedback | None) -> schemas.Question:
    kind = turn.revision.behaviour
    return schemas.Question(
        attempt_id=turn.public_id,
        position=turn.position,
        question_count=turn.question_count,
        question_id=turn.question_slug,
        kind=kind.name,
        prompt=turn.revision.prompt,
        instruction=kind.instruction,
        answer_with=kind.answer_field,
        multiple=kind.multiple,
        choices=[schemas.ShownChoice(number=choice.number, text=choice.text) for choice in turn.choices],
        unit=turn.public.get("unit"),
        feedback=feedback,
    )


def _feedback(turn: play.Turn) -> schemas.Feedback | None:
    if turn.answer is None:
        return None
    given, article = play.turn_feedback(db.session, turn)
    return present.feedback(article.slug, given)


def _show(turn: play.Turn) -> schemas.Question:
    feedback = _feedback(turn)
    if feedback is None:
        if turn.position != turn.next_position:
            raise ApiError(409, "not_current_question", f"Questions are answered in order: answer question {turn.next_position} first.")
        # The first showing starts the question's clock.
        play.show(db.session, turn)
    return _question(turn, feedback)


def refusal_error(refusal: AnswerRefused) -> ApiError:
    """The answering core's refusal in the API's error shape."""
    details = None
    if isinstance(refusal, answering.InvalidAnswer):
        details = [{"loc": ["body", refusal.field], "type": refusal.code, "message": str(refusal)}]
    return ApiError(refusal.status, refusal.code, str(refusal), details)


def check_answer_field(kind: Kind, body: schemas.SubmitAnswer | schemas.LiveAnswer) -> None:
    """Refuse a body that answers with another field than the question's kind reads."""
    if body.answer_with != kind.answer_field:
        message = f"A {kind.name} question is answered with `{kind.answer_field}`."
        raise ApiError(422, "invalid_answer", message,
                       [{"loc": ["body", body.answer_with], "type": "invalid_answer", "message": message}])


_QUESTION_CONFLICTS = {
    409: "`answer_elsewhere`: the attempt belongs to a host-paced classroom session; "
    "`not_current_question`: an earlier question is still unanswered.",
}


@api.operation(
    "POST", "/quizzes/{quiz_id}/attempts", summary="Start an attempt", tag="attempts", security=PLAYER,
    body=schemas.StartAttempt, body_required=False, response=schemas.Attempt, status=201,
    errors={422: "The body is not valid, or (`no_questions`) the quiz has no question of this difficulty."},
)
def start_attempt(quiz_id: str, player: Player, body: schemas.StartAttempt):
    """A random selection of the quiz's questions, in random order, with shuffled choices. The
    body is optional: a standard-length attempt at any difficulty."""
    quiz = quiz_or_404(quiz_id)
    try:
        attempt = play.start_attempt(db.session, player, quiz, length=body.length, difficulty=body.difficulty)
    except play.NoQuestions:
        raise ApiError(422, "no_questions", "The quiz has no question of this difficulty yet.") from None
    return present.attempt(attempt)


@api.operation(
    "GET", "/attempts/{attempt_id}", summary="Get an attempt", tag="attempts", security=PLAYER,
    response=schemas.Attempt,
)
def get_attempt(attempt_id: str, player: Player):
    return present.attempt(_owned(attempt_id, player))


@api.operation(
    "GET", "/attempts/{attempt_id}/question", summary="Get the attempt's current question", tag="attempts",
    security=PLAYER, response=schemas.Question,
    errors={409: "`attempt_finished`: every question is answered; `answer_elsewhere`: the attempt belongs "
            "to a host-paced classroom session."},
)
def get_current_question(attempt_id: str, player: Player):
    """The next question to answer. Showing it the first time starts its clock."""
    attempt = _owned(attempt_id, player)
    position = play.next_position(attempt)
    if position is None or attempt.finished_at is not None:
        # Any position tells a host-paced session's attempt apart, which _turn refuses as such.
        _turn(attempt_id, attempt.question_count, player)
        raise ApiError(409, "attempt_finished", _FINISHED)
    return _show(_turn(attempt_id, position, player))


@api.operation(
    "GET", "/attempts/{attempt_id}/questions/{position}", summary="Get a question of the attempt", tag="attempts",
    security=PLAYER, response=schemas.Question, errors=_QUESTION_CONFLICTS,
)
def get_question(attempt_id: str, position: int, player: Player):
    """An answered question comes with its feedback; an unanswered one only if it is the next
    to answer, and showing it the first time starts its clock."""
    return _show(_turn(attempt_id, position, player))


@api.operation(
    "POST", "/attempts/{attempt_id}/questions/{position}/answer", summary="Answer a question", tag="attempts",
    security=PLAYER, body=schemas.SubmitAnswer, response=schemas.AnswerResult,
    errors={
        409: "`not_current_question`: an earlier question is unanswered; `attempt_finished`: the attempt, or the "
        "self-paced session it belongs to, takes no more answers; `answer_elsewhere`: answer through /live.",
        422: "The body is not valid, or (`invalid_answer`) does not fit the question: a choice it does not have, "
        "several for a one-answer question, another field than its `answer_with`, a text that is no number.",
    },
)
def answer_question(attempt_id: str, position: int, player: Player, body: schemas.SubmitAnswer):
    """Record the answer and return its feedback: how right, the correct answer, the
    explanation and the sources. Answering is idempotent: a question already answered (a
    retry, a second device) keeps its first answer, and that answer's feedback comes back with
    `already_answered` true and status 200."""
    turn = _turn(attempt_id, position, player)
    if turn.answer is None:
        check_answer_field(turn.revision.behaviour, body)
    try:
        outcome = answering.answer_solo(db.session, turn, present.submission(body))
    except AnswerRefused as refusal:
        raise refusal_error(refusal) from None
    attempt = _owned(attempt_id, player)
    return schemas.AnswerResult(
        already_answered=not outcome.recorded, feedback=_feedback(turn), attempt=present.attempt(attempt)
    )


@api.operation(
    "GET", "/attempts/{attempt_id}/results", summary="Get a finished attempt's results", tag="attempts",
    security=PLAYER, response=schemas.Results, errors={409: "`attempt_unfinished`: questions are still to be answered."},
)
def get_results(attempt_id: str, player: Player):
    attempt = _owned(attempt_id, player)
    if attempt.finished_at is None:
        raise ApiError(409, "attempt_unfinished", "The attempt is not finished yet.")
    review = play.results(db.session, attempt)
    best = review.best
    return schemas.Results(
        attempt=present.attempt(attempt),
        missed=review.missed,
        answers=[present.feedback(attempt.quiz.article.slug, item) for item in review.items],
        best=schemas.Best(
            score=best.score, question_count=best.question_count, duration_ms=best.duration_ms,
            finished_at=best.finished_at, rank=review.rank if player.nickname else None,
        ) if best else None,
    )


@api.operation(
    "POST", "/attempts/{attempt_id}/retry", summary="Retry the questions missed", tag="attempts", security=PLAYER,
    response=schemas.Attempt, status=201,
    errors={409: "`attempt_unfinished`; `nothing_to_retry`: every question was answered right (or has been retired)."},
)
def retry_attempt(attempt_id: str, player: Player):
    """A new attempt asking again the questions this finished attempt got wrong; it never
    counts on leaderboards."""
    attempt = _owned(attempt_id, player)
    if attempt.finished_at is None:
        raise ApiError(409, "attempt_unfinished", "The attempt is not finished yet.")
    retry = play.retry_missed(db.session, attempt)
    if retry is None:
        raise ApiError(409, "nothing_to_retry", "Nothing to retry: every question was answered correctly.")
    return present.attempt(retry)
