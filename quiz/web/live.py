"""Classroom sessions: the host's screens and controls, joining, the students' screens, and
the event streams that keep both up to date."""

from __future__ import annotations

import io
import json
import time

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import pgettext
from flask_login import current_user

from quiz import answering, events, live, play
from quiz.extensions import db, limiter
from quiz.forms import ConfirmForm, HostActionForm, HostSessionForm, JoinForm
from quiz.kinds import KINDS
from quiz.models import LivePlayer, LiveSession
from quiz.web.auth import role_required
from quiz.web.csvfile import csv_response
from quiz.web.language import show_quiz_in
from quiz.web.players import current_player, player_token
from quiz.web.transaction import keep_writes, statements_alone

bp = Blueprint("live", __name__)

#: Seconds an event stream stays open before the browser reconnects (EventSource does so
#: by itself); bounded so that a worker never holds a forgotten stream for ever.
STREAM_LIFETIME = 300
HEARTBEAT = 15


#: How the pages write a moment: the same digits in every language, in the app's time zone.
MOMENT = "yyyy-MM-dd HH:mm"


@bp.app_context_processor
def _helpers() -> dict:
    # The statistics pages show sessions and their moments too, named the same.
    return {"session_state": session_state, "moment": MOMENT}


def session_state(state: str) -> str:
    """A classroom session's state as the pages name it."""
    names = {
        live.LOBBY: pgettext("session state", "lobby"),
        live.QUESTION_OPEN: pgettext("session state", "question open"),
        live.QUESTION_CLOSED: pgettext("session state", "question closed"),
        live.REVEAL: pgettext("session state", "reveal"),
        live.LEADERBOARD: pgettext("session state", "leaderboard"),
        live.FINISHED: pgettext("session state", "finished"),
        live.OPEN: pgettext("session state", "open"),
    }
    return names[state]


def _host():
    return current_user.user


def _hosted(session_id: int) -> LiveSession:
    return live.session_for_host(db.session, session_id, _host()) or abort(404)


# Host ------------------------------------------------------------------------------------------


@bp.get("/host")
@role_required("teacher", "admin")
def dashboard():
    return render_template(
        "live/dashboard.html",
        quizzes=play.list_quizzes(db.session),
        sessions=live.sessions_of(db.session, _host()),
    )


@bp.route("/host/new/<slug>", methods=["GET", "POST"])
@role_required("teacher", "admin")
def new_session(slug: str):
    quiz = play.quiz_by_slug(db.session, slug) or abort(404)
    # The quiz's own length by default, as solo play asks; empty asks every question.
    form = HostSessionForm(question_count=quiz.questions_per_attempt, time_zone=current_app.config["TIME_ZONE"])
    form.question_count.description = _(
        "The quiz's standard is %(standard)s. Leave empty to ask all %(total)s.",
        standard=quiz.questions_per_attempt, total=play.question_counts(db.session, quiz).total,
    )
    if request.method == "POST":
        if form.validate():
            settings = live.Settings(
                pacing=form.pacing.data,
                question_count=form.question_count.data,
                time_limit=form.time_limit.data,
                shuffle=form.shuffle.data,
                show_leaderboard=form.show_leaderboard.data,
                scoring=form.scoring.data,
                deadline=form.deadline_utc,
            )
            try:
                session = live.create_session(db.session, _host(), quiz, settings)
            except live.LiveError as error:
                form.form_errors.append(str(error))
            else:
                return redirect(url_for(".host_screen", session_id=session.id), 303)
        return render_template("live/new.html", quiz=quiz, form=form), 422
    return render_template("live/new.html", quiz=quiz, form=form)


@bp.get("/host/sessions/<int:session_id>")
@role_required("teacher", "admin")
def host_screen(session_id: int):
    session = _hosted(session_id)
    show_quiz_in(session.quiz.language)
    screen = live.screen(db.session, session)
    _keep_due_changes(screen)
    return render_template(
        "live/host.html",
        screen=screen,
        join_url=url_for(".join", code=session.code, _external=True),
        members=live.players(db.session, session) if session.state in (live.LOBBY, live.OPEN) else [],
        progress=live.results(db.session, session) if session.pacing == live.SELF_PACED else None,
    )


@bp.post("/host/sessions/<int:session_id>/action")
@role_required("teacher", "admin")
def host_action(session_id: int):
    session = _hosted(session_id)
    form = HostActionForm()
    if not form.validate():
        abort(400)
    try:
        live.host_action(db.session, session, form.action.data)
    except live.LiveError as error:
        flash(str(error))
    return redirect(url_for(".host_screen", session_id=session.id), 303)


@bp.post("/host/sessions/<int:session_id>/players/<int:live_player_id>/remove")
@role_required("teacher", "admin")
def remove_player(session_id: int, live_player_id: int):
    session = _hosted(session_id)
    if not ConfirmForm().validate():
        abort(400)
    try:
        live.remove_player(db.session, session, live_player_id)
    except live.LiveError:
        abort(404)
    return redirect(url_for(".host_screen", session_id=session.id), 303)


@bp.get("/host/sessions/<int:session_id>/qr.svg")
@role_required("teacher", "admin")
def qr_code(session_id: int):
    session = _hosted(session_id)
    svg = io.BytesIO()
    segno.make(url_for(".join", code=session.code, _external=True), error="m").save(
        svg, kind="svg", scale=8, border=2, title=_("QR code to join session %(code)s", code=session.code)
    )
    return Response(svg.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})


@bp.get("/host/sessions/<int:session_id>/results")
@role_required("teacher", "admin")
def host_results(session_id: int):
    session = _hosted(session_id)
    show_quiz_in(session.quiz.language)
    return render_template("live/results.html", results=live.results(db.session, session))


@bp.get("/host/sessions/<int:session_id>/answers.csv")
@role_required("teacher", "admin")
def answers_csv(session_id: int):
    results = live.results(db.session, _hosted(session_id))
    rows = [["student", "question_number", "question_id", "question", "answer", "correct", "points", "seconds"]]
    for student in results.students:
        for question, cell in zip(results.questions, student.cells):
            rows.append([
                student.nickname, question.position, question.question_slug, question.revision.prompt,
                cell.given, _yes_no(cell.is_correct) if cell.answered and question.scored else "", cell.points,
                f"{cell.elapsed_ms / 1000:.1f}" if cell.elapsed_ms is not None else "",
            ])
    return csv_response(rows, f"session-{session_id}-answers.csv")


@bp.get("/host/sessions/<int:session_id>/summary.csv")
@role_required("teacher", "admin")
def summary_csv(session_id: int):
    results = live.results(db.session, _hosted(session_id))
    rows = [["rank", "student", "score", "correct", "answered", "questions", "total_seconds", "removed"]]
    for rank, student in enumerate(results.students, 1):
        rows.append([
            rank, student.nickname, student.score, student.correct, student.answered, results.scored_count,
            f"{student.total_ms / 1000:.1f}", _yes_no(student.removed),
        ])
    return csv_response(rows, f"session-{session_id}-summary.csv")


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


@bp.get("/host/sessions/<int:session_id>/events")
@role_required("teacher", "admin")
def host_events(session_id: int):
    session = _hosted(session_id)
    return _stream(session, with_answer_counts=True)


# Students --------------------------------------------------------------------------------------


def _client_key() -> str:
    """Rate-limit key for joining: the player's token when there is one, else the address."""
    player = current_player()
    return f"player:{player.id}" if player else f"address:{request.remote_addr}"


def _address_key() -> str:
    """Rate-limit key for joining from an address, whatever the cookie. Behind a proxy this
    needs the proxy settings (QUIZ_PROXY_FIX_X_FOR), or every client shares the proxy's."""
    return f"join-address:{request.remote_addr or 'unknown'}"


def _wrong_code(response: Response) -> bool:
    return response.status_code == 404


@bp.route("/join", methods=["GET", "POST"])
@limiter.limit(
    lambda: current_app.config["JOIN_LIMIT_WRONG_CODES"],
    key_func=_client_key,
    methods=["POST"],
    deduct_when=_wrong_code,
)
# Dropping the cookie gives a new player token and a fresh budget above; the address's
# budget stays. Once it is spent every code is refused, a right one too, so that a 429
# never tells a guesser which codes were right.
@limiter.limit(
    lambda: current_app.config["JOIN_LIMIT_WRONG_CODES_PER_ADDRESS"],
    key_func=_address_key,
    methods=["POST"],
    deduct_when=_wrong_code,
)
def join():
    # Every phone gets its own player token before its first try, so that the wrong-code
    # limit counts per phone, not per address: a classroom often shares one.
    current_player(create=True)
    keep_writes("the phone's player token must outlive a wrong code")
    form = JoinForm(code=request.args.get("code", ""))
    if request.method == "GET" or not form.validate():
        status = 422 if request.method == "POST" else 200
        return render_template("live/join.html", form=form), status
    session = live.open_session_by_code(db.session, form.code.data)
    if session is None:
        if live.ended_session_by_code(db.session, form.code.data) is not None:
            form.code.errors = [_("The session with this code has ended. If your class is starting a new one, "
                                  "use the code on the screen now.")]
        else:
            form.code.errors = [_("No open session has this code. Check the screen and try again.")]
        return render_template("live/join.html", form=form), 404
    try:
        live.join(db.session, session, current_player(create=True), form.nickname.data)
    except live.LiveError as error:
        form.nickname.errors = [str(error)]
        return render_template("live/join.html", form=form), 422
    return redirect(url_for(".student_screen", session_id=session.id), 303)


def _membership(session_id: int) -> tuple[LiveSession, LivePlayer]:
    return live.membership_by_token(db.session, session_id, player_token()) or abort(404)


@bp.get("/live/<int:session_id>")
def student_screen(session_id: int):
    session, member = _membership(session_id)
    if session.pacing == live.SELF_PACED:
        return redirect(url_for("play.resume", public_id=member.attempt.public_id), 303)
    return _student_page(session, member)


def _student_page(session: LiveSession, member: LivePlayer, *, error: str | None = None, submitted=None,
                  status: int = 200):
    show_quiz_in(session.quiz.language)
    view = live.student_screen(db.session, session, member)
    _keep_due_changes(view.screen)
    return render_template(
        "live/student.html", view=view, error=error, submitted=submitted, kind_scripts=KIND_SCRIPTS
    ), status


#: The scripts of the kinds' answer widgets.
KIND_SCRIPTS = sorted({kind.script for kind in KINDS.values() if kind.script})


def _keep_due_changes(screen: live.Screen) -> None:
    """A screen applies what time has made due (see live.tick); the first to see it keeps it."""
    if screen.ticked:
        keep_writes("a question whose time is up was just closed, or a deadline passed")


@bp.post("/live/<int:session_id>/answer")
def answer(session_id: int):
    # A classroom's answers all arrive within seconds: one query (live.seat), no ORM objects,
    # unless the answer is refused, and on PostgreSQL one statement to store it
    # (live.store_answer), which needs no transaction around it.
    statements_alone()
    seat = live.seat(db.session, session_id, player_token()) or abort(404)
    state, member = seat
    question = live.current_question(db.session, state)
    try:
        if question is None:
            raise answering.QuestionClosed(_("No question is open yet."))
        submission = question.revision.behaviour.read_form(request.form.to_dict(flat=False), question.order)
        answering.answer_live(db.session, state, member, _position(), submission)
    except answering.AnswerRefused as refusal:
        # A page, rather than a redirect, so that a phone's script can tell a refusal from a
        # success; a refused answer to the open question keeps what was sent.
        db.session.rollback()
        session, live_player = _membership(session_id)
        if isinstance(refusal, answering.InvalidAnswer):
            return _student_page(session, live_player, error=str(refusal), submitted=request.form, status=422)
        flash(str(refusal))
        return _student_page(session, live_player, status=refusal.status)
    return redirect(url_for(".student_screen", session_id=session_id), 303)


def _position() -> int | None:
    """The question a live answer names (the form's hidden ``position``)."""
    value = request.form.get("position", "")
    return int(value) if value.isdigit() and len(value) < 6 else None


@bp.get("/live/<int:session_id>/events")
def student_events(session_id: int):
    session, _member = _membership(session_id)
    return _stream(session, with_answer_counts=False)


# Event streams ---------------------------------------------------------------------------------


def _stream(session: LiveSession, *, with_answer_counts: bool) -> Response:
    """Server-sent events: ``change`` with the session's state whenever it changes, and for the
    host ``answers`` with the number of answers to the open question."""
    app = current_app._get_current_object()
    watcher = events.watcher(app)
    session_id = session.id
    known = events.state_of(session)
    # The stream outlives the request's transaction: hand the connection back first.
    db.session.remove()

    def generate():
        nonlocal known
        yield "retry: 1000\n\n" + _state_event(known)
        answers = None
        started = time.monotonic()
        idle = 0.0
        wait = 0.5 if with_answer_counts else HEARTBEAT
        while time.monotonic() - started < STREAM_LIFETIME and known.state != live.FINISHED and not watcher.stopped:
            changed = watcher.wait(session_id, known, wait)
            if changed is not None:
                known, idle = changed, 0.0
                yield _state_event(known)
            else:
                idle += wait
            # Once the app is going away, its database is not to be used again.
            if with_answer_counts and known.state == live.QUESTION_OPEN and not watcher.stopped:
                with app.app_context():
                    count = live.answered_count(db.session, db.session.get(LiveSession, session_id))
                    db.session.remove()
                if count != answers:
                    answers = count
                    yield f"event: answers\ndata: {count}\n\n"
            if idle >= HEARTBEAT:
                idle = 0.0
                yield ": keep-alive\n\n"

    return Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _state_event(state: events.State) -> str:
    return f"id: {state.version}\nevent: change\ndata: {json.dumps(state.data)}\n\n"
