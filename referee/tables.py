"""Table files: where they live, overrides, parsing into schemas, provenance display.

Tables are data (``tables/<slug>/``): YAML for keyed or nested data, CSV for 2-D lookups, each
opening with a ``# Source:`` comment and carrying a provenance per value. This module is the one
place that resolves the data root, both from a checkout (``<repo>/tables``) and from an
installed wheel (``referee/_data/tables``). A user overrides values by exporting a game's tables
(``referee tables export GAME DIR``), editing them, and passing ``--tables DIR`` or setting
``REFEREE_TABLES=DIR``; a partial override directory replaces only the files it contains.

Every YAML read goes through the guarded safe loader (:func:`referee.files.parse_yaml`); every problem becomes one
:class:`~referee.errors.TableError` rendered as ``file: field: problem``.
"""

from __future__ import annotations

import copy
import csv
import functools
import hashlib
import io
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from referee import files
from referee.errors import InputFileError, TableError
from referee.i18n import N_, _, ngettext
from referee.writing import check_output, write_output

ENV_TABLES = "REFEREE_TABLES"
TABLE_SUFFIXES = (".yaml", ".yml", ".csv")

ModelT = TypeVar("ModelT", bound=BaseModel)
Loaded = TypeVar("Loaded")


def by_digest(load: Callable[[TableSet], Loaded]) -> Callable[[TableSet], Loaded]:
    """Caches a game's table loader by the table set's content hash (validated once a process)."""
    cache: dict[str, Loaded] = {}

    @functools.wraps(load)
    def cached(table_set: TableSet) -> Loaded:
        found = cache.get(table_set.digest)
        if found is None:
            found = cache[table_set.digest] = load(table_set)
        return found

    return cached


def _package_dir() -> Path:
    return Path(__file__).resolve().parent


def data_root(kind: str) -> Path:
    """Returns the folder holding ``tables`` or ``samples``, in a wheel or a checkout.

    Args:
        kind: ``"tables"`` or ``"samples"``.

    Raises:
        TableError: neither location exists (a broken installation).
    """
    installed = _package_dir() / "_data" / kind
    if installed.is_dir():
        return installed
    checkout = _package_dir().parent / kind
    if checkout.is_dir():
        return checkout
    raise TableError(str(installed), "", _("the referee's {kind} folder is missing (broken install)").format(kind=kind))


@dataclass(frozen=True)
class TableFile:
    """One table file's text and where it was read from."""

    name: str
    text: str
    origin: str
    overridden: bool = False


@dataclass(frozen=True)
class TableSet:
    """The table files of one game, after overrides, as text (stored verbatim in game files)."""

    slug: str
    files: Mapping[str, TableFile]
    digest: str = field(default="")

    def __post_init__(self) -> None:
        if not self.digest:
            object.__setattr__(self, "digest", _digest(self.texts()))

    def text(self, name: str) -> str:
        """Returns a file's text.

        Raises:
            TableError: the game has no such table file.
        """
        try:
            return self.files[name].text
        except KeyError:
            raise TableError(f"{self.slug}/{name}", "", _("table file is missing")) from None

    def label(self, name: str) -> str:
        """Returns the path shown in errors for a file."""
        found = self.files.get(name)
        return found.origin if found else f"{self.slug}/{name}"

    def texts(self) -> dict[str, str]:
        """Returns ``{file name: text}``, as stored in a game file."""
        return {name: f.text for name, f in sorted(self.files.items())}

    def overridden(self) -> list[str]:
        """Returns the names of files taken from an override directory."""
        return sorted(name for name, f in self.files.items() if f.overridden)

    @classmethod
    def from_texts(cls, slug: str, texts: Mapping[str, str], origin: str) -> TableSet:
        """Rebuilds a table set stored in a game file or an export."""
        files = {n: TableFile(n, t, f"{origin}:{slug}/{n}") for n, t in texts.items()}
        return cls(slug, files)


def _digest(texts: Mapping[str, str]) -> str:
    blob = json.dumps(sorted(texts.items()), ensure_ascii=False).encode()
    return hashlib.sha256(blob).hexdigest()


def _read_dir(slug: str, folder: Path, overridden: bool) -> dict[str, TableFile]:
    found: dict[str, TableFile] = {}
    for path in _table_paths(folder):
        name = path.relative_to(folder).as_posix()
        try:
            text = files.read_text(path, what="table file")
        except InputFileError as exc:
            raise TableError(exc.file, exc.field, exc.problem) from None
        found[name] = TableFile(name, text, str(path), overridden)
    return found


def _table_paths(folder: Path) -> list[Path]:
    """Returns every file under ``folder`` named like a table, sorted; a FIFO or a device named like
    one is listed too (and refused by the reader in one line), never skipped. Links to folders are
    not followed (no loops).

    Raises:
        TableError: a folder inside cannot be listed (unreadable): never silently skipped.
    """

    def refuse(exc: OSError) -> None:
        raise TableError(str(exc.filename or folder), "", _os_reason(exc))

    out: list[Path] = []
    for top, dirs, names in os.walk(folder, onerror=refuse):
        dirs.sort()
        out += [Path(top, n) for n in names if Path(n).suffix in TABLE_SUFFIXES]
    return sorted(out)


def _os_reason(exc: OSError) -> str:
    return _("cannot read ({reason})").format(reason=(exc.strerror or type(exc).__name__).lower())


def _is_folder(path: Path) -> bool:
    """True for a folder, False for nothing there (or a file).

    Raises:
        TableError: the path cannot be looked at (too long, not reachable, not permitted).
    """
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise TableError(str(path), "", _os_reason(exc)) from None
    except ValueError:  # a NUL in the path
        raise TableError(str(path), "", _("not a usable path")) from None


@cache
def packaged_table_set(slug: str) -> TableSet:
    """Returns the table files shipped with the referee for a game.

    Raises:
        TableError: the game has no table folder.
    """
    folder = data_root("tables") / slug
    if not folder.is_dir():
        raise TableError(str(folder), "", _("no table folder for this game"))
    return TableSet(slug, _read_dir(slug, folder, overridden=False))


def override_dir(option: Path | None) -> tuple[Path | None, bool]:
    """Returns the override directory (``--tables`` or ``REFEREE_TABLES``) and whether explicit."""
    if option is not None:
        return option, True
    env = os.environ.get(ENV_TABLES)
    return (Path(env), False) if env else (None, False)


def load_table_set(slug: str, override: Path | None = None) -> TableSet:
    """Returns a game's tables: packaged files, replaced file by file from an override folder.

    The override folder holds one sub-folder per game (``DIR/<slug>/<file>``), as written by
    ``referee tables export``. Files it lacks keep their packaged version.

    Args:
        slug: the game's CLI slug.
        override: ``--tables`` value; ``None`` falls back to ``REFEREE_TABLES``.

    Raises:
        TableError: the override folder is missing, or holds a file the game does not use.
    """
    base = packaged_table_set(slug)
    folder, explicit = override_dir(override)
    if folder is None:
        return base
    if not _is_folder(folder):
        raise TableError(str(folder), "", _("override folder does not exist"))
    game_dir = folder / slug
    if not _is_folder(game_dir):
        if explicit:
            raise TableError(
                str(folder), "", _("no {slug}/ folder inside (write one with: referee tables export {slug} "
                                   "{folder})").format(slug=slug, folder=folder)
            )
        return base
    replaced = _read_dir(slug, game_dir, overridden=True)
    for name in replaced:
        if name not in base.files:
            known = ", ".join(sorted(base.files))
            raise TableError(str(game_dir / name), "", _("not a table of {slug} (tables: {known})").format(
                slug=slug, known=known))
    return TableSet(slug, {**base.files, **replaced})


def export_table_set(table_set: TableSet, folder: Path, force: bool = False) -> list[Path]:
    """Writes a game's table files under ``folder/<slug>/`` and returns the paths written. Each goes
    through a temporary beside it; files already there (edits, perhaps) are replaced only with
    ``force``, and every target is checked before the first is written.

    Raises:
        TableError: the folder cannot be written.
        OutputFileError: a file is already there (without ``force``), or is a game file.
    """
    target = folder / table_set.slug
    items = sorted(table_set.files.items())
    for name, _f in items:
        check_output(target / name, force=force, what="table file")
    written: list[Path] = []
    try:
        for name, f in items:
            path = target / name
            path.parent.mkdir(parents=True, exist_ok=True)
            write_output(path, f.text.encode("utf-8"), force=force, what="table file")
            written.append(path)
    except OSError as exc:
        raise TableError(str(target), "", _("cannot write: {reason}").format(reason=exc.strerror or exc)) from None
    return written


# ---------------------------------------------------------------------------------------------
# Parsing


def _first_error(exc: ValidationError) -> tuple[str, str]:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    msg = err["msg"].removeprefix("Value error, ")
    more = exc.error_count() - 1
    if more:
        msg += " " + ngettext("(+{n} more)", "(+{n} more)", more).format(n=more)
    return loc, msg


_PARSED: dict[str, object] = {}


def load_yaml_text(label: str, text: str) -> object:
    """Returns the data of a YAML text, read with the safe loader (parsed once per process).

    Raises:
        TableError: the text is not valid YAML.
    """
    key = hashlib.sha256(text.encode()).hexdigest()
    if key in _PARSED:
        return copy.deepcopy(_PARSED[key])
    try:
        data = files.parse_yaml(label, text)
    except InputFileError as exc:
        raise TableError(exc.file, exc.field, exc.problem) from None
    _PARSED[key] = data
    return copy.deepcopy(data)


def parse_yaml(label: str, text: str, model: type[ModelT]) -> ModelT:
    """Returns a YAML table validated against its schema.

    Raises:
        TableError: invalid YAML or a value the schema rejects (file: field: problem).
    """
    data = load_yaml_text(label, text)
    if not isinstance(data, dict):
        raise TableError(label, "", _("expected a mapping at the top level"))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        loc, msg = _first_error(exc)
        raise TableError(label, loc, msg) from None


def csv_rows(label: str, text: str) -> list[dict[str, str]]:
    """Returns a CSV table's rows as dicts, skipping ``#`` comment lines.

    Raises:
        TableError: no header, or a row with the wrong number of cells.
    """
    return [row for _line, row in csv_lines(label, text)]


def csv_lines(label: str, text: str) -> list[tuple[int, dict[str, str]]]:
    """Returns a CSV table's rows as dicts, each with its line number in the file as an editor
    counts it (comments and blank lines included), so an error names the line to fix.

    Raises:
        TableError: no header, or a line with the wrong number of cells.
    """
    kept = [(n, ln) for n, ln in enumerate(text.splitlines(), start=1)
            if ln.strip() and not ln.lstrip().startswith("#")]
    if not kept:
        raise TableError(label, "", _("no header row"))
    reader = csv.reader(io.StringIO("\n".join(ln for _n, ln in kept)))
    rows: list[tuple[int, dict[str, str]]] = []
    line = kept[0][0]
    try:
        header = [h.strip() for h in next(reader)]
        twice = sorted({h for h in header if header.count(h) > 1})
        if twice:  # a row read as a dict would keep only one of the two cells
            raise TableError(label, _("header"), _("the column {name} is written twice").format(name=repr(twice[0])))
        for cells in reader:
            line = kept[reader.line_num - 1][0]
            if len(cells) != len(header):
                problem = ngettext("has {n} cell, the header has {header}", "has {n} cells, the header has {header}",
                                   len(cells)).format(n=len(cells), header=len(header))
                raise TableError(label, _("line {n}").format(n=line), problem)
            rows.append((line, {h: c.strip() for h, c in zip(header, cells, strict=True)}))
    except csv.Error as exc:
        line = kept[min(reader.line_num, len(kept)) - 1][0]
        raise TableError(label, _("line {n}").format(n=line), _("not valid CSV: {problem}").format(
            problem=" ".join(str(exc).split()))) from None
    return rows


def parse_csv(label: str, text: str, model: type[ModelT]) -> list[ModelT]:
    """Returns a CSV table's rows validated against a row schema (empty cells become null).

    Raises:
        TableError: a missing or unknown column, or a value the schema rejects.
    """
    return [row for _line, row in parse_csv_lines(label, text, model)]


def parse_csv_lines(label: str, text: str, model: type[ModelT]) -> list[tuple[int, ModelT]]:
    """Returns :func:`parse_csv`'s rows, each with its line number in the file (for the cross-checks'
    errors).

    Raises:
        TableError: a missing or unknown column, or a value the schema rejects (names the line).
    """
    parsed: list[tuple[int, ModelT]] = []
    for line, row in csv_lines(label, text):
        data = {k: (v if v != "" else None) for k, v in row.items()}
        try:
            parsed.append((line, model.model_validate(data)))
        except ValidationError as exc:
            loc, msg = _first_error(exc)
            first = next(iter(row.values()), "")
            raise TableError(label, _("line {n} ({first}): {field}").format(n=line, first=first, field=loc),
                             msg) from None
    return parsed


def validation_error(label: str, exc: ValidationError) -> TableError:
    """Returns the one-line table error for a validation failure outside ``parse_*``."""
    loc, msg = _first_error(exc)
    return TableError(label, loc, msg)


# ---------------------------------------------------------------------------------------------
# Display


@dataclass(frozen=True)
class TableView:
    """A table file flattened for display: columns, rows, its source line, override flag."""

    name: str
    source: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    overridden: bool


def _source_line(text: str) -> str:
    lines: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not lines:
            if stripped.lower().startswith("# source:"):
                lines.append(stripped[len("# source:") :].strip())
            continue
        if not stripped.startswith("#") or not stripped[1:].strip():
            break
        lines.append(stripped[1:].strip())
    return " ".join(lines) if lines else "(no source line)"


def _flatten(node: object, path: str, provenance: str) -> Iterator[tuple[str, str, str]]:
    if isinstance(node, dict):
        prov = str(node.get("provenance", provenance))
        leaves = {k: v for k, v in node.items() if k != "provenance"}
        for key, value in leaves.items():
            yield from _flatten(value, f"{path}.{key}" if path else str(key), prov)
    elif isinstance(node, list) and any(isinstance(x, dict | list) for x in node):
        for i, item in enumerate(node):
            label = item.get("id", item.get("name", i)) if isinstance(item, dict) else i
            yield from _flatten(item, f"{path}[{label}]", provenance)
    else:
        text = ", ".join(str(x) for x in node) if isinstance(node, list) else str(node)
        yield path, text, provenance


def describe_table_set(table_set: TableSet) -> list[TableView]:
    """Returns every table file flattened to rows, with the provenance of each value.

    Raises:
        TableError: a file cannot be parsed.
    """
    views: list[TableView] = []
    for name, f in sorted(table_set.files.items()):
        label = table_set.label(name)
        if name.endswith(".csv"):
            rows = csv_rows(label, f.text)
            columns = tuple(rows[0]) if rows else ()
            body = tuple(tuple(r.values()) for r in rows)
        else:
            data = load_yaml_text(label, f.text)
            columns = (N_("entry"), N_("value"), N_("provenance"))  # headings, said in the reader's language
            body = tuple(_flatten(data, "", "-"))
        views.append(TableView(name, _source_line(f.text), columns, body, f.overridden))
    return views
