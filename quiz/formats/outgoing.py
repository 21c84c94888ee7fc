"""What every writer shares: a bank document's questions, grouped by quiz, in one settled shape.

A bank document may say things several ways (one quote or a list, ``correct: true`` or
``"True"``, no ``quiz`` when there is a single one); writers see only this module's answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from quiz.bank.schema import QuestionSpec
from quiz.kinds import KINDS, Kind


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
    #: What grading needs beyond the choices (see :class:`quiz.kinds.Content`).
    answer_key: dict[str, Any] | None = None

    @property
    def correct_count(self) -> int:
        return sum(is_correct for _, is_correct in self.choices)

    @property
    def behaviour(self) -> Kind:
        return KINDS[self.kind]


@dataclass(frozen=True)
class OutgoingQuiz:
    """A quiz and its questions; ``id`` is None for questions that belong to no quiz yet."""

    id: str | None
    title: str | None
    article_title: str | None
    shuffle_choices: bool
    questions: tuple[OutgoingQuestion, ...]


def outgoing_quizzes(document: dict[str, Any], format_name: str | None = None) -> list[OutgoingQuiz]:
    """The document's questions by quiz, quizzes in file order, then any questions without one;
    with ``format_name``, only those of the kinds that format can carry (see :func:`left_out`)."""
    quizzes = {quiz["id"]: quiz for quiz in document.get("quizzes") or []}
    article_titles = {article["id"]: article.get("title") for article in document.get("articles") or []}
    only_quiz = next(iter(quizzes)) if len(quizzes) == 1 else None
    grouped: dict[str | None, list[OutgoingQuestion]] = {identifier: [] for identifier in quizzes}
    for entry in document.get("questions") or []:
        quiz_id = entry.get("quiz") or only_quiz
        question = _question(QuestionSpec.model_validate(entry))
        if format_name is None or carries(format_name, question):
            grouped.setdefault(quiz_id, []).append(question)
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


def carries(format_name: str, question: OutgoingQuestion) -> bool:
    """Whether the format can carry ``question``: its kind, and in GIFT no typed answer with
    "->" in it, since GIFT answers with "=" and "->" and no "~" make a matching question."""
    if format_name not in question.behaviour.formats:
        return False
    if format_name == "gift" and question.kind == "text":
        return not any("->" in text for text in (question.answer_key or {}).get("accept", []))
    return True


def left_out(document: dict[str, Any], format_name: str) -> list[tuple[str, str]]:
    """(id, kind) of the document's questions whose kind the format cannot carry."""
    return [
        (entry["id"], entry.get("kind", "single"))
        for entry in document.get("questions") or []
        if format_name not in KINDS[entry.get("kind", "single")].formats
    ]


def _question(spec: QuestionSpec) -> OutgoingQuestion:
    def refuse(where: tuple, message: str) -> None:
        raise ValueError(f"question {spec.id}: {message}")  # a document from the bank is checked already

    content = KINDS[spec.kind].check(spec, refuse)
    return OutgoingQuestion(
        id=spec.id, kind=spec.kind, difficulty=spec.difficulty, prompt=spec.prompt, choices=content.choices,
        explanation=spec.explanation, quotes=tuple(spec.source), tags=tuple(spec.tags), time_limit=spec.time_limit,
        answer_key=content.answer_key,
    )
