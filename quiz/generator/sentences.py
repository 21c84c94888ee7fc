"""Sentence splitting with character offsets into the article.

A period ends a sentence unless it belongs to an abbreviation ("Dr.", "Nov.", "U.S."), an
initial ("John F. Kennedy") or a number ("4.5"); closing quotes and brackets after the
final mark belong to the sentence. A line break always ends a sentence, so headings and
list items stand alone.
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
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_OPENING = re.compile(r"[\"'“‘(\[]*[A-Z0-9]")


@dataclass(frozen=True)
class Sentence:
    index: int
    start: int
    end: int
    text: str
    #: The index of its paragraph (lines separated by a blank line).
    paragraph: int


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of ``text`` in order; ``text[s.start:s.end] == s.text`` for each."""
    sentences: list[Sentence] = []
    paragraph = 0
    position = 0
    for line in text.split("\n"):
        line_start = position
        position += len(line) + 1
        if not line.strip():
            if sentences and sentences[-1].paragraph == paragraph:
                paragraph += 1
            continue
        for start, end in _line_spans(line):
            sentences.append(
                Sentence(len(sentences), line_start + start, line_start + end, line[start:end], paragraph)
            )
    return sentences


def _line_spans(line: str) -> list[tuple[int, int]]:
    spans = []
    start = len(line) - len(line.lstrip())
    for match in _CANDIDATE.finditer(line):
        following = line[match.end() :].lstrip()
        if not _OPENING.match(following) or not _ends_sentence(line, match.start(), match.group()):
            continue
        spans.append((start, match.end()))
        start = match.end() + (len(line) - match.end() - len(following))
    if line[start:].strip():
        spans.append((start, len(line.rstrip())))
    return spans


def _ends_sentence(line: str, at: int, mark: str) -> bool:
    """Whether the punctuation at ``at`` closes a sentence rather than an abbreviation."""
    if not mark.startswith(".") or mark.startswith(".."):
        return True
    word = _WORD_BEFORE.search(line[:at])
    if word is None:
        return True
    token = word.group(1)
    if len(token) == 1 and token.isupper():
        return False  # an initial
    if "." in token:
        return False  # U.S., a.m., e.g.
    return token.lower() not in ABBREVIATIONS
