"""Item analysis: how each question and each quiz performs, as classical test theory measures it.

Only finished attempts count, as in Moodle: their totals are final. Retries of missed
questions never count, since they only ask what the player got wrong, and neither do attempts
without a single answer (a student who joined a classroom session and never answered): they
say nothing about the questions, and as scores of 0% they would drag the distribution down.
When an attempt finishes, its totals are copied onto its answers
(:func:`quiz.play.count_for_statistics`), so that the per-question figures come from one
grouped pass over an index of answers, with no join, and the result is a few rows per question
revision whatever the number of answers.

Definitions (the tests check them against a hand-computed example and against numpy/scipy):

- *Facility*: the share of answers that were right.
- *Discrimination*: the point-biserial correlation between an answer's correctness (0 or 1) and
  the rest of its attempt: the share of the attempt's *other* questions answered right.
  A share rather than a count keeps attempts of different lengths comparable.
- *Thirds*: attempts ranked by their share of right answers and cut into three equal groups,
  tied attempts on a boundary split evenly between the two sides. A wrong choice that the
  top third picks more often than the bottom third is a sign of a misleading question.
- *Reliability*: KR-20 over the attempts of the most common length ``k``:
  ``k / (k - 1) * (1 - k * mean(p * q) / var(score))``, with ``p * q`` the variance of each
  question (weighted by its answers) and ``var(score)`` the population variance of the
  number right. When every attempt answers the same ``k`` questions this is KR-20 exactly,
  and Cronbach's alpha for right/wrong items. It is shown from
  :data:`MIN_ATTEMPTS_FOR_RELIABILITY` such attempts; a coefficient below zero or above one,
  or none at all, comes with what it means (see :func:`reliability`).
- *Median time* of a question: exact, from the answers' measured times (from the question
  first shown, or opened by the host, to the answer).
- *Answering time* of an attempt: the sum of its answers' measured times, as a classroom
  session's students table shows it. Time spent reading feedback, waiting for the host or
  between sittings is not in it. Only attempts that answered every question count, and none
  with an answer left open longer than :data:`INTERRUPTED_ANSWER_SECONDS`.
"""

from __future__ import annotations

import math
import statistics
from fractions import Fraction
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import format_decimal, format_percent, ngettext
from flask_babel import gettext as _

from quiz import revisions
from quiz.kinds import KINDS, Tally
from quiz.live import SessionResults
from quiz.models import Answer, Attempt, LiveSession, Question, QuestionRevision, Quiz, User

#: Below this many answers a question is shown but not judged.
MIN_ANSWERS_TO_JUDGE = 10
#: Facility at or above which a question is too easy, or at or below which it is too hard
#: (with four choices, blind guessing alone scores 25%).
TOO_EASY = 0.90
TOO_HARD = 0.30
#: Below this correlation with the rest of the attempt, a question tells players apart poorly.
WEAK_DISCRIMINATION = 0.15
#: A wrong choice picked by a smaller share than this does no work.
DEAD_DISTRACTOR_SHARE = 0.02
#: How much more often the top third must pick a wrong choice than the bottom third to flag it.
TOP_THIRD_MARGIN = 0.05
#: Each third needs this many answers to a question before the thirds are compared.
MIN_ANSWERS_PER_THIRD = 5
#: Score histogram: ten bins of ten percentage points.
HISTOGRAM_BINS = 10
#: Fewest attempts (of the length reliability is computed for) before KR-20 is shown. Its
#: sampling error is wide on few attempts: by Feldt's distribution of KR-20 (Feldt 1965,
#: "The approximate sampling distribution of Kuder-Richardson reliability coefficient twenty",
#: Psychometrika 30:357-370), the 95% interval around an estimate of 0.70 on 10 questions is
#: 0.05 to 0.96 with 5 attempts, 0.32 to 0.91 with 10, and 0.51 to 0.84 with 30, where it first
#: tells a usable quiz from a poor one; 30 is also the smallest sample for which Bujang et al.
#: (2018, "A review on sample size determination for Cronbach's alpha test", Malaysian Journal
#: of Medical Sciences 25(6):85-99) find alpha of 0.7 told apart from zero.
MIN_ATTEMPTS_FOR_RELIABILITY = 30
#: An answer that took longer than this means the player left the question open (another tab,
#: a break, coming back the next day): such an attempt's answering time says nothing about the
#: quiz. Classroom questions close after at most 240 s, so this only ever leaves out solo play.
INTERRUPTED_ANSWER_SECONDS = 600
#: Whether KR-20 is shown and how to read it, as the JSON says it: a plain coefficient, one below
#: zero (shown, with what it means), or why there is none.
RELIABILITY_SHOWN = "shown"
RELIABILITY_NEGATIVE = "negative"
RELIABILITY_NO_ATTEMPTS = "no_attempts"
RELIABILITY_TOO_SHORT = "too_short"
RELIABILITY_TOO_FEW_ATTEMPTS = "too_few_attempts"
RELIABILITY_SAME_SCORES = "same_scores"
RELIABILITY_ABOVE_ONE = "above_one"
RELIABILITY_STATUSES = (
    RELIABILITY_SHOWN, RELIABILITY_NEGATIVE, RELIABILITY_NO_ATTEMPTS, RELIABILITY_TOO_SHORT,
    RELIABILITY_TOO_FEW_ATTEMPTS, RELIABILITY_SAME_SCORES, RELIABILITY_ABOVE_ONE,
)


@dataclass(frozen=True)
class Scope:
    """Which attempts count: a quiz's, optionally only solo ones or one session's, started in a range."""

    quiz_id: int
    #: One classroom session's attempts; None for all.
    session_id: int | None = None
    #: Only attempts played alone, outside any classroom session.
    solo_only: bool = False
    started_from: datetime | None = None
    #: Exclusive upper bound.
    started_before: datetime | None = None

    def narrowing(self) -> list[sa.ColumnElement[bool]]:
        """Conditions on attempts beyond "of this quiz"; none for the whole quiz."""
        conditions = []
        if self.session_id is not None:
            conditions.append(Attempt.live_session_id == self.session_id)
        elif self.solo_only:
            conditions.append(Attempt.live_session_id.is_(None))
        if self.started_from is not None:
            conditions.append(Attempt.started_at >= self.started_from)
        if self.started_before is not None:
            conditions.append(Attempt.started_at < self.started_before)
        return conditions

    def conditions(self) -> list[sa.ColumnElement[bool]]:
        """The attempts in scope, finished or not, retries left out."""
        return [Attempt.quiz_id == self.quiz_id, Attempt.retry_of_id.is_(None), *self.narrowing()]

    def counted(self) -> list[sa.ColumnElement[bool]]:
        """The attempts in scope whose scores count."""
        return [*self.conditions(), *COUNTED_ATTEMPT]


#: An attempt whose score counts: finished, with a question that can be right or wrong, and
#: at least one answer. Retries are left out by :meth:`Scope.conditions`.
COUNTED_ATTEMPT = (Attempt.finished_at.is_not(None), Attempt.scored_count > 0, Attempt.answered_count > 0)


@dataclass(frozen=True)
class ChoiceStats:
    position: int
    text: str
    is_correct: bool
    picks: int
    #: Share of the revision's answers that picked this choice.
    share: float
    #: The same share within the top and the bottom third; None when a third is too small.
    top_share: float | None
    bottom_share: float | None


@dataclass
class ItemStats:
    """One revision of a question over the answers in scope."""

    revision_id: int
    question_id: int
    slug: str
    revision_number: int
    #: True when the question has been edited since: this row is an older version.
    superseded: bool
    position: int
    kind: str
    prompt: str
    answers: int
    right: int
    facility: float | None
    discrimination: float | None
    median_seconds: float | None
    choices: list[ChoiceStats]
    #: Why the question needs a look; empty when it works.
    reasons: list[str] = field(default_factory=list)
    #: For kinds whose answers are not picks (and polls): how the answers add up, as the
    #: kind tallies them (places for ordering, the numbers given, the top typed answers, votes).
    tally: Tally | None = None
    #: The mean credit, for kinds with partial credit (ordering).
    mean_credit: float | None = None

    @property
    def label(self) -> str:
        return f"{self.slug} (v{self.revision_number})" if self.revision_number > 1 or self.superseded else self.slug


@dataclass(frozen=True)
class HistogramBin:
    low: int
    high: int
    attempts: int

    @property
    def label(self) -> str:
        return f"{format_decimal(self.low)}–{format_percent(self.high / 100)}"


@dataclass
class QuizStats:
    quiz: Quiz
    scope: Scope
    #: Attempts with at least one answer, and of those the finished ones.
    attempts_started: int
    attempts_finished: int
    #: Over finished attempts, in percent right.
    mean_percent: float | None
    median_percent: float | None
    sd_percent: float | None
    #: KR-20; None when it is not shown (see ``reliability_note``).
    reliability: float | None
    #: The attempt length ``k`` reliability was computed for, and how many attempts had it.
    reliability_length: int | None
    reliability_attempts: int
    #: One of :data:`RELIABILITY_STATUSES`.
    reliability_status: str
    #: Why no coefficient is shown, or what an unusual one means; None for a plain one.
    reliability_note: str | None
    #: Fewest attempts of that length for a coefficient to be shown.
    reliability_min_attempts: int
    answering_time: AnsweringTime
    histogram: list[HistogramBin]
    items: list[ItemStats]

    @property
    def answers(self) -> int:
        return sum(item.answers for item in self.items)

    @property
    def to_review(self) -> list[ItemStats]:
        return [item for item in self.items if item.reasons]


def quiz_stats(
    session: so.Session, quiz: Quiz, scope: Scope | None = None, *,
    min_attempts_for_reliability: int = MIN_ATTEMPTS_FOR_RELIABILITY,
) -> QuizStats:
    """Every measure for ``quiz`` over the attempts in ``scope`` (all of the quiz's by default)."""
    scope = scope or Scope(quiz.id)
    started, lengths = _attempt_distribution(session, scope)
    items = item_stats(session, scope, _third_weights(lengths))
    percents = {(right, length): 100 * right / length for (right, length) in lengths}
    mean, sd = _mean_sd(percents, lengths)
    kr20 = reliability(lengths, items, min_attempts_for_reliability)
    return QuizStats(
        quiz=quiz,
        scope=scope,
        attempts_started=started,
        attempts_finished=sum(lengths.values()),
        mean_percent=mean,
        median_percent=_weighted_median([(percents[key], count) for key, count in lengths.items()]),
        sd_percent=sd,
        reliability=kr20.coefficient,
        reliability_length=kr20.length,
        reliability_attempts=kr20.attempts,
        reliability_status=kr20.status,
        reliability_note=kr20.note,
        reliability_min_attempts=min_attempts_for_reliability,
        answering_time=answering_time(session, scope),
        histogram=_histogram(percents, lengths),
        items=items,
    )


#: An attempt's score group: (right answers, questions asked).
ScoreKey = tuple[int, int]


def item_stats(
    session: so.Session, scope: Scope, thirds: dict[ScoreKey, tuple[float, float]] | None = None
) -> list[ItemStats]:
    """Per revision answered in scope, in quiz order, each with the reasons it needs review.

    ``thirds`` gives, per score, the share of such attempts in the bottom and the top third
    (see :func:`_third_weights`); the distractor analysis needs it.
    """
    thirds = thirds if thirds is not None else _third_weights(_attempt_distribution(session, scope)[1])
    groups = session.execute(
        _counted_answers(
            scope,
            Answer.revision_id,
            Answer.selected_mask,
            Answer.is_correct,
            Answer.attempt_correct_count,
            Answer.attempt_question_count,
            sa.func.count(),
            sa.func.count(Answer.elapsed_ms),
        ).group_by(
            Answer.revision_id,
            Answer.selected_mask,
            Answer.is_correct,
            Answer.attempt_correct_count,
            Answer.attempt_question_count,
        )
    ).all()
    if not groups:
        return []
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    for revision_id, mask, correct, right, length, count, timed in groups:
        tallies[revision_id].add(mask, bool(correct), right, length, count, timed, thirds.get((right, length), (0.0, 0.0)))
    rows = session.execute(
        sa.select(QuestionRevision, Question)
        .join(Question, Question.id == QuestionRevision.question_id)
        .where(QuestionRevision.id.in_(tallies))
        .options(so.selectinload(QuestionRevision.choices))
        .order_by(Question.position, QuestionRevision.number)
    ).all()
    items = [
        tallies[revision.id].stats(revision, question, _median_seconds(session, scope, revision.id, tallies[revision.id].timed))
        for revision, question in rows
    ]
    _add_kind_tallies(session, scope, items, {revision.id: revision for revision, _ in rows})
    return items


def _add_kind_tallies(
    session: so.Session, scope: Scope, items: list[ItemStats], loaded: dict[int, QuestionRevision]
) -> None:
    """Give the items of kinds other than plain picks their kind's tally. Their answers are read
    apart, so that a quiz of choice questions keeps to the statistics index alone."""
    own = [item for item in items if not KINDS[item.kind].picks or not KINDS[item.kind].scored]
    if not own:
        return
    rows = session.execute(
        _counted_answers(scope, Answer.revision_id, Answer.selected_mask, Answer.response, sa.func.count(),
                         sa.func.avg(Answer.credit))
        .where(Answer.revision_id.in_([item.revision_id for item in own]))
        .group_by(Answer.revision_id, Answer.selected_mask, Answer.response)
    ).all()
    groups: dict[int, list] = defaultdict(list)
    credit: dict[int, float] = defaultdict(float)
    for revision_id, mask, response, count, mean_credit in rows:
        groups[revision_id].append((mask, response, count))
        credit[revision_id] += (mean_credit or 0.0) * count
    for item in own:
        data = revisions.data_of(loaded[item.revision_id])
        item.tally = data.behaviour.tally(data.choices, data.answer_key, groups[item.revision_id])
        if data.behaviour.scored and item.answers:
            item.mean_credit = credit[item.revision_id] / item.answers
        if not data.behaviour.scored:  # a poll: nothing is right or wrong, nothing to judge
            item.facility = None
            item.discrimination = None
            item.reasons = []


def _counted_answers(scope: Scope, *columns: sa.ColumnElement) -> sa.Select:
    """Select ``columns`` over the answers that count in ``scope``.

    The whole quiz needs only the answers (and the statistics index); narrower scopes also
    filter on the answers' attempts.
    """
    quiz_revisions = (
        sa.select(QuestionRevision.id)
        .join(Question, Question.id == QuestionRevision.question_id)
        .where(Question.quiz_id == scope.quiz_id)
    )
    query = sa.select(*columns).where(Answer.revision_id.in_(quiz_revisions), Answer.attempt_question_count.is_not(None))
    if narrowing := scope.narrowing():
        query = query.join(Attempt, Attempt.id == Answer.attempt_id).where(*narrowing)
    return query


class _Tally:
    """Sums over one revision's answers, from which every per-question measure follows."""

    def __init__(self) -> None:
        self.answers = 0
        self.right = 0
        #: Answers with a measured time.
        self.timed = 0
        self.picks: dict[int, int] = defaultdict(int)
        # Bottom and top third: answers, and picks per selection mask (fractional where a
        # score straddles the boundary between two thirds).
        self.third_answers = [0.0, 0.0]
        self.third_picks: list[dict[int, float]] = [defaultdict(float), defaultdict(float)]
        # For the point-biserial correlation of correctness (x) with the rest score (r).
        self.n = 0
        self.sum_x = 0
        self.sum_r = 0.0
        self.sum_rr = 0.0
        self.sum_xr = 0.0

    def add(
        self, mask: int, correct: bool, right: int, length: int, count: int, timed: int,
        thirds: tuple[float, float],
    ) -> None:
        self.answers += count
        self.timed += timed
        self.picks[mask] += count
        for index, share in enumerate(thirds):
            self.third_answers[index] += share * count
            self.third_picks[index][mask] += share * count
        x = int(correct)
        self.right += x * count
        if length > 1:
            rest = (right - x) / (length - 1)
            self.n += count
            self.sum_x += x * count
            self.sum_r += rest * count
            self.sum_rr += rest * rest * count
            self.sum_xr += x * rest * count

    def discrimination(self) -> float | None:
        n = self.n
        spread_x = n * self.sum_x - self.sum_x**2
        spread_r = n * self.sum_rr - self.sum_r**2
        # All right, all wrong, or every rest score equal: no correlation to speak of.
        if spread_x <= 0 or spread_r <= 1e-9 * max(n * n, 1):
            return None
        return (n * self.sum_xr - self.sum_x * self.sum_r) / math.sqrt(spread_x * spread_r)

    def stats(self, revision: QuestionRevision, question: Question, median_seconds: float | None) -> ItemStats:
        (bottom_answers, top_answers) = self.third_answers
        thirds_comparable = min(top_answers, bottom_answers) >= MIN_ANSWERS_PER_THIRD

        def share_of(picks: dict[int, float], total: float, position: int) -> float:
            return sum(count for mask, count in picks.items() if mask & (1 << position)) / total

        choices = [
            ChoiceStats(
                choice.position,
                choice.text,
                choice.is_correct,
                sum(count for mask, count in self.picks.items() if mask & (1 << choice.position)),
                share_of(self.picks, self.answers, choice.position),
                share_of(self.third_picks[1], top_answers, choice.position) if thirds_comparable else None,
                share_of(self.third_picks[0], bottom_answers, choice.position) if thirds_comparable else None,
            )
            for choice in revision.choices
        ]
        item = ItemStats(
            revision_id=revision.id,
            question_id=question.id,
            slug=question.slug,
            revision_number=revision.number,
            superseded=question.current_revision_id != revision.id,
            position=question.position,
            kind=revision.kind,
            prompt=revision.prompt,
            answers=self.answers,
            right=self.right,
            facility=self.right / self.answers,
            discrimination=self.discrimination(),
            median_seconds=median_seconds,
            choices=choices,
        )
        item.reasons = review_reasons(item)
        return item


def review_reasons(item: ItemStats) -> list[str]:
    """Why a question needs rewriting, in plain words; nothing until it has enough answers."""
    if item.answers < MIN_ANSWERS_TO_JUDGE or item.facility is None:
        return []
    reasons = []
    if item.facility >= TOO_EASY:
        reasons.append(_("Too easy: %(share)s answered it right.", share=format_percent(item.facility)))
    elif item.facility <= TOO_HARD:
        reasons.append(_("Too hard: only %(share)s answered it right.", share=format_percent(item.facility)))
    if item.discrimination is not None and item.discrimination <= -0.005:
        reasons.append(_(
            "Negative discrimination (%(value)s): players who did well on the rest of the quiz got it "
            "wrong more often than those who did badly.",
            value=format_decimal(item.discrimination, "0.00"),
        ))
    elif item.discrimination is not None and item.discrimination < WEAK_DISCRIMINATION:
        reasons.append(_(
            "Weak discrimination (%(value)s): it hardly tells players who know the article from those "
            "who guess.",
            value=format_decimal(item.discrimination, "0.00"),
        ))
    if not KINDS[item.kind].picks:
        return reasons
    for choice in item.choices:
        if choice.is_correct:
            continue
        if choice.share < DEAD_DISTRACTOR_SHARE:
            reasons.append(_(
                "Dead distractor: “%(choice)s” was picked by %(share)s.",
                choice=choice.text, share=format_percent(choice.share),
            ))
        elif (
            choice.top_share is not None
            and choice.bottom_share is not None
            and choice.top_share > choice.bottom_share + TOP_THIRD_MARGIN
        ):
            reasons.append(_(
                "Misleading distractor: “%(choice)s” drew %(top)s of the top third but %(bottom)s of the "
                "bottom third.",
                choice=choice.text, top=format_percent(choice.top_share), bottom=format_percent(choice.bottom_share),
            ))
    return reasons


def _median_seconds(session: so.Session, scope: Scope, revision_id: int, timed: int) -> float | None:
    """The exact median, read by walking the time index to its middle rather than sorting."""
    if not timed:
        return None
    middle = _counted_answers(scope, Answer.elapsed_ms).where(
        Answer.revision_id == revision_id, Answer.elapsed_ms.is_not(None)
    ).order_by(Answer.elapsed_ms).offset((timed - 1) // 2).limit(2 - timed % 2)
    values = session.scalars(middle).all()
    return sum(values) / len(values) / 1000


def _attempt_distribution(session: so.Session, scope: Scope) -> tuple[int, dict[ScoreKey, int]]:
    """Attempts started (answered at least once), and the counted ones by score."""
    started = session.scalar(
        sa.select(sa.func.count()).select_from(Attempt).where(*scope.conditions(), Attempt.answered_count > 0)
    ) or 0
    rows = session.execute(
        sa.select(Attempt.correct_count, Attempt.scored_count, sa.func.count())
        .where(*scope.counted())
        .group_by(Attempt.correct_count, Attempt.scored_count)
    ).all()
    return started, {(right, length): count for right, length, count in rows}


@dataclass(frozen=True)
class AnsweringTime:
    """How long attempts spent answering: each answer's time from its question shown (or
    opened by the host) to the answer, summed over the attempt."""

    median_seconds: float | None
    mean_seconds: float | None
    #: Attempts timed: counted ones that answered every question, each answer measured and
    #: none left open longer than :data:`INTERRUPTED_ANSWER_SECONDS`.
    attempts: int
    #: Counted attempts left out of the times for not being so.
    left_out: int
    #: The longest an answer may take before its attempt counts as interrupted.
    longest_answer_seconds: int


def answering_time(
    session: so.Session, scope: Scope, longest_answer_seconds: int = INTERRUPTED_ANSWER_SECONDS
) -> AnsweringTime:
    """The median and mean answering time of the counted attempts in ``scope``.

    An attempt's time between its answers (reading feedback, waiting for the host, a break)
    is not answering, and a classroom attempt starts when its student joins: the span from
    start to last answer would mix all that in. Attempts that skipped questions would look
    quick for answering less, so only those that answered every question are timed.
    """
    counted = session.scalar(sa.select(sa.func.count()).select_from(Attempt).where(*scope.counted())) or 0
    totals = list(session.scalars(
        sa.select(sa.func.sum(Answer.elapsed_ms))
        .select_from(Attempt)
        .join(Answer, Answer.attempt_id == Attempt.id)
        .where(*scope.counted(), Attempt.answered_count == Attempt.question_count)
        .group_by(Attempt.id)
        .having(
            sa.func.count(Answer.elapsed_ms) == sa.func.count(),
            sa.func.max(Answer.elapsed_ms) <= longest_answer_seconds * 1000,
        )
    ))
    left_out = counted - len(totals)
    if not totals:
        return AnsweringTime(None, None, 0, left_out, longest_answer_seconds)
    return AnsweringTime(
        statistics.median(totals) / 1000, statistics.fmean(totals) / 1000, len(totals),
        left_out, longest_answer_seconds,
    )


def _third_weights(lengths: dict[ScoreKey, int]) -> dict[ScoreKey, tuple[float, float]]:
    """For each score, the share of its attempts in the bottom and in the top third.

    Attempts are ranked by their share of right answers. Tied attempts straddling a boundary
    are split evenly between the two thirds instead of by an arbitrary order.
    """
    by_share: dict[Fraction, int] = defaultdict(int)
    for (right, length), count in lengths.items():
        by_share[Fraction(right, length)] += count
    total = sum(by_share.values())
    weights: dict[Fraction, tuple[float, float]] = {}
    below = 0
    for share in sorted(by_share):
        count = by_share[share]
        bottom = max(0.0, min(below + count, total / 3) - below) / count
        top = max(0.0, below + count - max(below, 2 * total / 3)) / count
        weights[share] = (bottom, top)
        below += count
    return {key: weights[Fraction(*key)] for key in lengths}


@dataclass(frozen=True)
class Reliability:
    """KR-20 over the attempts of the most common length, or why there is none to show."""

    #: None when not shown: too few attempts, nothing to compute it from, or meaningless.
    coefficient: float | None
    #: The attempt length ``k`` it is computed for (None without attempts), and how many
    #: counted attempts had that length.
    length: int | None
    attempts: int
    #: One of :data:`RELIABILITY_STATUSES`.
    status: str
    #: In plain words, why no coefficient is shown or what an unusual one means.
    note: str | None = None


def reliability(
    lengths: dict[ScoreKey, int], items: list[ItemStats], min_attempts: int = MIN_ATTEMPTS_FOR_RELIABILITY
) -> Reliability:
    """KR-20 over the attempts of the most common length, given the counted attempts by score
    and the items they answered; none below ``min_attempts`` such attempts."""
    by_length: dict[int, int] = defaultdict(int)
    for (_right, length), count in lengths.items():
        by_length[length] += count
    if not by_length:
        return Reliability(None, None, 0, RELIABILITY_NO_ATTEMPTS)
    # The most common length; the longer one when two are as common.
    k = max(by_length, key=lambda length: (by_length[length], length))
    n = by_length[k]
    if k < 2:
        return Reliability(None, k, n, RELIABILITY_TOO_SHORT, ngettext(
            "%(attempts)s finished attempt of %(length)s question: reliability needs attempts of at least two questions.",
            "%(attempts)s finished attempts of %(length)s question: reliability needs attempts of at least two questions.",
            n, attempts=format_decimal(n), length=k,
        ))
    if n < min_attempts:
        return Reliability(None, k, n, RELIABILITY_TOO_FEW_ATTEMPTS, ngettext(
            "%(attempts)s finished attempt of %(length)s questions so far: reliability is shown from %(minimum)s "
            "such attempts.",
            "%(attempts)s finished attempts of %(length)s questions so far: reliability is shown from %(minimum)s "
            "such attempts.",
            n, attempts=format_decimal(n), length=k, minimum=format_decimal(min_attempts),
        ))
    scores = {right: count for (right, length), count in lengths.items() if length == k}
    sd = _mean_sd({right: float(right) for right in scores}, scores)[1]
    answers = sum(item.answers for item in items if item.facility is not None)
    if not sd or not answers:
        return Reliability(None, k, n, RELIABILITY_SAME_SCORES, ngettext(
            "%(attempts)s finished attempt of %(length)s questions: one score cannot tell players apart, so "
            "reliability cannot be computed.",
            "All %(attempts)s finished attempts of %(length)s questions have the same score, so reliability "
            "cannot be computed: the scores do not tell players apart.",
            n, attempts=format_decimal(n), length=k,
        ))
    mean_item_variance = sum(
        item.answers * item.facility * (1 - item.facility) for item in items if item.facility is not None
    ) / answers
    coefficient = k / (k - 1) * (1 - k * mean_item_variance / sd**2)
    if coefficient > 1:
        # With the same questions in every attempt KR-20 cannot exceed 1 (the variance of a sum
        # of k parts is at most k times the sum of their variances); it does when attempts draw different
        # questions, and which questions were drawn spreads the scores more than the players do.
        return Reliability(
            None, k, n, RELIABILITY_ABOVE_ONE,
            _("Above 1, which a reliability cannot be: attempts were asked different questions, and the "
              "scores differ by which questions each got more than by who answered them."),
        )
    if coefficient < 0:
        return Reliability(
            coefficient, k, n, RELIABILITY_NEGATIVE,
            _("Below zero: on these attempts the questions do not measure one thing together (players who "
              "get some of them right tend to get others wrong, as with guessing or with questions that "
              "reward different things), so the total score is not a dependable measure. Look at the "
              "questions with negative or weak discrimination."),
        )
    return Reliability(coefficient, k, n, RELIABILITY_SHOWN)


def _mean_sd(values: dict, weights: dict) -> tuple[float | None, float | None]:
    total = sum(weights.values())
    if not total:
        return None, None
    mean = sum(values[key] * weight for key, weight in weights.items()) / total
    variance = sum(weight * (values[key] - mean) ** 2 for key, weight in weights.items()) / total
    return mean, math.sqrt(variance)


def _weighted_median(counts: list[tuple[float, int]]) -> float | None:
    """Median of values given with their counts; the mean of the two middle ones for an even total."""
    total = sum(count for _, count in counts)
    if not total:
        return None
    ordered = sorted(counts)

    def value_at(index: int) -> float:
        seen = 0
        for value, count in ordered:
            seen += count
            if index < seen:
                return value
        raise AssertionError("index beyond the total")

    middle = total // 2
    return value_at(middle) if total % 2 else (value_at(middle - 1) + value_at(middle)) / 2


def _histogram(percents: dict[tuple[int, int], float], weights: dict[tuple[int, int], int]) -> list[HistogramBin]:
    width = 100 // HISTOGRAM_BINS
    counts = [0] * HISTOGRAM_BINS
    for key, count in weights.items():
        # 100% goes into the last bin, which is closed on both ends.
        counts[min(int(percents[key] // width), HISTOGRAM_BINS - 1)] += count
    return [HistogramBin(i * width, (i + 1) * width, count) for i, count in enumerate(counts)]


def sessions_visible_to(session: so.Session, user: User, quiz: Quiz | None = None) -> list[LiveSession]:
    """Sessions whose statistics ``user`` may see (admins: all; teachers: their own), newest first."""
    query = sa.select(LiveSession).options(so.joinedload(LiveSession.quiz)).order_by(
        LiveSession.created_at.desc(), LiveSession.id.desc()
    )
    if user.role != "admin":
        query = query.where(LiveSession.host_id == user.id)
    if quiz is not None:
        query = query.where(LiveSession.quiz_id == quiz.id)
    return list(session.scalars(query))


@dataclass(frozen=True)
class QuizOverview:
    quiz: Quiz
    #: Counted as on the quiz's own page.
    attempts_finished: int


def quiz_overview(session: so.Session) -> list[QuizOverview]:
    """The quizzes in play, each with its number of finished attempts."""
    finished = (
        sa.select(Attempt.quiz_id, sa.func.count().label("finished"))
        .where(Attempt.retry_of_id.is_(None), *COUNTED_ATTEMPT)
        .group_by(Attempt.quiz_id)
        .subquery()
    )
    rows = session.execute(
        sa.select(Quiz, sa.func.coalesce(finished.c.finished, 0))
        .outerjoin(finished, finished.c.quiz_id == Quiz.id)
        .where(Quiz.retired_at.is_(None))
        .order_by(Quiz.position)
    ).all()
    return [QuizOverview(quiz, count) for quiz, count in rows]


def revision_of_quiz(session: so.Session, quiz: Quiz, revision_id: int) -> QuestionRevision | None:
    return session.scalar(
        sa.select(QuestionRevision)
        .join(Question, Question.id == QuestionRevision.question_id)
        .where(QuestionRevision.id == revision_id, Question.quiz_id == quiz.id)
        .options(so.selectinload(QuestionRevision.choices), so.selectinload(QuestionRevision.quotes))
    )


# Tables, as CSV rows and JSON -------------------------------------------------------------------


def _number(value: float | None, digits: int = 3) -> float | None:
    return round(value, digits) if value is not None else None


def summary_json(figures: QuizStats) -> dict:
    return {
        "quiz": figures.quiz.slug,
        "attempts_started": figures.attempts_started,
        "attempts_finished": figures.attempts_finished,
        "answers": figures.answers,
        "mean_percent": _number(figures.mean_percent, 1),
        "median_percent": _number(figures.median_percent, 1),
        "sd_percent": _number(figures.sd_percent, 1),
        "reliability_kr20": _number(figures.reliability),
        "reliability_length": figures.reliability_length,
        "reliability_attempts": figures.reliability_attempts,
        "reliability_status": figures.reliability_status,
        "reliability_min_attempts": figures.reliability_min_attempts,
        "reliability_note": figures.reliability_note,
        # The mean and median answering time per attempt, over the attempts timed (see AnsweringTime).
        "mean_seconds": _number(figures.answering_time.mean_seconds, 1),
        "median_seconds": _number(figures.answering_time.median_seconds, 1),
        "timed_attempts": figures.answering_time.attempts,
        "untimed_attempts": figures.answering_time.left_out,
        "longest_answer_seconds": figures.answering_time.longest_answer_seconds,
        # Questions with fewer answers are listed but not judged: no reasons to review them.
        "min_answers_to_judge": MIN_ANSWERS_TO_JUDGE,
    }


def item_json(item: ItemStats) -> dict:
    return {
        "question": item.slug,
        "revision": item.revision_number,
        "revision_id": item.revision_id,
        "superseded": item.superseded,
        "kind": item.kind,
        "prompt": item.prompt,
        "answers": item.answers,
        "right": item.right,
        "facility": _number(item.facility),
        "discrimination": _number(item.discrimination),
        "median_seconds": _number(item.median_seconds, 1),
        "reasons": item.reasons,
        "mean_credit": _number(item.mean_credit),
        "tally": {
            "caption": item.tally.caption,
            "rows": [
                {"text": row.label, "correct": row.is_correct, "count": row.count, "share": _number(row.share)}
                for row in item.tally.rows
            ],
            "others": item.tally.others,
        } if item.tally else None,
        "choices": [
            {
                "text": choice.text,
                "correct": choice.is_correct,
                "picks": choice.picks,
                "share": _number(choice.share),
                "top_third_share": _number(choice.top_share),
                "bottom_third_share": _number(choice.bottom_share),
            }
            for choice in item.choices
        ],
    }


def as_json(figures: QuizStats) -> dict:
    scope = figures.scope
    return {
        "scope": {
            "quiz": figures.quiz.slug,
            "session_id": scope.session_id,
            "solo_only": scope.solo_only,
            "started_from": scope.started_from.isoformat() if scope.started_from else None,
            "started_before": scope.started_before.isoformat() if scope.started_before else None,
        },
        "summary": summary_json(figures),
        "scores": [{"low": bin.low, "high": bin.high, "attempts": bin.attempts} for bin in figures.histogram],
        "questions": [item_json(item) for item in figures.items],
    }


def table_rows(figures: QuizStats, table: str) -> list[list]:
    """One of the statistics tables as CSV rows, header first."""
    if table == "summary":
        summary = summary_json(figures)
        return [list(summary), list(summary.values())]
    if table == "scores":
        return [["percent_from", "percent_to", "attempts"]] + [
            [bin.low, bin.high, bin.attempts] for bin in figures.histogram
        ]
    if table == "questions":
        return [["question", "revision", "prompt", "answers", "right", "facility", "discrimination", "median_seconds", "to_review"]] + [
            [item.slug, item.revision_number, item.prompt, item.answers, item.right, _number(item.facility),
             _number(item.discrimination), _number(item.median_seconds, 1), " ".join(item.reasons)]
            for item in figures.items
        ]
    if table == "choices":
        # A choice per row; for kinds with their own tally, one of its rows (an item, a value,
        # a typed answer, a vote), whose count is what that tally counts.
        rows = [["question", "revision", "choice", "correct", "picks", "share", "top_third_share", "bottom_third_share"]]
        for item in figures.items:
            if item.tally is not None:
                rows += [
                    [item.slug, item.revision_number, row.label, "yes" if row.is_correct else "no", row.count,
                     _number(row.share), None, None]
                    for row in item.tally.rows
                ]
            else:
                rows += [
                    [item.slug, item.revision_number, choice.text, "yes" if choice.is_correct else "no", choice.picks,
                     _number(choice.share), _number(choice.top_share), _number(choice.bottom_share)]
                    for choice in item.choices
                ]
        return rows
    if table == "review":
        return [["question", "revision", "reason"]] + [
            [item.slug, item.revision_number, reason] for item in figures.to_review for reason in item.reasons
        ]
    raise ValueError(f"unknown table {table!r}")


def student_json(results: SessionResults) -> list[dict]:
    """Each student's row of a session: points, right answers, time, and each question's outcome."""
    return [
        {
            "nickname": student.nickname,
            "points": student.score,
            "right": student.correct,
            "answered": student.answered,
            "questions": results.scored_count,
            "seconds": round(student.total_ms / 1000, 1),
            "removed": student.removed,
            "answers": [
                "none" if not cell.answered else "right" if cell.is_correct else "wrong" for cell in student.cells
            ],
        }
        for student in results.students
    ]


def student_rows(results: SessionResults) -> list[list]:
    header = ["student", "points", "right", "answered", "questions", "seconds", "removed"]
    header += [f"q{question.position}" for question in results.questions]
    return [header] + [
        [row["nickname"], row["points"], row["right"], row["answered"], row["questions"], row["seconds"],
         "yes" if row["removed"] else "no", *row["answers"]]
        for row in student_json(results)
    ]
