"""People, organisations, places and titled works found by their capitals and their context.

There is no list of names or places: a capitalised sequence is classified by what it ends
with ("Inc.", "University", "County"), the words around it ("boyfriend John", "born in X",
"X said", "Dearborn, Michigan") and how the article refers to it elsewhere. Mentions of one
entity are linked ("Ken Block" ... "Block", "Dado Firehiwot" ... "Firehiwot Dado"), and each
person's gender is read from the role words and pronouns around their mentions, so that
pronouns can be resolved to the right person.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from quiz.generator.numbers import MONTHS, WORD_NUMBERS
from quiz.generator.places import known_place
from quiz.generator.sentences import Sentence

PERSON, ORGANISATION, PLACE, TITLE = "person", "organisation", "place", "title"
KINDS = (PERSON, ORGANISATION, PLACE, TITLE)
#: A vote against a person: the name follows "the".
_NOT_A_PERSON = "not-a-person"
#: The part of the votes for a person that only says the name spoke ("X said"): companies speak too.
_SPOKE = "spoke"

_TOKEN = re.compile(r"[^\W_]+(?:[’'\-.][^\W_]+)*|&")
_PERIOD_WORDS = frozenset("Inc Corp Co Ltd Jr Sr St Mt Dr Mr Mrs Ms Prof Gen Gov Sen Rep Capt Lt Sgt Col Maj Cpl Det Supt Insp".split())
#: What follows a name and is no name of its own ("Martin Luther King Jr.").
_NAME_SUFFIXES = frozenset("Jr. Sr. Jr Sr II III IV".split())

#: Words that end organisation names.
ORGANISATION_ENDINGS = frozenset(
    """
    Inc. Inc Corp. Corp Corporation Co. Company Ltd. Ltd Plc PLC LLC LLP AG SA GmbH Group Holdings
    Systems Communications Industries Technologies Pharmaceuticals Motors Airlines Airways
    Bank Partners Capital Management Ventures Entertainment Studios Records Media Network Networks
    University College School Academy Institute Laboratory Laboratories Lab Foundation Fund Trust
    Association Society Federation Union League Club Team Council Committee Commission Agency
    Authority Board Bureau Department Ministry Office Party Court Hospital Clinic Museum Library
    Gallery Theatre Theater Orchestra Festival Championship Championships Cup Olympics Games Series
    Marathon Awards Prize Tour Conference Summit Expo
    Church Army Navy Police Service Services Times Post Journal News Press Magazine Zoo Aquarium
    """.split()
)
#: First words of organisation names ("University of Toronto", "Bank of America").
ORGANISATION_STARTS = frozenset("University College Bank Department Ministry Institute Museum School Church".split())
#: Words that end place names.
PLACE_ENDINGS = frozenset(
    """
    County City Town Village Street Avenue Road Boulevard Square River Lake Mountain Mountains
    Island Islands Valley Beach Bay Coast Province State Republic Kingdom Desert Forest Canyon
    Peninsula Harbor Harbour Heights Hills Falls Springs Strait Sea Ocean Gulf Region District
    """.split()
)
#: Titles before a name: what follows is a person, and some say which gender.
HONORIFICS = {
    "Mr.": "male", "Mrs.": "female", "Ms.": "female", "Miss": "female", "Sir": "male",
    "Dame": "female", "Lord": "male", "Lady": "female", "King": "male", "Queen": "female",
    "Prince": "male", "Princess": "female", "Dr.": None, "Prof.": None, "Professor": None,
    "President": None, "Senator": None, "Sen.": None, "Gov.": None, "Governor": None,
    "Mayor": None, "Judge": None, "Coach": None, "Captain": None, "Pope": "male",
    "CEO": None, "CFO": None, "COO": None, "CTO": None, "Chairman": "male", "Chairwoman": "female",
    "Chief": None, "Director": None, "Rep.": None, "Gen.": None,
    "Executive": None, "Officer": None, "Vice": None, "Deputy": None, "Secretary": None, "Minister": None,
    "Commissioner": None, "Superintendent": None, "Sheriff": None, "Detective": None, "Chancellor": None,
    "Spokesman": "male", "Spokeswoman": "female", "Spokesperson": None,
    "Capt.": None, "Lt.": None, "Sgt.": None, "Col.": None, "Maj.": None, "Cpl.": None, "Det.": None,
    "Supt.": None, "Insp.": None, "Assistant": None, "Attorney": None, "General": None, "Surgeon": None,
}
#: Lowercase role words just before a name, and the gender they imply.
ROLE_WORDS = {
    "boyfriend": "male", "girlfriend": "female", "husband": "male", "wife": "female",
    "father": "male", "mother": "female", "son": "male", "daughter": "female",
    "brother": "male", "sister": "female", "uncle": "male", "aunt": "female",
    "grandfather": "male", "grandmother": "female", "actor": "male", "actress": "female",
    "businessman": "male", "businesswoman": "female", "spokesman": "male", "spokeswoman": "female",
    "friend": None, "partner": None, "coach": None, "manager": None, "founder": None,
    "co-founder": None, "teammate": None, "singer": None, "player": None, "runner": None,
    "champ": None, "champion": None, "driver": None, "skater": None, "director": None,
    "writer": None, "author": None, "artist": None, "scientist": None, "analyst": None,
    "investor": None, "chairman": "male", "ceo": None, "president": None, "minister": None,
    "senator": None, "governor": None, "mayor": None, "teacher": None, "student": None,
    "doctor": None, "researcher": None, "professor": None, "pal": None, "colleague": None,
    "heir": "male", "heiress": "female", "countryman": "male", "countrywoman": "female", "agent": None,
    "inventor": None, "journalist": None, "reporter": None, "lawyer": None, "activist": None,
    "astronaut": None, "pilot": None, "surgeon": None, "poet": None, "musician": None, "rapper": None,
    "comedian": None, "filmmaker": None, "architect": None, "economist": None, "historian": None,
    "politician": None, "photographer": None, "composer": None, "designer": None,
}
_SPEECH_VERBS = frozenset("said says told explained added wrote recalled admitted noted asked replied insisted".split())
_PLACE_PREPOSITIONS = frozenset("in near from at outside across throughout".split())
_PLACE_VERBS_BEFORE_TO = frozenset("moved returned travelled traveled flew went relocated emigrated".split())
_WORK_NOUNS = frozenset("film movie book novel album song show series play documentary musical opera memoir".split())
WEEKDAYS = frozenset("Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split())
_MONTH_WORDS = frozenset(MONTHS) | frozenset("Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec".split())
_CONNECTORS = frozenset("of & de van von der da du del".split())
#: Capitalised words that start sentences without naming anything.
_STARTERS = frozenset(
    """
    The A An In On At Of For From To By With Without As After Before When While Though Although
    But And Or So Yet If Once Since Until Because Despite During Over Under Between Among Here
    There This That These Those It Its He She His Her They Their We Our I You Your My Who What
    Which Where Why How Some Many Most All Each Every Both Either Neither Another Other Such
    Not No Now Then Also Even Just Only Still Already Last Next First Meanwhile However Instead
    According Naturally Unfortunately Fortunately Sometime Sometimes Earlier Later Today Yesterday
    Following Fellow Like Unlike Asked Read See Watch Mr Mrs Ms
    """.split()
)
_ROLE_ACRONYMS = frozenset("CEO CFO COO CTO TV DJ MP MC PR HR IT ET EDT EST PST GMT AM PM OK ID".split())
_COUNTRY_ACRONYMS = frozenset("US U.S UK U.K UAE USA U.S.A EU".split())
#: "Kenyan", "Ethiopian", "Japanese": a word before a name that is not part of it.
_DEMONYM = re.compile(r"[A-Z][a-z]+(?:an|ese|ish|i)")
_PRONOUNS = {"he": "male", "him": "male", "his": "male", "himself": "male",
             "she": "female", "her": "female", "hers": "female", "herself": "female"}
#: Words that tell the gender of whoever a sentence is about, pronouns included ("the
#: women's race", "a male elephant"). Family words are left out: "his daughter" is someone else.
GENDER_WORDS = {
    **_PRONOUNS,
    "woman": "female", "women's": "female", "womens": "female", "female": "female", "girl": "female", "girls'": "female",
    "man": "male", "men's": "male", "mens": "male", "male": "male", "boy": "male", "boys'": "male",
}
_GENDER_WORD = re.compile(r"[a-z]+(?:['’]s\b|s['’](?!\w))?")
#: Nouns for a person, which make "The 30-year-old ..." or "The entrepreneur ..." a person
#: described rather than named.
_PERSON_NOUNS = frozenset(
    """
    man woman boy girl child teen teenager youngster entrepreneur executive official officer
    resident victim suspect veteran rookie star winner loser newcomer native spokesperson
    """.split()
)


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    sentence: int


@dataclass
class Entity:
    """One named thing and every mention of it in the article."""

    name: str
    kind: str | None = None
    gender: str | None = None
    mentions: list[Mention] = field(default_factory=list)
    votes: Counter[str] = field(default_factory=Counter)
    genders: Counter[str] = field(default_factory=Counter)

    @property
    def display_name(self) -> str:
        """How the article usually calls it ("Block" for Ken Block), the longest among equals."""
        counts = Counter(mention.text for mention in self.mentions)
        return max(counts, key=lambda text: (counts[text], len(text), text))


class _Token(NamedTuple):
    """A word of a sentence (with the period of "Inc." or "U.S."), the article's offsets; a tuple,
    since an article has one for every word."""

    start: int
    end: int
    text: str
    possessive: bool


def find_entities(text: str, sentences: Sequence[Sentence]) -> list[Entity]:
    """The named entities of the article, each with a kind (or None when no cue decided it)."""
    vocabulary = {token.lower() for token in _TOKEN.findall(text) if token[:1].islower()}
    entities: dict[str, Entity] = {}
    # A first pass reads the mentions of every run of capitalised words as it stands, and so
    # the names written on their own, to split runs of two names; the runs no such name splits
    # keep the mentions read then.
    read = []
    for sentence in sentences:
        tokens, runs = _capitalised_runs(text, sentence, vocabulary)
        read.append((sentence, tokens, [(run, _run_mentions(text, sentence, tokens, run, vocabulary)) for run in runs]))
    known = {mention.text for _, _, runs in read for _, mentions in runs for mention, _, _, _ in mentions}
    for sentence, tokens, runs in read:
        for run, mentions in runs:
            pieces = _split_at_known_names(tokens, [run], known)
            if len(pieces) > 1:
                mentions = [mention for piece in pieces for mention in _run_mentions(text, sentence, tokens, piece, vocabulary)]
            for mention, votes, gender, part in mentions:
                votes.update(_cues(text, tokens, part))
                entity = entities.setdefault(mention.text, Entity(mention.text))
                entity.mentions.append(mention)
                entity.votes.update(votes)
                if gender:
                    entity.genders[gender] += 5  # a role word outweighs pronouns that may mean someone else
    _link_reordered_names(entities)
    _link_short_names(entities)
    _link_acronyms(entities)
    for entity in entities.values():
        entity.kind = _decide_kind(entity)
        _place_by_name(entity)
        if _not_a_name(entity):
            entity.kind = None
    _read_genders(text, sentences, entities)
    return sorted(entities.values(), key=lambda entity: entity.mentions[0].start)


def _tokens(text: str, sentence: Sentence) -> list[_Token]:
    tokens = []
    for match in _TOKEN.finditer(sentence.text):
        start, end = sentence.start + match.start(), sentence.start + match.end()
        word = match.group()
        possessive = word.endswith(("’s", "'s"))
        if possessive:
            word, end = word[:-2], end - 2
        elif word.endswith(("’", "'")):
            word, end = word[:-1], end - 1
        if not possessive and end < len(text) and text[end] == "." and (
            word in _PERIOD_WORDS or (len(word) == 1 and word.isupper()) or "." in word
        ):
            word, end = word + ".", end + 1
        tokens.append(_Token(start, end, word, possessive))
    return tokens


def _is_capitalised(token: _Token, at_start: bool, vocabulary: set[str]) -> bool:
    word = token.text
    if not word[:1].isupper() or word in WEEKDAYS or word.rstrip(".") in _MONTH_WORDS or word == "I" or word.startswith(("I'", "I’")):
        return False
    if word.isupper() and len(word.replace(".", "")) > 5:
        return False  # a shouted dateline ("REGION"), not a name
    if word.endswith("-based"):
        return False  # "Chicago-based Boeing": where it is based, not part of its name
    if at_start and (word in _STARTERS or word.lower() in vocabulary):
        return False
    return True


def _capitalised_runs(text: str, sentence: Sentence, vocabulary: set[str]) -> tuple[list[_Token], list[list[int]]]:
    """The tokens of a sentence's story (after its dateline), and the runs of them that may be names."""
    tokens = [token for token in _tokens(text, sentence) if token.start >= sentence.start + sentence.body]
    runs: list[list[int]] = []
    current: list[int] = []
    for index, token in enumerate(tokens):
        gap = text[tokens[index - 1].end : token.start] if index else ""
        joined = bool(current) and gap == " " and not tokens[current[-1]].possessive
        # Most words have no capital, and so no need to be looked at further (see _is_capitalised).
        capitalised = token.text[:1].isupper() and token.text not in _CONNECTORS and _is_capitalised(
            token, index == 0 or (gap != " " and bool(_OPENS_BEFORE.search(gap))), vocabulary
        )
        if capitalised:
            if joined:
                current.append(index)
            else:
                if current:
                    runs.append(current)
                current = [index]
        elif token.text in _CONNECTORS and joined and _may_continue(tokens, current, token.text):
            current.append(index)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    return tokens, _merge_possessive_organisations(tokens, runs, text)


#: What leaves the next word at the start of a clause: an opening quote or bracket, a colon, a dash.
_OPENS_BEFORE = re.compile(r"[\"“‘(:—–]\s*$")


def _run_mentions(
    text: str, sentence: Sentence, tokens: list[_Token], run: list[int], vocabulary: set[str]
) -> list[tuple[Mention, Counter[str], str | None, list[int]]]:
    """The names a run of capitalised words mentions, with the votes for their kinds its titles
    give (the cues around them are read by :func:`_cues`), the gender a role word gives them,
    and their tokens."""
    mentions = []
    for part, votes, gender in _split_run(tokens, run, text, vocabulary):
        while part and tokens[part[-1]].text in _CONNECTORS:
            part = part[:-1]
        while part and tokens[part[0]].text in (_CONNECTORS | {"The"}):
            part = part[1:]
        if not part:
            continue
        first, last = tokens[part[0]], tokens[part[-1]]
        if len(part) > 1 and all(tokens[i].text.isupper() for i in part):
            continue  # a dateline such as "NEW YORK"
        if len(part) == 1 and (first.text in _ROLE_ACRONYMS or first.text in _NAME_SUFFIXES):
            continue
        if last.text.isupper() and re.match(r" \d", text[last.end : last.end + 2]):
            continue  # a designation such as "LHS 3844 b", not a name
        if _in_parentheses(text, first.start, last.end):
            continue  # a ticker symbol or an aside
        mention = Mention(first.start, last.end, text[first.start : last.end], sentence.index)
        mentions.append((mention, votes, gender, part))
    return mentions


def _may_continue(tokens: list[_Token], run: list[int], connector: str) -> bool:
    """Whether a name goes on past ``connector``: "Bank of America" does, "Tesfaye Jifar of
    Ethiopia" is a person and a country."""
    if connector != "of":
        return True
    return len(run) == 1 or tokens[run[-1]].text in ORGANISATION_ENDINGS


def _merge_possessive_organisations(tokens: list[_Token], runs: list[list[int]], text: str) -> list[list[int]]:
    """Join "Carley's" to "Angels Foundation": a possessive belongs to an organisation's name."""
    merged: list[list[int]] = []
    for run in runs:
        previous = merged[-1] if merged else None
        if (
            previous
            and tokens[previous[-1]].possessive
            and run[0] == previous[-1] + 1
            and text[tokens[previous[-1]].end + 2 : tokens[run[0]].start] == " "
            and tokens[run[-1]].text in ORGANISATION_ENDINGS
        ):
            merged[-1] = previous + run
        else:
            merged.append(run)
    return merged


def _split_at_known_names(tokens: list[_Token], runs: list[list[int]], known: set[str]) -> list[list[int]]:
    """Split "DC Shoes Ken Block" where the article elsewhere names "DC Shoes" on its own."""
    result = []
    for run in runs:
        words = [tokens[index].text for index in run]
        cut = next(
            (
                size for size in range(len(run) - 1, 0, -1)
                if " ".join(words[:size]) in known and len(run) - size >= 2
                and (size >= 2 or _DEMONYM.fullmatch(words[0]))
                and words[-1] not in ORGANISATION_ENDINGS | PLACE_ENDINGS
            ),
            None,
        )
        if cut is None:
            result.append(run)
        else:
            result.extend([run[:cut], run[cut:]])
    return result


def _in_parentheses(text: str, start: int, end: int) -> bool:
    """Inside a short parenthesis such as "(ACIA)" or "(NYSE:AGN)": a ticker or an aside."""
    opening = text.rfind("(", max(0, start - 16), start)
    closing = text.find(")", end, end + 16)
    return opening >= 0 and closing >= 0 and ")" not in text[opening:start] and "(" not in text[end:closing]


#: A role after a name: ", her boyfriend", ", a rival skater".
_ROLE_AFTER = re.compile(r", (?:a|an|the|her|his|their) (?:[\w-]+ )?([\w-]+)")


def _split_run(
    tokens: list[_Token], run: list[int], text: str, vocabulary: set[str]
) -> list[tuple[list[int], Counter[str], str | None]]:
    """Split a run at honorifics and role titles: "Cisco CEO Chuck Robbins" is an organisation
    and a person. Words between two titles are part of the post ("Chief Financial Officer"),
    and common words before a title name no organisation ("Fire Chief Dana Brooks")."""
    parts: list[tuple[list[int], Counter[str], str | None]] = []
    current: list[int] = []
    votes: Counter[str] = Counter()
    gender: str | None = None
    # "the Sheriff’s Office": a possessive is no title before a name, nor is "King" in "Martin
    # Luther King Jr.", where only a suffix follows.
    titles = [
        index for index in run[:-1]
        if tokens[index].text in HONORIFICS and not tokens[index].possessive
        and not all(tokens[after].text in _NAME_SUFFIXES for after in run[run.index(index) + 1 :])
    ]
    for index in run:
        word = tokens[index].text
        if titles and titles[0] < index < titles[-1]:
            continue
        if index in titles and tokens[index + 1].text == "of":
            # "Director of Animal Care", "President of France": a post and its field, no person.
            if current:
                parts.append((current, votes, gender))
            current = []
            break
        if index in titles:
            if current and not all(tokens[at].text.lower() in vocabulary for at in current):
                parts.append((current, votes + Counter({ORGANISATION: 1}), gender))
            current, votes, gender = [], Counter({PERSON: 4}), HONORIFICS[word] or gender
            continue
        if word.rstrip(".") in _MONTH_WORDS:
            if current:
                parts.append((current, votes, gender))
            current, votes, gender = [], Counter(), None
            continue
        current.append(index)
    if current:
        parts.append((current, votes, gender))
    before = text[max(0, tokens[run[0]].start - 20) : tokens[run[0]].start].lower().split()
    if before and before[-1].strip(",") in ROLE_WORDS and parts and not parts[0][1]:
        role = before[-1].strip(",")
        first_part, first_votes, _ = parts[0]
        parts[0] = (first_part, first_votes + Counter({PERSON: 3}), ROLE_WORDS[role])
    # "Tom Reed, her boyfriend, ...": the role follows the name.
    appositive = _ROLE_AFTER.match(text, tokens[run[-1]].end)
    if appositive and ROLE_WORDS.get(appositive.group(1).lower()) and parts:
        last_part, last_votes, _ = parts[-1]
        parts[-1] = (last_part, last_votes, ROLE_WORDS[appositive.group(1).lower()])
    return parts


def _cues(text: str, tokens: list[_Token], part: list[int]) -> Counter[str]:
    """Votes for a mention's kind from its own words and its neighbours."""
    votes: Counter[str] = Counter()
    words = [tokens[index].text for index in part]
    first, last = tokens[part[0]], tokens[part[-1]]
    before = text[max(0, first.start - 40) : first.start]
    after = text[last.end : last.end + 40]
    before_words = re.findall(r"[\w’'-]+", before.lower())
    after_words = re.findall(r"[\w’'-]+", after.lower())
    # "Ministry of Health", "United States Department of State": an institution of a field.
    of_field = "of" in words[1:] and words[words.index("of") - 1] in ORGANISATION_STARTS | ORGANISATION_ENDINGS
    if words[-1] in ORGANISATION_ENDINGS or of_field:
        votes[ORGANISATION] += 4
    elif words[-1] in PLACE_ENDINGS:
        votes[PLACE] += 4
    if before_words and before_words[-1] == "the" and not re.search(r"[\"“]\s*$", before):
        votes[_NOT_A_PERSON] += 1  # "the St. Louis Post-Dispatch": people's names take no "the"
    if len(words) == 1 and words[0].isupper() and len(words[0]) > 1:
        votes[PLACE if words[0].rstrip(".") in _COUNTRY_ACRONYMS else ORGANISATION] += 2
    if before_words[-1:] == ["in"] and "published" in before_words[-4:]:
        votes[ORGANISATION] += 2  # a journal, "published on Thursday in Nature", is no place
    elif before_words and before_words[-1] in _PLACE_PREPOSITIONS and not last.possessive:
        votes[PLACE] += 2  # "in Boise", but not "in Musk’s plan"
    if len(before_words) > 1 and before_words[-1] == "to" and before_words[-2] in _PLACE_VERBS_BEFORE_TO:
        votes[PLACE] += 2
    if len(before_words) > 1 and before_words[-1] == "in" and before_words[-2] in ("born", "based", "lives", "lived", "raised"):
        votes[PLACE] += 2
    if re.match(r"-based\b", after):
        votes[PLACE] += 3
    # "Dearborn, Michigan": a place followed by its region; the region closes a clause. Items of a
    # list ("movies including Titanic, Tron, and The Omen") are no place and region.
    item = r"[A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*)*"
    in_list = bool(
        re.search(r"(?:including|such as|like)\s+$", before)
        or (re.search(r",\s+$", before) and re.match(rf",?\s+(?:and|or)\s+[A-Z]|,\s+{item},", after))
        or re.match(rf",\s+{item},\s+[A-Z]|,\s+{item},?\s+(?:and|or)\s+[A-Z]", after)
    )
    if not in_list and re.match(r", [A-Z][a-z]+(?: [A-Z][a-z]+)?(?:[,.;)]|\s+(?:in|on|and|at)\b|$)", after) and not re.match(r", (?:who|which|the|a|an)\b", after):
        votes[PLACE] += 1
    if not in_list and re.search(r"[A-Z][a-z]+, $", before) and re.match(r"[,.;]", after):
        votes[PLACE] += 1
    if re.match(r" of [A-Z][a-z]+\b(?! [A-Z])", after) and name_shaped(" ".join(words)):
        votes[PERSON] += 2  # "Geoffrey Mutai of Kenya"
    if re.search(r"\b[A-Z][a-z]+ [A-Z][a-z]+ of $", before) and len(words) == 1:
        votes[PLACE] += 2  # a nationality: "Geoffrey Mutai of Kenya"
    if after_words and after_words[0] in _SPEECH_VERBS and re.match(r"\s", after):
        votes[PERSON] += 2
        votes[_SPOKE] += 2
    appositive = re.match(r", (?:a|an|the|her|his|their) ((?:[\w-]+ ?){1,4})", after)
    if not appositive and name_shaped(" ".join(words)):
        appositive = re.match(r", ((?:[a-z][\w-]* ?){1,3})(?:of|at|for)\b", after)  # "Alex Lagakos, deputy director of ..."
    if appositive and any(word.lower() in ROLE_WORDS for word in appositive.group(1).split()):
        votes[PERSON] += 2  # "Ann Roe, a rival skater"
    if re.search(r"[\"“]$", before) and re.match(r"[.,!?]?[\"”]", after):
        votes[TITLE] += 5  # the whole of a quotation: a title such as "More Than This"

    if len(before_words) > 1 and before_words[-1] in _SPEECH_VERBS and re.match(r"\s*[.,]", after):
        votes[PERSON] += 2
        votes[_SPOKE] += 2
    if re.match(r", (?:who|whose)\b", after) or re.match(r", \d{1,3},", after):
        votes[PERSON] += 2
    if before_words and before_words[-1] in _WORK_NOUNS:
        votes[TITLE] += 4
    if before_words[-2:] == ["according", "to"]:
        votes[PERSON] += 1
    return votes


def name_shaped(name: str) -> bool:
    """Two or three plain capitalised words, the shape of most people's names in the news."""
    words = name.split()
    return 2 <= len(words) <= 3 and all(re.fullmatch(r"[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*", word) for word in words)


def _link_reordered_names(entities: dict[str, Entity]) -> None:
    """Fold "Firehiwot Dado" into "Dado Firehiwot": the same words in another order are one name
    (family name first or last)."""
    by_words: dict[tuple[str, ...], Entity] = {}
    for name in sorted(entities, key=lambda key: entities[key].mentions[0].start):
        entity = entities[name]
        words = tuple(sorted(name.split()))
        first = by_words.setdefault(words, entity) if len(words) > 1 else entity
        if first is not entity:
            first.mentions.extend(entity.mentions)
            first.mentions.sort(key=lambda mention: mention.start)
            first.votes.update(entity.votes)
            first.genders.update(entity.genders)
            del entities[name]


def _link_acronyms(entities: dict[str, Entity]) -> None:
    """Fold "TESS" into "Transiting Exoplanet Survey Satellite" and "MDOT" into "Michigan Department
    of Transportation": initials stand for the one name they spell. The name's own words decide
    its kind; the initials' shape does not."""
    # Only one-word names are folded, so the longer names, and what they spell, stay as they are.
    spelling: dict[str, list[Entity]] = {}
    for other in entities.values():
        if len(other.name.split()) > 1:
            for initials in sorted(_spelled_initials(other.name)):
                spelling.setdefault(initials, []).append(other)
    for name in sorted(entities):
        if not re.fullmatch(r"[A-Z]{2,6}", name) or name not in entities:
            continue
        spelled = spelling.get(name, [])
        if len(spelled) == 1:
            target = spelled[0]
            target.mentions.extend(entities[name].mentions)
            target.mentions.sort(key=lambda mention: mention.start)
            del entities[name]


def _spelled_initials(name: str) -> set[str]:
    """The initials a name may go by, with and without its minor words ("of", "and")."""
    words = name.split()
    return {
        "".join(word[0].upper() for word in words if word[:1].isalpha()),
        "".join(word[0] for word in words if word[:1].isupper()),
    }


def _link_short_names(entities: dict[str, Entity]) -> None:
    """Fold a one-word mention into the one longer name it abbreviates ("Block" -> "Ken Block").

    A family name that several people share ("Whitfield" for Eleanor and her son Michael
    Whitfield) is short for the first of them named, as news style has it: a relative named
    later keeps a full name.
    """
    # Only one-word names are folded, so the longer names stay, in order, under their first and last words.
    by_end_word: dict[str, list[Entity]] = {}
    for other in entities.values():
        words = other.name.split()
        if len(words) > 1:
            for word in dict.fromkeys((words[0], words[-1])):
                by_end_word.setdefault(word, []).append(other)
    for name in sorted(entities, key=lambda key: (len(key.split()), key)):
        entity = entities.get(name)
        if entity is None or len(name.split()) != 1:
            continue
        longer = list(by_end_word.get(name, ()))
        if len(longer) > 1 and all(_person_like(other) and other.name.split()[-1] == name for other in longer):
            first = min(longer, key=lambda other: other.mentions[0].start)
            if first.mentions[0].start < entity.mentions[0].start:
                longer = [first]
        # "Boston" (a place) is not short for "Boston Marathon"; other kinds yield to the longer name.
        if len(longer) == 1 and not (_decide_kind(entity) == PLACE and _decide_kind(longer[0]) != PLACE):
            target = longer[0]
            target.mentions.extend(entity.mentions)
            target.mentions.sort(key=lambda mention: mention.start)
            target.votes.update(entity.votes)
            target.genders.update(entity.genders)
            del entities[name]


def _person_like(entity: Entity) -> bool:
    kind = _decide_kind(entity)
    return kind == PERSON or (kind is None and name_shaped(entity.name))


def _decide_kind(entity: Entity) -> str | None:
    votes = {kind: entity.votes[kind] for kind in KINDS if entity.votes[kind]}
    if _not_a_person(entity):
        votes.pop(PERSON, None)
    if entity.votes[_SPOKE] >= 2:
        votes.pop(TITLE, None)  # "Day said ...": a name that speaks is no film, however many shows bear it
    if not votes:
        return None
    ranked = sorted(votes.items(), key=lambda item: (-item[1], item[0]))
    kind, score = ranked[0]
    if len(ranked) > 1 and ranked[1][1] == score:
        return None  # a tie is no decision
    if kind == PERSON and score < 2:
        return None  # the shape of a name alone; pronouns may still show it is a person
    return kind


#: How many times the cues for a person must outnumber a "the" before the name ("the St. Louis
#: Post-Dispatch") to outweigh it: "the Vanderbilt family" is still about a person named often.
_PERSON_OVER_THE = 3


def _not_a_person(entity: Entity) -> bool:
    against = entity.votes[_NOT_A_PERSON]
    return bool(against) and entity.votes[PERSON] <= _PERSON_OVER_THE * against


_POSSESSIVES = frozenset("his her their its our my your".split())


def _not_a_name(entity: Entity) -> bool:
    """Capitalised words that name no one: a title alone ("Attorney General"), a count or a
    possessive opening a run ("Four Navy ships", "His Band of Renown"), a role in the plural
    ("Senators"), the last word of a place's name alone ("State"), or an institution taken for
    a person ("University College London")."""
    words = entity.name.split()
    if all(word in HONORIFICS for word in words) or words[0].lower() in WORD_NUMBERS or words[0].lower() in _POSSESSIVES:
        return True
    if len(words) == 1 and (entity.name.lower().removesuffix("s") in ROLE_WORDS or entity.name in PLACE_ENDINGS):
        return True  # "Senators"; "State media reported": the word that ends a place's name, alone
    return entity.kind == PERSON and (words[0] in ORGANISATION_STARTS or words[-1] in ORGANISATION_ENDINGS)


def _place_by_name(entity: Entity) -> None:
    """A country or US state by its name is a place, unless the article's cues say
    it is a person or an organisation ("Jordan said", "Georgia Power")."""
    if entity.kind not in (None, PLACE):
        return
    known = known_place(entity.name)
    if known is not None:
        entity.kind = PLACE
    elif entity.kind == PLACE and name_shaped(entity.name) and entity.name.split()[-1] not in PLACE_ENDINGS:
        # "in Pakistan, Mohammed Waseem, ...": two or three capitalised words that are no place
        # the gazetteer knows, and no "County" or "River", are a person's name as often as a
        # place's: undecided, rather than a person offered among places.
        entity.kind = None


def describes_someone(sentence_text: str) -> bool:
    """Whether a sentence opens with a person described but not named: "The 30-year-old has
    established himself ...", "The 55-year-old entrepreneur with North County ties ...".

    Such a sentence means a person the reader must already know, and a pronoun after it may
    mean that person rather than the last one named.
    """
    words = re.findall(r"[\w’'-]+", sentence_text[:120])
    if len(words) < 2 or words[0] not in ("The", "A", "An", "This", "That"):
        return False
    for at, word in enumerate(words[1:5], 1):
        if word[:1].isupper():
            return False  # "The 2011 Boston Marathon winner": a name says who
        if re.fullmatch(r"\d{1,3}-year-old", word) or word in _PERSON_NOUNS or word in ROLE_WORDS:
            # "The 27-year-old Dado won": the name follows the description.
            return at + 1 >= len(words) or not words[at + 1][:1].isupper()
    return False


def _read_genders(text: str, sentences: Sequence[Sentence], entities: dict[str, Entity]) -> None:
    """A person's gender from role words and from the pronouns in the sentences where they are the
    only person named (and the sentence after, if it names nobody)."""
    people = [
        entity for entity in entities.values()
        if entity.kind == PERSON
        or (entity.kind is None and not _not_a_person(entity) and (entity.votes[PERSON] or name_shaped(entity.name)))
    ]
    named_in: dict[int, set[str]] = {}
    for entity in people:
        for mention in entity.mentions:
            named_in.setdefault(mention.sentence, set()).add(entity.name)
    by_name = {entity.name: entity for entity in people}
    for index, names in named_in.items():
        if len(names) != 1:
            continue
        entity = by_name[next(iter(names))]
        window = [sentences[index].text]
        following = sentences[index + 1].text if index + 1 < len(sentences) else ""
        if following and index + 1 not in named_in and not describes_someone(following):
            window.append(following)
        for part in window:
            for word in _GENDER_WORD.findall(_object_pronouns_dropped(_outside_quotes(part).lower())):
                if word.replace("’", "'") in GENDER_WORDS:
                    entity.genders[GENDER_WORDS[word.replace("’", "'")]] += 1
    for entity in people:
        if entity.kind is None and sum(entity.genders.values()) >= 2:
            entity.kind = PERSON
        ranked = entity.genders.most_common()
        if ranked and (len(ranked) == 1 or ranked[0][1] >= 2 * ranked[1][1]):
            entity.gender = ranked[0][0]
        spoke_only = entity.votes[PERSON] <= entity.votes[_SPOKE]
        if entity.kind == PERSON and len(entity.name.split()) == 1 and spoke_only and not entity.genders:
            # "Airbus said": companies speak too. One word that only ever speaks, and that
            # nothing shows to be a man or a woman, is left undecided.
            entity.kind = None


_OBJECT_PRONOUN = re.compile(
    r"\b(?:him|her)\b(?=[\s,.;:!?)”\"—–-]*(?:$|[^a-z\s]|(?:to|and|or|in|on|at|with|for|from|by|of|that|as|than|but|"
    r"after|before|when|while|so|the|a|an|into|over|about|up|down|out|off|back|again|too)\b))"
)


def _object_pronouns_dropped(sentence: str) -> str:
    """The sentence without "him", and "her" where it is not followed by a noun: an object
    ("toured with her in the 1980s", "passed her") is most often someone else than the person
    the sentence names."""
    return _OBJECT_PRONOUN.sub(" ", sentence)


def _outside_quotes(sentence: str) -> str:
    """The narration of a sentence: speech inside quotation marks talks about other people."""
    return re.sub(r"[\"“][^\"”]*[\"”]", " ", sentence)


def main_subjects(entities: Sequence[Entity]) -> set[str]:
    """The names of what the article is about: the most-mentioned entity of each kind when it is
    named at least three times, the most-mentioned person named twice or more, and any entity
    named at least half as often as the most-mentioned one. Asking for them gives nothing to
    think about."""
    subjects: set[str] = set()
    if not entities:
        return subjects
    top = max(len(entity.mentions) for entity in entities)
    for entity in entities:
        if len(entity.mentions) >= 3 and len(entity.mentions) * 2 >= top:
            subjects.add(entity.name)
    for kind in (PERSON, ORGANISATION, PLACE, TITLE):
        of_kind = [entity for entity in entities if entity.kind == kind]
        if not of_kind:
            continue
        most = max(len(entity.mentions) for entity in of_kind)
        if most >= (2 if kind == PERSON else 3):
            subjects.update(entity.name for entity in of_kind if len(entity.mentions) == most)
    return subjects
