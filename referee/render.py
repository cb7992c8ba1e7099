"""Rich renderables for the CLI: boards, verdicts, records, logs, tables, dice reports.

The only engine-side module that imports rich. Everything here turns a value the engine
returned into terminal output; nothing here decides a rule. Every value is put in a ``Text``
(never a markup string): names, reasons and notes from users and files are data, not markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from referee.game import ActionRecord, BoardView, MapView
from referee.journal import DiceReport, Entry, Reveal, UndoResult
from referee.rulings import Rules, Ruling, Verdict
from referee.tables import TableView

CELL_WIDTH = 6
_MARK = {"plain": " ", "forest": "♣", "hill": "▲"}


class Explains(Protocol):
    """A game-specific report that explains itself in plain lines."""

    def explain(self) -> list[str]:
        """Returns the report as lines of text."""
        ...


def hex_colour(rgb: Sequence[int]) -> str:
    """Returns ``#rrggbb`` for an RGB triple."""
    r, g, b = (int(x) for x in rgb[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _ink(rgb: Sequence[int]) -> str:
    r, g, b = (int(x) for x in rgb[:3])
    return "black" if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else "white"


def board(view: BoardView | MapView, legend: bool = True) -> RenderableType:
    """Returns the board as coloured text: terrain backgrounds, counters in side colours.

    Boards wider than 16 columns use 4-character cells (a terrain mark and a 3-letter label).
    """
    if isinstance(view, MapView):
        return map_table(view)
    width = CELL_WIDTH if view.cols <= 16 else 4
    marks = {**_MARK, **view.terrain_marks}
    lines: list[Text] = []
    head = Text(" " * 3, no_wrap=True, overflow="ignore")  # a wide board extends past 80 columns
    for label in view.col_labels:
        head.append(label.center(width)[:width], style="bold")
    lines.append(head)
    for r in range(view.rows):
        line = Text(f"{view.row_labels[r]:>2} ", style="bold", no_wrap=True, overflow="ignore")
        for c in range(view.cols):
            cell = view.cells[r * view.cols + c]
            rgb = view.terrain_colours.get(cell.terrain, (200, 200, 200))
            bg = hex_colour(rgb)
            base = f"{_ink(rgb)} on {bg}"
            line.append(marks.get(cell.terrain, "?"), style=base)
            if cell.label and cell.side:
                side_rgb = view.side_colours.get(cell.side, (90, 90, 90))
                line.append(cell.label[:3].ljust(3), style=f"bold white on {hex_colour(side_rgb)}")
                if width > 4 and cell.second_label:
                    line.append("*", style=f"bold red on {bg}")
                elif width > 4:
                    line.append(" ", style=base)
            else:
                line.append(" · " if width == 4 else " ·  ", style=base)
            if width > 4:
                line.append(" ", style=base)
        lines.append(line)
    parts: list[RenderableType] = [Text(view.title, style="bold"), *lines]
    left, right = view.edges[3], view.edges[1]
    if left or right:
        span = 3 + view.cols * width - len(right) - 2
        parts.append(Text(f"   ← {left}".ljust(span) + f"{right} →", style="dim"))
    terrain = "   ".join(f"{marks.get(t, '?')} {t}" for t in view.terrain_colours)
    combat = "   * pending combat" if width > 4 else ""
    parts.append(Text(f"   terrain: {terrain}{combat}", style="dim"))
    if legend and view.legend:
        parts.append(_legend(view))
    for status in view.status:
        parts.append(Text(status, style="bold cyan"))
    return Group(*parts)


def map_table(view: MapView) -> RenderableType:
    """Returns a non-grid board (a city map) as a table, then its status lines."""
    table = Table(title=Text(view.title), title_justify="left", show_edge=False, header_style="bold")
    for col in view.columns:
        table.add_column(Text(col))
    for row in view.rows:
        table.add_row(*(Text(x) for x in row))
    parts: list[RenderableType] = [table]
    parts += [Text(n, style="dim") for n in view.notes]
    parts += [Text(s, style="bold cyan") for s in view.status]
    return Group(*parts)


def _legend(view: BoardView) -> RenderableType:
    table = Table.grid(padding=(0, 2))
    sides = list(view.side_colours)
    for _ in sides:
        table.add_column()
    columns: list[list[Text]] = []
    for side in sides:
        entries = [item for item in view.legend if item[2] == side]
        colour = hex_colour(view.side_colours[side])
        col = [Text(side.capitalize(), style=f"bold {colour}")]
        col += [Text.assemble((short, f"bold white on {colour}"), f" {name}") for short, name, _ in entries]
        columns.append(col)
    depth = max((len(c) for c in columns), default=0)
    for i in range(depth):
        table.add_row(*[c[i] if i < len(c) else Text("") for c in columns])
    return table


def cites_text(cites: Iterable[object]) -> str:
    """Returns '(V Movement; VI Combat)' for a ruling's citations."""
    items = [str(c) for c in cites]
    return f" ({'; '.join(items)})" if items else ""


def ruling_line(ruling: Ruling, mark: str, style: str) -> Text:
    """Returns one ruling as a line: mark, message, code, citations."""
    code, cites = (f" [{ruling.code}]", "dim"), (cites_text(ruling.cites), "dim")
    return Text.assemble((f"{mark} ", style), ruling.message, code, cites)


def verdict(v: Verdict, rules: Rules | None = None, explain: bool = False) -> RenderableType:
    """Returns a verdict: legal or not, every violation, what it triggers, what it relied on."""
    parts: list[RenderableType] = []
    if v.legal:
        parts.append(Text.assemble(("✓ legal: ", "bold green"), v.action))
    else:
        parts.append(Text.assemble(("✗ illegal: ", "bold red"), v.action))
    for r in v.violations:
        parts.append(ruling_line(r, "  ✗", "red"))
    for r in v.notes:
        parts.append(ruling_line(r, "  →", "cyan"))
    parts += _provisional(v.provisional)
    if explain and rules is not None:
        parts += _explain([*v.violations, *v.notes], rules)
    return Group(*parts)


def _provisional(items: Sequence[str]) -> list[Text]:
    return [Text(f"  ⚠ relies on {p}", style="yellow") for p in items]


def _explain(rulings: Sequence[Ruling], rules: Rules) -> list[Text]:
    seen: dict[str, Text] = {}
    for r in rulings:
        for ref in r.cites:
            if ref.section not in seen and ref.game == rules.game:
                seen[ref.section] = Text(f"  § {ref.section} {ref.title}: {rules.summary(ref)}", style="dim")
    return list(seen.values())


def violations_lines(v: Verdict) -> list[Text]:
    """Returns the stderr lines of a rejected action: one per violation."""
    return [
        Text.assemble(("✗ ", "bold red"), (f"{v.action}: ", "red"), r.message, (f" [{r.code}]", "dim"),
                      (cites_text(r.cites), "dim"))
        for r in v.violations
    ]


def record(rec: ActionRecord) -> RenderableType:
    """Returns what an accepted action did: its rolls, events and disclosures."""
    parts: list[RenderableType] = [Text.assemble(("✓ ", "bold green"), rec.action,
                                                 (f"  ({rec.side})" if rec.side else "", "dim"))]
    for roll in rec.rolls:
        faces = "+".join(str(f) for f in roll.faces)
        parts.append(Text(f"  🎲 {roll.purpose}: {faces} ({roll.source})", style="magenta"))
    for e in rec.events:
        parts.append(ruling_line(e, "  →", "cyan"))
    parts += _provisional(rec.provisional)
    return Group(*parts)


def log(entries: Sequence[Entry]) -> RenderableType:
    """Returns the journal as a table (undone entries struck through)."""
    table = Table(show_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("side")
    table.add_column("entry")
    table.add_column("details")
    for e in entries:
        style = "strike dim" if e.undone else ("yellow" if e.kind == "adjust" else "")
        text = e.text if e.kind != "adjust" else f"adjust {e.text}"
        details: list[str] = []
        if e.reason:
            details.append(f"reason: {e.reason}")
        if e.forced:
            details.append("forced")
        for r in e.rolls:
            details.append(f"🎲 {r.purpose} {'+'.join(map(str, r.faces))} {r.source}")
        if e.record:
            details += [ev.message for ev in e.record.events if ev.code not in ("route",)]
        if e.undone:
            details.append("(undone)")
        table.add_row(str(e.seq), Text(e.side or ""), Text(text, style=style), Text("\n".join(details)))
    return table


def tables(views: Sequence[TableView], slug: str) -> RenderableType:
    """Returns every table file with its values and their provenance."""
    parts: list[RenderableType] = []
    for v in views:
        title = f"{slug}/{v.name}" + ("  (overridden by your --tables copy)" if v.overridden else "")
        table = Table(title=Text(title), caption=Text(f"Source: {v.source}"), title_justify="left",
                      caption_justify="left", show_edge=False, header_style="bold")
        for col in v.columns:
            table.add_column(Text(col))
        for row in v.rows:
            cells = [Text(x, style=_prov_style(x)) if col == "provenance" else Text(x)
                     for x, col in zip(row, v.columns, strict=False)]
            table.add_row(*cells)
        parts.append(table)
        parts.append(Text(""))
    return Group(*parts)


def _prov_style(value: str) -> str:
    return {"rulebook": "green", "secondary": "cyan", "interpretation": "yellow",
            "provisional": "bold yellow", "reconstruction": "bold yellow"}.get(value, "")


def explains(report: Explains) -> RenderableType:
    """Returns a game-specific report's own lines."""
    return Group(*[Text(line) for line in report.explain()])


def undo(result: UndoResult) -> RenderableType:
    """Returns what an undo or redo did."""
    forced = " (forced, logged)" if result.forced else ""
    return Text.assemble((f"↶ {result.kind}: " if result.kind == "undo" else "↷ redo: ", "bold"),
                         result.target.text, (forced, "yellow"))


def reveal(r: Reveal) -> RenderableType:
    """Returns a revealed seed and the new commitment."""
    return Group(
        Text(f"seed {r.epoch}: {r.seed}", style="bold"),
        Text(f"commitment (SHA-256 of the seed): {r.commitment}"),
        Text(f"{r.rolls} digital roll(s) were derived from it; check them with: referee dice verify FILE"),
        Text(f"new commitment for later rolls: {r.next_commitment}", style="dim"),
    )


def dice_report(report: DiceReport) -> RenderableType:
    """Returns the result of a dice verification."""
    ok = sum(1 for c in report.checks if c.status == "ok")
    bad = [c for c in report.checks if c.status == "mismatch"]
    hidden = sum(1 for c in report.checks if c.status == "unrevealed")
    parts: list[RenderableType] = []
    for epoch in report.bad_commitments:
        parts.append(Text(f"✗ seed {epoch} does not match its commitment", style="bold red"))
    for c in bad:
        parts.append(Text(f"✗ entry {c.seq} roll {c.index} {c.purpose!r}: recorded {c.recorded}, "
                          f"derived {c.derived}", style="red"))
    verdict_style = "bold green" if report.ok else "bold red"
    parts.append(Text(f"{'✓' if report.ok else '✗'} {ok} digital roll(s) verified, {len(bad)} mismatch(es), "
                      f"{hidden} awaiting a seed reveal, {report.physical} physical", style=verdict_style))
    return Group(*parts)


def to_console(console: Console, renderable: RenderableType) -> None:
    """Prints a renderable (one place to change how output is written)."""
    console.print(renderable)
