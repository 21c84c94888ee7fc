"""Statistics pages for teachers and admins: per quiz and per classroom session, with charts,
CSV downloads of every table, and the same figures as JSON."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from flask import Blueprint, abort, jsonify, render_template, request
from flask_login import current_user

from quiz import charts, live, play, stats
from quiz.extensions import db
from quiz.forms import StatisticsFilterForm
from quiz.models import LiveSession, Quiz
from quiz.web.auth import role_required
from quiz.web.csvfile import csv_response

bp = Blueprint("stats", __name__, url_prefix="/stats")

TABLES = ("summary", "scores", "questions", "choices", "review")
SESSION_TABLES = (*TABLES, "students")


@bp.get("/")
@role_required("teacher", "admin")
def index():
    return render_template(
        "stats/index.html",
        quizzes=stats.quiz_overview(db.session),
        sessions=stats.sessions_visible_to(db.session, current_user.user),
    )


# One quiz ------------------------------------------------------------------------------------


def _quiz(slug: str) -> Quiz:
    return play.quiz_by_slug(db.session, slug) or abort(404)


def _filtered(quiz: Quiz) -> tuple[StatisticsFilterForm, stats.Scope]:
    """The filter form from the query string, and the scope it selects (all plays if invalid)."""
    sessions = stats.sessions_visible_to(db.session, current_user.user, quiz)
    form = StatisticsFilterForm(request.args)
    form.plays.choices = [("all", "All plays"), ("solo", "Solo play only")] + [
        (f"session-{session.id}", f"Session {session.code}, {session.created_at:%Y-%m-%d %H:%M}")
        for session in sessions
    ]
    if not request.args or not form.validate():
        return form, stats.Scope(quiz.id)
    plays = form.plays.data
    until = form.started_until.data
    return form, stats.Scope(
        quiz.id,
        session_id=int(plays.removeprefix("session-")) if plays.startswith("session-") else None,
        solo_only=plays == "solo",
        started_from=datetime.combine(form.started_from.data, time()) if form.started_from.data else None,
        # The day after date.max does not exist: up to the last date is no bound at all.
        started_before=datetime.combine(until + timedelta(days=1), time()) if until and until < date.max else None,
    )


@bp.get("/quiz/<slug>")
@role_required("teacher", "admin")
def quiz_page(slug: str):
    quiz = _quiz(slug)
    form, scope = _filtered(quiz)
    figures = stats.quiz_stats(db.session, quiz, scope)
    return render_template(
        "stats/quiz.html", stats=figures, form=form, query=request.args, charts=_charts(figures),
        min_answers=stats.MIN_ANSWERS_TO_JUDGE,
    )


@bp.get("/quiz/<slug>/questions/<int:revision_id>")
@role_required("teacher", "admin")
def question_page(slug: str, revision_id: int):
    quiz = _quiz(slug)
    form, scope = _filtered(quiz)
    item = next((item for item in stats.item_stats(db.session, scope) if item.revision_id == revision_id), None)
    revision = stats.revision_of_quiz(db.session, quiz, revision_id) or abort(404)
    return render_template(
        "stats/question.html", quiz=quiz, revision=revision, item=item, form=form, query=request.args,
        chart=_choice_chart(item) if item else None,
    )


@bp.get("/quiz/<slug>/<any(summary, scores, questions, choices, review):table>.csv")
@role_required("teacher", "admin")
def quiz_csv(slug: str, table: str):
    quiz = _quiz(slug)
    _, scope = _filtered(quiz)
    figures = stats.quiz_stats(db.session, quiz, scope)
    return csv_response(stats.table_rows(figures, table), f"{quiz.slug}-{table}.csv")


@bp.get("/quiz/<slug>.json")
@role_required("teacher", "admin")
def quiz_json(slug: str):
    quiz = _quiz(slug)
    _, scope = _filtered(quiz)
    return jsonify(stats.as_json(stats.quiz_stats(db.session, quiz, scope)))


# One classroom session --------------------------------------------------------------------------


def _session(session_id: int) -> LiveSession:
    return live.session_for_host(db.session, session_id, current_user.user) or abort(404)


def _session_figures(session: LiveSession) -> stats.QuizStats:
    return stats.quiz_stats(db.session, session.quiz, stats.Scope(session.quiz_id, session_id=session.id))


@bp.get("/sessions/<int:session_id>")
@role_required("teacher", "admin")
def session_page(session_id: int):
    session = _session(session_id)
    figures = _session_figures(session)
    return render_template(
        "stats/session.html", live=session, stats=figures, results=live.results(db.session, session),
        charts=_charts(figures), min_answers=stats.MIN_ANSWERS_TO_JUDGE,
    )


@bp.get("/sessions/<int:session_id>/<any(summary, scores, questions, choices, review, students):table>.csv")
@role_required("teacher", "admin")
def session_csv(session_id: int, table: str):
    session = _session(session_id)
    if table == "students":
        rows = stats.student_rows(live.results(db.session, session))
    else:
        rows = stats.table_rows(_session_figures(session), table)
    return csv_response(rows, f"session-{session.id}-{table}.csv")


@bp.get("/sessions/<int:session_id>.json")
@role_required("teacher", "admin")
def session_json(session_id: int):
    session = _session(session_id)
    document = stats.as_json(_session_figures(session))
    document["students"] = stats.student_json(live.results(db.session, session))
    return jsonify(document)


# Charts ----------------------------------------------------------------------------------------


def _charts(figures: stats.QuizStats) -> dict[str, charts.Chart]:
    histogram = charts.column_chart(
        "chart-scores",
        "Scores of finished attempts",
        "Number of finished attempts in each band of percent right: "
        + "; ".join(f"{bin.label}: {bin.attempts}" for bin in figures.histogram) + ".",
        [(bin.label, bin.attempts) for bin in figures.histogram],
    )
    # A poll has no right answer, so no facility: it has no bar here.
    scored = [item for item in figures.items if item.facility is not None]
    facility = charts.bar_chart(
        "chart-facility",
        "Share of right answers per question",
        "Facility of each question, flagged ones marked as needing review: "
        + "; ".join(f"{item.label}: {item.facility:.0%}{' (review)' if item.reasons else ''}" for item in scored) + ".",
        [(item.label, item.facility, "flagged" if item.reasons else "") for item in scored],
    )
    return {"scores": histogram, "facility": facility}


def _choice_chart(item: stats.ItemStats) -> charts.Chart:
    if item.tally is not None:  # a kind with its own tally: places, numbers, typed answers, votes
        rows = item.tally.rows
        return charts.bar_chart(
            "chart-choices",
            item.tally.caption,
            "; ".join(f"{row.label}{' (correct)' if row.is_correct else ''}: {row.share:.0%}" for row in rows) + ".",
            [(row.label, row.share, "correct" if row.is_correct else "") for row in rows],
        )
    return charts.bar_chart(
        "chart-choices",
        "Share of answers picking each choice",
        "; ".join(
            f"{choice.text}{' (correct)' if choice.is_correct else ''}: {choice.share:.0%}" for choice in item.choices
        ) + ".",
        [(choice.text, choice.share, "correct" if choice.is_correct else "") for choice in item.choices],
    )
