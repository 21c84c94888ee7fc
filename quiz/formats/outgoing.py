"""What every writer shares: a bank document's questions, grouped by quiz, in one settled shape.

A bank document may say things several ways (one quote or a list, ``correct: true`` or
``"True"``, no ``quiz`` when there is a single one); writers see only this module's answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from quiz.bank.schema import QuestionSpec
from quiz.kinds import KINDS


@dataclass(frozen=True)
class OutgoingQuestion:
    id: str
    kind: str
    difficulty: str
    prompt: str
    #: Every choice with whether it is correct, in order; True and False for a true_false question.
    choices: tuple[tuple[str, bool], ...]
    explanation: str
    quotes: tuple[str, ...]
    tags: tuple[str, ...]
    time_limit: int | None

    @property
    def correct_count(self) -> int:
        return sum(is_correct for _, is_correct in self.choices)


@dataclass(frozen=True)
class OutgoingQuiz:
    """A quiz and its questions; ``id`` is None for questions that belong to no quiz yet."""

    id: str | None
    title: str | None
    article_title: str | None
    shuffle_choices: bool
    questions: tuple[OutgoingQuestion, ...]


def outgoing_quizzes(document: dict[str, Any]) -> list[OutgoingQuiz]:
    """The document's questions by quiz, quizzes in file order, then any questions without one."""
    quizzes = {quiz["id"]: quiz for quiz in document.get("quizzes") or []}
    article_titles = {article["id"]: article.get("title") for article in document.get("articles") or []}
    only_quiz = next(iter(quizzes)) if len(quizzes) == 1 else None
    grouped: dict[str | None, list[OutgoingQuestion]] = {identifier: [] for identifier in quizzes}
    for entry in document.get("questions") or []:
        quiz_id = entry.get("quiz") or only_quiz
        grouped.setdefault(quiz_id, []).append(_question(QuestionSpec.model_validate(entry)))
    result = []
    for quiz_id, questions in grouped.items():
        if not questions:
            continue
        quiz = quizzes.get(quiz_id or "", {})
        result.append(
            OutgoingQuiz(
                id=quiz_id,
                title=quiz.get("title"),
                article_title=article_titles.get(quiz.get("article", "")),
                shuffle_choices=(quiz.get("settings") or {}).get("shuffle_choices", True),
                questions=tuple(questions),
            )
        )
    return result


def _question(spec: QuestionSpec) -> OutgoingQuestion:
    return OutgoingQuestion(
        id=spec.id, kind=spec.kind, difficulty=spec.difficulty, prompt=spec.prompt, choices=_choices(spec),
        explanation=spec.explanation, quotes=tuple(spec.source), tags=tuple(spec.tags), time_limit=spec.time_limit,
    )


def _choices(spec: QuestionSpec) -> tuple[tuple[str, bool], ...]:
    fixed = KINDS[spec.kind].fixed_choices
    if fixed is not None:
        # As the loader reads it: true/false, or the text of the first ("True") or second choice.
        if isinstance(spec.correct, bool):
            first_is_correct = spec.correct
        else:
            first_is_correct = str(spec.correct).capitalize() == fixed[0]
        return ((fixed[0], first_is_correct), (fixed[1], not first_is_correct))
    correct = spec.correct if isinstance(spec.correct, list) else [spec.correct]
    return tuple((text, text in correct) for text in spec.choices or [])
