"""Push's capture rules, sound: the token on a track of cells t0..t8, read from a photo."""

from __future__ import annotations

from collections.abc import Mapping

from referee.capture import CaptureReport, Disagreement, SeenCell
from tests.broken_game.engine import GOAL, PushState

TRACK = "track"


def _cells(token: int) -> dict[str, tuple[str | None, str]]:
    return {f"t{i}": ("north" if i == min(token, GOAL) else None, TRACK) for i in range(GOAL + 1)}


def legion_labels(state: PushState) -> dict[str, tuple[str, str]]:
    return {"token": ("north", "T")}


def cell_contents(state: PushState) -> dict[str, tuple[str | None, str]]:
    return _cells(state.token)


def legion_cells(state: PushState) -> dict[str, str]:
    return {f"t{min(state.token, GOAL)}": "token"}


def cell_priors(state: PushState) -> dict[str, dict[tuple[str | None, str], float]]:
    """The token may stay (a push cannot be seen yet), or move 1 or 2 cells: its cell and the two
    ahead are uncertain, every other cell is empty for sure."""
    ends = {min(state.token + n, GOAL) for n in (0, 1, 2)} if state.token < GOAL else {GOAL}
    out: dict[str, dict[tuple[str | None, str], float]] = {}
    for name, content in _cells(state.token).items():
        if int(name[1:]) in ends and len(ends) > 1:
            out[name] = {("north", TRACK): 1 / len(ends), (None, TRACK): 1 - 1 / len(ends)}
        else:
            out[name] = {content: 1.0}
    return out


def infer_turn(state: PushState, seen: Mapping[str, SeenCell], *, answers: Mapping[str, str] | None = None,
               identity: Mapping[str, Mapping[str, float]] | None = None) -> CaptureReport:
    held = [int(name[1:]) for name, cell in seen.items() if cell.occupant is not None]
    steps = held[0] - state.token if len(held) == 1 else -1
    if steps == 0:
        return CaptureReport(status="explained", explanations=1)
    if steps in (1, 2):
        return CaptureReport(status="explained", actions=(f"push {steps}",), explanations=1)
    bad = Disagreement(cell=None, seen=", ".join(f"t{i}" for i in held), before=f"t{state.token}",
                       problem="no push leads there")
    return CaptureReport(status="unexplained", disagreements=(bad,))


def settled_cells(state: PushState, report: CaptureReport) -> dict[str, tuple[str | None, str]] | None:
    if report.status != "explained":
        return None
    return _cells(state.token + sum(int(a.split()[1]) for a in report.actions))
