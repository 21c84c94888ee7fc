"""Checks every drafted question must pass; a question failing any is dropped.

Each entry of :data:`CHECKS` returns why a question fails, or None. They are the mechanical
part of judging a question: whether it is worth asking is left to the person reviewing it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from quiz.quotes import fold
from quiz.generator.distractors import contains_words, dates_beside, distinct
from quiz.generator.entities import ORGANISATION, PERSON, PLACE, TITLE
from quiz.generator.facts import Article, Fact
from quiz.generator.numbers import WORD_NUMBER_PATTERN, WORD_NUMBERS, DateForm, NumberForm, indefinite_article
from quiz.generator.places import COUNTRY, is_capital, known_place
from quiz.generator.templates import BLANK, Draft, cuts_quotation

MIN_CHOICES = 3
#: The answer may not be this many times longer (or shorter) than every other choice.
LENGTH_RATIO = 1.6
#: ... unless the lengths differ by no more than this many characters.
LENGTH_SLACK = 4


@dataclass(frozen=True)
class Candidate:
    """A draft with its choices, and the article it comes from."""

    draft: Draft
    choices: tuple[str, ...]
    article: Article


Check = Callable[[Candidate], str | None]


def _folded(text: str) -> str:
    return fold(text).casefold()


def answer_in_quote(candidate: Candidate) -> str | None:
    if _folded(candidate.draft.fact.text) not in _folded(candidate.draft.quote):
        return "the answer is not in its quote"
    return None


def enough_choices(candidate: Candidate) -> str | None:
    if len(candidate.choices) < MIN_CHOICES:
        return f"only {len(candidate.choices)} choices"
    return None


def distinct_choices(candidate: Candidate) -> str | None:
    choices = candidate.choices
    for index, choice in enumerate(choices):
        if not distinct(choice, choices[:index]):
            return f"choice '{choice}' repeats or contains another"
    return None


def stem_without_answer(candidate: Candidate) -> str | None:
    """The answer, or its initials ("BTH" in "Better Than Hubble"), written in the prompt."""
    answer = _folded(candidate.draft.answer)
    prompt = candidate.draft.prompt
    if contains_words(_folded(prompt), answer):
        return "the prompt contains the answer"
    letters = candidate.draft.answer.replace(".", "")
    if re.fullmatch(r"[A-Z]{2,6}", letters) and letters in _initials(prompt):
        return "the prompt spells the answer out"
    words = [word for word in re.findall(r"[\w’'&-]+", candidate.draft.answer) if word.lower() not in _MINOR_WORDS]
    if len(words) >= 2 and all(word[:1].isupper() for word in words):
        if re.search(rf"\b{''.join(word[0] for word in words)}\b", prompt):
            return "the prompt holds the answer's initials"
    return None


_MINOR_WORDS = frozenset("of and the for & de in on at to".split())


def _initials(text: str) -> set[str]:
    """The initials of every run of consecutive capitalised words in ``text`` ("Better Than
    Hubble" gives "BTH", "TH" and so on), minor words ("of", "and") skipped."""
    found: set[str] = set()
    run: list[str] = []
    for word in [*re.findall(r"[\w’'&-]+", text), ""]:
        if word[:1].isupper():
            run.append(word[0])
            continue
        if word.lower() in _MINOR_WORDS and run:
            continue
        for start in range(len(run)):
            for end in range(start + 2, len(run) + 1):
                found.add("".join(run[start:end]))
        run = []
    return found


def length_gives_away(candidate: Candidate) -> str | None:
    answer = len(candidate.draft.answer)
    others = [len(choice) for choice in candidate.choices if choice != candidate.draft.answer]
    if not others:
        return None
    if answer > max(others) * LENGTH_RATIO and answer - max(others) > LENGTH_SLACK:
        return "the answer is much longer than every other choice"
    if answer * LENGTH_RATIO < min(others) and min(others) - answer > LENGTH_SLACK:
        return "the answer is much shorter than every other choice"
    return None


def grammar_gives_away(candidate: Candidate) -> str | None:
    """An "a"/"an" before the blank, capitals, or a plural after it that only the answer fits."""
    draft = candidate.draft
    article_word = re.search(r"\b(a|an)\s*$", draft.before, re.IGNORECASE)
    if article_word:
        expected = article_word.group(1).lower()
        if any(indefinite_article(choice) != expected for choice in candidate.choices):
            return f"not every choice follows '{expected}'"
    capitalised = {choice[:1].isupper() for choice in candidate.choices if choice[:1].isalpha()}
    if len(capitalised) > 1:
        return "some choices are capitalised and some are not"
    if re.match(r"\s+[a-z]+s\b", draft.after) and any(choice.lower() in ("one", "1") for choice in candidate.choices):
        return "'one' before a plural"
    form = draft.fact.form
    counts_things = draft.fact.kind == "quantity" and isinstance(form, NumberForm) and not (form.unit or form.prefix or form.scale)
    if counts_things and draft.answer.lower() not in ("one", "1") and any(choice.lower() in ("one", "1") for choice in candidate.choices):
        return "'one' before a plural"
    return None


#: "National Search and ____", "House Oversight and ____": the blank goes on a longer name.
_NAME_GOES_ON_BEFORE = re.compile(r"\b[A-Z][\w’'.-]*\s+(?:and|of|for|&|de)\s+$")
_NAME_GOES_ON_AFTER = re.compile(r"^(?:\s+(?:and|of|for|&|de))?\s+[A-Z][\w’'.-]*")
_NAMED_KINDS = (ORGANISATION, PLACE, TITLE)


def inside_a_name(candidate: Candidate) -> str | None:
    """A blank that is part of a longer name ("Attorney ____" for "General Eric Holder",
    "National Search and ____" for "Rescue Agency"): the choices then read as pieces, not names."""
    draft = candidate.draft
    if draft.template != "cloze" or draft.fact.kind not in (*_NAMED_KINDS, PERSON):
        return None
    before, after = draft.before, draft.after
    if _NAME_GOES_ON_BEFORE.search(before) or (draft.fact.kind in _NAMED_KINDS and _NAME_GOES_ON_AFTER.match(after)):
        return "the blank is part of a longer name"
    # A capitalised word right before the blank, with no comma between ("Marksville, ____" is a
    # town and its state), and not the sentence's first word.
    previous = re.search(r"([A-Z][\w’'.-]*)\s+$", before)
    if previous and draft.fact.kind in _NAMED_KINDS and before.strip() != previous.group(1):
        return "the blank is part of a longer name"
    return None


#: Words before a number that make it a bound: "over ____ crew" is also true of every smaller choice.
_BOUND_BEFORE = re.compile(
    r"\b(?:over|more than|at least|less than|fewer than|under|up to|nearly|almost|exceeding|exceeded|"
    r"in excess of|upwards of|as many as|as much as|as few as|below|above|beyond|some)\s*$",
    re.IGNORECASE,
)
#: "from ____ to 60%", "between ____ and 12": the other end tells which choices fit.
_RANGE = re.compile(r"\b(?:from|between)\s*$|\b(?:from|between)\s+[\d$£€][^\s]*\s+(?:to|and)\s*$", re.IGNORECASE)
#: "from ____ people to six": the other end, after what is counted.
_RANGE_AFTER = re.compile(rf"^\s*(?:[a-z]+\s+)?(?:to|and|-|–)\s*(?:[\d$£€]|(?:{WORD_NUMBER_PATTERN})\b)", re.IGNORECASE)
#: "more than half of the officials were women, at ____%".
_PERCENT = re.compile(r"%|\bper ?cent\b", re.IGNORECASE)
_HALF = re.compile(r"\b(?:more|less|fewer) than half\b|\b(?:a|the) (?:majority|minority)\b", re.IGNORECASE)
#: "two to ____ hundred", "March ____ and 5", "16–____ percent": a value joined to the blank,
#: with no "from".
_JOINED_BEFORE = re.compile(rf"(?:\b(?:{WORD_NUMBER_PATTERN})|\d)\s+(?:to|or)\s*$|\d\s*[-–]\s*$", re.IGNORECASE)
_JOINED_AFTER = re.compile(rf"^\s*(?:to|or|and|-|–)\s*(?:\d|(?:{WORD_NUMBER_PATTERN})\b)", re.IGNORECASE)
#: "about ____ (five miles)": a conversion beside the blank gives the value away.
_CONVERSION_AFTER = re.compile(r"^[\w\s-]{0,20}\(\s*(?:about\s+|around\s+|some\s+|[~≈]\s*)?[\d$£€]|^[\w\s-]{0,20}\(\s*[a-z]+[- ](?:miles?|km|kilomet|feet|pounds?|kg)")
_CONVERSION_BEFORE = re.compile(r"\(\s*$")
#: Names listed with "and" ("Doug Hurley and Bob Behnken", "Singapore, India, and Australia"),
#: which a count beside them counts.
_NAME = r"[^\W\d_a-z][\w’'-]*(?: [A-Z][\w’'-]*)*"
_NAMED_LIST = re.compile(rf"(?<![\w’'-]){_NAME}(?:, {_NAME})*,? and {_NAME}")
#: When a story was reported, not what happened: "in its ____ media release", "as of ____".
_REPORTED_WHEN = re.compile(
    r"\b(?:release|report|reported|statement|interview|press conference|tweet|tweeted|posted|told|according to)\b"
    r"[^.;:]{0,40}$|\bas of\s*$",
    re.IGNORECASE,
)
_NUMBER_KINDS = frozenset({"quantity", "money", "percent", "measure", "duration", "age"})


def _lists_as_many(before: str, after: str, fact: Fact) -> bool:
    """Whether the sentence lists as many names as the count ``fact`` asks for, after the blank
    ("Egypt has ____ terminals, in Damietta and Idku") or before a blank that points back to
    them ("Singapore, India, and Australia ...: All ____ nations")."""
    form = fact.form
    if not isinstance(form, NumberForm) or form.scale or not 2 <= form.value <= 12:
        return False
    text = after if not re.search(r"\b(?:all|the|these|those|both)\s*$", before, re.IGNORECASE) else before + " " + after
    lists = (re.split(r",? and |, ", listed.group()) for listed in _NAMED_LIST.finditer(text))
    return any(len(names) == form.value and all(name[:1].isupper() for name in names) for names in lists)


#: A count in a sentence, in figures or in words (not a year, a decimal or a part of a larger figure).
_COUNT = re.compile(rf"(?<![\w.,])(\d{{1,3}}|{WORD_NUMBER_PATTERN})(?![\w]|[.,]\d)", re.IGNORECASE)


def _adds_up(words: str, fact: Fact) -> bool:
    """Whether the count ``fact`` asks for is the sum of other counts of the sentence ("____
    bodies, eleven women and nine men"), or one part of a sum the sentence gives ("20 bodies,
    ____ women and nine men")."""
    form = fact.form
    if not isinstance(form, NumberForm) or form.scale or form.unit or form.value != int(form.value):
        return False
    counts = [int(found) if found.isdigit() else WORD_NUMBERS[found.lower()] for found in _COUNT.findall(words)][:8]
    for size in (1, 2, 3):
        for chosen in itertools.combinations(range(len(counts)), size):
            parts = sum(counts[at] for at in chosen)
            rest = [count for at, count in enumerate(counts) if at not in chosen]
            if (size > 1 and parts == form.value) or form.value + parts in rest:
                return True
    return False


#: How close another date of the sentence may be before it tells the answer's place among the
#: choices: days for a date with its day, else months' worth of days, and years.
_CLOSE_DAYS, _CLOSE_MONTHS_DAYS, _CLOSE_YEARS = 10, 62, 2


def _dated_close_by(fact: Fact, article: Article) -> bool:
    """Whether the sentence names another date or year close to the answer ("declared a state of
    emergency on ____, shut down all schools as of November 17"; "after the ____ attacks, a
    bill proposed in 2016"): the choices either cross it, which the prompt rules out, or all lie
    on one side, where the answer is the one nearest to it. A year beside a date says nothing of
    where the date lies in it."""
    answer = fact.form
    if isinstance(answer, DateForm):
        close = _CLOSE_DAYS if answer.day is not None else _CLOSE_MONTHS_DAYS
    else:
        close = _CLOSE_YEARS
    return any(
        abs(other.answer - other.value) <= close
        for other in dates_beside(fact, article)
        if not (isinstance(answer, DateForm) and isinstance(other.form, NumberForm))
    )


def number_cues(candidate: Candidate) -> str | None:
    """What the words around a number's blank give away or leave open: a bound ("over ____"),
    the other end of a range, a conversion in brackets, or the names the number counts."""
    draft = candidate.draft
    if draft.template != "cloze" or draft.fact.kind not in _NUMBER_KINDS | {"year", "date"}:
        return None
    before, after = draft.before, draft.after
    if draft.fact.kind in _NUMBER_KINDS and _BOUND_BEFORE.search(before):
        return "a bound (over, nearly ...) makes more than one choice true"
    if draft.fact.kind == "duration" and re.match(r"\s+(?:ago|earlier)\b", after):
        return "counted back from the day the story was filed, which the player is not told"
    if re.search(r"\b(?:either|or)\s*$", before) or re.match(r"\s*,?\s*or\s+[\w$£€]", after):
        return "the value the article gives beside it (\"either ____ or December 28\") is one choice away"
    if draft.fact.kind in ("year", "date") and _dated_close_by(draft.fact, candidate.article):
        return "another date of the sentence, close by, tells which choice is the answer"
    if draft.fact.kind in ("year", "date") and re.search(r"\b(?:by|before|after)\s*$", before):
        return "\"by ____\" or \"before ____\" is true of every later choice too, \"after ____\" of every earlier one"
    if _RANGE.search(before) and (_RANGE_AFTER.match(after) or not before.rstrip().endswith(("from", "between"))):
        return "the other end of a range tells which choices fit"
    if draft.fact.kind in _NUMBER_KINDS and _PERCENT.search(draft.answer + after[:12]) and _HALF.search(before + after):
        return "\"more than half\" or \"a majority\" tells which side of 50% the answer is on"
    if draft.fact.kind != "year" and (_JOINED_BEFORE.search(before) or _JOINED_AFTER.match(after)):
        return "the value joined to it (\"two to ____ hundred\", \"____ and 5\") tells which choices fit"
    form = draft.fact.form
    counts_one = isinstance(form, NumberForm) and form.value == 1 and not form.scale and not form.unit.startswith(("-", "%", " per"))
    if draft.fact.kind in _NUMBER_KINDS and counts_one:
        return "a count of one: the singular after it (\"____ week\", \"____ person was\") tells it"
    if draft.fact.text.lower() in ("two", "2") and re.search(r"\bboth\b", before + after, re.IGNORECASE):
        return "\"both\" counts the two"
    if _CONVERSION_AFTER.match(after) or _CONVERSION_BEFORE.search(before):
        return "a conversion beside the blank gives the value away"
    if draft.fact.kind == "quantity" and _lists_as_many(before, after, draft.fact):
        return "the names listed count themselves"
    if draft.fact.kind == "quantity" and _adds_up(before + " " + after, draft.fact):
        return "the counts beside it add up to it (\"____ bodies, eleven women and nine men\")"
    # "In a ____ period ..., the storm traversed thirty miles": the answer's figure ("thirty hour")
    # stands elsewhere in the prompt, which no wrong choice's does.
    figure = re.search(r"\d[\d,.]*\d|\d", draft.answer) or re.match(r"[a-z]+", draft.answer.lower())
    if draft.fact.kind in _NUMBER_KINDS and figure and figure.group() in re.findall(r"\d[\d,.]*\d|\d|[a-z]+", (before + " " + after).lower()):
        return "the prompt holds the answer's figure elsewhere"
    return None


def known_to_everyone(candidate: Candidate) -> str | None:
    """A state or country right after a town ("Cincinnati, ____"): where the town is, which
    the player knows or not, not what the article says."""
    draft = candidate.draft
    if draft.fact.kind == PLACE and draft.template == "cloze" and re.search(r"\b[A-Z][\w’'.-]*,\s*$", draft.before):
        return "the place a town is in is general knowledge, not the article's"
    if draft.fact.kind == "year" and re.search(r"\bcensus\b", draft.before[-30:] + draft.after[:20], re.IGNORECASE):
        return "a census year ends in 0"
    if draft.fact.kind == "year" and _CYCLE_AFTER.match(draft.after):
        return "an election, a games or a yearly event: its year names an edition, and choices out of step are plainly wrong"
    if draft.fact.kind == PLACE and _demonym_in(draft.answer, draft.prompt):
        return "the prompt names the answer's people (\"Indonesian companies ... registered in ____\")"
    return None


#: "the ____ U.S. presidential election", "the ____ Summer Olympics", "the ____ Chicago
#: Marathon": events on a cycle, whose year names the edition (the story's own, often).
_CYCLE_AFTER = re.compile(
    r"^(?:\s+(?:U\.S\.|US|American|[A-Z][a-z]+n))?(?:\s+(?:presidential|general|midterm|parliamentary|federal))?"
    r"\s+(?:elections?|Olympics|Olympic Games|(?:Summer|Winter) (?:Olympics|Games)|World Cup)\b"
    r"|^(?:\s+[A-Z][\w'&.-]*){0,4}\s+(?:Marathon|Championships?|Cup|Festival|Awards|Open|Grand Prix|Games|Expo|"
    r"Summit|Olympiad|Convention|Conference|Congress|Classic|Derby|Series|Tour)\b"
)


def _demonym_in(place: str, prompt: str) -> bool:
    """Whether ``prompt`` holds a word made from the place's name ("Indonesian" of Indonesia,
    "Egyptian" of Egypt, "Greek" of Greece): the country's name less its last letters."""
    if len(place) < 5 or " " in place:
        return False
    stem = place[: max(4, len(place) - 2)]
    return any(word != place for word in re.findall(rf"\b{re.escape(stem)}\w*", prompt))


def reported_when(candidate: Candidate) -> str | None:
    """A date that says when something was reported or published, not when it happened: an
    aside nobody needs to know ("Coles, in its ____ media release")."""
    draft = candidate.draft
    if draft.fact.kind not in ("date", "year") or draft.template != "cloze":
        return None
    window = draft.before[-50:]
    if _REPORTED_WHEN.search(window) or re.match(r"^\s*(?:media |press )?(?:release|report|statement|interview|map)\b", draft.after):
        return "a date of reporting, not of the events"
    return None


def birth_year_from_age(candidate: Candidate) -> str | None:
    """The year someone was born, when the article gives an age: the year it was filed less the
    age tells the year, give or take one, whatever the choices ("died on Monday at the age of
    95" beside "was born in ____")."""
    draft = candidate.draft
    if draft.fact.kind not in ("date", "year") or not asks_a_birth(draft.prompt):
        return None
    if any(fact.kind == "age" for fact in candidate.article.facts):
        return "a year of birth, which the age the article gives tells"
    return None


_BORN_BEFORE_BLANK = re.compile(rf"\b[Bb]orn\b[^.;]*{re.escape(BLANK)}")


def asks_a_birth(prompt: str) -> bool:
    """Whether a prompt asks when someone was born ("was born in ____", "Born on ____")."""
    return _BORN_BEFORE_BLANK.search(prompt) is not None


def not_main_subject(candidate: Candidate) -> str | None:
    fact = candidate.draft.fact
    if fact.entity is not None and fact.entity in candidate.article.subjects:
        return f"the answer is what the article is about ({fact.entity})"
    return None


#: "____ said", "____, a spokeswoman, told reporters", "____ cited ...": asked for, the speaker
#: of a statement is trivia about who spoke rather than what happened, and the others who
#: could have said it are rarely plausible.
_SPOKE_AFTER = re.compile(
    r"^(?:,[^,]{1,80},)?\s+(?:[a-z]+ly\s+)?(?:said|says|told|explained|added|wrote|noted|stated|argued|cited|"
    r"called|asked|replied|insisted|announced|claimed|described|warned|urged|tweeted)\b"
)


def speaker_asked(candidate: Candidate) -> str | None:
    draft = candidate.draft
    if draft.fact.kind == PERSON and draft.template == "cloze" and _SPOKE_AFTER.match(draft.after):
        return "asks who said something, not what happened"
    return None


#: Where a name is the source of what the sentence reports: "according to ____", "told ____",
#: "a Twitter post by ____".
_SOURCE_BEFORE = re.compile(
    r"\b(?:according to|told|speaking to|spoke to|reported by|cited by|quoted by|(?:post|report|statement|tweet|interview) by)"
    r"(?: the)?\s*$",
    re.IGNORECASE,
)
_SOURCE_AFTER = re.compile(r"^(?:'s|’s)?\s+(?:reported|reports|said|says|told|quoted|cited|wrote)\b")
#: Someone who speaks for an organisation: "spokesman Hami Aksoy", "____, spokeswoman for ...".
_SPOKESPERSON = re.compile(r"\b(?:spokes(?:man|woman|person)|press secretary)\b", re.IGNORECASE)
#: A people's or a region's adjective ("Australian store chains", "Western culture").
_ADJECTIVE = re.compile(r"^[A-Z][a-z]+(?:an|ern|ish|ese|ic|i|ch)$")
#: Places and unions general knowledge names, which are no country.
_WORLD_PLACES = frozenset({"Africa", "Asia", "Europe", "North America", "South America", "Oceania", "Antarctica", "EU", "European Union"})
#: "Crown Prince ____ bin Salman": the name goes on after the blank.
_NAME_GOES_ON = re.compile(r"^\s+(?:bin|ibn|al|de|del|van|von|der|da|di|du|la|le)\s+[A-Z]")
#: A title the name of a person should not start with ("Presidents Muhammadu Buhari").
_TITLED = re.compile(r"^(?:Presidents?|Prime|Ministers?|Dr|Mr|Mrs|Ms|Sir|Judge|Justice|Senator)\b")
#: Offices whose holder general knowledge names: "President ____".
_HEAD_OF = re.compile(r"\b(?:President|Prime Minister|Premier|Chancellor|Pope|King|Queen)\s*$")


def name_worth_typing(candidate: Candidate) -> str | None:
    """A name asked for the player to type that is not the article's to tell: a country or a
    capital, which general knowledge often picks out of the sentence ("the border with ____",
    "UNESCO is based in ____"), or a head of state; a source of the news ("according to ____",
    a spokesman);
    part of a longer name ("Crown Prince ____ bin Salman"); an adjective taken for a name
    ("____ store chains"); a name inside a quotation, which says how someone put it; or one the
    prompt already writes another way ("____ and Tristan Smith ..., with Miller describing")."""
    draft = candidate.draft
    fact = draft.fact
    if fact.kind not in (PERSON, PLACE, TITLE):
        return None
    known = known_place(draft.answer)
    if fact.kind == PLACE and (
        (known is not None and known.sort == COUNTRY) or is_capital(draft.answer) or draft.answer in _WORLD_PLACES
    ):
        return "a country or a capital, which general knowledge tells as often as the article"
    if fact.kind == PERSON and _HEAD_OF.search(draft.before):
        return "a head of state or government, whom general knowledge names"
    if fact.kind == PERSON and (_NAME_GOES_ON.match(draft.after) or _TITLED.match(draft.answer)):
        return "part of a name, or a name with a title"
    if _SOURCE_BEFORE.search(draft.before) or _SOURCE_AFTER.match(draft.after):
        return "the source of the news, not the news"
    if fact.kind == PERSON and (_SPOKESPERSON.search(draft.before[-25:]) or _SPOKESPERSON.search(draft.after[:30])):
        return "someone who speaks for an organisation, a source rather than part of the story"
    if _ADJECTIVE.match(draft.answer) and re.match(r"^\s+[a-z]", draft.after):
        return "an adjective, not a name"
    if cuts_quotation(candidate.article, fact.start, fact.end):
        return "a name inside a quotation"
    entity = candidate.article.entity(fact.entity)
    prompt = _folded(draft.prompt)
    if entity is not None and any(contains_words(prompt, _folded(mention.text)) for mention in entity.mentions):
        return "the prompt names the answer another way"
    return None


#: Every check a question must pass, by name.
CHECKS: dict[str, Check] = {
    "answer-in-quote": answer_in_quote,
    "enough-choices": enough_choices,
    "distinct-choices": distinct_choices,
    "stem-without-answer": stem_without_answer,
    "length": length_gives_away,
    "grammar": grammar_gives_away,
    "inside-a-name": inside_a_name,
    "number-cues": number_cues,
    "reported-when": reported_when,
    "birth-year": birth_year_from_age,
    "known-to-everyone": known_to_everyone,
    "main-subject": not_main_subject,
    "speaker": speaker_asked,
    "name-worth-typing": name_worth_typing,
}


#: The checks of a question's choices, which a question answered by typing has none of.
CHOICE_CHECKS = frozenset({"enough-choices", "distinct-choices", "length", "grammar"})


def problems(candidate: Candidate, *, typed: bool = False) -> list[str]:
    """Why ``candidate`` must be dropped: one message per failed check, none when it is sound.
    A ``typed`` question (the player types the answer) has no choices to check."""
    return [
        f"{name}: {message}" for name, check in CHECKS.items()
        if not (typed and name in CHOICE_CHECKS) and (message := check(candidate))
    ]
