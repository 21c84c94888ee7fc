"""Reading YAML safely while keeping the line and column of every node."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer, ComposerError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.scalarbool import ScalarBoolean
from ruamel.yaml.scalarstring import LiteralScalarString

from quiz.bank.errors import BankError, BankInvalid, format_location

#: Deeper documents are refused; a bank needs about five levels.
MAX_DEPTH = 32


class _NoAliasComposer(Composer):
    """Refuses anchors and aliases: they buy a bank file nothing and allow "billion laughs" bombs."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent) or event.anchor is not None:
            raise ComposerError(
                None, None, "anchors and aliases (& and *) are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)


def _yaml() -> YAML:
    yaml = YAML(typ="rt", pure=True)
    yaml.Composer = _NoAliasComposer
    yaml.allow_duplicate_keys = False
    yaml.max_depth = MAX_DEPTH
    return yaml


@dataclass(frozen=True)
class Document:
    """A parsed YAML document and the name of its file, able to say where any part of it is."""

    file: str
    data: Any

    def position(self, loc: tuple[str | int, ...]) -> tuple[int, int]:
        """The 1-based (line, column) of the deepest node of ``loc`` that exists."""
        node = self.data
        line, column = 0, 0
        if isinstance(node, (CommentedMap, CommentedSeq)):
            line, column = node.lc.line, node.lc.col
        for part in loc:
            if isinstance(node, CommentedMap) and part in node:
                line, column = node.lc.key(part)
                node = node[part]
            elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
                line, column = node.lc.item(part)
                node = node[part]
            else:
                break
        return line + 1, column + 1

    def error(self, loc: tuple[str | int, ...], message: str) -> BankError:
        line, column = self.position(loc)
        return BankError(self.file, line, column, format_location(loc), message)


def _position_of_byte(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    # Columns count characters, as in every other error; the bytes before the bad one are valid.
    column = len(raw[line_start:offset].decode("utf-8")) + 1
    return raw.count(b"\n", 0, offset) + 1, column


def parse_yaml(raw: bytes, file: str, *, max_bytes: int) -> Document:
    """Parse ``raw`` (the bytes of ``file``) or raise :class:`BankInvalid` saying where it broke."""
    if len(raw) > max_bytes:
        raise BankInvalid(
            [BankError(file, 1, 1, "", f"file is {len(raw):,} bytes; the limit is {max_bytes:,}")]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position_of_byte(raw, exc.start)
        raise BankInvalid(
            [BankError(file, line, column, "", f"invalid UTF-8 (byte 0x{raw[exc.start]:02x})")]
        ) from None
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if "maximum depth" in problem:
            problem = f"nested more than {MAX_DEPTH} levels deep"
        if "duplicate key" in problem or "found duplicate key" in str(exc):
            problem = "duplicate key " + _duplicate_key_name(str(exc))
        raise BankInvalid([BankError(file, line, column, "", problem)]) from None
    except YAMLError as exc:
        raise BankInvalid([BankError(file, 1, 1, "", f"invalid YAML: {exc}")]) from None
    return Document(file, data)


def _duplicate_key_name(message: str) -> str:
    # ruamel says: 'found duplicate key "id" with value "x" (original value: "y")'.
    start = message.find('duplicate key "')
    if start < 0:
        return ""
    start += len('duplicate key "')
    end = message.find('"', start)
    return f'"{message[start:end]}"'


def plain(node: Any) -> Any:
    """Deep copy of ruamel's round-trip types into builtins, ready for pydantic."""
    if isinstance(node, dict):
        return {plain(key): plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [plain(item) for item in node]
    # ScalarBoolean subclasses int, so it must be tested first.
    if isinstance(node, ScalarBoolean):
        return bool(node)
    for builtin in (bool, int, float, str):
        if isinstance(node, builtin):
            return builtin(node)
    return node


def dump_yaml(data: Any) -> str:
    """Write builtins (dicts, lists, scalars) as block-style YAML that :func:`parse_yaml` reads back.

    Multi-line strings become literal blocks, so article texts stay readable in the file.
    """
    yaml = YAML(typ="rt", pure=True)
    yaml.width = 4096  # a folded line would change nothing, but reads worse in a diff
    yaml.indent(mapping=2, sequence=4, offset=2)
    stream = io.StringIO()
    yaml.dump(_literal_blocks(data), stream)
    return stream.getvalue()


def _literal_blocks(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _literal_blocks(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_literal_blocks(item) for item in node]
    # Trailing spaces on a line cannot be kept in a literal block; such strings stay quoted.
    if isinstance(node, str) and "\n" in node and not any(line.endswith((" ", "\t")) for line in node.split("\n")):
        return LiteralScalarString(node)
    return node
