#!/usr/bin/env python3
"""Extract, update, check and compile the referee's message catalogs (Babel).

    python tools/i18n.py extract   # referee/locale/<area>.pot from the code and the table files
    python tools/i18n.py update    # merge the templates into fr and it (new entries empty)
    python tools/i18n.py check     # every entry translated, none fuzzy, placeholders alike
    python tools/i18n.py compile   # referee/locale/<lang>/LC_MESSAGES/referee.mo (the build does it too)

Which files hold messages, and how each is read, is the mapping config ``babel.cfg`` (Babel's
own format): Python sources through Babel's extractor, and named fields of the table files
(``tables/<slug>/*.yaml``: paraphrases, interpretations, notes players see) through
:func:`extract_yaml`.

Catalogs are split by area so that work on one game never touches another's file: each game
package (``referee/games/<pkg>/`` and the section paraphrases of ``tables/<slug>/rules.yaml``)
has ``<pkg>.po``; the table display (``referee/serve/``) has ``serve.po``; everything else (core,
CLI, vision) is ``referee.po``. At run time every
``*.po`` of a language is merged into one compiled catalog, ``referee.mo`` (the build hook
``hatch_build.py`` and ``compile`` run :func:`referee.i18n.write_catalogs`).

Marked text: ``_``, ``N_``, ``ngettext``, and the message templates of rulings
(``Ruling.violation``/``Ruling.event``: 2nd argument; ``Ruling.counted``: 2nd and 3rd). Every
message is formatted with ``str.format``: ``update`` drops the ``python-format`` flag Babel
guesses from a ``%`` in the text (``100 % scale``), which GNU ``msgfmt -c`` would then check.

``check`` prints one line per problem and exits 1; the test suite runs the same check.
"""

from __future__ import annotations

import copy
import re
import sys
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "referee" / "locale"
MAPPING = ROOT / "babel.cfg"
TRANSLATOR = "the referee's translators"
LANGS = ("fr", "it")
CORE = "referee"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "violation": (2,), "event": (2,), "counted": (2, 3),
            "plural_form": (1, 2)}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A code, not a message: one kebab-case word (an interpretation's option id, a ruling code)."""


def _games() -> dict[str, str]:
    """Returns slug → package of every game (read from the registry's source, no import)."""
    source = (ROOT / "referee" / "games" / "__init__.py").read_text(encoding="utf-8")
    return dict(re.findall(r'GameEntry\(\s*"([^"]+)",\s*"([^"]+)"', source))


def area_of(path: str) -> str:
    """Returns the catalog a source file's messages belong to (``referee/games/iliad/x.py``,
    ``referee/cli/games/iliad.py`` and ``tables/iliad/rules.yaml`` → iliad)."""
    parts = Path(path).parts
    if len(parts) > 3 and parts[:2] == ("referee", "games"):
        return parts[2]
    if len(parts) == 4 and parts[:3] == ("referee", "cli", "games") and parts[3] != "__init__.py":
        return Path(parts[3]).stem  # a game's own commands: its catalog
    if len(parts) > 2 and parts[:2] == ("referee", "serve"):
        return "serve"
    if len(parts) > 2 and parts[0] == "tables":
        return _games().get(parts[1], CORE)
    return CORE


def extract_yaml(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: object,
                 options: Mapping[str, str]) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel extraction method for table files: yields each string at the dotted paths of the
    ``keys`` option (``*``: any key or list item), its path as the translators' comment."""
    import yaml

    data = yaml.safe_load(fileobj.read().decode("utf-8")) or {}
    for key in (options.get("keys") or "").split():
        for where, value in _at(data, key.split("."), ()):
            if isinstance(value, str) and value.strip() and not CODE.fullmatch(value):
                yield 0, None, value, [_comment(where)]


def _comment(where: tuple[str, ...]) -> str:
    """Returns the translators' comment of a table field: where it is in the file."""
    if len(where) == 3 and where[0] == "sections" and where[2] == "summary":
        return f"paraphrase of section {where[1]}"
    return ".".join(where)


def _at(node: object, path: list[str], where: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], object]]:
    """Yields (path walked, value) for every value of ``node`` at ``path``; a list item is named by
    its ``id`` when it has one, else its index."""
    if not path:
        yield where, node
        return
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        items = list(node.items()) if head == "*" else [(head, node[head])] if head in node else []
        for key, value in items:
            yield from _at(value, rest, (*where, str(key)))
    elif isinstance(node, list) and head == "*":
        for i, value in enumerate(node):
            name = value.get("id", i) if isinstance(value, dict) else i
            yield from _at(value, rest, (*where, str(name)))


METHODS = {"yaml": extract_yaml}
"""Extraction methods of ``babel.cfg`` that are ours (Babel resolves its own, such as python)."""


def _extract() -> Iterator[tuple[str, str | tuple[str, str], str, int, list[str]]]:
    """Yields (area, message, file, line, comments) for every message the mapping config names,
    then the help texts of the command tree."""
    with MAPPING.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(MAPPING))
    methods: Any = [(pattern, METHODS.get(method, method)) for pattern, method in method_map]
    for filename, lineno, message, comments, _context in extract_from_dir(
        ROOT, method_map=methods, options_map=options_map, keywords=KEYWORDS, comment_tags=("i18n:",)
    ):
        where = Path(filename).as_posix()
        yield area_of(where), message, where, lineno, comments
    yield from _help_texts()


def _help_texts() -> Iterator[tuple[str, str | tuple[str, str], str, int, list[str]]]:
    """Yields the help of every command and option, walking the command tree the CLI translates
    (``referee.cli.command``); all of it is the ``referee`` area, game commands' help included."""
    import inspect

    import typer

    from referee.cli import app, helps, walk

    seen: set[str] = set()
    for path, command in walk(typer.main.get_command(app)):
        callback = inspect.unwrap(command.callback) if command.callback else None
        source = inspect.getsourcefile(callback) if callback else None
        where = Path(source).resolve().relative_to(ROOT).as_posix() if source else "referee/cli/__init__.py"
        line = callback.__code__.co_firstlineno if callback else 0
        name = " ".join(path)
        for attr, text, owner in helps(command):
            flag = getattr(owner, "opts", None)
            what = f"help of {name}" if owner is command else f"help of {name} {'/'.join(flag or ())}"
            comments = [] if text in seen else [what if attr == "help" else f"short {what}"]
            seen.add(text)
            yield CORE, text, where, line, comments


def templates() -> dict[str, Catalog]:
    """Returns one catalog of marked messages per area."""
    found: dict[str, Catalog] = {}
    for area, message, where, line, comments in _extract():
        catalog = found.setdefault(area, Catalog(project="referee", domain=area, charset="utf-8"))
        if isinstance(message, tuple) and not all(message):
            continue
        catalog.add(message, None, [(where, line)], auto_comments=comments)
    return found


def po_path(lang: str, area: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{area}.po"


def load(lang: str, area: str) -> Catalog:
    with po_path(lang, area).open("rb") as handle:
        return read_po(handle, locale=lang, domain=area)


def save(path: Path, catalog: Catalog) -> None:
    """Writes a catalog as GNU tools expect it: no ``python-format`` flag (every message is a
    ``str.format`` template; a ``%`` in one is text), a translator and a revision date."""
    for message in catalog:
        message.flags.discard("python-format")
    if catalog.locale is not None:
        catalog.last_translator = TRANSLATOR
        if not isinstance(catalog.revision_date, datetime):  # the template's placeholder
            catalog.revision_date = datetime.now(UTC).replace(second=0, microsecond=0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False,
                 ignore_obsolete=True)


def problems(tmpls: dict[str, Catalog]) -> list[str]:
    """Returns one line per missing, empty, fuzzy or mismatched entry in fr and it."""
    found: list[str] = []
    for lang in LANGS:
        for area, tmpl in sorted(tmpls.items()):
            if not po_path(lang, area).exists():
                found.append(f"{lang}: no catalog at {po_path(lang, area).relative_to(ROOT)}")
                continue
            catalog = load(lang, area)
            for message in tmpl:
                if not message.id:
                    continue
                entry = catalog.get(message.id, context=message.context)
                key = message.id if isinstance(message.id, str) else message.id[0]
                where = f"{lang}/{area}.po"
                if entry is None:
                    found.append(f"{where}: missing {key!r}")
                    continue
                if entry.fuzzy:
                    found.append(f"{where}: fuzzy {key!r}")
                sources = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
                if not all(strings):
                    found.append(f"{where}: untranslated {key!r}")
                    continue
                wanted = set(PLACEHOLDER.findall(sources[-1]))
                for text in strings:
                    got = set(PLACEHOLDER.findall(text))
                    if got != wanted and not (len(sources) > 1 and got <= wanted):
                        found.append(f"{where}: placeholders {sorted(got)} differ from {sorted(wanted)} in {key!r}")
            used = {m.id for m in tmpl if m.id}
            for entry in catalog:
                if entry.id and entry.id not in used:
                    key = entry.id if isinstance(entry.id, str) else entry.id[0]
                    found.append(f"{lang}/{area}.po: stale {key!r} (no longer in this area's code; run update)")
    return found


def disagreements() -> list[str]:
    """Returns one line per message translated differently in two areas of one language (the
    merged catalog would keep only one of them)."""
    found: list[str] = []
    for lang in LANGS:
        seen: dict[object, tuple[str, object]] = {}
        for path in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
            with path.open("rb") as handle:
                for entry in read_po(handle, locale=lang):
                    if not entry.id:
                        continue
                    first = seen.setdefault(entry.id, (path.stem, entry.string))
                    if first[1] != entry.string:
                        key = entry.id if isinstance(entry.id, str) else entry.id[0]
                        found.append(f"{lang}: {key!r} is {first[1]!r} in {first[0]}.po but "
                                     f"{entry.string!r} in {path.stem}.po")
    return found


def _known(lang: str) -> dict[object, object]:
    """Returns every translation of a language across its catalogs (to carry entries that move)."""
    known: dict[object, object] = {}
    for path in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and message.string and not message.fuzzy and (
                    all(message.string) if isinstance(message.string, tuple) else True
                ):
                    known.setdefault(message.id, message.string)
    return known


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    tmpls = templates()
    if command == "extract":
        for area, tmpl in sorted(tmpls.items()):
            save(LOCALE / f"{area}.pot", tmpl)
            print(f"referee/locale/{area}.pot: {len(tmpl)} messages")
        return 0
    if command == "update":
        for lang in LANGS:
            known = _known(lang)
            for area, tmpl in sorted(tmpls.items()):
                path = po_path(lang, area)
                catalog = load(lang, area) if path.exists() else Catalog(locale=lang, domain=area)
                # a copy per language: update() keeps the template's new messages themselves, so a
                # translation filled in for French would otherwise reach the Italian catalog too
                catalog.update(copy.deepcopy(tmpl), no_fuzzy_matching=True)
                for message in catalog:
                    if message.id and not (all(message.string) if isinstance(message.string, tuple)
                                           else message.string) and message.id in known:
                        message.string = known[message.id]  # type: ignore[assignment]
                save(path, catalog)
                print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")
        return 0
    if command == "compile":
        from referee.i18n import write_catalogs

        for path in write_catalogs(LOCALE):
            print(f"{path.relative_to(ROOT)}: compiled")
        return 0
    if command == "check":
        lines = problems(tmpls) + disagreements()
        for line in lines:
            print(line)
        print("catalogs complete" if not lines else f"{len(lines)} problem(s)")
        return 1 if lines else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
