"""The API's blueprint and its operations' registry, and the OpenAPI document that describes them."""

from __future__ import annotations

from flask import Blueprint, jsonify

from quiz.web.api.errors import URL_PREFIX
from quiz.web.api.spec import Api

bp = Blueprint("api", __name__, url_prefix=URL_PREFIX)

api = Api(
    bp,
    title="quiz JSON API",
    version="1",
    description=(
        "Quizzes, attempts and answers, classroom sessions and statistics.\n\n"
        "**Players** need no account: `POST /players` returns a player token, sent as "
        "`Authorization: Bearer <token>`. A question never says which choice is right until it has "
        "been answered (or, in a classroom session, revealed).\n\n"
        "**Teachers and admins** use an API token made with `quiz users token create NAME --label L`, "
        "sent the same way.\n\n"
        "Cookies are never read, so no CSRF token is needed. Every error has the shape "
        '`{"error": {"status": 404, "code": "not_found", "message": "..."}}`, with `details` '
        "listing field errors on a 422. Messages, review reasons and notes are in English, whatever the "
        "request's Accept-Language."
    ),
    tags=[
        {"name": "quizzes", "description": "The quizzes in play and their leaderboards; no token needed."},
        {"name": "players", "description": "Player tokens and nicknames."},
        {"name": "attempts", "description": "Solo play: attempts, questions, answers with their feedback, results."},
        {"name": "live", "description": "Classroom sessions, for students: joining, the current state, answering."},
        {"name": "teaching", "description": "For teachers and admins: sessions, results, statistics, the bank."},
    ],
)


@bp.get("/openapi.json")
def openapi_document():
    """The OpenAPI 3.1 document of this API."""
    return jsonify(api.document())
