"""Classroom sessions through the API, for students: joining, the current state, answering."""

from __future__ import annotations

from flask import current_app, request

from quiz import answering, live, play
from quiz.extensions import db, limiter
from quiz.models import LivePlayer, LiveSession, Player
from quiz.refusals import AnswerRefused
from quiz.web.api import present, schemas
from quiz.web.api.auth import bearer_token
from quiz.web.api.blueprint import api
from quiz.web.api.errors import ApiError
from quiz.web.api.play import check_answer_field, refusal_error
from quiz.web.api.spec import PLAYER

#: Standings shown from the leaderboard on, as on the projector.
STANDINGS_SHOWN = 5


def _player_key() -> str:
    """Rate-limit key for joining: the player, whose wrong codes count together whether typed
    on the join page or sent here; the address for a request without a valid token."""
    token = bearer_token()
    player = play.player_by_token(db.session, token) if token and len(token) <= 64 else None
    return f"player:{player.id}" if player else f"address:{request.remote_addr or 'unknown'}"


def _address_key() -> str:
    """Rate-limit key for joining from an address, shared with the join page: a player token
    costs nothing to replace, an address does."""
    return f"join-address:{request.remote_addr or 'unknown'}"


def _wrong_code(response) -> bool:
    return response.status_code == 404


_JOIN_LIMITS = (
    limiter.limit(
        lambda: current_app.config["JOIN_LIMIT_WRONG_CODES"], key_func=_player_key, deduct_when=_wrong_code,
    ),
    # Once an address has spent its budget every code is refused, a right one too, so that a
    # 429 never tells a guesser which codes were right.
    limiter.limit(
        lambda: current_app.config["JOIN_LIMIT_WRONG_CODES_PER_ADDRESS"], key_func=_address_key,
        deduct_when=_wrong_code,
    ),
)


def state_of(view: live.StudentScreen) -> schemas.LiveState:
    """The student's screen as the API shows it; correctness appears only once revealed."""
    screen = view.screen
    session = screen.live
    question = screen.question
    answer = view.answer
    revealed = screen.revealed
    return schemas.LiveState(
        session_id=session.id,
        quiz=session.quiz.slug,
        pacing=session.pacing,
        state=session.state,
        version=session.version,
        position=session.position,
        question_count=session.question_count,
        nickname=view.live_player.nickname,
        score=view.shown_score,
        question=_question(session, question, screen.seconds_left) if question is not None else None,
        answer=schemas.LiveAnswerOut(
            picked=[number for number, choice in enumerate(question.order, 1) if answer.selected_mask & (1 << choice.position)],
            given=question.revision.behaviour.answer_text(question.order, answer.selected_mask, answer.response),
            correct=answer.is_correct if revealed and question.revision.behaviour.scored else None,
            credit=answer.credit if revealed else None,
            points=answer.points if revealed else None,
        ) if question is not None and answer is not None else None,
        reveal=schemas.LiveReveal(
            correct_choices=[
                number for number, choice in enumerate(question.order, 1)
                if choice.is_correct and question.revision.behaviour.picks
            ],
            expected=question.revision.behaviour.expected(question.order, question.revision.answer_key),
            choices=present.tally_rows(screen.tally),
            others=screen.tally.others,
            explanation=question.revision.explanation,
            sources=[present.source(session.quiz.article.slug, quoted) for quoted in screen.sources],
        ) if revealed and question is not None else None,
        rank=view.standing.rank if view.standing else None,
        standings=[
            schemas.Standing(rank=row.rank, nickname=row.nickname, score=row.score)
            for row in screen.standings[:STANDINGS_SHOWN]
        ] if session.state in (live.LEADERBOARD, live.FINISHED) else [],
        attempt_id=view.live_player.attempt.public_id if session.pacing == live.SELF_PACED else None,
        deadline=session.deadline,
    )


def _question(session: LiveSession, question: live.QuestionData, seconds_left: float | None) -> schemas.LiveQuestion:
    kind = question.revision.behaviour
    return schemas.LiveQuestion(
        position=question.position,
        prompt=question.revision.prompt,
        kind=kind.name,
        instruction=kind.instruction,
        answer_with=kind.answer_field,
        multiple=kind.multiple,
        choices=[schemas.ShownChoice(number=choice.number, text=choice.text) for choice in question.choices],
        unit=question.public.get("unit"),
        time_limit=question.time_limit,
        seconds_left=round(seconds_left, 1) if seconds_left is not None else None,
    )


def _membership(session_id: int, player: Player) -> tuple[LiveSession, LivePlayer]:
    found = live.membership_by_token(db.session, session_id, player.token)
    if found is None:
        raise ApiError(404, "not_found", "This player is not in a session with this id.")
    return found


@api.operation(
    "POST", "/live/join", summary="Join a classroom session", tag="live", security=PLAYER,
    body=schemas.JoinSession, response=schemas.LiveState, status=201,
    other_statuses={200: "The player was already in the session, and keeps their nickname and points."},
    errors={
        404: "`no_session`: no open session has this code. Wrong codes are limited per player and per "
        "address (429 once spent).",
        409: "`join_refused`: the nickname is taken in the session, the session has ended or passed its "
        "deadline, or the host removed this player.",
    },
    limits=_JOIN_LIMITS,
)
def join_session(player: Player, body: schemas.JoinSession):
    """Join with the code on the host's screen and a nickname, unique in the session (ignoring
    case and accents). Returns the student's state, as `GET /live/{session_id}` does."""
    session = live.open_session_by_code(db.session, body.code)
    if session is None:
        ended = live.ended_session_by_code(db.session, body.code) is not None
        raise ApiError(404, "no_session", "The session with this code has ended." if ended else "No open session has this code.")
    returning = live.membership(db.session, session, player) is not None
    try:
        member = live.join(db.session, session, player, body.nickname)
    except live.LiveError as error:
        raise ApiError(409, "join_refused", str(error)) from None
    view = state_of(live.student_screen(db.session, session, member))
    return (view, 200) if returning else view


@api.operation(
    "GET", "/live/{session_id}", summary="Get the student's state", tag="live", security=PLAYER,
    response=schemas.LiveState,
)
def get_live_state(session_id: int, player: Player):
    """What the phone shows now. Poll it, about once a second: `version` changes whenever
    what the screens show changes. Reading it also applies what time has made due, such as
    closing a question whose time is up."""
    session, member = _membership(session_id, player)
    return state_of(live.student_screen(db.session, session, member))


@api.operation(
    "POST", "/live/{session_id}/answer", summary="Answer the open question", tag="live", security=PLAYER,
    body=schemas.LiveAnswer, response=schemas.LiveAnswerResult,
    errors={
        409: "`question_closed`: no question is open (not yet, time is up, or the host closed it); "
        "`not_current_question`: `position` is not the open question; `answer_elsewhere`: a self-paced "
        "session's attempt is answered through `/attempts/{attempt_id}`.",
        422: "The body is not valid, or (`invalid_answer`) does not fit the question: a choice it does not have, "
        "several for a one-answer question, another field than its `answer_with`.",
    },
)
def answer_live(session_id: int, player: Player, body: schemas.LiveAnswer):
    """Each student answers each question once: a second answer changes nothing and comes back
    with `recorded` false."""
    seat = live.seat(db.session, session_id, player.token)
    if seat is None:
        raise ApiError(404, "not_found", "This player is not in a session with this id.")
    state, member = seat
    question = live.current_question(db.session, state)
    try:
        if question is not None and state.state == live.QUESTION_OPEN and body.position == state.position:
            check_answer_field(question.revision.behaviour, body)
        outcome = answering.answer_live(db.session, state, member, body.position, present.submission(body))
    except AnswerRefused as refusal:
        raise refusal_error(refusal) from None
    session, live_player = _membership(session_id, player)
    return schemas.LiveAnswerResult(
        recorded=outcome.recorded, state=state_of(live.student_screen(db.session, session, live_player))
    )
