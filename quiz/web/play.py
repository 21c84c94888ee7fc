"""Solo play pages: home, quiz, questions with feedback, results, leaderboard, nickname."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from quiz import answering, live, play
from quiz.extensions import db
from quiz.forms import ConfirmForm, NicknameForm, StartAttemptForm
from quiz.models import Attempt
from quiz.web.players import current_player, player_token
from quiz.web.language import show_quiz_in
from quiz.web.redirects import local_path
from quiz.web.transaction import keep_writes

bp = Blueprint("play", __name__)


@bp.get("/")
def home():
    return render_template("play/home.html", quizzes=play.list_quizzes(db.session))


@bp.get("/quizzes/<slug>")
def quiz(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
    show_quiz_in(quiz.language)
    return _render_quiz(quiz, StartAttemptForm())


def _render_quiz(quiz, form: StartAttemptForm, status: int = 200):
    player = current_player()
    counts = play.question_counts(db.session, quiz)
    best = play.personal_best(db.session, quiz, player)
    return (
        render_template(
            "play/quiz.html",
            quiz=quiz,
            form=form,
            counts=counts.by_difficulty,
            total=counts.total,
            unfinished=play.unfinished_attempt(db.session, player, quiz),
            best=best,
        ),
        status,
    )


@bp.post("/quizzes/<slug>/attempts")
def start(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
    show_quiz_in(quiz.language)
    form = StartAttemptForm()
    if not form.validate():
        return _render_quiz(quiz, form, 422)
    try:
        attempt = play.start_attempt(
            db.session,
            current_player(create=True),
            quiz,
            length=form.length.data,
            difficulty=form.difficulty.data or None,
        )
    except play.NoQuestions:
        form.difficulty.errors = [_("No question of this difficulty yet. Choose another.")]
        return _render_quiz(quiz, form, 422)
    return redirect(url_for(".question", public_id=attempt.public_id, position=1), 303)


def _owned_attempt(public_id: str) -> Attempt:
    return play.attempt_for_player(db.session, public_id, current_player()) or abort(404)


def _continue(attempt: Attempt):
    return _continue_at(attempt.public_id, play.next_position(attempt))


def _continue_at(public_id: str, position: int | None):
    """To the question the player is on, or to the results when there is none left."""
    if position is None:
        return redirect(url_for(".results", public_id=public_id), 303)
    return redirect(url_for(".question", public_id=public_id, position=position), 303)


@bp.get("/attempts/<public_id>")
def resume(public_id: str):
    return _continue(_owned_attempt(public_id))


@bp.route("/attempts/<public_id>/questions/<int:position>", methods=["GET", "POST"])
def question(public_id: str, position: int):
    # The busiest page: one query (play.turn), nothing loaded through the ORM.
    turn = play.turn(db.session, public_id, player_token(), position) or abort(404)
    show_quiz_in(turn.quiz_language)
    if turn.session_pacing == live.HOST_PACED:  # answered on the live screen, with the class
        return redirect(url_for("live.student_screen", session_id=turn.live_session_id), 303)
    if turn.question_id is None:
        abort(404)
    if request.method == "POST":
        return _answer(turn)
    if turn.answer is not None:
        feedback, article = play.turn_feedback(db.session, turn)
        return render_template("play/feedback.html", turn=turn, feedback=feedback, article=article)
    if position != turn.next_position:
        return _continue_at(turn.public_id, turn.next_position)
    if play.show(db.session, turn):
        keep_writes("the question's first showing starts its answer clock")
    return render_template("play/question.html", turn=turn)


def _answer(turn: play.Turn):
    try:
        submission = turn.revision.behaviour.read_form(request.form.to_dict(flat=False), turn.order)
        outcome = answering.answer_solo(db.session, turn, submission)
    except answering.InvalidAnswer as refusal:
        # Something a page of ours does not send unless asked to: say what is missing.
        return render_template("play/question.html", turn=turn, error=str(refusal), submitted=request.form), 422
    except answering.NotCurrentQuestion as refusal:
        flash(str(refusal))
        return _continue_at(turn.public_id, turn.next_position)
    except answering.AttemptFinished as refusal:
        flash(str(refusal))
        return redirect(url_for(".results", public_id=turn.public_id), 303)
    if not outcome.recorded:
        flash(_("You had answered this question already: here is your first answer."))
    return redirect(request.path, 303)


@bp.get("/attempts/<public_id>/results")
def results(public_id: str):
    attempt = _owned_attempt(public_id)
    if attempt.finished_at is None:
        return _continue(attempt)
    show_quiz_in(attempt.quiz.language)
    return render_template(
        "play/results.html",
        results=play.results(db.session, attempt),
        # A classroom session's attempt: its points and place there, and none of solo play's offers.
        session_place=live.place_of(db.session, attempt),
        retry_form=ConfirmForm(),
        nickname_form=NicknameForm(nickname=current_player().nickname),
        ranked_places=play.RANKED_PLACES,
    )


@bp.post("/attempts/<public_id>/retry")
def retry(public_id: str):
    attempt = _owned_attempt(public_id)
    if not ConfirmForm().validate() or attempt.finished_at is None:
        abort(400)
    retry_attempt = play.retry_missed(db.session, attempt)
    if retry_attempt is None:
        flash(_("Nothing to retry: every question was answered correctly."))
        return redirect(url_for(".results", public_id=public_id), 303)
    return redirect(url_for(".question", public_id=retry_attempt.public_id, position=1), 303)


@bp.get("/quizzes/<slug>/leaderboard")
def leaderboard(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
    show_quiz_in(quiz.language)
    player = current_player()
    best = play.personal_best(db.session, quiz, player)
    return render_template(
        "play/leaderboard.html",
        quiz=quiz,
        rows=play.leaderboard(db.session, quiz, current_app.config["LEADERBOARD_SIZE"]),
        player=player,
        best=best,
    )


@bp.route("/player", methods=["GET", "POST"])
def player():
    player = current_player()
    form = NicknameForm(nickname=player.nickname if player else None)
    back = local_path(request.values.get("next"))
    if request.method == "POST":
        if not form.validate():
            return render_template("play/player.html", form=form, back=back), 422
        play.set_nickname(db.session, current_player(create=True), form.nickname.data)
        flash(_("Nickname saved.") if form.nickname.data else _("Nickname removed: you are off the leaderboards."))
        return redirect(back or url_for(".player"), 303)
    return render_template("play/player.html", form=form, back=back)
