"""Showing passages of an article: the paragraph around a quote, and the reader with anchors.

Quotes are taken from an article's *quotable text*: its headline, then its body
(:class:`Quotable`). Their spans count from the body's start, so a quote from the headline has
negative ones, and the headline is paragraph 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from quiz.giveaways import hidden_spans

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class Segment:
    text: str
    highlighted: bool = False
    #: Ids of the anchors that start where this segment starts.
    anchors: tuple[str, ...] = ()
    #: Left out: it tells the answer of a question still to be asked (``text`` is what it was).
    hidden: bool = False


@dataclass(frozen=True)
class Quotable:
    """An article as quotes are found in it: the headline, a blank line, the body.

    ``offset`` is where the body starts: spans are stored relative to it, so that quotes of the
    body keep their places whether or not the headline is counted.
    """

    text: str
    offset: int

    @classmethod
    def of(cls, title: str, body: str) -> Quotable:
        head = f"{title}\n\n" if title else ""
        return cls(head + body, len(head))

    @property
    def headline(self) -> str:
        return self.text[: self.offset].strip()


@dataclass(frozen=True)
class Paragraph:
    number: int
    segments: list[Segment] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"p{self.number}"


@dataclass(frozen=True)
class Mark:
    """A span of the article to anchor, and to highlight if asked."""

    anchor: str
    start: int
    end: int


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each non-blank paragraph; paragraphs are separated by blank lines."""
    spans, start = [], 0
    for match in [*_PARAGRAPH_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        chunk = text[start:end]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            spans.append((start + lead, start + len(chunk.rstrip())))
        start = match.end() if match else len(text)
    return spans


def _numbered(quotable: Quotable) -> list[tuple[int, tuple[int, int]]]:
    """The paragraphs of the quotable text, numbered: the headline 0, the body's from 1."""
    first = 0 if quotable.offset else 1
    return list(enumerate(paragraph_spans(quotable.text), start=first))


def render(quotable: Quotable, marks: list[Mark], highlight: str | None = None) -> list[Paragraph]:
    """Split the article into paragraphs of segments (the headline first, numbered 0),
    anchoring every mark (spans from the body's start) and highlighting one."""
    text = quotable.text
    marks = [Mark(mark.anchor, mark.start + quotable.offset, mark.end + quotable.offset) for mark in marks]
    highlighted = next((mark for mark in marks if mark.anchor == highlight), None)
    paragraphs = []
    for number, (start, end) in _numbered(quotable):
        cuts = {start, end}
        anchors: dict[int, list[str]] = {}
        for mark in marks:
            if start <= mark.start < end:
                cuts.add(mark.start)
                anchors.setdefault(mark.start, []).append(mark.anchor)
        if highlighted:
            cuts.update(min(max(point, start), end) for point in (highlighted.start, highlighted.end))
        points = sorted(cuts)
        segments = [
            Segment(
                text[left:right],
                highlighted=bool(highlighted and highlighted.start <= left and right <= highlighted.end),
                anchors=tuple(anchors.get(left, ())),
            )
            for left, right in zip(points, points[1:])
            if right > left
        ]
        paragraphs.append(Paragraph(number, segments))
    return paragraphs


@dataclass(frozen=True)
class Hide:
    """What feedback must not show beside a quote: the answers of the questions still to be asked.

    ``spans`` are those questions' own quotes (from the body's start), which prove their
    answers; ``cores`` their answer phrases (see :mod:`quiz.giveaways`), which the article may
    also say elsewhere.
    """

    spans: tuple[tuple[int, int], ...] = ()
    cores: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.spans or self.cores)

    def tells_in(self, quotable: Quotable) -> bool:
        """Whether the headline tells one of these answers: a quote is taken from it, or it
        names one. Pages then cite "the article" rather than its headline."""
        return any(start < 0 for start, _end in self.spans) or bool(hidden_spans(quotable.headline, list(self.cores)))


def passage(quotable: Quotable, start: int, end: int, excerpt: str, hide: Hide = Hide()) -> Paragraph | None:
    """The paragraph holding the quote at ``start:end`` (from the body's start), with the quote
    highlighted, and what around it would tell an answer in ``hide`` left out: the parts of the
    paragraph that other questions quote, and the sentences that name their answers.

    None when the article has changed since the quote was taken (the stored excerpt no longer
    sits at that span); callers then show the excerpt alone.
    """
    return passage_of(quotable, [(start, end, excerpt)], hide)


def passage_of(quotable: Quotable, quotes: list[tuple[int, int, str]], hide: Hide = Hide()) -> Paragraph | None:
    """As :func:`passage`, for several quotes (start, end, excerpt) of one paragraph, each
    highlighted in it; None also when they are not all in one paragraph."""
    text = quotable.text
    shifted = []
    for start, end, excerpt in quotes:
        start, end = start + quotable.offset, end + quotable.offset
        if start < 0 or text[start:end] != excerpt:
            return None
        shifted.append((start, end))
    shifted.sort()
    first = shifted[0][0]
    for number, (left, right) in _numbered(quotable):
        if left <= first < right:
            if any(not left <= start < right for start, _ in shifted):
                return None
            spans = [(one + quotable.offset, other + quotable.offset) for one, other in hide.spans]
            segments, at = [], left
            for start, end in shifted:
                start, stop = max(start, at), min(end, right)  # overlapping quotes are one highlight
                segments += _around(text, at, start, spans, hide.cores)
                if stop > start:
                    segments.append(Segment(text[start:stop], highlighted=True))
                at = max(at, stop)
            segments += _around(text, at, right, spans, hide.cores)
            return Paragraph(number, [segment for segment in segments if segment.text])
    return None


def _around(
    text: str, left: int, right: int, spans: list[tuple[int, int]], cores: tuple[str, ...]
) -> list[Segment]:
    """``text[left:right]``, beside a quote, as segments: what overlaps ``spans`` or names one
    of ``cores`` hidden."""
    part = text[left:right]
    hidden = [(max(first, left) - left, min(last, right) - left) for first, last in spans if first < right and last > left]
    hidden += hidden_spans(part, list(cores))
    segments, at = [], 0
    for first, last in sorted(hidden):
        if last <= at:
            continue
        first = max(first, at)
        segments += [Segment(part[at:first]), Segment(part[first:last], hidden=True)]
        at = last
    return [*segments, Segment(part[at:])]


def quote_anchor(question_slug: str, position: int) -> str:
    """The reader's anchor for a question's quote: stable while the question keeps its id."""
    return f"src-{question_slug}-{position + 1}"
