"""The shape of a bank file (version 1), checked by pydantic; unknown fields are refused.

Rules that span several fields or entries (references, quotes, correct choices) are checked
afterwards in :mod:`quiz.bank.loader`, where each error can name its exact place.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    field_validator,
    model_validator,
)

from quiz.kinds import KINDS

#: Characters no text of a bank may hold: C0 and C1 controls other than tab and line breaks
#: (PostgreSQL refuses NUL outright), and the bidirectional overrides, embeddings and isolates
#: that make a title read backwards on every page that shows it.
_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def no_control_characters(value: str) -> str:
    """``value``, or ValueError naming the first control character it holds."""
    if found := _CONTROL_CHARACTER.search(value):
        raise ValueError(f"holds the control character U+{ord(found.group()):04X} at character {found.start() + 1}; remove it")
    return value


IDENTIFIER_PATTERN = r"^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$"
Identifier = Annotated[str, StringConstraints(pattern=IDENTIFIER_PATTERN)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Seconds = Annotated[int, Field(ge=5, le=240)]
Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="after")
    @classmethod
    def _printable(cls, value: object) -> object:
        # After each field's own constraints, so that their messages stay as they are.
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str):
                no_control_characters(text)
        return value


class ArticleSpec(_Strict):
    id: Identifier
    title: Annotated[Text, StringConstraints(max_length=300)]
    url: Annotated[str, StringConstraints(pattern=r"^https?://\S+$", max_length=2000)] | None = None
    date: dt.date | None = None
    #: The article inline, or ``file``: a path relative to the bank file. Exactly one of the two.
    text: Text | None = None
    file: Annotated[str, StringConstraints(min_length=1, max_length=500)] | None = None

    @model_validator(mode="after")
    def _text_or_file(self) -> ArticleSpec:
        if (self.text is None) == (self.file is None):
            raise ValueError("give the article's text or its file, not both or neither")
        return self


class QuizSettings(_Strict):
    questions_per_attempt: Annotated[int, Field(ge=1, le=1000)] = 10
    shuffle_choices: bool = True
    time_limit: Seconds = 30


class QuizSpec(_Strict):
    id: Identifier
    title: Annotated[Text, StringConstraints(max_length=200)]
    description: str = ""
    #: The language its texts are written in, as a BCP 47 tag ("en", "fr", "fr-CA"): pages
    #: mark its texts with it, and show the rest in it when it is one the app speaks.
    language: Annotated[str, StringConstraints(pattern=r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$", max_length=35)] = "en"
    article: Identifier
    settings: QuizSettings = QuizSettings()


class QuestionSpec(_Strict):
    """A question entry. Which of the answer fields apply depends on its kind (see
    :mod:`quiz.kinds`); the loader refuses those that do not."""

    id: Identifier
    #: The quiz the question belongs to; may be left out when the file has a single quiz.
    quiz: Identifier | None = None
    kind: Literal[tuple(KINDS)] = "single"  # type: ignore[valid-type]
    difficulty: Difficulty = "medium"
    prompt: Annotated[Text, StringConstraints(max_length=1000)]
    choices: Annotated[
        list[Annotated[Text, StringConstraints(max_length=300)]], Field(min_length=2, max_length=6)
    ] | None = None
    #: The text of the correct choice, a list of them (multi), or true/false (true_false).
    correct: Text | StrictBool | Annotated[list[Text], Field(min_length=1)] | None = None
    #: Ordering: the items, in the right order.
    items: Annotated[
        list[Annotated[Text, StringConstraints(max_length=300)]], Field(min_length=2, max_length=8)
    ] | None = None
    #: Number: the answer, how far from it an answer may be and still be right, and its unit.
    answer: Annotated[StrictInt | StrictFloat, Field(allow_inf_nan=False)] | None = None
    tolerance: Annotated[StrictInt | StrictFloat, Field(ge=0, allow_inf_nan=False)] | None = None
    unit: Annotated[Text, StringConstraints(max_length=40)] | None = None
    #: Text: the answers accepted, and whether one typo is forgiven.
    accept: Annotated[
        list[Annotated[Text, StringConstraints(max_length=200)]], Field(min_length=1, max_length=20)
    ] | None = None
    fuzzy: StrictBool | None = None
    explanation: Annotated[Text, StringConstraints(max_length=2000)]
    #: Verbatim quotes from the quiz's article. A question without any is "unsourced": it can be
    #: played (questions imported from other formats start so), and ``quiz check`` warns about it.
    source: list[Annotated[Text, StringConstraints(max_length=2000)]] = []
    tags: list[Identifier] = []
    time_limit: Seconds | None = None
    #: Questions of one group tell each other's answers: no attempt or session asks two of them.
    group: Identifier | None = None

    @field_validator("source", mode="before")
    @classmethod
    def _one_quote_as_list(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value


class BankSpec(_Strict):
    version: Annotated[int, Field(strict=True)]

    @field_validator("version")
    @classmethod
    def _known_version(cls, value: int) -> int:
        if value != 1:
            raise ValueError("must be 1")
        return value

    articles: list[ArticleSpec] = []
    quizzes: list[QuizSpec] = []
    questions: list[QuestionSpec] = []
