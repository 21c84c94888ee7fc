"""Solo play pages: home, quiz, questions with feedback, results, leaderboard, nickname."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for

from quiz import live, play
from quiz.extensions import db
from quiz.forms import AnswerForm, ConfirmForm, NicknameForm, StartAttemptForm
from quiz.models import Attempt, LiveSession
from quiz.web.players import current_player, player_token
from quiz.web.redirects import local_path

bp = Blueprint("play", __name__)


@bp.get("/")
def home():
    return render_template("play/home.html", quizzes=play.list_quizzes(db.session))


@bp.get("/quizzes/<slug>")
def quiz(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
    return _render_quiz(quiz, StartAttemptForm())


def _render_quiz(quiz, form: StartAttemptForm, status: int = 200):
    player = current_player()
    counts = play.difficulty_counts(db.session, quiz)
    best = play.personal_best(db.session, quiz, player)
    return (
        render_template(
            "play/quiz.html",
            quiz=quiz,
            form=form,
            counts=counts,
            total=sum(counts.values()),
            unfinished=play.unfinished_attempt(db.session, player, quiz),
            best=best,
        ),
        status,
    )


@bp.post("/quizzes/<slug>/attempts")
def start(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
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
        form.difficulty.errors = ["No question of this difficulty yet. Choose another."]
        return _render_quiz(quiz, form, 422)
    db.session.commit()
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
    if turn.live_session_id is not None:
        refusal = _refuse_outside_assignment(turn.live_session_id, turn.public_id)
        if refusal:
            return refusal
    if turn.question_id is None:
        abort(404)
    if turn.answer is not None:
        if request.method == "POST":  # answered already: show the first answer's feedback
            return redirect(request.path, 303)
        feedback, article = play.turn_feedback(db.session, turn)
        return render_template("play/feedback.html", turn=turn, feedback=feedback, article=article)
    if position != turn.next_position:
        return _continue_at(turn.public_id, turn.next_position)

    if request.method == "POST":
        picked = picked_numbers(request.form.getlist("choice"), len(turn.order), turn.revision.multiple)
        if picked is not None:
            play.answer(db.session, turn, picked)
            db.session.commit()
            return redirect(request.path, 303)
        # Something a page of ours never sends: the form says what is wrong.
        form = AnswerForm.for_choices(len(turn.order), turn.revision.multiple)
        form.validate()
        play.show(db.session, turn)
        db.session.commit()
        return render_template("play/question.html", turn=turn, form=form), 422
    if play.show(db.session, turn):
        db.session.commit()
    return render_template("play/question.html", turn=turn, form=None)


def picked_numbers(values: list[str], count: int, multiple: bool) -> list[int] | None:
    """The choice numbers of an answer form, if :class:`AnswerForm` would accept them; None
    otherwise, for the form itself to say why. Parsing here spares the busiest request building
    a form class; the CSRF token is checked for every POST by CSRFProtect beforehand."""
    if not values or not values[0]:
        return None
    if not multiple:
        values = values[:1]  # a radio field reads the first value only
    allowed = _CHOICE_NUMBERS[count] if count < len(_CHOICE_NUMBERS) else {str(n) for n in range(1, count + 1)}
    if not all(value in allowed for value in values):
        return None
    return [int(value) for value in values]


_CHOICE_NUMBERS = [frozenset(str(n) for n in range(1, count + 1)) for count in range(11)]


def _refuse_outside_assignment(live_session_id: int, public_id: str):
    """Classroom attempts follow their session: host-paced ones are answered on the live
    screen, and self-paced ones only until the deadline."""
    session = db.session.get(LiveSession, live_session_id)
    if session.pacing == live.HOST_PACED:
        return redirect(url_for("live.student_screen", session_id=session.id), 303)
    if request.method == "POST":
        try:
            live.check_self_paced(session)
        except live.LiveError as error:
            flash(str(error))
            return redirect(url_for(".results", public_id=public_id), 303)
    return None


@bp.get("/attempts/<public_id>/results")
def results(public_id: str):
    attempt = _owned_attempt(public_id)
    if attempt.finished_at is None:
        return _continue(attempt)
    return render_template(
        "play/results.html",
        results=play.results(db.session, attempt),
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
        flash("Nothing to retry: every question was answered correctly.")
        return redirect(url_for(".results", public_id=public_id), 303)
    db.session.commit()
    return redirect(url_for(".question", public_id=retry_attempt.public_id, position=1), 303)


@bp.get("/quizzes/<slug>/leaderboard")
def leaderboard(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
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
        db.session.commit()
        flash("Nickname saved." if form.nickname.data else "Nickname removed: you are off the leaderboards.")
        return redirect(back or url_for(".player"), 303)
    return render_template("play/player.html", form=form, back=back)
