"""Sentence splitting with character offsets into the article.

A period ends a sentence unless it belongs to an abbreviation ("Dr.", "Nov.", "U.S."), an
initial ("John F. Kennedy") or a number ("4.5"); closing quotes and brackets after the
final mark belong to the sentence. A line break always ends a sentence, so headings and
list items stand alone.

Two more things about a sentence's text are read here, because every later stage needs them:
the dateline a news story opens with ("ST. LOUIS, April 28 (UPI) -- "), which is not part of
what the story says, and the spans of the article inside quotation marks, since a quotation
may run over several sentences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Lowercased abbreviations whose period does not end a sentence when a capital follows.
ABBREVIATIONS = frozenset(
    """
    mr mrs ms dr prof sr jr st mt ft gen gov sen rep rev hon sgt capt col lt cmdr adm pres
    inc corp co ltd plc llc bros dept univ assn est no nos vol vols fig approx vs etc al
    jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun
    ala ariz ark calif colo conn del fla ga ill ind kan kans ky la md mass mich minn miss mo
    mont neb nev okla ore pa tenn tex va vt wash wis wyo
    """.split()
)

_CANDIDATE = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s)")
_NOT_SPACE = re.compile(r"\S")
_LETTERS = re.compile(r"[A-Za-z]+")
#: What a sentence opens with: maybe quotes or brackets, then a capital of any alphabet
#: ("Łukasz", "Émile") or a figure.
_OPENING = re.compile(r"[\"'“‘(\[]*([^\W_])")

#: Where and when a news story was filed, before it starts: a place in capitals ("NEW YORK",
#: "ST. LOUIS", "REGION"), then maybe its state, a date and the agency in brackets, then a dash:
#: "MIDLAND COUNTY, Mich. (WJRT) - ", "LONDON (Reuters) — ", "ST. LOUIS, April 28 (UPI) -- ";
#: or the date or the agency alone: "Jan. 15--", "(CBS Local) -- ".
_DATELINE_DATE = r"(?:[A-Z][a-z]+\.? \d{1,2}|[A-Z][a-z]+day)(?:,? \d{4})?"
_DATELINE = re.compile(
    r"^(?:"
    r"[A-Z][A-Z.'’]+(?:[ -][A-Z][A-Z.'’]*)*"
    r"(?:,\s*[A-Z][A-Za-z.]*(?: [A-Z][A-Za-z.]*)?)?"
    rf"(?:,\s*{_DATELINE_DATE})?"
    r"(?:\s*\([^()]{1,40}\))?"
    r"\s*(?:--|[-—–])\s+"
    rf"|{_DATELINE_DATE}(?:\s*\([^()]{{1,40}}\))?\s*--\s*(?=[A-Z])"
    r"|\([^()]{1,40}\)\s*(?:--|[-—–])\s+"
    r")"
)


@dataclass(frozen=True)
class Sentence:
    index: int
    start: int
    end: int
    text: str
    #: The index of its paragraph (lines separated by a blank line).
    paragraph: int
    #: Where the story starts in ``text``: after the dateline of a line's first sentence, else 0.
    body: int = 0


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of ``text`` in order; ``text[s.start:s.end] == s.text`` for each."""
    sentences: list[Sentence] = []
    paragraph = 0
    position = 0
    common = frozenset(re.findall(r"\b[a-z]+\b", text))
    for line in text.split("\n"):
        line_start = position
        position += len(line) + 1
        if not line.strip():
            if sentences and sentences[-1].paragraph == paragraph:
                paragraph += 1
            continue
        for start, end in _line_spans(line, common):
            body = dateline_end(line[start:end]) if not line[:start].strip() else 0
            sentences.append(
                Sentence(len(sentences), line_start + start, line_start + end, line[start:end], paragraph, body)
            )
    return sentences


def _line_spans(line: str, common: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    spans = []
    start = len(line) - len(line.lstrip())
    for match in _CANDIDATE.finditer(line):
        # Where the next word starts; the line is read there rather than copied from there on, so
        # that a long line (a whole article on one) costs no more than its sentences.
        word = _NOT_SPACE.search(line, match.end())
        following = word.start() if word else len(line)
        opening = _OPENING.match(line, following)
        if not opening or opening.group(1).islower() or not _ends_sentence(line, match.start(), match.group(), following, common):
            continue
        spans.append((start, match.end()))
        start = following
    if line[start:].strip():
        spans.append((start, len(line.rstrip())))
    return spans


def _ends_sentence(line: str, at: int, mark: str, following: int, common: frozenset[str] = frozenset()) -> bool:
    """Whether the punctuation at ``at`` closes a sentence rather than an abbreviation; the next
    word starts at ``following``.

    After "a.m." or "p.m." a capitalised word the text also writes in lowercase starts a new
    sentence ("at 6:53 p.m. Some 50 firefighters"); a name or a weekday does not ("5 p.m. Tuesday").
    """
    if not mark.startswith(".") or mark.startswith(".."):
        return True
    token = _word_before(line, at)
    if token is None:
        return True
    if len(token) == 1 and token.isupper():
        return False  # an initial
    if token.lower() in ("a.m", "p.m"):
        next_word = _LETTERS.match(line, following)
        return bool(next_word) and next_word.group().lower() in common
    if "." in token:
        return False  # U.S., a.m., e.g.
    return token.lower() not in ABBREVIATIONS


_WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.")


def _word_before(line: str, at: int) -> str | None:
    """The word (letters and periods, from a letter) that ends at ``at`` in a line (which holds
    no newline), as ``re.search(r"[A-Za-z][A-Za-z.]*$", line[:at])`` finds it, but read
    backwards from ``at`` rather than searched for from the start of the line."""
    start = at
    while start > 0 and line[start - 1] in _WORD_CHARACTERS:
        start -= 1
    while start < at and line[start] == ".":
        start += 1
    return line[start:at] if start < at else None


def dateline_end(sentence_text: str) -> int:
    """How many characters of ``sentence_text`` are its dateline (0 when it has none)."""
    match = _DATELINE.match(sentence_text)
    return match.end() if match else 0


def quotation_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` inside quotation marks, marks included.

    Curly quotes open and close; a straight double quote closes an open quotation, else opens
    one. A quotation still open at the end of its paragraph ends there (news style reopens a
    quotation that goes on in the next paragraph), and a closing curly quote with none open
    closes one that began with the paragraph. Single quotes are left alone: they are also
    apostrophes.
    """
    spans: list[tuple[int, int]] = []
    position = 0
    for paragraph in re.split(r"(\n\s*\n)", text):
        opened: int | None = None
        for match in re.finditer(r"[\"“”]", paragraph):
            at = position + match.start()
            if opened is None:
                if match.group() == "”":
                    spans.append((position + len(paragraph) - len(paragraph.lstrip()), at + 1))
                else:
                    opened = at
            elif match.group() != "“":
                spans.append((opened, at + 1))
                opened = None
        if opened is not None:
            spans.append((opened, position + len(paragraph.rstrip())))
        position += len(paragraph)
    return spans
