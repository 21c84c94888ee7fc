"""Showing passages of an article: the paragraph around a quote, and the reader with anchors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class Segment:
    text: str
    highlighted: bool = False
    #: Ids of the anchors that start where this segment starts.
    anchors: tuple[str, ...] = ()


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


def render(text: str, marks: list[Mark], highlight: str | None = None) -> list[Paragraph]:
    """Split ``text`` into paragraphs of segments, anchoring every mark and highlighting one."""
    highlighted = next((mark for mark in marks if mark.anchor == highlight), None)
    paragraphs = []
    for number, (start, end) in enumerate(paragraph_spans(text), start=1):
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


def passage(text: str, start: int, end: int, excerpt: str) -> Paragraph | None:
    """The paragraph holding the quote at ``start:end``, with the quote highlighted.

    None when the article has changed since the quote was taken (the stored excerpt no longer
    sits at that span); callers then show the excerpt alone.
    """
    if text[start:end] != excerpt:
        return None
    for number, (left, right) in enumerate(paragraph_spans(text), start=1):
        if left <= start < right:
            stop = min(end, right)
            segments = [
                Segment(text[left:start]),
                Segment(text[start:stop], highlighted=True),
                Segment(text[stop:right]),
            ]
            return Paragraph(number, [segment for segment in segments if segment.text])
    return None


def quote_anchor(question_slug: str, position: int) -> str:
    """The reader's anchor for a question's quote: stable while the question keeps its id."""
    return f"src-{question_slug}-{position + 1}"
