"""The API's request and response bodies as pydantic models: they validate what comes in, shape
what goes out, and are the schemas of the OpenAPI document.

Nothing a player can read before answering holds correctness: :class:`Question` and
:class:`LiveQuestion` have no such field, and :class:`Feedback` and :class:`LiveReveal` are
only built once the player has answered, or the host has revealed the answer.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictFloat, model_validator

from quiz import live, nicknames, stats
from quiz.bank.schema import DIFFICULTIES
from quiz.formats import exporters
from quiz.kinds import KINDS
from quiz.play import LENGTH_ALL, LENGTH_STANDARD


def _utc(moment: datetime) -> datetime:
    # Times are stored as naive UTC; the API says so in every value.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


Timestamp = Annotated[datetime, AfterValidator(_utc)]
Kind = Literal[tuple(KINDS)]  # type: ignore[valid-type]
Difficulty = Literal[DIFFICULTIES]  # type: ignore[valid-type]
State = Literal[live.STATES]  # type: ignore[valid-type]
ReliabilityStatus = Literal[stats.RELIABILITY_STATUSES]  # type: ignore[valid-type]
#: Choice numbers, as shown; a question has at most six choices.
ChoiceNumber = Annotated[int, Field(ge=1, le=6)]
#: Item numbers of an ordering question, as shown; it has at most eight.
ItemNumber = Annotated[int, Field(ge=1, le=8)]
#: The field of an answer's body that a kind reads.
AnswerField = Literal["choices", "order", "number", "text"]


def _nickname(value: str) -> str:
    """The nickname as the web forms would keep it, or ValueError with their message."""
    cleaned = nicknames.clean(value)
    if cleaned is None:
        raise ValueError("A nickname cannot be empty.")
    if len(cleaned) > nicknames.MAX_LENGTH:
        raise ValueError(nicknames.LENGTH_MESSAGE)
    if not nicknames.has_allowed_characters(cleaned):
        raise ValueError(nicknames.CHARACTERS_MESSAGE)
    return cleaned


Nickname = Annotated[
    str,
    Field(min_length=1, max_length=nicknames.MAX_LENGTH, description="Up to 20 characters: letters, digits, "
          "punctuation and spaces; spaces around it are dropped and runs of them kept as one."),
    AfterValidator(_nickname),
]


class _Body(BaseModel):
    """Request bodies: unknown fields are refused, so that a misspelt one is not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Errors ----------------------------------------------------------------------------------------


class ErrorDetail(_Out):
    """One problem with one field of the request."""

    loc: list[str | int] = Field(description='Where: "query" or "body", then the field\'s path.')
    type: str = Field(description="A stable name of the problem, e.g. `missing`, `int_type`.")
    message: str


class ErrorBody(_Out):
    status: int = Field(description="The HTTP status, repeated.")
    code: str = Field(description="A stable name of the error, e.g. `not_found`, `attempt_finished`.")
    message: str = Field(description="What went wrong, for a person.")
    # Absent rather than null when there are none: the schema says an array or nothing.
    details: list[ErrorDetail] = Field(default_factory=list, description="Field errors, on 422 responses only.")


class Error(_Out):
    """Every error: one shape whatever the status."""

    error: ErrorBody


# Quizzes ---------------------------------------------------------------------------------------


class ArticleRef(_Out):
    id: str
    title: str
    url: str | None = Field(description="Where the article was published, if known.")
    reader_url: str = Field(description="The article on this site, with an anchor for every quote.")


class QuizSummary(_Out):
    id: str = Field(description="The quiz's id, as in the bank file.")
    title: str
    description: str
    question_count: int = Field(
        description="How many questions an attempt on all of them asks (questions of a group are never asked together)."
    )
    questions_per_attempt: int = Field(description="The length of a standard attempt.")
    article: ArticleRef


class QuizList(_Out):
    """The quizzes open for play, in the bank's order."""

    quizzes: list[QuizSummary]


class DifficultyCounts(_Out):
    easy: int
    medium: int
    hard: int


class QuizDetail(QuizSummary):
    """One quiz, with how many questions an attempt of each difficulty asks."""

    difficulties: DifficultyCounts
    time_limit: int = Field(description="Default seconds per question in classroom sessions.")


class LeaderboardRow(_Out):
    rank: int
    nickname: str
    score: int
    question_count: int
    duration_ms: int
    finished_at: Timestamp


class Leaderboard(_Out):
    """Each named player's best attempt, best first: ties go to the shorter time, then to who
    finished first. Retries of missed questions never count."""

    quiz: str
    rows: list[LeaderboardRow]


# Players ---------------------------------------------------------------------------------------


class NewPlayer(_Body):
    nickname: Nickname | None = Field(None, description="Shown on leaderboards; without one, the player stays off them.")


class PlayerToken(_Out):
    """A new player and their token; the token is not shown again."""

    token: str = Field(description="Send it as `Authorization: Bearer <token>`.")
    nickname: str | None


class SetNickname(_Body):
    nickname: Nickname | None = Field(description="null to stay off leaderboards.")


class PlayerProfile(_Out):
    """The player's nickname."""

    nickname: str | None


# Attempts --------------------------------------------------------------------------------------


class StartAttempt(_Body):
    length: Literal[LENGTH_STANDARD, LENGTH_ALL] = Field(  # type: ignore[valid-type]
        LENGTH_STANDARD, description="`standard`: the quiz's length; `all`: every question."
    )
    difficulty: Difficulty | None = Field(None, description="Only questions of this difficulty; null for any.")


class Attempt(_Out):
    """An attempt: its progress and score."""

    id: str
    quiz: str
    question_count: int
    answered_count: int
    correct_count: int
    score: int
    difficulty: Difficulty | None
    next_position: int | None = Field(description="The question to answer next; null when finished.")
    started_at: Timestamp
    finished_at: Timestamp | None
    duration_ms: int | None = Field(description="From the start to the last answer, once finished.")
    session_id: int | None = Field(description="The classroom session the attempt belongs to, if any.")
    retry: bool = Field(description="A retry of the questions another attempt missed; never on leaderboards.")


class ShownChoice(_Out):
    number: int = Field(description="The choice's number on screen; answers name choices by it.")
    text: str


class PassageOut(_Out):
    """The paragraph around a quote, split around the quote; a part that would tell the answer
    of a question still to come reads "[…]"."""

    paragraph: int = Field(description="The paragraph's number in the article, from 1; 0 is the headline.")
    before: str
    quote: str
    after: str


class SourceOut(_Out):
    excerpt: str = Field(description="The quote, word for word from the article.")
    anchor: str = Field(description="The quote's anchor in the article reader.")
    reader_url: str = Field(description="The quote highlighted in the article reader.")
    passage: PassageOut | None = Field(description="null when the article has changed since the quote was taken.")


class RevealedChoice(_Out):
    number: int
    text: str
    correct: bool = Field(description="A correct choice; for an ordering question's item, put in its right place.")
    picked: bool
    placed: int | None = Field(description="Ordering questions: the place the player gave the item, from 1.")


class TallyRow(_Out):
    """One bar of how a group answered: a choice, an item, a value or a typed answer."""

    number: int | None = Field(description="The choice's or item's number on screen, where it has one.")
    text: str
    correct: bool
    count: int
    share: float


class Feedback(_Out):
    """What a player learns once they have answered a question."""

    position: int
    correct: bool = Field(description="Full credit; a poll's answer is never correct, nor wrong.")
    credit: float | None = Field(
        description="From 0 to 1: an ordering question with half its items in place earns 0.5. null for a poll."
    )
    points: int
    picked: list[int] = Field(description="The numbers of the choices picked.")
    correct_choices: list[int] = Field(description="The numbers of the correct choices.")
    choices: list[RevealedChoice] = Field(
        description="Every choice, or an ordering question's items in the right order; empty for typed answers."
    )
    given: str = Field(description="The answer given, in words.")
    expected: str = Field(description="The right answer, in words; empty for a poll.")
    votes: list[TallyRow] | None = Field(description="Polls: how everyone has voted so far; null otherwise.")
    explanation: str
    sources: list[SourceOut] = Field(description="Empty for a question without a source.")
    answered_at: Timestamp
    elapsed_ms: int | None = Field(description="From the question first shown to the answer.")


class Question(_Out):
    """A question of an attempt as the player sees it. Before it is answered nothing in it says
    which choice is right; once answered, ``feedback`` holds the answer's feedback."""

    attempt_id: str
    position: int = Field(description="From 1, as in \"Question 3 of 10\".")
    question_count: int
    question_id: str = Field(description="The question's id in the bank.")
    kind: Kind
    prompt: str
    instruction: str
    answer_with: AnswerField = Field(description="The field of the answer's body this question reads.")
    multiple: bool = Field(description="Several choices may be picked.")
    choices: list[ShownChoice] = Field(
        description="The choices, or an ordering question's items, in the order this attempt shows them, stable "
        "on reload; empty for typed answers."
    )
    unit: str | None = Field(description="Number questions: the unit the answer is in, if any.")
    feedback: Feedback | None = Field(description="null until the question is answered.")


_ANSWER_FIELDS = ("choices", "order", "number", "text")


def _one_answer_field(schema: dict[str, Any]) -> None:
    """The document says "exactly one of them" as JSON Schema can: one alternative per field.
    Their default is only the mark of a field left out, which a client never sends."""
    for name in _ANSWER_FIELDS:
        schema["properties"][name].pop("default", None)
    schema["oneOf"] = [{"required": [name]} for name in _ANSWER_FIELDS]


class _AnswerBody(_Body):
    """An answer: exactly one of its fields, the one the question's `answer_with` names."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_one_answer_field)

    # Each may be left out, never null: a default that is not a value the type allows.
    choices: list[ChoiceNumber] = Field(
        None, min_length=1, max_length=6,  # type: ignore[assignment]
        description="Choice questions and polls: the numbers of the choices picked, exactly one unless `multiple`.",
    )
    order: list[ItemNumber] = Field(
        None, min_length=2, max_length=8,  # type: ignore[assignment]
        description="Ordering questions: every item's number once, in the order the player puts them.",
    )
    number: StrictFloat = Field(None, description="Number questions: the number given.")  # type: ignore[assignment]
    text: str = Field(None, min_length=1, max_length=200, description="Text questions: the answer typed.")  # type: ignore[assignment]

    @model_validator(mode="after")
    def _exactly_one(self):
        if len(self.model_fields_set & set(_ANSWER_FIELDS)) != 1:
            raise ValueError("give exactly one of choices, order, number and text")
        return self

    @property
    def answer_with(self) -> str:
        return next(name for name in _ANSWER_FIELDS if name in self.model_fields_set)


class SubmitAnswer(_AnswerBody):
    pass


class AnswerResult(_Out):
    """The answer's feedback and the attempt after it."""

    already_answered: bool = Field(
        description="True when the question had been answered before: nothing changed, and the feedback "
        "is the first answer's."
    )
    feedback: Feedback
    attempt: Attempt


class Best(_Out):
    score: int
    question_count: int
    duration_ms: int
    finished_at: Timestamp
    rank: int | None = Field(
        description="Place on the leaderboard; null for a player without a nickname (not listed) or beyond the first 1,000."
    )


class Results(_Out):
    """A finished attempt reviewed: every answer with its feedback, and the player's best."""

    attempt: Attempt
    missed: int
    answers: list[Feedback]
    best: Best | None = Field(description="The player's best finished attempt on the quiz, retries excluded.")


# Classroom sessions, for students --------------------------------------------------------------


class JoinSession(_Body):
    code: str = Field(pattern=r"^[0-9]{6}$", description="The 6-digit code on the host's screen.")
    nickname: Nickname


class LiveQuestion(_Out):
    """The session's current question as every phone shows it; no correctness in it."""

    position: int
    prompt: str
    kind: Kind
    instruction: str
    answer_with: AnswerField = Field(description="The field of the answer's body this question reads.")
    multiple: bool
    choices: list[ShownChoice] = Field(
        description="The same order for every student and the projector; empty for typed answers."
    )
    unit: str | None = Field(description="Number questions: the unit the answer is in, if any.")
    time_limit: int
    seconds_left: float | None = Field(description="While the question is open.")


class LiveAnswerOut(_Out):
    """The student's answer to the current question; right or wrong only from the reveal on."""

    picked: list[int]
    given: str = Field(description="The answer given, in words.")
    correct: bool | None
    credit: float | None = Field(description="From the reveal on, and never for a poll.")
    points: int | None


class LiveReveal(_Out):
    """Shown from the reveal on: the right answer, how the class answered, and the sources."""

    correct_choices: list[int]
    expected: str = Field(description="The right answer, in words; empty for a poll.")
    choices: list[TallyRow] = Field(
        description="How the class answered: each choice; an ordering question's items with how many put each in "
        "its right place; the values or texts given, most given first."
    )
    others: int = Field(description="Answers given too rarely to have a row of their own.")
    explanation: str
    sources: list[SourceOut]


class Standing(_Out):
    rank: int
    nickname: str
    score: int


class LiveState(_Out):
    """What the student's phone shows now: the state the event stream sends, and the student's
    own answer, score and rank. Nothing in it says which choice is right before the reveal."""

    session_id: int
    quiz: str
    pacing: Literal[live.HOST_PACED, live.SELF_PACED]  # type: ignore[valid-type]
    state: State
    version: int = Field(description="Changes whenever what the screens show changes.")
    position: int = Field(description="The current question, from 1; 0 before the first.")
    question_count: int
    nickname: str
    score: int = Field(description="Points so far; the current question's count from its reveal on.")
    question: LiveQuestion | None
    answer: LiveAnswerOut | None
    reveal: LiveReveal | None
    rank: int | None = Field(description="The student's place, from the leaderboard on.")
    standings: list[Standing] = Field(description="The top five, from the leaderboard on.")
    attempt_id: str | None = Field(
        description="Self-paced sessions: the attempt to play through the attempt endpoints."
    )
    deadline: Timestamp | None


class LiveAnswer(_AnswerBody):
    position: int = Field(ge=1, le=10_000, description="The question answered, so that a late retry cannot answer the next one.")


class LiveAnswerResult(_Out):
    """Whether the answer was recorded, and the student's state after it."""

    recorded: bool = Field(description="False when the student had already answered: the first answer stands.")
    state: LiveState


# Teachers and admins ---------------------------------------------------------------------------


class TokenInfo(_Out):
    id: int
    label: str
    prefix: str = Field(description="The token's first characters.")
    created_at: Timestamp
    last_used_at: Timestamp | None = Field(description="To the minute.")


class Account(_Out):
    """The account whose token is used, and the token."""

    username: str
    role: Literal["teacher", "admin"]
    token: TokenInfo


class SessionSummary(_Out):
    id: int
    code: str
    quiz: str
    host: str
    pacing: Literal[live.HOST_PACED, live.SELF_PACED]  # type: ignore[valid-type]
    scoring: str
    state: State
    position: int
    question_count: int
    created_at: Timestamp
    deadline: Timestamp | None
    finished_at: Timestamp | None


class SessionList(_Out):
    """The sessions the account may see (a teacher their own, an admin all), newest first."""

    sessions: list[SessionSummary]


class SessionDetail(SessionSummary):
    """One classroom session."""

    players: int = Field(description="Students in the session, removed ones excluded.")


class SessionQuestion(_Out):
    position: int
    question_id: str
    kind: Kind
    prompt: str
    expected: str = Field(description="The right answer, in words; empty for a poll.")


class StudentAnswer(_Out):
    answered: bool
    correct: bool
    points: int
    elapsed_ms: int | None
    given: str = Field(description="The answer in words: the choices picked, the order given, the text or number typed.")


class StudentResult(_Out):
    nickname: str
    score: int
    correct: int
    answered: int
    total_ms: int
    removed: bool
    answers: list[StudentAnswer] = Field(description="One per question, in the session's order.")


class SessionResults(_Out):
    """Per student and question: right or wrong, points, time and choices; ranked."""

    session: SessionSummary
    questions: list[SessionQuestion]
    students: list[StudentResult]


def _calendar_day(value: Any) -> Any:
    """A query's day as the document says, ``YYYY-MM-DD``; pydantic alone would also read a
    number of seconds ("0") as a day."""
    if isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("a day is written YYYY-MM-DD")
    return value


#: A day in a query string.
Day = Annotated[date, BeforeValidator(_calendar_day)]


class StatisticsFilter(BaseModel):
    session_id: int | None = Field(None, ge=1, le=2**31 - 1, description="Only this classroom session's attempts.")
    solo_only: bool = Field(False, description="Only attempts played alone, outside any session.")
    started_from: Day | None = Field(None, le=date(9999, 12, 30), description="Attempts started on or after this day (UTC).")
    started_until: Day | None = Field(None, le=date(9999, 12, 30), description="Attempts started on or before this day (UTC).")


class StatisticsScope(_Out):
    quiz: str
    session_id: int | None
    solo_only: bool
    started_from: str | None
    started_before: str | None = Field(description="Exclusive.")


class StatisticsSummary(_Out):
    quiz: str
    attempts_started: int
    attempts_finished: int
    answers: int
    mean_percent: float | None
    median_percent: float | None
    sd_percent: float | None
    reliability_kr20: float | None = Field(
        description="KR-20 over the finished attempts of the most common length; null when not shown "
        "(see `reliability_status`)."
    )
    reliability_length: int | None = Field(
        description="The number of questions of the attempts reliability is computed for: the most common length."
    )
    reliability_attempts: int = Field(description="Finished attempts of that length.")
    reliability_status: ReliabilityStatus = Field(
        description="Whether reliability is shown, and if not why: `shown`; `negative`, shown with a note on what "
        "a coefficient below zero means; `no_attempts`, no finished attempt; `too_short`, attempts of one "
        "question; `too_few_attempts`, fewer than `reliability_min_attempts` attempts of that length; "
        "`same_scores`, every such attempt has the same score; `above_one`, not shown since attempts were "
        "asked different questions and the scores differ by which ones more than by who answered."
    )
    reliability_min_attempts: int = Field(description="Fewest attempts of that length for reliability to be shown.")
    reliability_note: str | None = Field(
        description="In words, why reliability is not shown or what a negative one means; null otherwise."
    )
    mean_seconds: float | None = Field(
        description="Mean answering time of the timed attempts: each answer's time from its question shown "
        "(or opened in a classroom session) to the answer, summed over the attempt."
    )
    median_seconds: float | None = Field(description="Median answering time of the timed attempts.")
    timed_attempts: int = Field(
        description="Finished attempts that answered every question, none left open longer than "
        "`longest_answer_seconds`: those whose answering times count."
    )
    untimed_attempts: int = Field(
        description="Finished attempts left out of the answering times, for skipping a question or leaving one "
        "open too long."
    )
    longest_answer_seconds: int = Field(
        description="The longest an answer may take before its attempt counts as interrupted and is not timed."
    )
    min_answers_to_judge: int = Field(
        description="Questions with fewer answers are listed but not judged: their `reasons` stay empty."
    )


class ScoreBin(_Out):
    low: int
    high: int
    attempts: int


class ChoiceStatistics(_Out):
    text: str
    correct: bool
    picks: int
    share: float | None
    top_third_share: float | None
    bottom_third_share: float | None


class StatisticsTallyRow(_Out):
    text: str
    correct: bool
    count: int
    share: float | None


class StatisticsTally(_Out):
    caption: str
    rows: list[StatisticsTallyRow]
    others: int = Field(description="Answers given too rarely to have a row of their own.")


class ItemStatistics(_Out):
    question: str
    revision: int
    revision_id: int
    superseded: bool
    kind: Kind
    prompt: str
    answers: int
    right: int
    facility: float | None
    discrimination: float | None
    median_seconds: float | None
    reasons: list[str] = Field(description="Why the question needs a look; empty when it works.")
    mean_credit: float | None = Field(description="Ordering questions: the mean credit of their answers.")
    tally: StatisticsTally | None = Field(
        description="For kinds other than choices, and polls: how the answers add up (each item's share in its "
        "right place, the numbers given, the answers typed, the votes)."
    )
    choices: list[ChoiceStatistics]


class QuizStatistics(_Out):
    """Item analysis over the finished attempts in scope (see the statistics pages)."""

    scope: StatisticsScope
    summary: StatisticsSummary
    scores: list[ScoreBin]
    questions: list[ItemStatistics]


class StudentRow(_Out):
    nickname: str
    points: int
    right: int
    answered: int
    questions: int
    seconds: float
    removed: bool
    answers: list[Literal["none", "right", "wrong"]]


class SessionStatistics(QuizStatistics):
    """Item analysis of one session's attempts, with each student's row."""

    students: list[StudentRow]


class RevisionChoice(_Out):
    text: str
    correct: bool


class RevisionOut(_Out):
    id: int
    number: int
    question_id: str
    kind: Kind
    prompt: str
    explanation: str
    choices: list[RevisionChoice]
    sources: list[str]


class QuestionStatistics(_Out):
    """One revision of a question and its statistics (null before any counted answer)."""

    quiz: str
    revision: RevisionOut
    statistics: ItemStatistics | None


class BankQuery(BaseModel):
    format: Literal[tuple(entry.name for entry in exporters())] = Field(  # type: ignore[valid-type]
        "yaml", description="The file format, as `quiz export --format` names it."
    )
