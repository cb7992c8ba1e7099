"""Rich renderables for the CLI: boards, verdicts, records, logs, tables, dice reports.

The only engine-side module that imports rich. Everything here turns a value the engine
returned into terminal output; nothing here decides a rule. Every value is put in a ``Text``
(never a markup string): names, reasons and notes from users and files are data, not markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from referee.dice_verify import DiceReport
from referee.disclosures import Hint, marker
from referee.game import ActionRecord, BoardView, CellView, MapView, TerrainStyle
from referee.i18n import N_, _, ngettext
from referee.journal import Entry, Reveal, UndoResult
from referee.notation import Grammar
from referee.phrases import say
from referee.rulings import Ruling, Verdict, section_summary
from referee.tables import TableView

CELL_WIDTH = 6
HEX_STEP = 4
"""Characters between two neighbouring hex columns (a hex is drawn 8 wide, on alternate lines)."""
HIDDEN = "▒▒▒"
"""What a face-down counter shows instead of its label."""


class Explains(Protocol):
    """A game-specific report that explains itself in lines of text."""

    def explain(self) -> list[str]:
        """Returns the report as lines of text."""
        ...


def hex_colour(rgb: Sequence[int]) -> str:
    """Returns ``#rrggbb`` for an RGB triple."""
    r, g, b = (int(x) for x in rgb[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


_UNKNOWN = TerrainStyle(colour=(200, 200, 200), mark="?")


def _ink(rgb: Sequence[int]) -> str:
    r, g, b = (int(x) for x in rgb[:3])
    return "black" if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else "white"


def board(view: BoardView | MapView, legend: bool = True, cols: tuple[int, int] | None = None) -> RenderableType:
    """Returns the board as coloured text: terrain backgrounds, counters in side colours.

    A square board uses 6-character cells (4 or 5 on boards wider than 16 columns); a hex map
    draws each hex as its 2-character terrain mark and a label, every other column half a row
    lower. Sides also differ without colour: the view's side marks come before the labels.

    A board wider than the terminal shows the columns in play that fit (those holding the most
    counters) and says which, and how to see the others; ``cols`` (first and last, counted from
    1) chooses the columns shown.
    """
    if isinstance(view, MapView):
        return map_table(view)
    return _Board(view, legend, cols)


class _Board:
    """A board drawn for the width it is given: the whole grid when it fits, else a window of
    columns and a line saying which; every line but the grid's wraps to that width (a caller may
    print with ``soft_wrap`` so the grid's lines never wrap)."""

    def __init__(self, view: BoardView, legend: bool, cols: tuple[int, int] | None) -> None:
        self.view, self.legend, self.cols = view, legend, cols

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        view, width = self.view, options.max_width

        def fitted(*texts: Text) -> RenderResult:
            for text in texts:
                yield from text.wrap(console, width)

        yield from fitted(Text(view.title, style="bold"))
        if view.edges[0]:
            yield from fitted(Text(f"   ↑ {view.edges[0]}", style="dim"))
        shown = window(view, width, self.cols)
        lines = _hex_lines(view, shown) if view.layout == "hex" else _square_lines(view, shown)
        yield from lines
        if view.edges[2]:
            yield from fitted(Text(f"   ↓ {view.edges[2]}", style="dim"))
        left, right = view.edges[3], view.edges[1]
        if left or right:
            span = max(len(line) for line in lines) - len(right) - 2
            yield from fitted(Text(f"   ← {left}".ljust(span) + f"{right} →", style="dim"))
        if len(shown) < view.cols:
            first, last = view.col_labels[shown.start], view.col_labels[shown.stop - 1]
            yield from fitted(Text("   " + _(
                "columns {first}–{last} of {all} shown; the others: referee show --cols A-B; the whole board: "
                "referee show --png FILE").format(first=first, last=last, all=view.cols), style="yellow"))
        yield from fitted(*_key_lines(view, marks=view.layout == "hex" or _square_width(view) > 5))
        yield from fitted(*(Text(f"   {code}: {_(meaning)}", style="dim") for code, meaning in view.codes))
        if self.legend and view.legend:
            yield _legend(view)
        yield from fitted(*(Text(status, style="bold cyan") for status in view.status))


def window(view: BoardView, width: int, cols: tuple[int, int] | None = None) -> range:
    """Returns the zero-based columns drawn in ``width`` characters: ``cols`` (from 1, clamped) if
    given, else every column if they fit, else the run of columns that fit holding the most
    counters (the earliest on a tie).

    >>> tiny = BoardView("t", "square", 1, 40, ("A",), tuple(str(c + 1) for c in range(40)), (), {}, {})
    >>> window(tiny, 100), window(tiny, 100, (5, 9))
    (range(0, 32), range(4, 9))
    """
    if cols is not None:
        first = min(max(cols[0], 1), view.cols)
        return range(first - 1, min(max(cols[1], first), view.cols))
    fit = max(1, (width - 3) // HEX_STEP - 1) if view.layout == "hex" else max(1, (width - 3) // _square_width(view))
    if fit >= view.cols:
        return range(view.cols)
    counts = [0] * view.cols
    for cell in view.cells:
        if cell.counters or cell.marks:
            counts[cell.at[0]] += 1
    best = max(range(view.cols - fit + 1), key=lambda c: (sum(counts[c:c + fit]), -c))
    return range(best, best + fit)


def _square_width(view: BoardView) -> int:
    if view.cols <= 16:
        return CELL_WIDTH
    return 5 if view.side_marks else 4


def _label(view: BoardView, cell: CellView, width: int = 3) -> tuple[str, str]:
    """Returns the side mark and label drawn for a cell's top counter, and its style."""
    top = cell.counters[0]
    side_rgb = view.side_colours.get(top.side, (90, 90, 90))
    text = HIDDEN[:width] if top.hidden else top.label[:width].ljust(width)
    return view.side_marks.get(top.side, "") + text, f"bold white on {hex_colour(side_rgb)}"


def _square_lines(view: BoardView, shown: range) -> list[Text]:
    width = _square_width(view)
    by_place = view.cell_at()
    head = Text(" " * 3, no_wrap=True, overflow="ignore")
    for c in shown:
        head.append(view.col_labels[c].center(width)[:width], style="bold")
    lines = [head]
    for r in range(view.rows):
        line = Text(f"{view.row_labels[r]:>2} ", style="bold", no_wrap=True, overflow="ignore")
        for c in shown:
            cell = by_place[(c, r)]
            style = view.terrain.get(cell.terrain, _UNKNOWN)
            base = f"{_ink(style.colour)} on {hex_colour(style.colour)}"
            line.append(style.mark[:1], style=base)
            mark = view.marks[cell.marks[0]].symbol[:1] if cell.marks and cell.marks[0] in view.marks else " "
            if cell.counters:
                text, counter_style = _label(view, cell)
                line.append(text, style=counter_style)
                if width == 6:
                    line.append(mark, style=f"bold red on {hex_colour(style.colour)}")
                    if not view.side_marks:
                        line.append(" ", style=base)
            else:
                line.append(" · ", style=base)
                if width > 4:
                    line.append(" " if width == 5 else f" {mark}" if view.side_marks else f"{mark} ", style=base)
        lines.append(line)
    return lines


def _hex_lines(view: BoardView, shown: range) -> list[Text]:
    """Returns a hex map as text: two lines per row, the raised columns on the first, the lowered
    ones half a row below; each hex is its terrain mark, side mark, label and cell mark."""
    lowered = 0 if view.down == "even" else 1  # zero-based columns c with (c + lowered) % 2 == 1 sit lower
    by_place = view.cell_at()
    width = 2 * HEX_STEP
    lines: list[Text] = []
    for half in (0, 1):
        head = Text(" " * 3, no_wrap=True, overflow="ignore")
        for c in shown:
            if (c + lowered) % 2 == half:
                head.append(" " * (3 + HEX_STEP * (c - shown.start) - len(head)))
                head.append(view.col_labels[c].center(width)[:width], style="bold")
        lines.append(head)
    for r in range(view.rows):
        for half in (0, 1):
            label = f"{view.row_labels[r]:>2} " if half == 0 else "   "
            line = Text(label, style="bold", no_wrap=True, overflow="ignore")
            first = shown.start + (shown.start + lowered + half) % 2  # the line's first column in the window
            line.append(" " * (HEX_STEP * (first - shown.start)))
            for c in range(first, shown.stop, 2):
                cell = by_place[(c, r)]
                style = view.terrain.get(cell.terrain, _UNKNOWN)
                base = f"{_ink(style.colour)} on {hex_colour(style.colour)}"
                line.append(style.mark[:2].ljust(2), style=base)
                if cell.counters:
                    text, counter_style = _label(view, cell)
                    line.append(text.rjust(4), style=counter_style)
                else:
                    line.append(f" {cell.tag[:3]:^3}", style=f"bold {base}")
                mark = view.marks[cell.marks[0]].symbol[:1] if cell.marks and cell.marks[0] in view.marks else ""
                if not mark and len(cell.counters) > 1:
                    mark = str(min(len(cell.counters), 9))
                line.append(mark.ljust(1), style=f"bold red on {hex_colour(style.colour)}")
                line.append(" ")
            lines.append(line)
    return lines


def _key_lines(view: BoardView, marks: bool) -> list[Text]:
    """Returns the key under the board: terrain marks, cell marks, side marks, links."""
    # labels and side names come from the game; a game marks them with N_ so they follow the language
    terrain = "   ".join(f"{style.mark} {_(style.label or name)}" for name, style in view.terrain.items())
    kinds = "".join(f"   {m.symbol} {_(m.label)}" for m in view.marks.values()) if marks else ""
    out = [Text("   " + _("terrain: {terrain}").format(terrain=terrain + kinds), style="dim")]
    if len(out[0]) > 79 and kinds:  # the marks on a line of their own rather than wrapped mid-entry
        out = [Text("   " + _("terrain: {terrain}").format(terrain=terrain), style="dim"),
               Text("   " + _("marks:{marks}").format(marks=kinds), style="dim")]
    if view.side_marks:
        sides = "   ".join(f"{mark} {_(side)}" for side, mark in view.side_marks.items())
        out.append(Text("   " + _("sides: {sides}   {hidden} face down").format(sides=sides, hidden=HIDDEN),
                        style="dim"))
    links: dict[str, list[str]] = {}
    for link in view.links:
        links.setdefault(link.label, []).append(f"{link.a}–{link.b}")
    for label, pairs in links.items():
        out.append(Text(f"   {_(label)}: {', '.join(pairs)}", style="dim"))
    return out


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
    for _side in sides:
        table.add_column()
    columns: list[list[Text]] = []
    for side in sides:
        entries = [item for item in view.legend if item[2] == side]
        colour = hex_colour(view.side_colours[side])
        mark = view.side_marks.get(side, "")
        col = [Text(mark + _(side).capitalize(), style=f"bold {colour}")]
        col += [Text.assemble((mark + short, f"bold white on {colour}"), f" {name}") for short, name, _ in entries]
        columns.append(col)
    depth = max((len(c) for c in columns), default=0)
    for i in range(depth):
        table.add_row(*[c[i] if i < len(c) else Text("") for c in columns])
    return table


def cites_text(cites: Iterable[object]) -> str:
    """Returns "(II.3; V.1)" for a ruling's citations."""
    items = [str(c) for c in cites]
    return f" ({'; '.join(items)})" if items else ""


def ruling_line(ruling: Ruling, mark: str, style: str) -> Text:
    """Returns one ruling as a line: mark, message, code, citations."""
    code, cites = (f" [{ruling.code}]", "dim"), (cites_text(ruling.cites), "dim")
    return Text.assemble((f"{mark} ", style), ruling.text(), code, cites)


def verdict(v: Verdict, explain: bool = False, decisive: Sequence[str] = (), hint: Hint = "explain",
            grammar: Grammar | None = None) -> RenderableType:
    """Returns a verdict: legal or not, every violation, what it triggers, what it relied on (one
    marker line, or with ``explain`` the complete list and our summary of each cited section;
    ``decisive``: see :func:`disclosure`); with the game's grammar, the action in the active
    language."""
    parts: list[RenderableType] = []
    said = grammar.say(v.action) if grammar is not None else v.action
    if v.legal:
        parts.append(Text.assemble(("✓ " + _("legal:") + " ", "bold green"), said))
    else:
        parts.append(Text.assemble(("✗ " + _("illegal:") + " ", "bold red"), said))
    for r in v.violations:
        parts.append(ruling_line(r, "  ✗", "red"))
    for r in v.notes:
        parts.append(ruling_line(r, "  →", "cyan"))
    parts += disclosure(v.provisional, decisive, explain, hint)
    if explain:
        parts += summaries([*v.violations, *v.notes])
    return Group(*parts)


def disclosure(items: Sequence[str], decisive: Sequence[str] = (), explain: bool = False,
               hint: Hint = "why") -> list[Text]:
    """Returns what a ruling relied on: every item with ``explain``, else one marker line naming
    the stand-ins from the ``decisive`` files and the readings, and counting the rest (see
    :mod:`referee.disclosures`; ``hint``: where the complete list is)."""
    if explain:
        return [Text("  ⚠ " + _("relies on {item}").format(item=say(p)), style="yellow") for p in items]
    line = marker(items, decisive, hint)
    return [Text(f"  {line}", style="yellow")] if line else []


def summaries(rulings: Sequence[Ruling]) -> list[Text]:
    """Returns our one-line summary of each section the rulings cite, once each (``--explain``)."""
    seen: dict[tuple[str, str], Text] = {}
    for r in rulings:
        for ref in r.cites:
            key = (ref.game, ref.section)
            if key not in seen and (summary := section_summary(ref)) is not None:
                seen[key] = Text(f"  § {ref.label()}: {summary}", style="dim")
    return list(seen.values())


def resolution(events: Sequence[Ruling], provisional: Sequence[str], decisive: Sequence[str] = (),
               explain: bool = False, hint: Hint = "explain") -> RenderableType:
    """Returns what resolving a position did, as a game file's resolve says it: each event with
    its code and citations, what it relied on, and with ``explain`` the section summaries."""
    parts: list[RenderableType] = [ruling_line(e, "→", "cyan") for e in events]
    parts += disclosure(provisional, decisive, explain, hint)
    if explain:
        parts += summaries(events)
    return Group(*parts)


def violations_lines(v: Verdict, decisive: Sequence[str] = (), explain: bool = False,
                     grammar: Grammar | None = None) -> list[Text]:
    """Returns the stderr lines of a rejected action: one per violation, then what the refusal
    relied on (one marker line, or with ``explain`` every item and the section summaries); with
    the game's grammar, the action in the active language."""
    said = grammar.say(v.action) if grammar is not None else v.action
    lines = [
        Text.assemble(("✗ ", "bold red"), (_("{action}:").format(action=said) + " ", "red"), r.text(),
                      (f" [{r.code}]", "dim"), (cites_text(r.cites), "dim"))
        for r in v.violations
    ]
    lines += disclosure(v.provisional, decisive, explain, "explain")
    return lines + (summaries(v.violations) if explain else [])


def record(rec: ActionRecord, decisive: Sequence[str] = (), explain: bool = False,
           grammar: Grammar | None = None, hint: Hint = "why") -> RenderableType:
    """Returns what an accepted action did: its rolls, events and disclosures (one marker line,
    or with ``explain`` the complete list); with the game's grammar, the action in the active
    language."""
    said = grammar.say(rec.action) if grammar is not None else rec.action
    parts: list[RenderableType] = [Text.assemble(("✓ ", "bold green"), said,
                                                 (f"  ({_(rec.side)})" if rec.side else "", "dim"))]
    for roll in rec.rolls:
        faces = "+".join(str(f) for f in roll.faces)
        parts.append(Text("  🎲 " + _("{purpose}: {faces} ({source})").format(
            purpose=say(roll.purpose), faces=faces, source=_(roll.source)), style="magenta"))
    for e in rec.events:
        parts.append(ruling_line(e, "  →", "cyan"))
    parts += disclosure(rec.provisional, decisive, explain, hint)
    if explain:
        parts += summaries(rec.events)
    return Group(*parts)


def log(entries: Sequence[Entry], grammar: Grammar | None = None) -> RenderableType:
    """Returns the journal as a table (undone entries struck through); with the game's grammar,
    each action is written in the active language (the journal keeps the canonical notation)."""
    table = Table(show_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column(_("side"))
    table.add_column(_("entry"))
    table.add_column(_("details"))
    for e in entries:
        style = "strike dim" if e.undone else ("yellow" if e.kind == "adjust" else "")
        said = grammar.say(e.text) if grammar is not None else e.text
        text = said if e.kind != "adjust" else _("adjust {override}").format(override=said)
        details: list[str] = []
        if e.reason:
            details.append(_("reason: {reason}").format(reason=e.reason))
        if e.forced:
            details.append(_("forced"))
        for r in e.rolls:
            details.append(f"🎲 {say(r.purpose)} {'+'.join(map(str, r.faces))} {_(r.source)}")
        if e.record:
            details += [ev.text() for ev in e.record.events if ev.code not in ("route",)]
        if e.undone:
            details.append(_("(undone)"))
        table.add_row(str(e.seq), Text(_(e.side) if e.side else ""), Text(text, style=style), Text("\n".join(details)))
    return table


def tables(views: Sequence[TableView], slug: str) -> RenderableType:
    """Returns every table file with its values and their provenance."""
    parts: list[RenderableType] = []
    for v in views:
        title = f"{slug}/{v.name}" + ("  " + _("(overridden by your --tables copy)") if v.overridden else "")
        caption = Text(_("Source: {source}").format(source=v.source))
        table = Table(title=Text(title), caption=caption, title_justify="left", caption_justify="left",
                      show_edge=False, header_style="bold")
        for col in v.columns:
            table.add_column(Text(_(col)))
        for row in v.rows:
            cells = [Text(x, style=_prov_style(x)) if col == "provenance" else Text(x)
                     for x, col in zip(row, v.columns, strict=False)]
            table.add_row(*cells)
        parts.append(table)
        parts.append(Text(""))
    return Group(*parts)


ROLL_SOURCES = (N_("digital"), N_("physical"))
"""Where a roll came from, as the log and records say it."""


def _prov_style(value: str) -> str:
    return {"rulebook": "green", "secondary": "cyan", "interpretation": "yellow",
            "provisional": "bold yellow", "reconstruction": "bold yellow"}.get(value, "")


def explains(report: Explains) -> RenderableType:
    """Returns a game-specific report's own lines."""
    return Group(*[Text(line) for line in report.explain()])


def undo(result: UndoResult) -> RenderableType:
    """Returns what an undo or redo did."""
    forced = " " + _("(forced, logged)") if result.forced else ""
    return Text.assemble(("↶ " + _("undo:") + " " if result.kind == "undo" else "↷ " + _("redo:") + " ", "bold"),
                         result.target.text, (forced, "yellow"))


def reveal(r: Reveal) -> RenderableType:
    """Returns a revealed seed and the new commitment."""
    return Group(
        Text(_("seed {epoch}: {seed}").format(epoch=r.epoch, seed=r.seed), style="bold"),
        Text(_("commitment (SHA-256 of the seed): {commitment}").format(commitment=r.commitment)),
        Text(ngettext("{n} digital roll was derived from it; check it with: referee dice verify FILE",
                      "{n} digital rolls were derived from it; check them with: referee dice verify FILE",
                      r.rolls).format(n=r.rolls)),
        Text(_("new commitment for later rolls: {commitment}").format(commitment=r.next_commitment), style="dim"),
    )


def dice_report(report: DiceReport) -> RenderableType:
    """Returns the result of a dice verification."""
    ok = sum(1 for c in report.checks if c.status == "ok")
    bad = [c for c in report.checks if c.status == "mismatch"]
    hidden = sum(1 for c in report.checks if c.status == "unrevealed")
    parts: list[RenderableType] = []
    for epoch in report.bad_commitments:
        parts.append(Text("✗ " + _("seed {epoch} does not match its commitment").format(epoch=epoch),
                          style="bold red"))
    for c in bad:
        parts.append(Text("✗ " + _("entry {seq} roll {index} {purpose}: recorded {recorded}, derived {derived}").format(
            seq=c.seq, index=c.index, purpose=repr(c.purpose), recorded=c.recorded, derived=c.derived), style="red"))
    verdict_style = "bold green" if report.ok else "bold red"
    counts = ", ".join((
        ngettext("{n} digital roll verified", "{n} digital rolls verified", ok).format(n=ok),
        ngettext("{n} mismatch", "{n} mismatches", len(bad)).format(n=len(bad)),
        ngettext("{n} awaiting a seed reveal", "{n} awaiting a seed reveal", hidden).format(n=hidden),
        ngettext("{n} physical", "{n} physical", report.physical).format(n=report.physical),
    ))
    parts.append(Text(f"{'✓' if report.ok else '✗'} {counts}", style=verdict_style))
    return Group(*parts)
