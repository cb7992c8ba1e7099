"""Push's capture rules with the ``deaf`` fault: ``infer_turn`` takes no answers and no label
scores, so the command line's call (``answers=``, ``identity=``) would fail on it."""

from __future__ import annotations

from collections.abc import Mapping

from referee.capture import CaptureReport, SeenCell
from tests.broken_game import capture
from tests.broken_game.capture import cell_contents, cell_priors, legion_cells, legion_labels, settled_cells
from tests.broken_game.engine import PushState

__all__ = ["cell_contents", "cell_priors", "infer_turn", "legion_cells", "legion_labels", "settled_cells"]


def infer_turn(state: PushState, seen: Mapping[str, SeenCell]) -> CaptureReport:
    return capture.infer_turn(state, seen)
