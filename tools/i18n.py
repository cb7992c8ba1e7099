#!/usr/bin/env python3
"""Extract, update and check the referee's message catalogs (Babel).

    python tools/i18n.py extract   # referee/locale/referee.pot from the code (_, N_, ngettext)
    python tools/i18n.py update    # merge the template into fr and it (new entries empty)
    python tools/i18n.py check     # every entry translated, none fuzzy, placeholders alike

``check`` prints one line per problem and exits 1; the test suite runs the same check.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "referee" / "locale"
TEMPLATE = LOCALE / "referee.pot"
LANGS = ("fr", "it")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def template() -> Catalog:
    """Returns a catalog of every marked message in referee/ and vision/."""
    catalog = Catalog(project="referee", domain="referee", charset="utf-8")
    for folder in ("referee", "vision"):
        base = ROOT / folder
        for filename, lineno, message, comments, context in extract_from_dir(
            base, method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",)
        ):
            catalog.add(message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "referee.po"


def load(lang: str) -> Catalog:
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang, domain="referee")


def save(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False)


def problems(tmpl: Catalog) -> list[str]:
    """Returns one line per missing, empty, fuzzy or mismatched entry in fr and it."""
    found: list[str] = []
    for lang in LANGS:
        if not po_path(lang).exists():
            found.append(f"{lang}: no catalog at {po_path(lang).relative_to(ROOT)}")
            continue
        catalog = load(lang)
        for message in tmpl:
            if not message.id:
                continue
            entry = catalog.get(message.id, context=message.context)
            key = message.id if isinstance(message.id, str) else message.id[0]
            if entry is None:
                found.append(f"{lang}: missing {key!r}")
                continue
            if entry.fuzzy:
                found.append(f"{lang}: fuzzy {key!r}")
            sources = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            if not all(strings):
                found.append(f"{lang}: untranslated {key!r}")
                continue
            wanted = set(PLACEHOLDER.findall(sources[-1]))
            for text in strings:
                got = set(PLACEHOLDER.findall(text))
                if got != wanted and not (len(sources) > 1 and got <= wanted):
                    found.append(f"{lang}: placeholders {sorted(got)} differ from {sorted(wanted)} in {key!r}")
    return found


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    tmpl = template()
    if command == "extract":
        save(TEMPLATE, tmpl)
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(tmpl)} messages")
        return 0
    if command == "update":
        save(TEMPLATE, tmpl)
        for lang in LANGS:
            catalog = load(lang) if po_path(lang).exists() else Catalog(locale=lang, domain="referee")
            catalog.update(tmpl, no_fuzzy_matching=True)
            save(po_path(lang), catalog)
            print(f"{po_path(lang).relative_to(ROOT)}: {len(catalog)} messages")
        return 0
    if command == "check":
        lines = problems(tmpl)
        for line in lines:
            print(line)
        print("catalogs complete" if not lines else f"{len(lines)} problem(s)")
        return 1 if lines else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
