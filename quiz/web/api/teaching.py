"""For teachers and admins, with an API token: their sessions and results, statistics, the bank.

Who sees what follows the web pages: a teacher their own sessions, an admin every session;
another's session answers 404, as if it did not exist. Only admins export the bank.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from flask import Response

from quiz import live, stats
from quiz.bank.exporter import export_document
from quiz.extensions import db
from quiz.formats import FORMATS, exporters
from quiz.models import ApiToken, LiveSession, Quiz
from quiz.web.api import schemas
from quiz.web.api.blueprint import api
from quiz.web.api.errors import ApiError
from quiz.web.api.play import quiz_or_404
from quiz.web.api.spec import ACCOUNT, FileResponse

TEACHERS = ("teacher", "admin")


@api.operation(
    "GET", "/account", summary="Get the token's account", tag="teaching", security=ACCOUNT, response=schemas.Account,
)
def get_account(token: ApiToken):
    """Which account the token acts for, and the token itself: a quick check that it works."""
    return schemas.Account(
        username=token.user.username,
        role=token.user.role,
        token=schemas.TokenInfo(
            id=token.id, label=token.label, prefix=token.prefix, created_at=token.created_at,
            last_used_at=token.last_used_at,
        ),
    )


# Sessions --------------------------------------------------------------------------------------


def _session_summary(session: LiveSession) -> dict:
    return dict(
        id=session.id, code=session.code, quiz=session.quiz.slug, host=session.host.username, pacing=session.pacing,
        scoring=session.scoring, state=session.state, position=session.position,
        question_count=session.question_count, created_at=session.created_at, deadline=session.deadline,
        finished_at=session.finished_at,
    )


def _hosted(session_id: int, token: ApiToken) -> LiveSession:
    session = live.session_for_host(db.session, session_id, token.user)
    if session is None:
        raise ApiError(404, "not_found", "No session with this id is yours.")
    return session


@api.operation(
    "GET", "/sessions", summary="List classroom sessions", tag="teaching", security=ACCOUNT, roles=TEACHERS,
    response=schemas.SessionList,
)
def list_sessions(token: ApiToken):
    return schemas.SessionList(
        sessions=[
            schemas.SessionSummary(**_session_summary(session))
            for session in stats.sessions_visible_to(db.session, token.user)
        ]
    )


@api.operation(
    "GET", "/sessions/{session_id}", summary="Get a classroom session", tag="teaching", security=ACCOUNT,
    roles=TEACHERS, response=schemas.SessionDetail,
)
def get_session(session_id: int, token: ApiToken):
    session = _hosted(session_id, token)
    # Applies what time has made due (a question's time up, a deadline past), as the host's screen does.
    live.tick(db.session, session)
    return schemas.SessionDetail(**_session_summary(session), players=live.player_count(db.session, session))


@api.operation(
    "GET", "/sessions/{session_id}/results", summary="Get a session's results", tag="teaching", security=ACCOUNT,
    roles=TEACHERS, response=schemas.SessionResults,
)
def get_session_results(session_id: int, token: ApiToken):
    """Students ranked by points (ties to the shorter total time), removed students last."""
    session = _hosted(session_id, token)
    results = live.results(db.session, session)
    return schemas.SessionResults(
        session=schemas.SessionSummary(**_session_summary(session)),
        questions=[
            schemas.SessionQuestion(position=question.position, question_id=question.question_slug,
                                    kind=question.revision.kind, prompt=question.revision.prompt,
                                    expected=question.expected)
            for question in results.questions
        ],
        students=[
            schemas.StudentResult(
                nickname=student.nickname, score=student.score, correct=student.correct, answered=student.answered,
                total_ms=student.total_ms, removed=student.removed,
                answers=[
                    schemas.StudentAnswer(answered=cell.answered, correct=cell.is_correct, points=cell.points,
                                          elapsed_ms=cell.elapsed_ms, given=cell.given)
                    for cell in student.cells
                ],
            )
            for student in results.students
        ],
    )


@api.operation(
    "GET", "/sessions/{session_id}/statistics", summary="Get a session's statistics", tag="teaching",
    security=ACCOUNT, roles=TEACHERS, response=schemas.SessionStatistics,
)
def get_session_statistics(session_id: int, token: ApiToken):
    """The figures of `/stats/sessions/{session_id}.json`."""
    session = _hosted(session_id, token)
    document = stats.as_json(stats.quiz_stats(db.session, session.quiz, stats.Scope(session.quiz_id, session_id=session.id)))
    document["students"] = stats.student_json(live.results(db.session, session))
    return schemas.SessionStatistics.model_validate(document)


# Statistics ------------------------------------------------------------------------------------


def _scope(quiz: Quiz, token: ApiToken, query: schemas.StatisticsFilter) -> stats.Scope:
    if query.session_id is not None:
        visible = {session.id for session in stats.sessions_visible_to(db.session, token.user, quiz)}
        if query.session_id not in visible:
            raise ApiError(404, "not_found", "No session of this quiz with this id is yours.")
    return stats.Scope(
        quiz.id,
        session_id=query.session_id,
        solo_only=query.solo_only,
        started_from=datetime.combine(query.started_from, time()) if query.started_from else None,
        started_before=datetime.combine(query.started_until + timedelta(days=1), time()) if query.started_until else None,
    )


@api.operation(
    "GET", "/quizzes/{quiz_id}/statistics", summary="Get a quiz's statistics", tag="teaching", security=ACCOUNT,
    roles=TEACHERS, query=schemas.StatisticsFilter, response=schemas.QuizStatistics,
)
def get_quiz_statistics(quiz_id: str, token: ApiToken, query: schemas.StatisticsFilter):
    """The figures of `/stats/quiz/{quiz_id}.json`: facility, discrimination, choices, scores,
    reliability (or why it is not shown), answering times, and the questions to review.
    `session_id` must be a session the account may see."""
    quiz = quiz_or_404(quiz_id)
    return schemas.QuizStatistics.model_validate(stats.as_json(stats.quiz_stats(db.session, quiz, _scope(quiz, token, query))))


@api.operation(
    "GET", "/quizzes/{quiz_id}/statistics/questions/{revision_id}", summary="Get a question's statistics",
    tag="teaching", security=ACCOUNT, roles=TEACHERS, query=schemas.StatisticsFilter,
    response=schemas.QuestionStatistics,
)
def get_question_statistics(quiz_id: str, revision_id: int, token: ApiToken, query: schemas.StatisticsFilter):
    """A revision of one of the quiz's questions, with its correct choices and sources, and its
    statistics over the attempts in scope."""
    quiz = quiz_or_404(quiz_id)
    scope = _scope(quiz, token, query)
    revision = stats.revision_of_quiz(db.session, quiz, revision_id)
    if revision is None:
        raise ApiError(404, "not_found", "The quiz has no question revision with this id.")
    item = next((item for item in stats.item_stats(db.session, scope) if item.revision_id == revision_id), None)
    return schemas.QuestionStatistics(
        quiz=quiz.slug,
        revision=schemas.RevisionOut(
            id=revision.id, number=revision.number, question_id=revision.question.slug, kind=revision.kind,
            prompt=revision.prompt, explanation=revision.explanation,
            choices=[schemas.RevisionChoice(text=choice.text, correct=choice.is_correct) for choice in revision.choices],
            sources=[quote.excerpt for quote in revision.quotes],
        ),
        statistics=schemas.ItemStatistics.model_validate(stats.item_json(item)) if item else None,
    )


# The bank --------------------------------------------------------------------------------------


def _media_type(name: str) -> str:
    return FORMATS[name].media_type.split(";")[0]


@api.operation(
    "GET", "/bank", summary="Export the bank", tag="teaching", security=ACCOUNT, roles=("admin",),
    query=schemas.BankQuery,
    response=FileResponse(
        "The bank in play, as `quiz export --format` writes it: articles inline, sources included.",
        tuple(dict.fromkeys(_media_type(entry.name) for entry in exporters())),
    ),
)
def export_bank(token: ApiToken, query: schemas.BankQuery):
    """The whole bank with every correct answer, for admins only. `yaml` is the bank file,
    which `quiz import` and the admin pages read back unchanged."""
    entry = FORMATS[query.format]
    data = entry.write(export_document(db.session))
    return Response(
        data,
        mimetype=entry.media_type,
        headers={"Content-Disposition": f'attachment; filename="{entry.filename("questions")}"', "Cache-Control": "no-store"},
    )
