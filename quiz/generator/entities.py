"""People, organisations, places and titled works found by their capitals and their context.

There is no list of names or places: a capitalised sequence is classified by what it ends
with ("Inc.", "University", "County"), the words around it ("boyfriend John", "born in X",
"X said", "Dearborn, Michigan") and how the article refers to it elsewhere. Mentions of one
entity are linked ("Ken Block" ... "Block"), and each person's gender is read from the role
words and pronouns around their mentions, so that distractors and pronouns can respect it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from quiz.generator.numbers import MONTHS
from quiz.generator.sentences import Sentence

PERSON, ORGANISATION, PLACE, TITLE = "person", "organisation", "place", "title"

_TOKEN = re.compile(r"[^\W_]+(?:[’'\-.][^\W_]+)*|&")
_PERIOD_WORDS = frozenset("Inc Corp Co Ltd Jr Sr St Mt Dr Mr Mrs Ms Prof Gen Gov Sen Rep".split())

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
    Church Army Navy Police Service Services Times Post Journal News Press Magazine
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
}
_SPEECH_VERBS = frozenset("said says told explained added wrote recalled admitted noted asked replied insisted".split())
_PLACE_PREPOSITIONS = frozenset("in near from at outside across throughout".split())
_PLACE_VERBS_BEFORE_TO = frozenset("moved returned travelled traveled flew went relocated emigrated".split())
_WORK_NOUNS = frozenset("film movie book novel album song show series play documentary musical opera memoir".split())
_WEEKDAYS = frozenset("Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split())
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
#: "NEW YORK - ...", "REGION — ...": where the story was filed, before it starts.
_DATELINE = re.compile(r"^[A-Z][A-Z.,' ]*[A-Z.]\s+[-—–]\s+")
_PRONOUNS = {"he": "male", "him": "male", "his": "male", "himself": "male",
             "she": "female", "her": "female", "hers": "female", "herself": "female"}


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


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    text: str
    possessive: bool


def find_entities(text: str, sentences: Sequence[Sentence]) -> list[Entity]:
    """The named entities of the article, each with a kind (or None when no cue decided it)."""
    vocabulary = {token.lower() for token in _TOKEN.findall(text) if token[:1].islower()}
    entities: dict[str, Entity] = {}
    # A first pass collects the names written on their own, to split runs of two names.
    known = {
        mention.text
        for sentence in sentences
        for mention, _, _ in _sentence_mentions(text, sentence, vocabulary, set())
    }
    for sentence in sentences:
        for mention, votes, gender in _sentence_mentions(text, sentence, vocabulary, known):
            entity = entities.setdefault(mention.text, Entity(mention.text))
            entity.mentions.append(mention)
            entity.votes.update(votes)
            if gender:
                entity.genders[gender] += 5  # a role word outweighs pronouns that may mean someone else
    _link_short_names(entities)
    for entity in entities.values():
        entity.kind = _decide_kind(entity)
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
    if not word[:1].isupper() or word in _WEEKDAYS or word.rstrip(".") in _MONTH_WORDS or word == "I" or word.startswith(("I'", "I’")):
        return False
    if word.isupper() and len(word.replace(".", "")) > 5:
        return False  # a shouted dateline ("REGION"), not a name
    if at_start and (word in _STARTERS or word.lower() in vocabulary):
        return False
    return True


def _sentence_mentions(
    text: str, sentence: Sentence, vocabulary: set[str], known: set[str]
) -> list[tuple[Mention, Counter[str], str | None]]:
    dateline = _DATELINE.match(sentence.text)
    tokens = [token for token in _tokens(text, sentence) if not dateline or token.start >= sentence.start + dateline.end()]
    runs: list[list[int]] = []
    current: list[int] = []
    for index, token in enumerate(tokens):
        gap = text[tokens[index - 1].end : token.start] if index else ""
        at_start = index == 0 or bool(re.search(r"[\"“‘(:—–]\s*$", gap))
        joined = bool(current) and gap == " " and not tokens[current[-1]].possessive
        if _is_capitalised(token, at_start, vocabulary) and token.text not in _CONNECTORS:
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
    mentions = []
    for run in _split_at_known_names(tokens, _merge_possessive_organisations(tokens, runs, text), known):
        for part, votes, gender in _split_run(tokens, run, text):
            while part and tokens[part[-1]].text in _CONNECTORS:
                part = part[:-1]
            while part and tokens[part[0]].text in (_CONNECTORS | {"The"}):
                part = part[1:]
            if not part:
                continue
            first, last = tokens[part[0]], tokens[part[-1]]
            if len(part) > 1 and all(tokens[i].text.isupper() for i in part):
                continue  # a dateline such as "NEW YORK"
            if len(part) == 1 and first.text in _ROLE_ACRONYMS:
                continue
            if _in_parentheses(text, first.start, last.end):
                continue  # a ticker symbol or an aside
            mention = Mention(first.start, last.end, text[first.start : last.end], sentence.index)
            votes.update(_cues(text, tokens, part))
            mentions.append((mention, votes, gender))
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


def _split_run(tokens: list[_Token], run: list[int], text: str) -> list[tuple[list[int], Counter[str], str | None]]:
    """Split a run at honorifics and role titles: "Cisco CEO Chuck Robbins" is an organisation
    and a person."""
    parts: list[tuple[list[int], Counter[str], str | None]] = []
    current: list[int] = []
    votes: Counter[str] = Counter()
    gender: str | None = None
    for index in run:
        word = tokens[index].text
        if word in HONORIFICS and index != run[-1]:
            if current:
                parts.append((current, votes + Counter({ORGANISATION: 1}), gender))
            current, votes, gender = [], Counter({PERSON: 4}), HONORIFICS[word]
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
    appositive = re.match(r", (?:a|an|the|her|his|their) (?:[\w-]+ )?([\w-]+)", text[tokens[run[-1]].end :])
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
    if words[-1] in ORGANISATION_ENDINGS or (len(words) > 2 and words[0] in ORGANISATION_STARTS and "of" in words):
        votes[ORGANISATION] += 4
    if words[-1] in PLACE_ENDINGS:
        votes[PLACE] += 4
    if len(words) == 1 and words[0].isupper() and len(words[0]) > 1:
        votes[PLACE if words[0].rstrip(".") in _COUNTRY_ACRONYMS else ORGANISATION] += 2
    if before_words and before_words[-1] in _PLACE_PREPOSITIONS:
        votes[PLACE] += 2
    if len(before_words) > 1 and before_words[-1] == "to" and before_words[-2] in _PLACE_VERBS_BEFORE_TO:
        votes[PLACE] += 2
    if len(before_words) > 1 and before_words[-1] == "in" and before_words[-2] in ("born", "based", "lives", "lived", "raised"):
        votes[PLACE] += 2
    if re.match(r"-based\b", after):
        votes[PLACE] += 3
    # "Dearborn, Michigan": a place followed by its region; the region closes a clause.
    if re.match(r", [A-Z][a-z]+(?: [A-Z][a-z]+)?(?:[,.;)]|\s+(?:in|on|and|at)\b|$)", after) and not re.match(r", (?:who|which|the|a|an)\b", after):
        votes[PLACE] += 1
    if re.search(r"[A-Z][a-z]+, $", before) and re.match(r"[,.;]", after):
        votes[PLACE] += 1
    if re.match(r" of [A-Z][a-z]+\b(?! [A-Z])", after) and _name_shaped(" ".join(words)):
        votes[PERSON] += 2  # "Geoffrey Mutai of Kenya"
    if re.search(r"\b[A-Z][a-z]+ [A-Z][a-z]+ of $", before) and len(words) == 1:
        votes[PLACE] += 2
    if after_words and after_words[0] in _SPEECH_VERBS and re.match(r"\s", after):
        votes[PERSON] += 2
    appositive = re.match(r", (?:a|an|the|her|his|their) ((?:[\w-]+ ?){1,4})", after)
    if appositive and any(word.lower() in ROLE_WORDS for word in appositive.group(1).split()):
        votes[PERSON] += 2  # "Ann Roe, a rival skater"
    if re.search(r"[\"“]$", before) and re.match(r"[.,!?]?[\"”]", after):
        votes[TITLE] += 5  # the whole of a quotation: a title such as "More Than This"

    if len(before_words) > 1 and before_words[-1] in _SPEECH_VERBS and re.match(r"\s*[.,]", after):
        votes[PERSON] += 2
    if re.match(r", (?:who|whose)\b", after) or re.match(r", \d{1,3},", after):
        votes[PERSON] += 2
    if before_words and before_words[-1] in _WORK_NOUNS:
        votes[TITLE] += 4
    if before_words[-2:] == ["according", "to"]:
        votes[PERSON] += 1
    return votes


def _name_shaped(name: str) -> bool:
    """Two or three plain capitalised words, the shape of most people's names in the news."""
    words = name.split()
    return 2 <= len(words) <= 3 and all(re.fullmatch(r"[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*", word) for word in words)


def _link_short_names(entities: dict[str, Entity]) -> None:
    """Fold a one-word mention into the one longer name it abbreviates ("Block" -> "Ken Block")."""
    for name in sorted(entities, key=lambda key: (len(key.split()), key)):
        entity = entities.get(name)
        if entity is None or len(name.split()) != 1:
            continue
        longer = [
            other for other in entities.values()
            if len(other.name.split()) > 1 and name in (other.name.split()[0], other.name.split()[-1])
        ]
        # "Boston" (a place) is not short for "Boston Marathon"; other kinds yield to the longer name.
        if len(longer) == 1 and not (_decide_kind(entity) == PLACE and _decide_kind(longer[0]) != PLACE):
            target = longer[0]
            target.mentions.extend(entity.mentions)
            target.mentions.sort(key=lambda mention: mention.start)
            target.votes.update(entity.votes)
            target.genders.update(entity.genders)
            del entities[name]


def _decide_kind(entity: Entity) -> str | None:
    if not entity.votes:
        return None
    ranked = sorted(entity.votes.items(), key=lambda item: (-item[1], item[0]))
    kind, score = ranked[0]
    if len(ranked) > 1 and ranked[1][1] == score:
        return None  # a tie is no decision
    if kind == PERSON and score < 2:
        return None  # the shape of a name alone; pronouns may still show it is a person
    return kind


def _read_genders(text: str, sentences: Sequence[Sentence], entities: dict[str, Entity]) -> None:
    """A person's gender from role words and from the pronouns in the sentences where they are the
    only person named (and the sentence after, if it names nobody)."""
    people = [
        entity for entity in entities.values()
        if entity.kind == PERSON or (entity.kind is None and (entity.votes[PERSON] or _name_shaped(entity.name)))
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
        if index + 1 < len(sentences) and index + 1 not in named_in:
            window.append(sentences[index + 1].text)
        for part in window:
            for word in re.findall(r"[a-z]+", _outside_quotes(part).lower()):
                if word in _PRONOUNS:
                    entity.genders[_PRONOUNS[word]] += 1
    for entity in people:
        if entity.kind is None and sum(entity.genders.values()) >= 2:
            entity.kind = PERSON
        ranked = entity.genders.most_common()
        if ranked and (len(ranked) == 1 or ranked[0][1] >= 2 * ranked[1][1]):
            entity.gender = ranked[0][0]


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
