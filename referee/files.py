"""The one guarded path by which the referee reads a file someone gave it.

Positions, set-ups, tables, maps, imports and dice records all come through here, so every one of
them gets the same protections before any parser sees a byte:

* only regular files are read: a FIFO, a device, a socket or a folder is refused before it is
  opened for reading (and again, after opening, on the descriptor itself, so a swap cannot slip
  through);
* bytes are *counted while reading*, never trusted from ``st_size`` (``/dev/zero`` says 0);
* text must be UTF-8;
* YAML is scanned as a stream of events before it is built: no aliases (no alias bombs), a
  bounded nesting depth, node count and scalar length — libyaml's own constructor recurses, so it
  never sees a document deeper than :data:`MAX_DEPTH`;
* JSON is checked for depth before ``json.loads``; integers longer than 18 digits are refused in
  JSON and YAML alike (never handed to ``int()``, whose 4,300-digit limit is a traceback);
* a key written twice in one mapping (or twice but for spaces around it, ``"0906 "``) is refused
  in YAML and JSON alike, naming the line and the key: a parser would silently keep only one.

Every refusal is an :class:`~referee.errors.InputFileError`: one line, naming the file, the place
and the problem.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Hashable
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

from referee.errors import InputFileError
from referee.i18n import N_, _

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NODES",
    "MAX_SCALAR_CHARS",
    "SQLITE_HEADER",
    "file_kind",
    "load_data",
    "loads_capped",
    "parse_json",
    "parse_yaml",
    "read_bytes",
    "read_text",
    "require_regular",
    "sqlite_uri",
]

MAX_FILE_BYTES = 4 * 1024 * 1024
"""Largest position, set-up, table or map file (4 MiB; the largest shipped table is ~20 KB)."""
MAX_DEPTH = 32
"""Deepest nesting of mappings and lists accepted in YAML or JSON (our files use at most 5)."""
MAX_NODES = 200_000
"""Most YAML nodes in one document."""
MAX_SCALAR_CHARS = 100_000
"""Longest single YAML scalar (a name, a note, a number)."""
MAX_INT_DIGITS = 18
"""Longest integer literal accepted in JSON (fits in 64 bits)."""

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database."""

_CHUNK = 64 * 1024
_YAML_INT = re.compile(r"[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*(:[0-5]?[0-9])*)")
"""What YAML 1.1 (libyaml's resolver) reads as an integer: decimal, binary, octal, hex, base 60."""


def file_kind(mode: int) -> str | None:
    """Returns what a non-regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    return _("not a regular file")


def _os_problem(exc: OSError) -> str:
    reason = exc.strerror or type(exc).__name__
    return _("cannot read ({reason})").format(reason=reason.lower())


WHAT = (N_("file"), N_("position file"), N_("set-up file"), N_("table file"), N_("map file"), N_("photo"),
        N_("game file"), N_("referee export"), N_("calibration file"), N_("vision settings file"),
        N_("demo script file"), N_("position"), N_("set-up"), N_("demo script"), N_("game file or referee export"))
"""What the files read are called in messages (``what=``), said in the reader's language."""


def _no_such(what: str) -> str:
    return _("no such {what}").format(what=_(what))


def _not_a(kind: str, what: str) -> str:
    return _("is {kind}, not a {what}").format(kind=kind, what=_(what))


def require_regular(path: Path | str, *, what: str = "file", missing_ok: bool = False) -> bool:
    """Refuses a path that exists but is not a regular file (FIFO, device, socket, folder).

    Returns True when a regular file is there, False when nothing is (only with ``missing_ok``).
    Symbolic links are followed, as opening the path would.

    Raises:
        InputFileError: not a regular file, missing (without ``missing_ok``) or not reachable.
    """
    label = str(path)
    try:
        kind = file_kind(os.stat(path).st_mode)
    except FileNotFoundError:
        if missing_ok:
            return False
        raise InputFileError(label, "", _no_such(what)) from None
    except (OSError, ValueError) as exc:
        problem = _os_problem(exc) if isinstance(exc, OSError) else _("not a usable path")
        raise InputFileError(label, "", problem) from None
    if kind is not None:
        raise InputFileError(label, "", _not_a(kind, what))
    return True


def read_bytes(path: Path | str, *, limit: int = MAX_FILE_BYTES, what: str = "file") -> bytes:
    """Returns the bytes of a regular file no larger than ``limit``.

    Raises:
        InputFileError: missing, unreadable, not a regular file, or larger than ``limit``.
    """
    label = str(path)
    try:
        kind = file_kind(os.stat(path).st_mode)
    except (OSError, ValueError) as exc:
        problem = _os_problem(exc) if isinstance(exc, OSError) else _("not a usable path")
        if isinstance(exc, FileNotFoundError):
            problem = _no_such(what)
        raise InputFileError(label, "", problem) from None
    if kind is not None:
        raise InputFileError(label, "", _not_a(kind, what))
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it cannot hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputFileError(label, "", _os_problem(exc)) from None
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise InputFileError(label, "", _not_a(kind, what))
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise InputFileError(label, "", _("larger than {limit} bytes, too large for a {what}").format(
                    limit=f"{limit:,}", what=_(what)))
            chunks.append(chunk)
    except OSError as exc:
        raise InputFileError(label, "", _os_problem(exc)) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def sqlite_uri(path: Path | str, mode: str, *, immutable: bool = False) -> str:
    """Returns the SQLite URI that opens exactly ``path``: the absolute path percent-encoded byte by
    byte, so ``#``, ``?``, ``%41``, spaces, newlines, ``:memory:`` and non-UTF-8 bytes in a name
    are parts of the name, never URI syntax (an unquoted ``file:g#copy`` opens ``g``).

    >>> sqlite_uri("/tmp/g#copy?x", "ro")
    'file:/tmp/g%23copy%3Fx?mode=ro'
    """
    absolute = os.fsencode(os.path.abspath(os.fsdecode(path)))
    return f"file:{quote_from_bytes(absolute, safe='/')}?mode={mode}" + ("&immutable=1" if immutable else "")


def read_text(path: Path | str, *, limit: int = MAX_FILE_BYTES, what: str = "file") -> str:
    """Returns the UTF-8 text of a regular file no larger than ``limit`` (a leading BOM is dropped).

    Raises:
        InputFileError: as :func:`read_bytes`, or the bytes are not UTF-8 text.
    """
    raw = read_bytes(path, limit=limit, what=what)
    return decode_text(str(path), raw, what)


def decode_text(label: str, raw: bytes, what: str = "file") -> str:
    """Returns bytes decoded as UTF-8 text.

    Raises:
        InputFileError: not UTF-8, or holds NUL bytes (a binary file).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileError(label, _("byte {n}").format(n=exc.start),
                             _("not UTF-8 text (is this a {what}?)").format(what=_(what))) from None
    if "\x00" in text:
        raise InputFileError(label, _("byte {n}").format(n=text.index(chr(0))),
                             _("holds a NUL byte; a {what} is text").format(what=_(what)))
    return text


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def check_yaml(label: str, text: str) -> None:
    """Refuses a YAML text that is malformed, uses aliases, or is too deep, too big or too long.

    Walks libyaml's event stream (which does not recurse), so nothing is built yet.

    Raises:
        InputFileError: the first problem found, with its line.
    """
    import yaml  # lazy: yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    depth = nodes = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise InputFileError(label, _line(event), _("YAML anchors and aliases (&, *) are not accepted"))
            if isinstance(event, yaml.NodeEvent):
                nodes += 1
                if nodes > MAX_NODES:
                    raise InputFileError(label, _line(event), _("more than {n} YAML values").format(n=f"{MAX_NODES:,}"))
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise InputFileError(label, _line(event), _nested())
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            elif isinstance(event, yaml.ScalarEvent):
                if len(event.value) > MAX_SCALAR_CHARS:
                    raise InputFileError(label, _line(event), _("a value longer than {n} characters").format(
                        n=f"{MAX_SCALAR_CHARS:,}"))
                digits = len(event.value.lstrip("+-"))
                if event.implicit[0] and digits > MAX_INT_DIGITS and _YAML_INT.fullmatch(event.value):
                    raise InputFileError(label, _line(event), _long_integer(digits))
    except yaml.YAMLError as exc:
        raise _yaml_error(label, text, exc) from None


def _nested() -> str:
    return _("nested more than {n} levels deep").format(n=MAX_DEPTH)


def _long_integer(digits: int) -> str:
    return _("an integer of {n} digits is too long").format(n=f"{digits:,}")


def _yaml_error(label: str, text: str, exc: Exception) -> InputFileError:
    """Returns one line for a YAML error (libyaml's own text can run over several lines)."""
    import yaml  # lazy: yaml

    if isinstance(exc, yaml.reader.ReaderError):
        line = text.count("\n", 0, max(exc.position, 0)) + 1
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
        return InputFileError(label, _("line {n}").format(n=line),
                              _("not valid YAML: a control character ({char})").format(char=f"U+{char:04X}"))
    mark = getattr(exc, "problem_mark", None)
    where = _("line {n}").format(n=mark.line + 1) if mark is not None else ""
    problem = getattr(exc, "problem", None) or _("malformed")
    return InputFileError(label, where, _("not valid YAML: {problem}").format(problem=_one_line(problem)))


def _line(event: Any) -> str:
    mark = getattr(event, "start_mark", None)
    return _("line {n}").format(n=mark.line + 1) if mark is not None else ""


class _DuplicateKey(ValueError):
    """A mapping holds one key twice (or twice but for spaces around it)."""

    def __init__(self, key: object, first: object, line: int | None = None, first_line: int | None = None) -> None:
        super().__init__(repr(key))
        self.key, self.first, self.line, self.first_line = key, first, line, first_line

    def problem(self) -> str:
        """Returns the problem said in the reader's language (the line goes in the place)."""
        key = repr(self.key)[:80]
        if self.key != self.first:
            said = _("the key {key} is {first} again, with spaces around it").format(key=key,
                                                                                     first=repr(self.first)[:80])
        else:
            said = _("the key {key} is written twice").format(key=key)
        if self.first_line is not None:
            said += " " + _("(first on line {n})").format(n=self.first_line)
        return said

    def __str__(self) -> str:
        return self.problem()


def _same_key(key: object) -> Hashable:
    """Returns what a key is compared by: a text without the spaces around it, else itself."""
    return key.strip() if isinstance(key, str) else key


_UNIQUE_LOADERS: dict[type, type] = {}


def _unique_loader() -> type:
    """Returns the safe loader (libyaml's when installed) refusing a key written twice in a mapping."""
    import yaml  # lazy: yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    if base in _UNIQUE_LOADERS:
        return _UNIQUE_LOADERS[base]

    class UniqueKeyLoader(base):  # type: ignore[misc, valid-type]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                self.flatten_mapping(node)  # merged keys count too: a merge that overrides drops one
                seen: dict[Hashable, tuple[object, int]] = {}
                for key_node, _value in node.value:
                    key = self.construct_object(key_node, deep=True)
                    try:
                        same = _same_key(key)
                        hash(same)
                    except TypeError:
                        continue  # an unhashable key: the constructor refuses it in its own words
                    line = key_node.start_mark.line + 1
                    if same in seen:
                        first, first_line = seen[same]
                        raise _DuplicateKey(key, first, line, first_line)
                    seen[same] = (key, line)
            return super().construct_mapping(node, deep=deep)

    _UNIQUE_LOADERS[base] = UniqueKeyLoader
    return UniqueKeyLoader


def parse_yaml(label: str, text: str) -> object:
    """Returns the data of a YAML text, after :func:`check_yaml` (safe loader only; a key written
    twice in a mapping is refused).

    Raises:
        InputFileError: the text is refused by :func:`check_yaml` or cannot be built.
    """
    import yaml  # lazy: yaml

    check_yaml(label, text)
    try:
        return yaml.load(text, Loader=_unique_loader())  # a SafeLoader subclass: safe loading only
    except _DuplicateKey as dup:
        raise InputFileError(label, _("line {n}").format(n=dup.line), dup.problem()) from None
    except yaml.YAMLError as exc:
        raise _yaml_error(label, text, exc) from None
    except (ValueError, OverflowError, RecursionError) as exc:
        # e.g. an integer past Python's 4,300-digit conversion limit, a date out of range
        raise InputFileError(label, "", _("a value cannot be read: {problem}").format(
            problem=_one_line(exc)[:120])) from None


def _json_depth(text: str) -> int:
    """Returns the deepest bracket nesting of a JSON text, ignoring brackets inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(_long_integer(len(literal.lstrip("-"))))
    return int(literal)


def _constant(name: str) -> float:
    raise ValueError(_("{name} is not a number JSON allows").format(name=name))


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """Returns a JSON object's pairs as a dict, refusing a key written twice (spaces around it aside).

    Raises:
        _DuplicateKey: the first key written twice.
    """
    out = dict(pairs)
    if len(out) == len(pairs) and not any(k[:1].isspace() or k[-1:].isspace() for k in out):
        return out
    seen: dict[str, str] = {}
    for key, _value in pairs:
        same = key.strip()
        if same in seen:
            raise _DuplicateKey(key, seen[same])
        seen[same] = key
    return out


def loads_capped(text: str) -> object:
    """Returns ``json.loads(text)`` with integers capped, NaN/Infinity refused and a key written
    twice in an object refused, but no depth scan (for stored columns whose models bound the rest;
    the C decoder stops deep nesting with a RecursionError instead of crashing).

    Raises:
        json.JSONDecodeError, ValueError, RecursionError: as ``json.loads``, or a capped value or
            repeated key (a ``ValueError``).
    """
    return json.loads(text, parse_int=_int, parse_constant=_constant, object_pairs_hook=_unique_pairs)


_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:]')


def _json_duplicate(text: str) -> _DuplicateKey | None:
    """Returns the first key written twice in one object of a JSON text, with both lines (a scan
    of the tokens, run only once the decoder found a repeated key)."""
    objects: list[dict[str, tuple[str, int]] | None] = []
    line, at = 1, 0
    pending: str | None = None
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        line += text.count("\n", at, match.start())
        at = match.start()
        if token[0] == '"':
            pending = token
            continue
        if token == ":" and pending is not None and objects and objects[-1] is not None:
            try:
                key = json.loads(pending)
            except ValueError:
                key = pending[1:-1]
            seen = objects[-1]
            same = str(key).strip()
            if same in seen:
                first, first_line = seen[same]
                return _DuplicateKey(key, first, line, first_line)
            seen[same] = (str(key), line)
        elif token in "{[":
            objects.append({} if token == "{" else None)
        elif token in "}]" and objects:
            objects.pop()
        pending = None
    return None


def parse_json(label: str, text: str) -> object:
    """Returns the data of a JSON text (depth and integer length capped; no NaN/Infinity).

    Raises:
        InputFileError: malformed, too deep, or an over-long integer.
    """
    if _json_depth(text) > MAX_DEPTH:
        raise InputFileError(label, "", _nested())
    try:
        return loads_capped(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(label, _("line {n}").format(n=exc.lineno),
                             _("not valid JSON: {problem}").format(problem=exc.msg)) from None
    except _DuplicateKey as dup:
        found = _json_duplicate(text) or dup
        where = _("line {n}").format(n=found.line) if found.line is not None else ""
        raise InputFileError(label, where, found.problem()) from None
    except (ValueError, RecursionError) as exc:
        raise InputFileError(label, "", _("not valid JSON: {problem}").format(problem=_one_line(exc)[:120])) from None


def load_data(path: Path | str, *, what: str = "file", limit: int = MAX_FILE_BYTES) -> object:
    """Returns the data of a YAML or JSON file (JSON when the name ends in ``.json``).

    Raises:
        InputFileError: anything :func:`read_text`, :func:`parse_yaml` or :func:`parse_json` refuses.
    """
    text = read_text(path, limit=limit, what=what)
    if str(path).lower().endswith(".json"):
        return parse_json(str(path), text)
    return parse_yaml(str(path), text)
