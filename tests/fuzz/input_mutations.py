"""Hostile variants of the shipped input files, drawn from a seeded ``random.Random``.

Each mutation starts from a real file (a position, a set-up, a table) and breaks it in one of
the ways a user, a bad editor or an attacker would: keys deleted, duplicated or renamed, values
of the wrong type, huge integers and strings, deep nesting, YAML aliases, bad UTF-8, control
characters, markup, truncation. :func:`mutate_text` returns the bytes to write or parse.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import yaml

from referee.tables import data_root

HOSTILE_TEXT = (
    "[/bold]",
    "[link=http://x]click[/link]",
    "\x1b[31mred\x1b[0m",
    "bell\x07back\x08",
    "line\nbreak",
    "\u202eevil",
    ":smile:",
    "Ath\u00e9na\u0301",
    "",
    " ",
    "x" * 5_000,
)
HOSTILE_VALUES: tuple[object, ...] = (
    None, True, 0, -1, 1.5, 10**30, -(10**19), float("nan"), "", [], {}, [[[]]], {"a": {"b": {}}},
    *HOSTILE_TEXT,
)

SAMPLES = data_root("samples")
TABLES = data_root("tables")

POSITIONS = {
    "cyrus-pyxis": [SAMPLES / "cyrus-pyxis" / "umpire.yaml",
                    SAMPLES / "cyrus-pyxis" / "photos" / "setup-position.yaml"],
    "iliad": [SAMPLES / "iliad" / n for n in ("open-battle.yaml", "archers.yaml", "duel-example.yaml", "night.yaml")],
    "300-solo": [SAMPLES / "300-solo" / n for n in ("operations.yaml", "major-invaded.yaml",
                                                    "preparation-example.yaml")],
}
SETUPS = {
    "cyrus-pyxis": SAMPLES / "cyrus-pyxis" / "setup.yaml",
    "iliad": SAMPLES / "iliad" / "setup.yaml",
    "300-solo": SAMPLES / "300-solo" / "solo-setup.yaml",
}
GAMES = tuple(POSITIONS)


def table_files(game: str) -> list[Path]:
    """Returns the shipped table files of a game (rules.yaml included)."""
    return sorted(p for p in (TABLES / game).iterdir() if p.suffix in (".yaml", ".csv"))


# ---- structural mutations (on the parsed data) ---------------------------------------------


def _paths(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _get(node: object, path: tuple[object, ...]) -> object:
    for p in path:
        node = node[p]  # type: ignore[index]
    return node


def _set(root: object, path: tuple[object, ...], value: object) -> object:
    if not path:
        return value
    parent = _get(root, path[:-1])
    parent[path[-1]] = value  # type: ignore[index]
    return root


def _delete(root: object, path: tuple[object, ...]) -> object:
    if not path:
        return {}
    parent = _get(root, path[:-1])
    if isinstance(parent, dict):
        del parent[path[-1]]
    elif isinstance(parent, list):
        del parent[path[-1]]  # type: ignore[call-overload]
    return root


def _rename(root: object, path: tuple[object, ...], name: object) -> object:
    if not path:
        return root
    parent = _get(root, path[:-1])
    if isinstance(parent, dict):
        parent[name] = parent.pop(path[-1])
    return root


def _copy_value(root: object, src: tuple[object, ...], dst: tuple[object, ...]) -> object:
    return _set(root, dst, json.loads(json.dumps(_get(root, src), default=str)))


def mutate_data(data: object, rng: random.Random) -> object:
    """Returns a structurally damaged copy of parsed file data (1-3 changes)."""
    data = json.loads(json.dumps(data, default=str))
    for _ in range(rng.randint(1, 3)):
        paths = _paths(data)
        path = rng.choice(paths)
        op = rng.randrange(7)
        if op == 0:
            data = _delete(data, path)
        elif op == 1:
            data = _set(data, path, rng.choice(HOSTILE_VALUES))
        elif op == 2:
            data = _rename(data, path, rng.choice((*HOSTILE_TEXT, 0, "greek", "persian", "game", "phase")))
        elif op == 3:
            data = _copy_value(data, rng.choice(paths), path)
        elif op == 4:
            value = _get(data, path)
            if isinstance(value, str) and value:
                cut = rng.randrange(len(value))
                data = _set(data, path, value[:cut] + rng.choice(HOSTILE_TEXT)[:20] + value[cut + 1:])
            elif isinstance(value, int) and not isinstance(value, bool):
                data = _set(data, path, rng.choice((value + 1, value - 1, -value, value * 1000, 2**63)))
        elif op == 5:
            value = _get(data, path)
            data = _set(data, path, [value, value] if not isinstance(value, list) else value * 2)
        else:
            deep: object = "x"
            for _ in range(rng.choice((3, 20, 40))):
                deep = [deep]
            data = _set(data, path, deep)
    return data


def _dump(data: object, rng: random.Random) -> str:
    if rng.random() < 0.25:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5, default=str)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


# ---- textual mutations (on the bytes) -------------------------------------------------------


def _truncate(raw: bytes, rng: random.Random) -> bytes:
    return raw[: rng.randrange(len(raw) + 1)]


def _bad_utf8(raw: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(raw) + 1)
    return raw[:at] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf")) + raw[at:]


def _control(raw: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(raw) + 1)
    return raw[:at] + bytes([rng.choice((1, 7, 8, 11, 12, 27, 127))]) + raw[at:]


def _alias_bomb(raw: bytes, rng: random.Random) -> bytes:
    levels = rng.randint(2, 9)
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return raw + b"\n" + "\n".join(lines).encode() + b"\n"


def _deep(raw: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((33, 100, 1_000, 20_000))
    return raw + b"\nzz: " + b"[" * depth + b"]" * depth + b"\n"


def _deep_map(raw: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((33, 200, 5_000))
    return raw + b"\nzz: " + b"{a: " * depth + b"1" + b"}" * depth + b"\n"


def _huge_int(raw: bytes, rng: random.Random) -> bytes:
    digits = rng.choice((19, 4_301, 5_000, 100_000))
    if rng.random() < 0.5:
        return raw.replace(b": ", b": " + b"9" * digits + b" #", 1)
    return raw + f"\nzz: {'7' * digits}\n".encode()


def _huge_string(raw: bytes, rng: random.Random) -> bytes:
    size = rng.choice((1_001, 100_001, 1_000_000))
    return raw + b"\nzz: " + b"y" * size + b"\n"


def _duplicate_line(raw: bytes, rng: random.Random) -> bytes:
    lines = raw.split(b"\n")
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def _tab_indent(raw: bytes, rng: random.Random) -> bytes:
    return raw.replace(b"\n  ", b"\n\t", rng.randint(1, 3))


def _flip_byte(raw: bytes, rng: random.Random) -> bytes:
    if not raw:
        return b"{"
    b = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        b[rng.randrange(len(b))] = rng.choice(b"[]{}:,&*!|>'\"#-? \n\t%@`")
    return bytes(b)


def _tags(raw: bytes, rng: random.Random) -> bytes:
    tag = rng.choice((b"!!python/object/apply:os.system ['true']", b"!!binary aGVsbG8=", b"!!set {a, b}",
                      b"!!timestamp 2001-12-14", b"!!float .nan", b"!!int 0x7fffffffffffffffffff", b"2001-13-45"))
    return raw + b"\nzz: " + tag + b"\n"


TEXT_MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    _truncate, _bad_utf8, _control, _alias_bomb, _deep, _deep_map, _huge_int, _huge_string,
    _duplicate_line, _tab_indent, _flip_byte, _tags,
)


def mutate_text(raw: bytes, rng: random.Random) -> bytes:
    """Returns a hostile variant of a YAML/JSON file: a structural change, a textual one, or both."""
    choice = rng.random()
    if choice < 0.5:
        try:
            data = yaml.safe_load(raw.decode("utf-8"))
        except yaml.YAMLError:
            data = None
        if data is not None:
            raw = _dump(mutate_data(data, rng), rng).encode("utf-8", "surrogatepass")
        if choice < 0.35:
            return raw
    return rng.choice(TEXT_MUTATIONS)(raw, rng)


def mutate_csv(raw: bytes, rng: random.Random) -> bytes:
    """Returns a hostile variant of a CSV table: long fields, quotes, bad cells, short rows."""
    lines = raw.split(b"\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(6)
    if op == 0:
        lines[i] = lines[i] + b"," + b"z" * rng.choice((10, 131_073, 200_000))
    elif op == 1:
        lines[i] = b'"' + lines[i]
    elif op == 2:
        lines[i] = b",".join(rng.choice((b"", b"-1", b"9" * 5_000, b"nan", b"[/bold]", b"\x1b[31m")) for _ in range(5))
    elif op == 3:
        del lines[i]
    elif op == 4:
        lines.insert(i, lines[i])
    else:
        return rng.choice(TEXT_MUTATIONS)(raw, rng)
    return b"\n".join(lines)
