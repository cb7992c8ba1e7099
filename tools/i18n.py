#!/usr/bin/env python3
"""Extract, update and check the referee's message catalogs (Babel).

    python tools/i18n.py extract   # referee/locale/<area>.pot from the code and rules.yaml
    python tools/i18n.py update    # merge the templates into fr and it (new entries empty)
    python tools/i18n.py check     # every entry translated, none fuzzy, placeholders alike

Catalogs are split by area so that work on one game never touches another's file: each game
package (``referee/games/<pkg>/`` and the section paraphrases of ``tables/<slug>/rules.yaml``)
has ``<pkg>.po``; the table display (``referee/serve/``) has ``serve.po``; everything else (core,
CLI, vision) is ``referee.po``. At run time every
``*.po`` of a language is merged into one catalog (``referee.i18n.translations``).

Marked text: ``_``, ``N_``, ``ngettext``, and the message templates of rulings
(``Ruling.violation``/``Ruling.event``: 2nd argument; ``Ruling.counted``: 2nd and 3rd).

``check`` prints one line per problem and exits 1; the test suite runs the same check.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "referee" / "locale"
LANGS = ("fr", "it")
CORE = "referee"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "violation": (2,), "event": (2,), "counted": (2, 3)}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _games() -> dict[str, str]:
    """Returns slug → package of every game (read from the registry's source, no import)."""
    source = (ROOT / "referee" / "games" / "__init__.py").read_text(encoding="utf-8")
    return dict(re.findall(r'GameEntry\(\s*"([^"]+)",\s*"([^"]+)"', source))


def area_of(path: str) -> str:
    """Returns the catalog a source file's messages belong to (``referee/games/iliad/x.py`` and
    ``referee/cli/games/iliad.py`` → iliad)."""
    parts = Path(path).parts
    if len(parts) > 3 and parts[:2] == ("referee", "games"):
        return parts[2]
    if len(parts) == 4 and parts[:3] == ("referee", "cli", "games") and parts[3] != "__init__.py":
        return Path(parts[3]).stem  # a game's own commands: its catalog
    if len(parts) > 2 and parts[:2] == ("referee", "serve"):
        return "serve"
    return CORE


def _extract() -> Iterator[tuple[str, str | tuple[str, str], str, int, list[str]]]:
    """Yields (area, message, file, line, comments) for every marked message."""
    for folder in ("referee", "vision"):
        base = ROOT / folder
        for filename, lineno, message, comments, _context in extract_from_dir(
            base, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",)
        ):
            where = f"{folder}/{filename}"
            yield area_of(where), message, where, lineno, comments
    yield from _help_texts()
    for slug, package in _games().items():
        rules = ROOT / "tables" / slug / "rules.yaml"
        if not rules.exists():
            continue
        data = yaml.safe_load(rules.read_text(encoding="utf-8")) or {}
        for key, section in (data.get("sections") or {}).items():
            if isinstance(section, dict) and section.get("summary"):
                where = f"tables/{slug}/rules.yaml"
                yield package, section["summary"], where, 0, [f"paraphrase of section {key}"]


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
                catalog.update(tmpl, no_fuzzy_matching=True)
                for message in catalog:
                    if message.id and not (all(message.string) if isinstance(message.string, tuple)
                                           else message.string) and message.id in known:
                        message.string = known[message.id]  # type: ignore[assignment]
                save(path, catalog)
                print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")
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
