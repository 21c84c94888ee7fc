"""The plain text of an HTML fragment, as other quiz tools write question texts, and what it loses.

Questions here are plain text (escaped when shown), so markup is reduced to its words: blocks
and ``<br>`` become line breaks, scripts and styles vanish, entities are decoded. What cannot
be kept as text (an image, a link's address, a video) is named so that the reader can report it.
"""

from __future__ import annotations

import re
import urllib.parse
from html.parser import HTMLParser

#: Elements that start a new line of text.
_BLOCKS = frozenset({
    "p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "ul", "ol", "table",
    "section", "article", "hr", "dt", "dd",
})
#: Elements whose content is no text for a reader.
_HIDDEN = frozenset({"script", "style", "head", "title", "template"})
#: Elements that show something text cannot.
_MEDIA = {"img": "an image", "audio": "a sound", "video": "a video", "iframe": "an embedded page",
          "object": "an embedded object", "embed": "an embedded object"}
#: HTML's white space; a no-break space is text.
_SPACE = re.compile(r"[ \t\n\r\f]+")


def plain_text(fragment: str) -> tuple[str, list[str]]:
    """The text of ``fragment`` and a description of each thing it lost, in order."""
    parser = _TextOf()
    parser.feed(fragment)
    parser.close()
    lines = (" ".join(line.split(" ")).strip() for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line), parser.lost


class _TextOf(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.lost: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")
        attributes = {name: value or "" for name, value in attrs}
        if tag in _MEDIA:
            self.lost.append(_media(tag, attributes))
        elif tag == "a" and attributes.get("href", "").strip():
            self.lost.append(f"the address of a link ({attributes['href'].strip()}); its text is kept")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _HIDDEN:
            self.hidden -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(_SPACE.sub(" ", data))


def _media(tag: str, attributes: dict[str, str]) -> str:
    source = attributes.get("src", "").strip()
    # Moodle writes files a question carries as @@PLUGINFILE@@/name.
    name = urllib.parse.unquote(source.removeprefix("@@PLUGINFILE@@/")) if source else ""
    if source.startswith("data:"):
        name = "inline data"
    described = _MEDIA[tag]
    if name:
        described += f" ({name})"
    alt = " ".join(attributes.get("alt", "").split())
    if alt:
        described += f", described as “{alt}”"
    return described
