"""Question templates: turning a fact and its sentence into a prompt.

:data:`TEMPLATES` is tried in order and the first that fits a fact wins: a few wh- questions
for sentence patterns that can be rephrased safely, then the cloze ("In ____, she ...") that
fits any fact. A sentence that leans on an earlier one ("It didn't count ..."), opens with a
pronoun whose person cannot be told for sure, or with a person described but not named ("The
30-year-old has ..."), or that begins or ends inside a quotation, is not used: every prompt
must stand alone. A pronoun inside a quotation is never replaced, and a dateline is never part
of a quote.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from quiz.generator.entities import ORGANISATION, PERSON, WEEKDAYS, Entity, describes_someone, name_shaped
from quiz.generator.facts import Article, Fact
from quiz.generator.numbers import MONTHS
from quiz.generator.sentences import Sentence
from quiz.generator.spans import Enclosing

BLANK = "____"

#: Sentences longer than this are cut to the clause holding the fact.
MAX_QUOTE_WORDS = 60
MIN_QUOTE_WORDS = 6
#: The sentence before, shown ahead of a prompt that leans on it, is at most this long.
MAX_CONTEXT_WORDS = 35

#: "Former" and "latter" are left out: opening a sentence they are adjectives ("Former CIA agent
#: Tony Mendez died ..."); "the former" leans, and :data:`_POINTS_BACK` has it.
_LEANING_OPENERS = frozenset("it its this that these those they them their there here such both neither another".split())
_SUBJECT_PRONOUNS = {"he": "male", "she": "female", "his": "male", "her": "female"}
_PRONOUN = re.compile(r"\b(he|she|his|her)\b", re.IGNORECASE)
_NOT_A_NOUN = frozenset("to and or in on at with for from by of that as than but after before when while so".split())
_SPEECH = r"(?:said|says|explained|added|told reporters|recalled|admitted|wrote)"


@dataclass(frozen=True)
class Draft:
    """A question before its choices: what to ask, the answer, and the quote that proves it."""

    template: str
    fact: Fact
    prompt: str
    answer: str
    quote: str
    explanation: str
    #: The words right before and after the blank (cloze) or the answer in the quote.
    before: str
    after: str


Template = Callable[[Fact, Article], Draft | None]


def _quote_for(fact: Fact, article: Article) -> tuple[str, int] | None:
    """The sentence holding ``fact`` (after its dateline), or its clause when the sentence is
    long, and its offset; None when it is too short or cut inside a quotation."""
    sentence = article.sentences[fact.sentence]
    text, start = sentence.text[sentence.body :], sentence.start + sentence.body
    if fact.start < start:
        return None  # where the story was filed, not what it says
    if len(text.split()) > MAX_QUOTE_WORDS:
        clause = _clause(text, fact.start - start, fact.end - start)
        if clause is None:
            return None
        text, start = clause[0], start + clause[1]
    if len(text.split()) < MIN_QUOTE_WORDS or fact.text not in text:
        return None
    if cuts_quotation(article, start, start + len(text)):
        return None
    return text, start


def cuts_quotation(article: Article, start: int, end: int) -> bool:
    """Whether the span begins or ends inside a quotation (one that runs over sentences)."""
    quoted = article.derived(_quoted)
    return quoted.strictly_inside(start) or quoted.strictly_inside(end)


def _quoted(article: Article) -> Enclosing:
    return Enclosing(article.quotations)


def _narration(text: str, offset: int, article: Article) -> str:
    """``text`` (at ``offset`` in the article) with what is inside quotation marks blanked out."""
    parts, at = [], offset
    for start, end in article.derived(_quoted).covered(offset, offset + len(text)):
        parts += [text[at - offset : start - offset], " " * (end - start)]
        at = end
    parts.append(text[at - offset :])
    return "".join(parts)


#: Where a clause ends. A colon between digits is a time ("6:53 p.m."), not the end of a clause.
_CLAUSE_END = re.compile(r"[;—–]\s*|\s--\s*|(?<!\d):\s*|:(?!\d)\s*|,\s+(?=(?:and|but|while|which|who)\b)")


def _clause(text: str, fact_start: int, fact_end: int) -> tuple[str, int] | None:
    # Only the opening clause stands alone; a later one lacks its subject.
    end = _CLAUSE_END.search(text)
    left, right = 0, end.end() if end else len(text)
    if left <= fact_start and fact_end <= right:
        clause = text[left:right].rstrip(" ;:—–,")
        if len(clause.split()) <= MAX_QUOTE_WORDS:
            return clause, left
    return None


def _resolve_opening_pronoun(
    sentence_text: str, offset: int, article: Article, sentence: Sentence, blank: tuple[int, int] | None = None
) -> tuple[str, str] | None:
    """The sentence (at ``offset`` in the article) with its first pronoun outside quotation marks
    replaced by the one person it can mean, when that pronoun comes before any name; the
    sentence unchanged when none does; None when the person is not certain. ``blank`` is a span
    of the sentence to write as the blank.

    Returns (text, name used) — the name is empty when nothing was replaced.
    """
    edits: list[tuple[int, int, str]] = [(blank[0], blank[1], BLANK)] if blank else []
    narration = _narration(sentence_text, offset, article)
    match = _PRONOUN.search(narration)
    name, named = "", set[str]()
    if match is not None and not any(
        fact.kind == PERSON and fact.start < offset + match.start() for fact in article.facts_in(sentence.index)
    ):
        if any(start < offset + match.start() for start in article.derived(_unsure_names).get(sentence.index, ())):
            return None  # "Waseem appeared after his arrest": a name of no known kind may be the one meant
        word = match.group(1)
        person = _antecedent(article, sentence.index, _SUBJECT_PRONOUNS[word.lower()])
        if person is None:
            return None
        usual = article.derived(_display_names)[person]
        # The full name when the article usually says the surname: the player has not read the
        # sentence that introduced "Khan" as Usman Khan.
        name = person if person.endswith(f" {usual}") else usual
        named.add(person)
        if word.lower() == "his" or (word.lower() == "her" and _possessive(sentence_text[match.end() :])):
            apostrophe = "’" if "’" in article.text else "'"
            edits.append((match.start(), match.end(), f"{name}{apostrophe}s"))
        else:
            edits.append((match.start(), match.end(), name))
    edits += _named_in_full(sentence_text, offset, article, sentence, blank, narration, named)
    text = sentence_text
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, name


def _named_in_full(
    sentence_text: str, offset: int, article: Article, sentence: Sentence, blank: tuple[int, int] | None,
    narration: str, named: set[str],
) -> list[tuple[int, int, str]]:
    """Edits naming in full ("Usman Khan") a person the sentence first calls by the surname
    alone ("Khan"), as an earlier sentence introduced them: the player has not read it. Not
    inside a quotation or the blank, nor after a title or another capitalised word ("Mr Khan",
    "President Trump"), which says who is meant on its own; nor once ``named`` (a pronoun
    replaced by the full name) holds them."""
    edits = []
    seen = set(named)
    people = [(fact.start, fact.end, fact.text, fact.entity) for fact in article.facts_in(sentence.index) if fact.kind == PERSON]
    people += article.derived(_undecided_people).get(sentence.index, [])
    for start, end_at, text, entity in sorted(people):
        at, end = start - offset, end_at - offset
        if entity is None or entity in seen or at < 0 or end > len(sentence_text):
            continue
        seen.add(entity)
        if not entity.endswith(f" {text}") or (blank and at < blank[1] and blank[0] < end):
            continue
        if not narration[at:end].strip() or re.search(r"\b[A-Z][\w.’'-]*\s+$", sentence_text[:at]):
            continue
        edits.append((at, end, entity))
    return edits


def _undecided_people(article: Article) -> dict[int, list[tuple[int, int, str, str | None]]]:
    """Each sentence's mentions of a name no cue decided the kind of but that has a person's
    shape and was written in full before ("Bruce" after "Jack Bruce"): named in full like a
    person's, since the player has not read the sentence that said who it is."""
    found: dict[int, list[tuple[int, int, str, str | None]]] = {}
    for entity in article.entities:
        if entity.kind is None and name_shaped(entity.name):
            for mention in entity.mentions:
                found.setdefault(mention.sentence, []).append((mention.start, mention.end, mention.text, entity.name))
    return found


def _unsure_names(article: Article) -> dict[int, list[int]]:
    """Where each sentence names someone or something of no decided kind, which may be a person."""
    found: dict[int, list[int]] = {}
    for entity in article.entities:
        if entity.kind is None:
            for mention in entity.mentions:
                found.setdefault(mention.sentence, []).append(mention.start)
    return found


def _display_names(article: Article) -> dict[str, str]:
    """Each entity's :attr:`~quiz.generator.entities.Entity.display_name`, read from all its
    mentions once rather than for every pronoun."""
    return {entity.name: entity.display_name for entity in article.entities}


def _possessive(after: str) -> bool:
    following = re.match(r"\s+([A-Za-z-]+)", after)
    return bool(following) and following.group(1).lower() not in _NOT_A_NOUN  # type: ignore[union-attr]


def _antecedent(article: Article, index: int, gender: str) -> str | None:
    """The one person of ``gender`` named in the three sentences before, else the article's
    main person when no one else of that gender is named there; None if unsure, and None when
    a sentence since then described someone without naming them ("The 30-year-old ...")."""
    window = range(max(0, index - 3), index + 1)
    named: dict[str | None, str | None] = {}
    last_named: dict[str | None, int] = {}
    for sentence in window:
        for fact in article.facts_in(sentence):
            if fact.kind == PERSON:
                named[fact.entity] = fact.gender
                last_named[fact.entity] = fact.sentence
    matching = [name for name, known in named.items() if known in (gender, None)]
    if len(matching) == 1 and named[matching[0]] == gender:
        person, since = matching[0], last_named[matching[0]] + 1
    elif not matching:
        subjects = article.derived(_subject_people)
        if len(subjects) != 1 or subjects[0].gender != gender:
            return None
        unsure = article.derived(_unsure_names)
        if any(sentence in unsure for sentence in window):
            return None  # a name of no known kind, nearer than the main person, may be the one meant
        person, since = subjects[0].name, window.start
    else:
        return None
    if any(describes_someone(_body(article.sentences[between])) for between in range(since, index)):
        return None
    return person


def _subject_people(article: Article) -> list[Entity]:
    """The people among the article's subjects."""
    return [entity for entity in article.entities if entity.kind == PERSON and entity.name in article.subjects]


def _body(sentence: Sentence) -> str:
    return sentence.text[sentence.body :]


#: A colon or dash, then a list of three or more: the items of a count the blank asks for.
_LIST_AFTER = re.compile(r"(?:[:—–]|\s--?\s)\s*[^,;]+(?:,[^,;]+){1,}(?:,? and [^,;]+)")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh")

#: "there" meaning a place named before ("finished 12th there"), not "there is".
_THERE = re.compile(r"(?<![\"“‘'])\b[Tt]here\b(?! (?:is|are|was|were|will|would|could|may|might|has|have|had|be|been|seems?|appears?)\b)")


#: "Shares were down 15%", "The company said": whose, which, when the article names several?
_WHOSE = re.compile(r"^(?:[A-Z][\w ]{0,30}, )?(?:[Tt]he )?(?:shares|stock|company|firm|group)\b(?! of\b)", re.IGNORECASE)


def _next_ordinal_follows(fact: Fact, before: str, after: str) -> bool:
    """Whether "the first N ..." is followed by the ordinal after N ("the third one")."""
    form = fact.form
    if fact.kind != "quantity" or not re.search(r"\bfirst\s*$", before) or form is None:
        return False
    value = int(form.value) if form.value == int(form.value) else 0
    return 0 < value < len(_ORDINALS) and re.search(rf"\b{_ORDINALS[value]}\b", after) is not None


#: Times a "that" points back to: "that day", "that week".
_TIMES = "day|week|month|year|morning|afternoon|evening|night|time"
#: Words that point back to what the reader was told before: "these ports", "this law".
_POINTS_BACK = re.compile(
    r"\b(?:these|those)\s+[a-z]|\bthis\s+(?!(?:is|was|has|had|will|would|could|can|may|might|must|should)\b)[a-z]"
    rf"|\bthat\s+(?:{_TIMES}|number|figure|amount|total)\b"
    r"|^(?:The|the)\s+(?:move|decision|deal|incident|attack|event|announcement|plan|law|bill|state|city|country|"
    r"company|firm|group|man|woman|men|women|victim|victims|suspect|pair|couple|case|crash|fire|report|doctrines?|"
    r"changes?|measures?|agreement|meeting|vote|ruling|order|ban|proposal|project|program|programme|accused|crime|"
    r"election|study|survey|research|researchers|scientists|findings|office|team|band|trio|court|investigation|"
    r"operation|mission|deceased)\b"
    # "a similar eruption", "having thus armed himself", "the vaccination drive itself",
    # "another suspect", "However, ...", "Specifically, ...", "For example, ...": each compares
    # with, adds to or follows on from what came before.
    r"|\b(?:similar|aforementioned|thus|likewise|meanwhile|however|nevertheless|nonetheless|instead"
    r"|specifically|additionally|furthermore|moreover|in particular|in addition(?! to)|for (?:example|instance))\b"
    r"|\bthe\s+(?:same|other|latter|former)\b|\banother\s+[a-z]|\bsuch\s+(?!as\b)[a-z]|\b[a-z]{3,}\s+itself\b",
    re.IGNORECASE,
)
_THEY = re.compile(r"\b(?:they|them|their|him)\b", re.IGNORECASE)
_THAT_TIME = re.compile(rf"\bthat\s+(?:{_TIMES})\b", re.IGNORECASE)
#: What "they" or "him" may mean in the words before it: a plural noun, a name, or two things joined.
_PLURAL_BEFORE = re.compile(r"\b[a-z]{3,}s\b|(?<!^)\b[A-Z][a-z]+|\band\b")
#: Words before a noun that count or order what the sentences before introduced: "the two
#: explosions", "the ____ explosions", "the final victim", "the second debate".
_COUNTING = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+|_+|first|second|third|fourth|fifth|last|final|"
    r"next|previous|following|latest|earlier|later)"
)
#: "the children", "the minibus", "the two explosions": a thing the sentences before introduced
#: (the noun, after a word that counts it), unless a name follows.
_THE_NOUN = re.compile(
    rf"\b(?:The|the)\s+(?:{_COUNTING}\s+)?([a-z]{{4,}})\b(?!\s+(?:of|with|for|in|at|to|from)\s+[A-Z])(?!\s+[A-Z])"
)
#: Nouns "the" may go with in any story, which need nothing before them.
_SHARED_NOUNS = frozenset(
    "world public government police press time first last same following most rest media internet "
    "number people year years".split()
)


def _leans_on_what_came_before(quote: str, offset: int, article: Article, index: int) -> bool:
    """Whether the quote (at ``offset``) points back at something the player has not read:
    "this law", "these ports", a "they" with nothing before it that it could mean (outside
    quotation marks), or "the children" whose noun the sentences before introduced ("five
    children in a church bus")."""
    # The prompt leaves out "earlier this week" (:func:`without_outside_references`), so it
    # points back at nothing the player misses.
    narration = _OPENING_TIME.sub(_spaces, _INNER_TIME.sub(_spaces, _narration(quote, offset, article)))
    headline = article.derived(_headline_nouns)
    if any(_unheadlined(found.group(), headline) for found in _POINTS_BACK.finditer(narration)):
        return True
    they = _THEY.search(narration)
    if they is not None and not _PLURAL_BEFORE.search(narration[: they.start()]):
        return True
    if index == 0:
        return False
    previous = " ".join(article.sentences[before].text for before in range(max(0, index - 3), index)).lower()
    for the_noun in _THE_NOUN.finditer(narration):
        noun = the_noun.group(1)
        stem = _singular(noun)
        # "the two explosions" counts what came before, headline or not.
        named = stem in headline and the_noun.group().split()[1] == noun
        if noun not in _SHARED_NOUNS and not named and re.search(rf"\b{re.escape(stem)}s?\b", previous):
            return True
    return False


def _headline_nouns(article: Article) -> frozenset[str]:
    """The words of the article's headline, lowercase and without a plural "s": the quiz's
    title shows them above every question, so "the fire" of a story headlined "Boat fire kills
    33" leans on nothing the player has not read."""
    return frozenset(_singular(word) for word in re.findall(r"[a-z]{4,}", article.headline.lower()))


def _unheadlined(pointing: str, headline: frozenset[str]) -> bool:
    """Whether words that point back ("the deal", "these ports") point at something the
    headline does not name: only "the" and a noun of the headline ("the study" of "US study
    finds ...") point at what the player has read."""
    the_noun = re.fullmatch(r"(?:The|the)\s+([a-z]+)", pointing)
    if the_noun is None:
        return True
    return _singular(the_noun.group(1)) not in headline


def _singular(noun: str) -> str:
    """A noun without its plural "s" ("explosions": "explosion"), as the nouns are compared."""
    return noun[:-1] if noun.endswith("s") else noun


def _spaces(match: re.Match[str]) -> str:
    return " " * len(match.group())


def _stands_alone(text: str, article: Article | None = None) -> bool:
    first = re.match(r"[\"“‘']?([A-Za-z]+)", text)
    if text.rstrip().endswith(":"):
        return False  # it announces a list the prompt leaves out
    if article is not None and _WHOSE.match(text) and article.derived(_owners) > 1:
        return False
    if describes_someone(text):
        return False  # "The ____ has established himself ...": who?
    if _THERE.search(text):
        return False  # "She finished 12th there in 2023": where?
    if first is not None and first.group(1).lower() == "there":
        return True  # "There were 6,500 runners": the "there" of being, which leans on nothing
    return first is None or first.group(1).lower() not in _LEANING_OPENERS


_STOCK_OF = re.compile(r"\b([A-Z][\w&.-]*)(?:['’]s)? (?:stock|shares)\b|\b[Ss]hares of (?:[a-z]+ ){0,3}([A-Z][\w&.-]*)")


def _owners(article: Article) -> int:
    """How many companies the article could mean by "the company" or "shares": its organisations,
    or the names whose stock it speaks of ("Allergan’s stock", "AbbVie stock"), whichever are more."""
    organisations = sum(1 for entity in article.entities if entity.kind == ORGANISATION)
    stock = {next(name for name in match.groups() if name) for match in _STOCK_OF.finditer(article.text)}
    return max(organisations, len(stock))


@functools.lru_cache(maxsize=16)
def _common_words(text: str) -> frozenset[str]:
    """The words ``text`` writes in lowercase somewhere."""
    return frozenset(re.findall(r"\b[a-z]+\b", text))


#: English words of closed classes, which no name is: prepositions, conjunctions, determiners
#: and small numbers. A sentence opening with one ("Upon arrival", "Per the report", "Many were")
#: reads on in lowercase after "According to the article,".
_FUNCTION_WORDS = frozenset(
    "about above across after against along amid among around as at before behind below beneath beside besides "
    "between beyond by despite during except following for from in inside into like near of off on onto opposite "
    "outside over past per since through throughout to toward towards under underneath unlike until upon via with "
    "within without and but or nor so yet although though because if unless when whenever where whereas while "
    "the a an this that these those some any many much most more few several each every all both either neither "
    "only no one two three four five six seven eight nine ten".split()
)


def _lowercase_start(text: str, article: Article) -> str:
    """``text`` with its first letter lowercased when its first word is a common word (one the
    article writes in lowercase somewhere), a word of a closed class or an adverb in -ly, which
    no name is."""
    first = re.match(r"([A-Za-z]+)", text)
    if first is None:
        return text
    word = first.group(1).lower()
    if word in _common_words(article.text) or word in _FUNCTION_WORDS or (word.endswith("ly") and len(word) > 4):
        return text[0].lower() + text[1:]
    return text


def _explained(text: str, article: Article) -> str:
    text = text.rstrip()
    if not text.endswith((".", "!", "?", "\"", "”")):
        text += "."
    if text.startswith("According to "):
        return text  # the sentence names its source itself
    return f"According to the article, {_lowercase_start(text, article)}"


_WEEKDAY = "|".join(sorted(WEEKDAYS))
_DAY = rf"(?:{_WEEKDAY})(?: (?:morning|afternoon|evening|night))?"
#: When something happened, told from the day the story was filed: "On Thursday", "last week".
#: The player reads the sentence without its date, so these say nothing to them.
_RELATIVE_TIME = (
    rf"(?:(?:(?:early |late )?on {_DAY}|as of (?:early |late )?{_DAY}|(?:yesterday|today|tonight)(?: (?:morning|afternoon|evening|night))?"
    r"|(?:earlier |later )?(?:this|last) (?:week|weekend|month|year)|earlier today)(?: local time)?)"
)
_OPENING_TIME = re.compile(rf"^{_RELATIVE_TIME}, ", re.IGNORECASE)
#: Inside the sentence: "on Thursday", "last week", or a bare day after a verb of saying ("said
#: Tuesday"); not after "since", "until", "by", "from" or "of", which make it part of what is said,
#: nor after "took place" or "happened", which would be left saying nothing.
_INNER_TIME = re.compile(
    rf"(?<!\bsince)(?<!\buntil)(?<!\bby)(?<!\bfrom)(?<!\bof)(?<!\bthan)(?<!took place)(?<!happened)(?<!occurred)"
    rf",? (?:{_RELATIVE_TIME}|(?<=said |says ){_DAY})"
    r"(?=[,.;:!?]| (?!of\b|\d))",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]")
#: A time told from the day the story was filed that the prompt keeps ("began last November",
#: "greater than last year", "as of today"): the player cannot place it.
_TIME_LEFT = re.compile(
    rf"\b(?:(?:last|this|next) (?:week|weekend|month|year|spring|summer|autumn|fall|winter|{'|'.join(MONTHS)}|{_WEEKDAY})"
    rf"|as of (?:{_WEEKDAY})|yesterday|(?<!USA )today|tonight|tomorrow)\b",
    re.IGNORECASE,
)


#: "also" adds the sentence to one before it, which the player has not read ("Costco also
#: limited ..."); "but also", "not only" and "also known as" are left alone.
_ALSO = re.compile(r"(?<!\bbut)(?<!\bnot only)(?<!\band) also\b(?! known\b)(?=[ ,])", re.IGNORECASE)


def without_outside_references(stem: str) -> str:
    """``stem`` without the days and weeks it dates from the day the story was filed ("On
    Thursday, police said ..." becomes "Police said ..."), and without an "also" that adds it
    to a sentence the player has not read; outside quotations and the blank."""
    opening = _OPENING_TIME.match(stem)
    if opening and _left_out(stem, opening) == "":
        rest = stem[opening.end() :]
        stem = rest[:1].upper() + rest[1:]
    for pattern in (_INNER_TIME, _ALSO):
        stem = pattern.sub(functools.partial(_left_out, stem), stem)
    return stem


def _left_out(stem: str, match: re.Match[str]) -> str:
    """Nothing in place of ``match``, unless it is inside a quotation or holds the blank."""
    start, end = match.span()
    quoted = any(open_ < end and start < close for open_, close in (found.span() for found in _QUOTED.finditer(stem)))
    return match.group() if quoted or BLANK in match.group() else ""


def _context(article: Article, index: int) -> str | None:
    """The sentence before sentence ``index``, to show ahead of a prompt that leans on it
    ("The children were all from Marksville" after "Five children in a church bus died"):
    when it is short, stands alone itself, and opens no quotation it does not close."""
    if index == 0:
        return None
    sentence = article.sentences[index - 1]
    text, start = _body(sentence), sentence.start + sentence.body
    if not MIN_QUOTE_WORDS <= len(text.split()) <= MAX_CONTEXT_WORDS or cuts_quotation(article, start, start + len(text)):
        return None
    if _asks(text) or not _stands_alone(text, article) or _leans_on_what_came_before(text, start, article, index - 1):
        return None
    if _PRONOUN.search(_narration(text, start, article)):
        return None
    last = re.search(r"\b([A-Za-z]+)\W*$", text)
    if last and last.group(1).lower() in _FUNCTION_WORDS:
        return None  # "... listed no results for the.": a sentence cut short
    return text


def _asks(text: str) -> bool:
    """Whether a sentence is a question (an interviewer's, a rhetorical one)."""
    return text.rstrip(" \"'”’)").endswith("?")


def _shares_a_word(context: str, quote: str) -> bool:
    """Whether the sentence before speaks of something the quote does: a name or a longer word
    of both ("eruption", "doctrines"), so that it is the one the quote leans on."""
    def words(text: str) -> set[str]:
        return {word.lower().rstrip("s") for word in re.findall(r"[^\W\d_]{5,}", text) if word.lower() not in _FUNCTION_WORDS}
    return bool(words(context) & words(quote))


def cloze(fact: Fact, article: Article) -> Draft | None:
    """"Complete the sentence: In ____, Carley first learned ..." for any fact; a sentence that
    leans on the one before it comes after that one ("The article says: "..." Complete the
    sentence that follows: ...")."""
    found = _quote_for(fact, article)
    if found is None:
        return None
    quote, quote_start = found
    context = None
    if quote.rstrip().endswith(":"):
        return None  # it announces a list the prompt leaves out
    if _asks(quote):
        return None  # a question asks; what it takes for granted is no fact the article states
    if not _stands_alone(quote, article) or _leans_on_what_came_before(quote, quote_start, article, fact.sentence):
        sentence = article.sentences[fact.sentence]
        # Only a whole sentence follows the one before; "that day" it does not date.
        whole = quote_start == sentence.start + sentence.body and not _THAT_TIME.search(quote)
        context = _context(article, fact.sentence) if whole else None
        if context is None or not _shares_a_word(context, quote[: fact.start - quote_start] + quote[fact.end - quote_start :]):
            return None
    at, end = fact.start - quote_start, fact.end - quote_start
    if fact.kind == "quantity" and _LIST_AFTER.search(quote[end:]):
        return None  # "appeared in ____ finals ...: the Australian Open, Wimbledon, and ..." counts itself
    if _next_ordinal_follows(fact, quote[:at], quote[end:]):
        return None  # "the first ____ homers were routine, but ... the third one" counts itself
    resolved = _resolve_opening_pronoun(quote, quote_start, article, article.sentences[fact.sentence], (at, end))
    if resolved is None:
        return None
    stem, _ = resolved
    filled = stem.replace(BLANK, fact.shown, 1)
    shown = without_outside_references(stem)
    if _TIME_LEFT.search(_QUOTED.sub(" ", shown)):
        return None  # "began last November": when, the player cannot tell
    prompt = f"Complete the sentence from the article: {shown}"
    if context is not None:
        prompt = f"The article says: “{without_outside_references(context)}” Complete the sentence that follows: {shown}"
    return Draft(
        template="cloze", fact=fact, prompt=prompt,
        answer=fact.shown, quote=quote, explanation=_explained(without_outside_references(filled), article),
        before=quote[:at], after=quote[end:],
    )


_DIED_AT = re.compile(r"^(?P<who>[A-Z][\w’'.-]*(?: [A-Z][\w’'.-]*){0,3}) died at the age of (?P<age>\d{1,3})\b")


def age_at_death(fact: Fact, article: Article) -> Draft | None:
    """"At what age did Carley die?" from "She died at the age of 19 ..."."""
    if fact.kind != "age":
        return None
    sentence = article.sentences[fact.sentence]
    quote, offset = _body(sentence), sentence.start + sentence.body
    if cuts_quotation(article, offset, offset + len(quote)):
        return None
    resolved = _resolve_opening_pronoun(quote, offset, article, sentence)
    if resolved is None:
        return None
    text, _ = resolved
    match = _DIED_AT.match(text)
    if match is None or match.group("age") != fact.text:
        return None
    who = match.group("who")
    return Draft(
        template="age-at-death", fact=fact, prompt=f"According to the article, at what age did {who} die?",
        answer=fact.text, quote=quote, explanation=f"According to the article, {who} died at the age of {fact.text}.",
        before="", after="",
    )


_ATTRIBUTED = (
    re.compile(rf"^[\"“](?P<words>[^\"”]{{20,240}}?)[,.!?]?[\"”],? (?P<who>[A-Z][\w’'-]*(?: [A-Z][\w’'-]*){{0,2}}),?(?: [^.]*?)? {_SPEECH}\b"),
    re.compile(rf"^[\"“](?P<words>[^\"”]{{20,240}}?)[,.!?]?[\"”],? {_SPEECH} (?P<who>[A-Z][\w’'-]*(?: [A-Z][\w’'-]*){{0,2}})\b"),
)


def attributed_quote(fact: Fact, article: Article) -> Draft | None:
    """"Who said ...?" for a quotation followed by its speaker's name."""
    if fact.kind != PERSON:
        return None
    sentence = article.sentences[fact.sentence]
    for pattern in _ATTRIBUTED:
        match = pattern.match(sentence.text)
        if match and match.group("who") == fact.text and sentence.start + match.start("who") == fact.start:
            words = match.group("words").strip()
            return Draft(
                template="attributed-quote", fact=fact,
                prompt=f"According to the article, who said: “{words}”?",
                answer=fact.shown, quote=sentence.text,
                explanation=f"The article attributes these words to {fact.shown}.",
                before="", after="",
            )
    return None


#: Tried in order; the first template that fits a fact makes its question.
TEMPLATES: dict[str, Template] = {
    "age-at-death": age_at_death,
    "attributed-quote": attributed_quote,
    "cloze": cloze,
}


def draft_for(fact: Fact, article: Article) -> Draft | None:
    for template in TEMPLATES.values():
        draft = template(fact, article)
        if draft is not None:
            return draft
    return None
