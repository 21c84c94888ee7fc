"""Why an answer is refused: the typed errors of the answering core (:mod:`quiz.answering`).

Each face turns them into its own response: a page with the message, or a JSON error with
the code. Nothing is stored when one is raised.
"""

from __future__ import annotations


class AnswerRefused(Exception):
    """An answer that cannot be taken; ``str(error)`` is meant for the person answering, in the
    request's language."""

    #: The API's error code for it.
    code = "answer_refused"
    #: The HTTP status both faces answer with.
    status = 409


class NotCurrentQuestion(AnswerRefused):
    """The answer names a question other than the one open or next: a stale page, most often."""

    code = "not_current_question"


class QuestionClosed(AnswerRefused):
    """No question of the session is open for answers (not yet, or no longer)."""

    code = "question_closed"


class AttemptFinished(AnswerRefused):
    """The attempt, or the assignment it belongs to, takes no more answers."""

    code = "attempt_finished"


class AnswerElsewhere(AnswerRefused):
    """The attempt is answered through another face: a host-paced session's questions on the
    live screen, a self-paced session's on the quiz pages."""

    code = "answer_elsewhere"


class InvalidAnswer(AnswerRefused):
    """What was sent cannot be an answer to this question (no choice, a number that is not one)."""

    code = "invalid_answer"
    status = 422

    def __init__(self, message: str, field: str = "answer"):
        super().__init__(message)
        #: The part of the answer at fault, as the API's body names it.
        self.field = field
