"""Label candidates, the summed label choice, questions, answers and the diagnosis of a photo no
legal turn explains."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.capture import Disagreement, Question
from referee.games.cyrus_pyxis.capture.report import FATE_ELIMINATED, FATE_OFF, SearchLimits, Seen
from referee.games.cyrus_pyxis.capture.search import ChainSearch, Explanation, side_of, word
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Kind, LegionId, Side
from referee.geometry.search import Cell
from referee.i18n import _, ngettext


def candidates_from(
    state: CyrusState,
    identity: Mapping[str, Mapping[str, float]] | None,
    limits: SearchLimits,
    answers: Sequence[tuple[Cell, LegionId]],
) -> dict[Cell, frozenset[LegionId]]:
    """Returns, per cell, the legions its counter label allows (cells without a reading: any)."""
    out: dict[Cell, frozenset[LegionId]] = {}
    grid = state.tables.grid
    if identity:
        for name, scores in identity.items():
            if not scores:
                continue
            ids = {state.tables.legion(n).name: s for n, s in scores.items()}
            best = max(ids.values())
            if best < limits.identity_floor:
                continue
            out[grid.parse(name)] = frozenset(
                n for n, s in ids.items() if s >= best - limits.identity_margin
            )
    for cell, lid in answers:
        out[cell] = frozenset({lid})
    return out


def pick_by_labels(
    state: CyrusState,
    groups: Sequence[Explanation],
    identity: Mapping[str, Mapping[str, float]],
    margin: float,
) -> tuple[Explanation, float] | None:
    """Returns the explanation the counter labels favour, and its lead, if the lead (summed
    label scores over the contested cells) reaches ``margin`` over every other explanation."""
    grid = state.tables.grid
    contested = sorted(contested_cells(groups))
    if not contested:
        return None
    totals: list[tuple[float, int]] = []
    for n, g in enumerate(groups):
        at = {c: lid for lid, c in g.state.where.items()}
        total = 0.0
        for cell in contested:
            lid = at.get(cell)
            if lid is None:
                continue
            scores = identity.get(grid.name(cell))
            if not scores or lid not in scores:
                return None  # a contested counter without a label reading: nothing to weigh
            total += scores[lid]
        totals.append((total, n))
    totals.sort(reverse=True)
    lead = totals[0][0] - totals[1][0]
    if lead < margin:
        return None
    return groups[totals[0][1]], lead


def contested_cells(groups: Sequence[Explanation]) -> dict[Cell, set[LegionId]]:
    """Returns the cells on which the explanations put different legions, with those legions."""
    who: dict[Cell, set[LegionId | None]] = {}
    cells = {c for g in groups for c in g.state.where.values()}
    for g in groups:
        at = {c: lid for lid, c in g.state.where.items()}
        for cell in cells:
            who.setdefault(cell, set()).add(at.get(cell))
    return {c: {x for x in names if x is not None} for c, names in who.items() if len(names) > 1}


def ask(state: CyrusState, groups: Sequence[Explanation]) -> list[Question]:
    grid = state.tables.grid
    out: list[Question] = []
    winners = {g.state.winner for g in groups}
    if len(winners) > 1:
        for lg in state.tables.legions:
            if (
                lg.kind is Kind.KING
                and lg.name in state.where
                and all(lg.name not in g.state.where for g in groups)
            ):
                edge = _("West") if lg.side is Side.PERSIAN else _("East")
                out.append(
                    Question(
                        cell=None,
                        options=(FATE_OFF, FATE_ELIMINATED),
                        text=_("did {legion} leave the board by the {edge} edge ({off}) or fall in combat "
                               "({eliminated})?").format(legion=lg.name, edge=edge, off=FATE_OFF,
                                                         eliminated=FATE_ELIMINATED),
                    )
                )
    for cell, names in sorted(contested_cells(groups).items()):
        if len(names) < 2:
            continue
        ordered = sorted(names)
        name = grid.name(cell)
        text = _("which legion is on {cell}: {some} or {last}?").format(
            cell=name, some=", ".join(ordered[:-1]), last=ordered[-1])
        out.append(Question(cell=name, text=text, options=tuple(ordered)))
    return out


def hidden_questions(final: CyrusState, hidden: Sequence[Cell]) -> list[Question]:
    grid = final.tables.grid
    out: list[Question] = []
    for cell in hidden:
        here = [lid for lid, c in final.where.items() if c == cell]
        name = grid.name(cell)
        text = (
            _("{cell} is not clear in the photo: is {legion} there?").format(cell=name, legion=here[0])
            if here
            else _("{cell} is not clear in the photo: is it empty now?").format(cell=name)
        )
        out.append(Question(cell=name, text=text, options=tuple(here)))
    return out


def parse_answers(
    state: CyrusState, answers: Mapping[str, str]
) -> tuple[list[tuple[Cell, LegionId]], dict[LegionId, str]]:
    """Splits answers into 'CELL: legion there' and 'LEGION: off | eliminated | CELL'.

    Raises:
        UnknownNameError: an unknown cell or legion.
    """
    grid = state.tables.grid
    placed: list[tuple[Cell, LegionId]] = []
    fates: dict[LegionId, str] = {}
    for key, value in answers.items():
        if grid.is_cell_name(key):
            placed.append((grid.parse(key), state.tables.legion(value).name))
            continue
        lid = state.tables.legion(key).name
        word = value.strip().lower()
        if word in (FATE_OFF, FATE_ELIMINATED):
            fates[lid] = word
        else:
            cell = grid.parse(value)
            placed.append((cell, lid))
            fates[lid] = grid.name(cell)
    return placed, fates


def fits_answers(final: CyrusState, fates: Mapping[LegionId, str]) -> bool:
    grid = final.tables.grid
    for lid, fate in fates.items():
        cell = final.where.get(lid)
        left = cell is None and final.winner is final.tables.by_id[lid].side
        if fate == FATE_OFF and not left:
            return False
        if fate == FATE_ELIMINATED and (cell is not None or left):
            return False
        if fate not in (FATE_OFF, FATE_ELIMINATED) and (cell is None or grid.name(cell) != fate):
            return False
    return True


def diagnose(
    state: CyrusState,
    readable: Mapping[Cell, Seen],
    before: Mapping[Cell, Side],
    search: ChainSearch,
) -> list[Disagreement]:
    """Says, cell by cell, what no legal turn can produce."""
    grid, by_id = state.tables.grid, state.tables.by_id
    side = state.active
    out: list[Disagreement] = []
    for s in Side:
        now = sum(1 for r in readable.values() if side_of(r.occupant) is s)
        was = sum(1 for lid in state.where if by_id[lid].side is s)
        if now > was:
            out.append(
                Disagreement(
                    cell=None,
                    seen=f"{now} {s.value}",
                    before=f"{was} {s.value}",
                    problem=ngettext("the photo shows {now} {side} legions; only {was} was in play",
                                     "the photo shows {now} {side} legions; only {was} were in play", was).format(
                        now=now, side=_(s.value), was=was),
                )
            )
    reach = {o.cell for opts in search.options.values() for o in opts if o.cell is not None}
    movable_cells = set(search.origin.values())
    for cell, got in sorted(readable.items()):
        now_side, was_side = side_of(got.occupant), before.get(cell)
        if now_side is was_side:
            continue
        problem = _("changed, but no legal turn of the side to play produces this")
        if now_side is side and cell not in reach:
            problem = _("a {side} legion appears where no {side} legion could move").format(side=_(side.value))
        elif was_side is side and cell not in movable_cells:
            problem = _("the {side} legion that stood here may not move now").format(side=_(side.value))
        elif now_side is side.other:
            problem = _("a {side} legion appears; in this turn only a retreat brings one").format(
                side=_(side.other.value))
        elif was_side is side.other and now_side is None:
            problem = _("an attacked cell keeps its attacker or its defender")
        out.append(
            Disagreement(
                cell=grid.name(cell), seen=word(now_side), before=word(was_side), problem=problem
            )
        )
    return out


def terrain_disagreements(state: CyrusState, readable: Mapping[Cell, Seen]) -> list[Disagreement]:
    grid = state.tables.grid
    out: list[Disagreement] = []
    for cell, got in sorted(readable.items()):
        want = state.terrain_at(cell).value
        if got.terrain != want:
            out.append(
                Disagreement(
                    cell=grid.name(cell),
                    seen=got.terrain,
                    before=want,
                    problem=_("the photo shows {seen} where the position has {want}; terrain tokens stay put "
                              "once laid (II)").format(seen=_(got.terrain), want=_(want)),
                )
            )
    return out
