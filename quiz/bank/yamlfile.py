"""Reading YAML safely while keeping the line and column of every node.

Two readers give the same values and the same positions. ruamel.yaml's round-trip loader is
the reference: it reads any YAML 1.2 and says precisely what is wrong with a broken file, but
it is pure Python (about 2.5 ms per question of a bank). The fast reader composes the events
of libyaml, through PyYAML's C binding, straight into dicts and lists, noting where each node
starts. It takes only the YAML a bank is written in, and steps aside for anything else (tags,
anchors, directives, tabs, duplicate keys, keys that are not text, deep nesting, a syntax
error...), which the reference reader then reads or refuses with its own message. Plain
scalars are resolved by ruamel.yaml's own YAML 1.2 rules on both paths, so ``yes`` stays
text and ``010`` is ten, and a libyaml built for YAML 1.1 changes nothing.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer, ComposerError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.scalarbool import ScalarBoolean
from ruamel.yaml.scalarstring import LiteralScalarString

from quiz.bank.errors import BankError, BankInvalid, format_location

try:  # PyYAML's binding to libyaml; without it every file takes the reference reader
    import yaml as _pyyaml
    from yaml.cyaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML wheels ship libyaml
    _pyyaml = None
    _CParser = None

#: Deeper documents are refused; a bank needs about five levels.
MAX_DEPTH = 32
#: Collections nested deeper than this go to the reference reader, which applies MAX_DEPTH.
_FAST_MAX_DEPTH = 16
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
#: Scalar tags the fast reader constructs (with ruamel's constructor); others step aside.
_FAST_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "timestamp")
)
#: Characters on which libyaml (YAML 1.1) and ruamel.yaml may disagree, or where a position
#: could count differently: tabs, the YAML 1.1 line breaks NEL, LS and PS, a byte order mark,
#: and anything YAML does not allow unescaped (both readers refuse those, each in its words).
_ASIDE_CHARACTERS = re.compile(
    "[^\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)

#: Where a collection starts, and where each of its keys or items does: (line, column,
#: {key: (line, column)} or [(line, column), ...]), all 0-based.
Marks = tuple[int, int, "dict[Any, tuple[int, int]] | list[tuple[int, int]]"]


class _NoAliasComposer(Composer):
    """Refuses anchors and aliases: they buy a bank file nothing and allow "billion laughs" bombs.
    Refuses tags too (``!foo``, ``!!str``): a bank has no use for them, and they would build
    objects the checks do not expect."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent) or event.anchor is not None:
            raise ComposerError(
                None, None, "anchors and aliases (& and *) are not allowed", event.start_mark
            )
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise ComposerError(
                None, None, f"YAML tags such as '{shown}' have no place in a bank file; remove it", event.start_mark
            )
        return super().compose_node(parent, index)

    def compose_mapping_node(self, anchor: Any) -> Any:
        node = super().compose_mapping_node(anchor)
        for key, _ in node.value:
            if key.tag == _MERGE_TAG:  # "<<: {...}", the other half of what aliases are for
                raise ComposerError(None, None, "merge keys (<<) are not allowed", key.start_mark)
        return node


def _yaml() -> YAML:
    yaml = YAML(typ="rt", pure=True)
    yaml.Composer = _NoAliasComposer
    yaml.allow_duplicate_keys = False
    yaml.max_depth = MAX_DEPTH
    return yaml


@dataclass(frozen=True)
class Document:
    """A parsed YAML document as plain Python values (dicts, lists, scalars), the name of its
    file, and where each part of it is."""

    file: str
    data: Any
    #: :data:`Marks` of every dict and list of ``data``, by ``id()``.
    marks: dict[int, Marks] = field(default_factory=dict, repr=False, compare=False)

    def position(self, loc: tuple[str | int, ...]) -> tuple[int, int]:
        """The 1-based (line, column) of the deepest node of ``loc`` that exists."""
        node = self.data
        line, column = 0, 0
        marks = self.marks.get(id(node)) if isinstance(node, (dict, list)) else None
        if marks is not None:
            line, column = marks[0], marks[1]
        for part in loc:
            if marks is None:
                break
            if isinstance(node, dict) and part in node:
                line, column = marks[2][part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                line, column = marks[2][part]
            else:
                break
            node = node[part]
            marks = self.marks.get(id(node)) if isinstance(node, (dict, list)) else None
        return line + 1, column + 1

    def error(self, loc: tuple[str | int, ...], message: str) -> BankError:
        line, column = self.position(loc)
        return BankError(self.file, line, column, format_location(loc), message)


def _position_of_byte(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    # Columns count characters, as in every other error; the bytes before the bad one are valid.
    column = len(raw[line_start:offset].decode("utf-8")) + 1
    return raw.count(b"\n", 0, offset) + 1, column


def parse_yaml(raw: bytes, file: str, *, max_bytes: int, fast: bool = True) -> Document:
    """Parse ``raw`` (the bytes of ``file``) or raise :class:`BankInvalid` saying where it broke.

    ``fast=False`` always takes the reference reader (the fast one gives the same result).
    """
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
    if fast:
        document = _fast_document(text, file)
        if document is not None:
            return document
    return _reference_document(text, file)


def _reference_document(text: str, file: str) -> Document:
    """The document as ruamel.yaml's round-trip loader reads it."""
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
    except (ValueError, TypeError, IndexError) as exc:
        # ruamel.yaml's constructors let these through without a place (a date like
        # 2017-02-30, an integer like 0x_).
        raise BankInvalid([_construction_error(text, file, exc)]) from None
    marks: dict[int, Marks] = {}
    return Document(file, _plain_with_marks(data, marks), marks)


def _plain_with_marks(node: Any, marks: dict[int, Marks]) -> Any:
    """:func:`plain` of ruamel's round-trip types, noting the :data:`Marks` of each collection."""
    if isinstance(node, dict):
        copy, keys = {}, {}
        for key, value in node.items():
            plain_key = plain(key)
            copy[plain_key] = _plain_with_marks(value, marks)
            if isinstance(node, CommentedMap):
                keys[plain_key] = tuple(node.lc.key(key))
        if isinstance(node, CommentedMap):
            marks[id(copy)] = (node.lc.line, node.lc.col, keys)
        return copy
    if isinstance(node, list):
        copy = [_plain_with_marks(item, marks) for item in node]
        if isinstance(node, CommentedSeq):
            marks[id(copy)] = (node.lc.line, node.lc.col, [tuple(node.lc.item(index)) for index in range(len(node))])
        return copy
    return plain(node)


def _construction_error(text: str, file: str, exc: Exception) -> BankError:
    """Where the document's values could not be built, found node by node."""
    yaml = _yaml()
    nodes = [yaml.compose(text)]
    while nodes:
        node = nodes.pop()
        if isinstance(node, MappingNode):
            for key, value in reversed(node.value):
                nodes += [value, key]
        elif isinstance(node, SequenceNode):
            nodes += reversed(node.value)
        elif isinstance(node, ScalarNode):
            try:
                yaml.constructor.construct_object(node, deep=True)
            except (ValueError, TypeError, IndexError) as problem:
                kind = str(node.tag).rsplit(":", 1)[-1]
                mark = node.start_mark
                return BankError(file, mark.line + 1, mark.column + 1, "", f"'{node.value}' is not a valid {kind}: {problem}")
    return BankError(file, 1, 1, "", f"invalid YAML: {exc}")


class _StepAside(Exception):
    """The fast reader leaves this document to the reference reader."""


@cache
def _implicit_resolvers() -> dict[Any, list[tuple[Any, Any]]]:
    """ruamel.yaml's YAML 1.2 rules for plain scalars: first character -> [(tag, regexp)]."""
    return VersionedResolver(version=(1, 2)).versioned_resolver


def _fast_document(text: str, file: str) -> Document | None:
    """The document read by the fast reader, or None where it steps aside."""
    if _CParser is None or _ASIDE_CHARACTERS.search(text):
        return None
    try:
        data, marks = _FastComposer(text).compose()
    except (_StepAside, _pyyaml.YAMLError):
        return None
    return Document(file, data, marks)


class _FastComposer:
    """Builds plain values and their :data:`Marks` from libyaml's events, without recursion."""

    def __init__(self, text: str):
        self.parser = _CParser(text)
        #: Plain scalars resolved so far: keys and short values repeat a great deal.
        self.resolved: dict[str, Any] = {}
        self.constructor = None

    def compose(self) -> tuple[Any, dict[int, Marks]]:
        events = _pyyaml.events
        scalar_event, mapping_start, sequence_start = events.ScalarEvent, events.MappingStartEvent, events.SequenceStartEvent
        mapping_end, sequence_end = events.MappingEndEvent, events.SequenceEndEvent
        get_event = self.parser.get_event
        try:
            self._expect(get_event(), events.StreamStartEvent)
            start = get_event()
            self._expect(start, events.DocumentStartEvent)
            if start.version is not None or start.tags:
                raise _StepAside  # %YAML or %TAG directives
            marks: dict[int, Marks] = {}
            resolved = self.resolved
            missing = object()
            #: Enclosing collections: (collection, is a mapping, pending key, its positions).
            stack: list[tuple[Any, bool, Any, Any]] = []
            collection: Any = None
            is_mapping = False
            key: Any = missing
            positions: Any = None
            root: Any = missing
            while root is missing:
                event = get_event()
                kind = type(event)
                if kind is scalar_event:
                    if event.anchor is not None or event.tag is not None:
                        raise _StepAside
                    value = event.value
                    if event.style == "":  # plain: resolved as YAML 1.2 does
                        value = resolved.get(value, missing)
                        if value is missing:
                            value = resolved[event.value] = self._resolve(event.value)
                elif kind is mapping_start or kind is sequence_start:
                    if event.anchor is not None or event.tag is not None or len(stack) >= _FAST_MAX_DEPTH:
                        raise _StepAside
                    value = {} if kind is mapping_start else []
                    value_positions: Any = {} if kind is mapping_start else []
                    mark = event.start_mark
                    marks[id(value)] = (mark.line, mark.column, value_positions)
                elif kind is mapping_end or kind is sequence_end:
                    value = collection
                    collection, is_mapping, key, positions = stack.pop()
                    if collection is None:
                        root = value
                    continue
                else:  # an alias, or a second document
                    raise _StepAside
                if collection is None:
                    if kind is scalar_event:
                        root = value
                elif is_mapping:
                    if key is missing:
                        # Keys are text, once each; anything else is for the reference reader
                        # (which refuses a duplicate, with its position).
                        if type(value) is not str or value in collection:
                            raise _StepAside
                        key = value
                        mark = event.start_mark
                        positions[key] = (mark.line, mark.column)
                    else:
                        collection[key] = value
                        key = missing
                else:
                    collection.append(value)
                    mark = event.start_mark
                    positions.append((mark.line, mark.column))
                if kind is not scalar_event:
                    stack.append((collection, is_mapping, key, positions))
                    collection, is_mapping, key, positions = value, kind is mapping_start, missing, value_positions
            self._expect(get_event(), events.DocumentEndEvent)
            self._expect(get_event(), events.StreamEndEvent)
            return root, marks
        finally:
            self.parser.dispose()

    @staticmethod
    def _expect(event: Any, kind: type) -> None:
        if type(event) is not kind:
            raise _StepAside

    def _resolve(self, value: str) -> Any:
        """A plain scalar's value under YAML 1.2, built by ruamel.yaml exactly as the reference reader builds it."""
        resolvers = _implicit_resolvers()
        for tag, regexp in [*resolvers.get(value[:1], ()), *resolvers.get(None, ())]:
            if regexp.match(value):
                break
        else:
            return value
        if tag not in _FAST_TAGS:
            raise _StepAside  # e.g. the merge key "<<"
        if tag == _STR_TAG:
            return value
        if self.constructor is None:
            self.constructor = _yaml().constructor
        try:
            built = self.constructor.construct_object(ScalarNode(tag, value, None, None), deep=True)
        except Exception:  # noqa: BLE001 - whatever it is, the reference reader reports it
            raise _StepAside from None
        return plain(built)


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


#: Characters a double-quoted scalar must escape beyond what JSON escapes: DEL and the C1
#: controls, the YAML 1.1 line breaks, the byte order mark and the non-characters.
_YAML_ESCAPE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def dump_yaml_quoted(data: Any) -> str:
    """Write builtins as block-style YAML with every string double-quoted on one line, quickly.

    The text is for a program to read back (it reads back as ``data``, as :func:`dump_yaml`'s
    does), not for a person: it is about fifty times faster to write than :func:`dump_yaml`'s
    and takes the fast reader. Values other than dicts, lists, strings, ints, booleans, None
    and dates are written by :func:`dump_yaml`.
    """
    lines: list[str] = []
    try:
        _quoted_block(data, "", lines)
    except _StepAside:
        return dump_yaml(data)
    lines.append("")
    return "\n".join(lines)


def _quoted_scalar(value: Any) -> str:
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return _YAML_ESCAPE.sub(lambda match: f"\\u{ord(match[0]):04x}", text)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    if type(value) is date:
        return value.isoformat()
    raise _StepAside  # floats, datetimes and the rest: dump_yaml knows how


def _quoted_block(node: Any, indent: str, lines: list[str]) -> None:
    if isinstance(node, dict) and node:
        for key, value in node.items():
            if not isinstance(key, str):
                raise _StepAside
            _quoted_entry(f"{indent}{_quoted_scalar(key)}:", value, indent + "  ", lines)
    elif isinstance(node, list) and node:
        for item in node:
            if isinstance(item, dict) and item:
                # "- " then the mapping's keys, all at the column after the dash.
                start = len(lines)
                _quoted_block(item, indent + "  ", lines)
                lines[start] = f"{indent}- {lines[start][len(indent) + 2:]}"
            else:
                _quoted_entry(f"{indent}-", item, indent + "  ", lines)
    else:
        lines.append(indent + _quoted_inline(node))


def _quoted_entry(head: str, value: Any, indent: str, lines: list[str]) -> None:
    if isinstance(value, (dict, list)) and value:
        lines.append(head)
        _quoted_block(value, indent, lines)
    else:
        lines.append(f"{head} {_quoted_inline(value)}")


def _quoted_inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return _quoted_scalar(value)
