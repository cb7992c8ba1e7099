"""Disclosures said once: the stand-ins a game relies on, and one short marker per ruling.

``referee tables GAME`` lists every uncertain value and reading of the game's tables
(:func:`inventory`); a new game (``referee new``) counts them in one line (:func:`counts`). A
ruling afterwards prints one line (:func:`marker`): the values that decided its outcome by name
(the game's ``GameInfo.decisive`` files, such as a stand-in combat result table), the readings
by id, the rest as a count pointing where the complete list is (``referee why`` for a journaled
ruling, ``--explain`` otherwise). ``--explain``, ``referee why`` and ``--json`` give the
complete list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from referee.i18n import _, ngettext
from referee.phrases import SECTION, say
from referee.rulings import UNCERTAIN, RulesIndex
from referee.tables import TableSet, TableView, describe_table_set, parse_yaml

MAX_NAMES = 8
"""Most entry names listed for one table file before the rest is counted."""


def decisive(items: Sequence[str], files: Sequence[str]) -> list[str]:
    """Returns the disclosures that come from a file whose values decide outcomes.

    >>> decisive(["combat_results.csv: 1 to 2 → defender-retreats (provisional)", "terrain.yaml: x"],
    ...          ["combat_results.csv"])
    ['combat_results.csv: 1 to 2 → defender-retreats (provisional)']
    """
    return [item for item in items if any(item.startswith(f"{name}:") for name in files)]


class ReliesOn(str):
    """A report line saying what the report relied on (its ⚠ line): told apart from the report's
    findings by its type, never by its text, so the command line can replace such lines with
    one marker line in any language."""

    __slots__ = ()


def relies_on_lines(items: Sequence[str]) -> list[str]:
    """Returns one ⚠ line per stand-in or reading a report relied on, in the active language."""
    return [ReliesOn(_("⚠ relies on {what}").format(what=say(p))) for p in items]


Hint = Literal["why", "explain"]
"""Where a marker sends the reader for the complete list: ``referee why`` for a ruling the game
file journaled, ``--explain`` for one it did not (a judge, a refusal, an umpire's position)."""


def reading_ids(items: Sequence[str]) -> list[str]:
    """Returns the interpretation ids among disclosures, in order.

    >>> reading_ids(["terrain.yaml: x (provisional)", "interpretation engaged-archer: any-combat"])
    ['engaged-archer']
    """
    return [item.split(":", 1)[0].removeprefix("interpretation ") for item in items
            if item.startswith("interpretation ")]


def marker(items: Sequence[str], files: Sequence[str], hint: Hint = "why") -> str | None:
    """Returns the one line a ruling shows for its disclosures, or None when it relies on none:
    the stand-ins of deciding files in full, the readings by id, the rest counted.

    >>> marker(["terrain.yaml: every terrain costs 1", "combat_values.csv: x = 4 (provisional)"], [])
    "⚠ 2 stand-ins, see 'referee why'"
    >>> marker(["combat_values.csv: cavalry = 4 (provisional)", "x"], ["combat_values.csv"])
    "⚠ decided by a stand-in: combat_values.csv: cavalry = 4 (provisional); 1 more, see 'referee why'"
    >>> marker(["interpretation engaged-archer: any-combat", "terrain.yaml: x"], [], "explain")
    '⚠ reading engaged-archer; 1 stand-in, see --explain'
    """
    if not items:
        return None
    named = decisive(items, files)
    readings = reading_ids([i for i in items if i not in named])
    rest = len(items) - len(named) - len(readings)
    parts: list[str] = []
    if named:
        parts.append(_("decided by a stand-in: {values}").format(values="; ".join(say(n) for n in named)))
    if readings:
        parts.append(ngettext("reading {ids}", "readings {ids}", len(readings)).format(ids=", ".join(readings)))
    if rest:
        parts.append((ngettext("{n} more", "{n} more", rest) if named else
                      ngettext("{n} stand-in", "{n} stand-ins", rest)).format(n=rest))
    line = "⚠ " + "; ".join(parts)
    if readings or rest:
        line += ", " + (_("see 'referee why'") if hint == "why" else _("see --explain"))
    return line


def inventory(table_set: TableSet) -> list[str]:
    """Returns one line per table file holding uncertain values, then one per interpretation and
    per uncertain rule section of ``rules.yaml`` (as every game reads it, overrides included).

    Raises:
        TableError: a file cannot be parsed.
    """
    lines: list[str] = []
    for view in describe_table_set(table_set):
        if view.name == "rules.yaml":
            continue
        line = _file_line(view)
        if line:
            lines.append(line)
    if "rules.yaml" in table_set.files:
        index = parse_yaml(table_set.label("rules.yaml"), table_set.text("rules.yaml"), RulesIndex)
        for key, section in index.sections.items():
            if section.provenance in UNCERTAIN:
                lines.append(SECTION.format(key=key, title=section.title, provenance=section.provenance))
        lines += [item.label() for item in index.interpretations]
    return lines


def counts(table_set: TableSet) -> tuple[int, int]:
    """Returns how many readings (interpretations) and how many stand-in values (uncertain table
    values and rule sections) a game's tables hold: the one line ``referee new`` shows.

    Raises:
        TableError: a file cannot be parsed.
    """
    values = 0
    for view in describe_table_set(table_set):
        if view.name == "rules.yaml" or "provenance" not in view.columns:
            continue
        at = view.columns.index("provenance")
        values += sum(1 for row in view.rows if at < len(row) and row[at] in UNCERTAIN)
    readings = 0
    if "rules.yaml" in table_set.files:
        index = parse_yaml(table_set.label("rules.yaml"), table_set.text("rules.yaml"), RulesIndex)
        values += sum(1 for s in index.sections.values() if s.provenance in UNCERTAIN)
        readings = len(index.interpretations)
    return readings, values


def _file_line(view: TableView) -> str | None:
    """Returns "file: names (provenance); names (provenance)" for a file's uncertain entries."""
    if "provenance" not in view.columns:
        return None
    at = view.columns.index("provenance")
    groups: dict[str, dict[str, None]] = {}
    counts: dict[str, int] = {}
    for row in view.rows:
        prov = row[at] if at < len(row) else ""
        if prov not in UNCERTAIN:
            continue
        counts[prov] = counts.get(prov, 0) + 1
        groups.setdefault(prov, {})[_entry_name(view, row)] = None
    if not groups:
        return None
    parts = []
    for prov, names in groups.items():
        listed = [n for n in names if n]
        if not listed or len(listed) > MAX_NAMES:
            shown = f"{counts[prov]} values" if view.columns[0] == "entry" else f"{counts[prov]} rows"
        else:
            shown = ", ".join(listed)
        parts.append(f"{shown} ({prov})")
    return f"{view.name}: {'; '.join(parts)}"


def _entry_name(view: TableView, row: tuple[str, ...]) -> str:
    """Returns what names a row: a YAML entry's first two keys, or a CSV row's first word column."""
    if view.columns and view.columns[0] == "entry":
        return ".".join(part.split("[", 1)[0] for part in row[0].split(".")[:2])
    first = row[0] if row else ""
    try:
        float(first)
    except ValueError:
        return first
    return ""  # a numeric key (a band's bound) names nothing: the rows are counted
