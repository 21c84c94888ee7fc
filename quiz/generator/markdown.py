"""Markdown reduced to the plain text the app stores as the article.

Every later stage works on this text, since source quotes must occur in the stored article.
Plain text passes through unchanged apart from trailing spaces and runs of blank lines.
HTML comments are dropped, which is how an article file can carry a note (such as its URL)
that is not part of the article.
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
_ATX_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$")
_SETEXT_UNDERLINE = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_BLOCKQUOTE = re.compile(r"^\s{0,3}>\s?")
_BULLET = re.compile(r"^(\s*)[-*+]\s+")
_NUMBERED = re.compile(r"^(\s*)\d{1,9}[.)]\s+")
_REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+.*$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_INLINE_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_REFERENCE_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_CODE = re.compile(r"`+([^`]+?)`+")
# Emphasis needs a non-space right inside its markers, so that "2 * 3 * 4" and snake_case
# words are left alone; underscores must also stand at word boundaries.
_STRONG_STARS = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM_STARS = re.compile(r"\*(?=[^\s*])(.+?)(?<=[^\s*])\*")
_STRONG_UNDERSCORES = re.compile(r"(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)")
_EM_UNDERSCORES = re.compile(r"(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>~|])")
_BLANK_RUN = re.compile(r"\n{3,}")


def plain_text(markdown_or_text: str) -> str:
    """The text without Markdown markup: headings, emphasis, links, images, lists, quotes, code.

    Line structure is kept (a heading stays a line of its own, paragraphs stay apart), so
    that sentence splitting still sees where paragraphs end.
    """
    text = _COMMENT.sub("", markdown_or_text.replace("\r\n", "\n").replace("\r", "\n"))
    lines: list[str] = []
    in_fence = False
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            lines.append(line.rstrip())
            continue
        lines.append(_block_line(line, lines))
    text = "\n".join(line.rstrip() for line in lines)
    return _BLANK_RUN.sub("\n\n", text).strip()


def _block_line(line: str, previous: list[str]) -> str:
    """One line without its block markup; a setext underline is dropped (its heading kept)."""
    if _SETEXT_UNDERLINE.match(line) and previous and previous[-1].strip():
        return ""
    if _RULE.match(line) or _REFERENCE_DEFINITION.match(line):
        return ""
    heading = _ATX_HEADING.match(line)
    if heading:
        return _inline(heading.group(1))
    while _BLOCKQUOTE.match(line):
        line = _BLOCKQUOTE.sub("", line, count=1)
    line = _BULLET.sub(r"\1", line, count=1)
    line = _NUMBERED.sub(r"\1", line, count=1)
    return _inline(line.strip())


#: Escaped characters are set aside in the Private Use Area while markup is removed.
_SET_ASIDE = 0xE000


#: Every inline markup needs one of these characters (escapes, images and links, autolinks,
#: code, emphasis, strikethrough), or a character of the range set aside: a line without any is
#: left as it is, as most lines of an article are.
_INLINE_MARKUP = re.compile(r"[\\\[<`*_~\ue000-\ue07f]")


def _inline(text: str) -> str:
    if not _INLINE_MARKUP.search(text):
        return text
    text = _ESCAPE.sub(lambda match: chr(_SET_ASIDE + ord(match.group(1))), text)
    text = _IMAGE.sub(r"\1", text)
    text = _INLINE_LINK.sub(r"\1", text)
    text = _REFERENCE_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _CODE.sub(r"\1", text)
    for pattern in (_STRONG_STARS, _STRONG_UNDERSCORES, _EM_STARS, _EM_UNDERSCORES, _STRIKE):
        text = pattern.sub(r"\1", text)
    return re.sub("[\ue000-\ue07f]", lambda match: chr(ord(match.group()) - _SET_ASIDE), text)


def split_title(text: str) -> tuple[str | None, str]:
    """The plain text's title and the article without it, when its first line reads as a title.

    A first line is a title when it is followed by a blank line, is short and does not end
    like a sentence (headings lose their ``#`` in :func:`plain_text`, so they qualify too).
    """
    first, _, rest = text.partition("\n")
    first = first.strip()
    is_title = (
        bool(first)
        and rest.startswith("\n")
        and len(first) <= 300
        and len(first.split()) <= 25
        and not first.endswith((".", ":", ";", ","))
    )
    if not is_title:
        return None, text
    return first, rest.strip()
