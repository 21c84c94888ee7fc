"""Statistics pages for teachers and admins: per quiz and per classroom session, with charts,
CSV downloads of every table, and the same figures as JSON.

The pages are in the visitor's language, and so are the review reasons and notes in their CSV
downloads (the columns keep their English names). The JSON is the document the API returns: in
English whatever the visitor's language.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta

from flask import Blueprint, abort, jsonify, render_template, request
from flask_babel import force_locale, format_datetime, format_decimal, format_percent, get_locale
from flask_babel import gettext as _
from flask_login import current_user

from quiz import charts, live, play, stats
from quiz.extensions import db
from quiz.forms import StatisticsFilterForm
from quiz.models import LiveSession, Quiz
from quiz.web.auth import role_required
from quiz.web.csvfile import csv_response
from quiz.web.live import MOMENT

bp = Blueprint("stats", __name__, url_prefix="/stats")

TABLES = ("summary", "scores", "questions", "choices", "review")
SESSION_TABLES = (*TABLES, "students")


@bp.app_template_filter("share_percent")
def share_percent(share: float, digits: int = 0) -> str:
    """A share (0.583) as a percentage with ``digits`` decimals, as the page's language writes
    it: "58.3%", or "58,3 %" in French. A pattern of one's own would lose the language's way of
    placing the sign, so the language's own pattern is given the decimals."""
    pattern = copy.copy(get_locale().percent_formats[None])
    pattern.frac_prec = (digits, digits)
    return format_percent(share, pattern)


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
    form.plays.choices = [("all", _("All plays")), ("solo", _("Solo play only"))] + [
        (
            f"session-{session.id}",
            _("Session %(code)s, %(created)s", code=session.code, created=format_datetime(session.created_at, MOMENT)),
        )
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
    scope = _filtered(quiz)[1]
    figures = stats.quiz_stats(db.session, quiz, scope)
    return csv_response(stats.table_rows(figures, table), f"{quiz.slug}-{table}.csv")


@bp.get("/quiz/<slug>.json")
@role_required("teacher", "admin")
def quiz_json(slug: str):
    quiz = _quiz(slug)
    scope = _filtered(quiz)[1]
    # The API's document (see the module's docstring): review reasons and notes in English.
    with force_locale("en"):
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
    # The API's document (see the module's docstring): review reasons and notes in English.
    with force_locale("en"):
        document = stats.as_json(_session_figures(session))
        document["students"] = stats.student_json(live.results(db.session, session))
    return jsonify(document)


# Charts ----------------------------------------------------------------------------------------


def _charts(figures: stats.QuizStats) -> dict[str, charts.Chart]:
    counts = _listing((bin.label, format_decimal(bin.attempts)) for bin in figures.histogram)
    histogram = charts.column_chart(
        "chart-scores",
        _("Scores of finished attempts"),
        _("Number of finished attempts in each band of percent right: %(counts)s.", counts=counts),
        [(bin.label, bin.attempts) for bin in figures.histogram],
    )
    # A poll has no right answer, so no facility: it has no bar here.
    scored = [item for item in figures.items if item.facility is not None]
    shares = _listing(
        (item.label, _("%(share)s (review)", share=format_percent(item.facility)) if item.reasons
         else format_percent(item.facility))
        for item in scored
    )
    facility = charts.bar_chart(
        "chart-facility",
        _("Share of right answers per question"),
        _("Facility of each question, flagged ones marked as needing review: %(shares)s.", shares=shares),
        [(item.label, item.facility, "flagged" if item.reasons else "") for item in scored],
    )
    return {"scores": histogram, "facility": facility}


def _choice_chart(item: stats.ItemStats) -> charts.Chart:
    if item.tally is not None:  # a kind with its own tally: places, numbers, typed answers, votes
        rows = [(row.label, row.is_correct, row.share) for row in item.tally.rows]
        title = item.tally.caption
    else:
        rows = [(choice.text, choice.is_correct, choice.share) for choice in item.choices]
        title = _("Share of answers picking each choice")
    return charts.bar_chart(
        "chart-choices",
        title,
        _listing(
            (_("%(answer)s (correct)", answer=label) if correct else label, format_percent(share))
            for label, correct, share in rows
        ) + ".",
        [(label, share, "correct" if correct else "") for label, correct, share in rows],
    )


def _listing(pairs: Iterable[tuple[str, str]]) -> str:
    """A chart's figures for screen readers: "label: value; label: value"."""
    return "; ".join(_("%(label)s: %(value)s", label=label, value=value) for label, value in pairs)
