"""Reading a turn from a photo: the legal turns that lead from the position before to the photo.

Entry point: :func:`infer_turn`. The photo says, per cell, which side stands there (or nobody)
and which terrain lies there, each with a confidence; optionally it also says how well each
legion's counter label matches the counter seen on a cell (``identity``). The search lists the
turns the rules allow the side to play (moves, archer supports, the resolution of combats) and
keeps those that end with the same sides on the same cells, and with legions whose labels fit.

Turns ending in the same position are one explanation: the photo cannot tell them apart and the
game goes on identically (the one with fewest supports, then fewest moves, is kept). Exactly one
explanation: its actions may be played. Several: precise questions ("which legion is on D7:
Athéna or Samos?"), answered through ``answers``. None: the cells that disagree.

Why the search is complete: a legion that stayed is where it was (combats move only the
legions in them); a plain move ends on a cell the photo shows held by its side; so the moves
form chains, each starting from a legion that must have moved (its cell now shows no friend, or
another legion's label) and running through friends whose cells were taken, to a cell newly
held, an attack, or a king leaving the board. Every such chain is enumerated; every candidate is
then played through the engine's own ``judge``/``apply``/``legal_actions`` with every set of
supports, so an explanation reported is a legal turn. When the search reaches its limits it
says so and asks instead of choosing.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.capture import CaptureReport, Disagreement, Question, SeenCell
from referee.games.cyrus_pyxis.capture.priors import cell_priors
from referee.games.cyrus_pyxis.capture.report import (
    FATE_ELIMINATED,
    FATE_OFF,
    CyrusCaptureReport,
    SearchLimits,
    Seen,
)
from referee.games.cyrus_pyxis.capture.search import (
    ENGINE,
    ChainSearch,
    run_search,
    side_of,
    sides_on,
    value_of,
)
from referee.games.cyrus_pyxis.capture.verdicts import (
    ask,
    candidates_from,
    diagnose,
    fits_answers,
    hidden_questions,
    parse_answers,
    pick_by_labels,
    terrain_disagreements,
)
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import LegionId, Phase
from referee.geometry.search import Cell
from referee.i18n import _, ngettext

__all__ = [
    "FATE_ELIMINATED",
    "FATE_OFF",
    "CyrusCaptureReport",
    "Disagreement",
    "Question",
    "SearchLimits",
    "Seen",
    "SeenCell",
    "cell_contents",
    "cell_priors",
    "infer_turn",
    "legion_cells",
    "legion_labels",
    "seen_from_position",
    "settled_cells",
]


def infer_turn(
    state: CyrusState,
    seen: Mapping[str, SeenCell],
    limits: SearchLimits | None = None,
    answers: Mapping[str, str] | None = None,
    identity: Mapping[str, Mapping[str, float]] | None = None,
) -> CyrusCaptureReport:
    """Returns the legal turns of the side to play that explain what the photo shows.

    Args:
        state: the position before (a movement step, or a turn already under way).
        seen: cell name → what the photo shows there, for the cells the photo reader is sure
            of; missing cells count as unreadable (the reader alone decides which).
        limits: search limits.
        answers: the user's answers to earlier questions: ``{"D7": "Athéna"}`` (who stands on
            a cell) or ``{"Cyrus": "off" | "eliminated" | CELL}`` (what became of a legion).
        identity: cell name → {legion name: label score 0..1}: how well each legion's counter
            matches the counter seen there. Legions within ``limits.identity_margin`` of the
            best score stay candidates; without it, any legion of the side may stand there.

    Raises:
        UnknownNameError: an answer names an unknown cell or legion.
    """
    limits = limits or SearchLimits()
    grid = state.tables.grid
    side = state.active
    if state.phase in (Phase.SETUP, Phase.OVER):
        if state.phase is Phase.SETUP:
            problem = _("the set-up is not finished; a photo is read against a turn in play")
        else:
            problem = _("the game is over; a photo is read against a turn in play")
        bad = Disagreement(cell=None, seen="", before="", problem=problem)
        return CyrusCaptureReport(status="unexplained", side=side, disagreements=(bad,))
    readable: dict[Cell, Seen] = {}
    unreadable: list[Cell] = []
    for cell in grid.cells():
        got = seen.get(grid.name(cell))
        if got is None:
            unreadable.append(cell)
        else:
            readable[cell] = Seen(got.occupant, got.terrain, got.confidence)
    hidden_names = tuple(grid.name(c) for c in unreadable)
    if len(unreadable) > limits.max_unreadable:
        return CyrusCaptureReport(status="unreadable", side=side, unreadable=hidden_names)
    terrain_bad = terrain_disagreements(state, readable)
    if terrain_bad:
        return CyrusCaptureReport(
            status="unexplained",
            side=side,
            disagreements=tuple(terrain_bad),
            unreadable=hidden_names,
        )
    placed, fates = parse_answers(state, answers or {})
    candidates = candidates_from(state, identity, limits, placed)

    before = sides_on(state)
    probe = ChainSearch(state, limits, candidates)
    if probe.unreachable({c: side_of(s.occupant) for c, s in readable.items()}):
        return CyrusCaptureReport(
            status="unexplained",
            side=side,
            unreadable=hidden_names,
            disagreements=tuple(diagnose(state, readable, before, probe)),
        )
    search = run_search(state, limits, candidates, readable, unreadable)
    groups = [g for g in search.found.values() if fits_answers(g.state, fates)]
    notes: list[str] = []
    if not groups and search.complete and len(candidates) > len(placed):
        # the labels fit no legal turn (one was misread): the rules alone may still settle it
        search = run_search(
            state, limits, candidates_from(state, None, limits, placed), readable, unreadable
        )
        groups = [g for g in search.found.values() if fits_answers(g.state, fates)]
        if groups:
            notes.append(_("the counter labels fit no legal turn; the turn was read without them"))
    if not groups:
        if not search.complete:
            question = Question(
                cell=None,
                text=_("the photo allows too many turns to check; type this turn's moves with referee do"),
            )
            return CyrusCaptureReport(
                status="ambiguous",
                side=side,
                questions=(question,),
                complete=False,
                unreadable=hidden_names,
                notes=(_("the search stopped at its limits"),),
            )
        return CyrusCaptureReport(
            status="unexplained",
            side=side,
            unreadable=hidden_names,
            disagreements=tuple(diagnose(state, readable, before, search)),
        )
    if len(groups) > 1 and search.complete and identity:
        picked = pick_by_labels(state, groups, identity, limits.joint_margin)
        if picked is not None:
            best, lead = picked
            notes.append(_("the counter labels chose between {n} legal turns (ahead by {lead})").format(
                n=len(groups), lead=f"{lead:.2f}"))
            groups = [best]
    if len(groups) == 1 and search.complete:
        only = groups[0]
        changed = [c for c in unreadable if sides_on(only.state).get(c) is not before.get(c)]
        if changed:
            return CyrusCaptureReport(
                status="ambiguous",
                side=side,
                explanations=1,
                unreadable=hidden_names,
                questions=tuple(hidden_questions(only.state, changed)),
                notes=(_("the one legal explanation changes cells the photo does not show clearly"),),
            )
        if not only.moves:
            notes.append(_("nothing moved: the {side} side ends its turn without moving").format(
                side=_(side.value)))
        if any(a.startswith("support ") for a in only.actions):
            notes.append(_("archer supports cannot be seen; these are needed for the result"))
        if only.others:
            other = ", ".join(sorted(only.others)[0]) or _("no move")
            notes.append(ngettext(
                "{n} other legal turn ends in the same position (e.g. {other}); the photo cannot tell them apart "
                "and the game goes on the same",
                "{n} other legal turns end in the same position (e.g. {other}); the photo cannot tell them apart "
                "and the game goes on the same", len(only.others)).format(n=len(only.others), other=other))
        return CyrusCaptureReport(
            status="explained",
            side=side,
            moves=only.moves,
            actions=only.actions,
            judged=only.judged,
            explanations=1,
            unreadable=hidden_names,
            position=ENGINE.to_position(only.state),
            notes=tuple(notes),
        )
    questions = ask(state, groups)
    if not search.complete:
        notes.append(_("the search stopped at its limits; more explanations may exist"))
    if not questions:
        questions = [
            Question(
                cell=None,
                text=_("the photo allows several turns; type this turn's moves with referee do"),
            )
        ]
    return CyrusCaptureReport(
        status="ambiguous",
        side=side,
        questions=tuple(questions),
        explanations=len(groups),
        complete=search.complete,
        unreadable=hidden_names,
        notes=tuple(notes),
    )


def seen_from_position(state: CyrusState) -> dict[str, Seen]:
    """Returns what a perfect photo of a state would show (tests, calibration)."""
    grid = state.tables.grid
    sides = sides_on(state)
    return {
        grid.name(c): Seen(value_of(sides.get(c)), state.terrain_at(c).value) for c in grid.cells()
    }


def legion_labels(state: CyrusState) -> dict[str, tuple[str, str]]:
    """Returns legion name → (side, printed label) for every legion in play (vision's labels)."""
    by_id = state.tables.by_id
    return {lid: (by_id[lid].side.value, by_id[lid].short) for lid in state.where}


def legion_cells(state: CyrusState) -> dict[str, str]:
    """Returns cell name → the legion standing there (cells with a pending combat left out)."""
    grid = state.tables.grid
    at: dict[Cell, list[LegionId]] = {}
    for lid, cell in state.where.items():
        at.setdefault(cell, []).append(lid)
    return {grid.name(c): lids[0] for c, lids in at.items() if len(lids) == 1}


def settled_cells(state: CyrusState, report: CaptureReport) -> dict[str, tuple[str | None, str]] | None:
    """Returns what every cell holds once the turn a report explains is played (the labels a
    photo reader may learn from), or None when the report settles no single turn (or is not
    one of this game's reports, which alone hold the position after)."""
    if not isinstance(report, CyrusCaptureReport) or report.status != "explained" or report.position is None:
        return None
    after = ENGINE.from_position(state.tables.table_set, report.position.model_dump(mode="json"), "photo")
    return cell_contents(after)


def cell_contents(state: CyrusState) -> dict[str, tuple[str | None, str]]:
    """Returns cell name → (side standing there or None, terrain): a known position for
    calibration. A cell with a pending combat holds both sides' counters, one on the other; it
    is given the side of the legion the position lists last, which need not be the one on top
    (so a calibration is best taken from a position without one)."""
    return {name: (s.occupant, s.terrain) for name, s in seen_from_position(state).items()}
