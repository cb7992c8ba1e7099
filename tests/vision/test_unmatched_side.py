"""A side's counters printed far off the calibration's colour (another print batch, another
lamp) are found again from the photo: their class matched nothing, and the central discs in no
class's colour re-seed it (``vision.evidence._unmatched_sides``)."""

from __future__ import annotations

import numpy as np

from vision import adaptive, trees
from vision.colours import class_reach
from vision.config import ClassifyConfig

from .helpers import board

WHITE = np.array([245.0, 245.0, 245.0])
PPC = 48
PALE_BLUE = (230, 150, 110)
"""BGR of Persian counters printed paler than the tables' (36, 86, 200): farther from it than a
class may drift, nearer it than any other class."""


def _grid(persian: list[tuple[int, int]], greek: list[tuple[int, int]], sleeve: bool = False) -> np.ndarray:
    rng = np.random.default_rng(5)
    img = np.empty((12 * PPC, 12 * PPC, 3), np.float32)
    img[:] = (160, 214, 226)  # BGR of the bare board
    for cells, colour in ((persian, PALE_BLUE), (greek, (168, 48, 128))):
        for r, c in cells:
            img[r * PPC + 10 : (r + 1) * PPC - 10, c * PPC + 10 : (c + 1) * PPC - 10] = colour
    if sleeve:  # a pale blue sleeve over 4 x 6 cells, larger than any counter
        img[0 : 4 * PPC, 3 * PPC : 9 * PPC] = PALE_BLUE
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _read(grid: np.ndarray, cfg: ClassifyConfig) -> list[tuple[str | None, str, float]]:
    """Every cell's reading by the fitted decision, the synthetic board's printed edges taken as
    showing (it draws none), no glare, every cell inside the photo."""
    seed = adaptive.table_model(board(), cfg)
    ev = adaptive.evidence(grid, np.ones(grid.shape[:2], bool), WHITE, board(), seed, cfg)
    n = len(ev.on_counter)
    return trees.decide(ev, board(), np.ones((n, 4)), np.zeros(n), np.ones(n), cfg.min_confidence).cells


def test_the_premise_the_pale_print_lies_beyond_the_class_drift() -> None:
    cfg = ClassifyConfig()
    seed = np.array(adaptive.table_model(board(), cfg).classes["side:persian"].mean)
    pale = adaptive.chroma(np.array([[PALE_BLUE]], np.float32), WHITE)[0, 0, :2]
    assert np.hypot(*(pale - seed)) > class_reach(cfg)


def test_counters_printed_paler_than_the_calibration_are_read_as_their_side() -> None:
    cfg = ClassifyConfig()
    persian = [(r, c) for r in range(12) for c in range(12) if (r * 5 + c * 7) % 11 == 0]
    greek = [(r, c) for r in range(12) for c in range(12) if (r * 5 + c * 7) % 11 == 3]
    res = _read(_grid(persian, greek), cfg)
    for r, c in persian:
        occupant, _terrain, conf = res[r * 12 + c]
        assert occupant == "persian" and conf >= cfg.min_confidence, (r, c, res[r * 12 + c])
    for r, c in greek:
        assert res[r * 12 + c][0] == "greek"
    empty = [n for n in range(144) if (n // 12, n % 12) not in set(persian) | set(greek)]
    assert all(res[n][0] is None for n in empty)


def test_a_sleeve_of_that_colour_is_not_read_as_counters() -> None:
    # no Persian counter on the board, a pale blue sleeve over it: its cells are never read as
    # Persian counters with confidence
    cfg = ClassifyConfig()
    greek = [(r, c) for r in range(5, 12) for c in range(12) if (r + c) % 4 == 0]
    res = _read(_grid([], greek, sleeve=True), cfg)
    under = [r * 12 + c for r in range(4) for c in range(3, 9)]
    assert not [n for n in under if res[n][0] == "persian" and res[n][2] >= cfg.min_confidence]
