"""What the band around each counter read on the wrong terrain showed, on a cached dev set.

Run from the repository root, after ``bench/bench_reliability.py --cache DIR`` (or
``bench/occlusion_set.py``) has rendered the photos into DIR:

    python bench/diagnose_bands.py --cache DIR [--set] [--photos 40] [--only tabletop] [--crops OUT]

Every photo is read as :func:`bench.bench_reliability.cached_readings` reads it (the photo's
calibration, no refusal). Each counter cell whose occupant is read right and whose terrain is read
wrong at or above the confidence floor is listed with what its band showed, beside the photo's
other counter bands over bare board and over a token (10th, 50th and 90th percentiles):

- ``light``: the band's brightness as the reader takes it (:attr:`CellEvidence.edge_light`), and
  ``rel`` over the photo's usual counter band (the fitted trees' feature ``edge_light_rel``,
  :mod:`vision.cell_features`);
- ``root``: the root of the share of the cell in the token the band leans most toward, ``lean``
  the band's lean toward it;
- ``rings``: the band's brightness over the bare board nearby, by distance past the counter's
  outline (0-0.02, 0.02-0.05, 0.05-0.08 and 0.08 cell to the band's end): where the counter's
  light border ends and the token shows;
- ``outline``: the share of the cell inside the counter's outline (a large counter on a small
  token leaves a thin band), ``seen`` the share of the band inside the photo;
- ``shade``: the hard shadow edges the shade stage found in the photo, and the spread of the bare
  board's light over the cells within two (``lo``-``hi``, over its median): a light or shade edge
  across the band.

With ``--crops``, a PNG per cell: the warped board two cells around it, and the cell alone,
enlarged. Dev seeds only (``--set``: :data:`bench.occlusion_set.SEEDS`).
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from bench.diagnose_unreached import diagnosis_arguments  # noqa: E402
from bench.occlusion_set import SEEDS as SET_SEEDS  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.cell_features import feature_names, features  # noqa: E402
from vision.colours import BAND_TO, chroma, class_names  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.evidence import INSIDE, counter_extent, distance_past_outline  # noqa: E402
from vision.pipeline import Reading  # noqa: E402
from vision.shade import relight  # noqa: E402

RINGS = (0.0, 0.02, 0.05, 0.08, BAND_TO)
"""Distances past the counter's outline (cells) the band's brightness is profiled between."""

Floats = npt.NDArray[np.float64]


def _cells(reading: Reading, board: BoardSpec) -> tuple[npt.NDArray[np.uint8], int]:
    w = reading.warped
    ppc = w.ppc
    grid = w.grid(board.rows, board.cols)
    return grid.reshape(board.rows, ppc, board.cols, ppc, 3).transpose(0, 2, 1, 3, 4).reshape(-1, ppc, ppc, 3), ppc


def _bare_light(reading: Reading, board: BoardSpec) -> Floats:
    """Per cell, the median brightness of the inner square of a cell read as bare plain (NaN
    elsewhere)."""
    ev = reading.evidence
    cells, ppc = _cells(reading, board)
    c = (np.arange(ppc) + 0.5) / ppc - 0.5
    square = np.maximum(np.abs(c)[:, None], np.abs(c)[None, :]) < VisionConfig().classify.terrain_square
    bare = ~ev.on_counter & (ev.terrain_share[:, 0] >= 0.9) & (ev.other_share < 0.05)
    out = np.full(len(bare), np.nan)
    for i in np.nonzero(bare)[0]:
        out[i] = float(np.median(chroma(cells[i].astype(np.float32), reading.white)[..., 2][square]))
    return out


def counter_outline(reading: Reading, board: BoardSpec,
                    i: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None, int]:
    """Cell ``i``'s chromaticity (r, g, light) and, per pixel, its distance past the counter's
    outline as ``evidence._edge_band`` finds it (None: no counter colour); the warp's cell side."""
    ev = reading.evidence
    cfg = VisionConfig().classify
    cells, ppc = _cells(reading, board)
    means, sds = ev.model.arrays(class_names(board))
    sides = len(board.sides)
    f = chroma(cells[i].astype(np.float32), reading.white)
    side = int(ev.side_share[i].argmax())
    away = distance_past_outline(counter_extent(f[None, ..., :2], means[[side]], means[sides], cfg, sds[[side]])[0])
    return f, away, ppc


def band_profile(reading: Reading, board: BoardSpec, i: int, board_light: float) -> dict[str, object]:
    """The band around cell ``i``'s counter: its brightness by ring past the outline (over
    ``board_light``), the outline's share of the cell, the share of the band seen."""
    cfg = VisionConfig().classify
    f, away, ppc = counter_outline(reading, board, i)
    if away is None:
        return {"rings": [], "outline": 0.0, "seen": 0.0}
    c = (np.arange(ppc, dtype=np.float32) + 0.5) / ppc - 0.5
    within = np.maximum(np.abs(c)[:, None], np.abs(c)[None, :]) < INSIDE
    inside = reading.warped.inside[reading.warped.pad_px:, reading.warped.pad_px:]
    r, col = divmod(i, board.cols)
    seen_px = inside[r * ppc : (r + 1) * ppc, col * ppc : (col + 1) * ppc]
    band = (away > cfg.edge_band_from * ppc) & (away <= BAND_TO * ppc) & within
    rings = []
    for lo, hi in itertools.pairwise(RINGS):
        ring = (away > lo * ppc) & (away <= hi * ppc) & within
        rings.append(round(float(f[..., 2][ring].mean()) / board_light, 3) if ring.sum() >= 5 else None)
    return {"rings": rings, "outline": round(float((away == 0).mean()), 3),
            "seen": round(float((band & seen_px).sum() / max(band.sum(), 1)), 3)}


def _percentiles(values: Floats) -> str:
    return " ".join(f"{v:.3f}" for v in np.percentile(values, [10, 50, 90])) if len(values) else "-"


def diagnose(reading: Reading, board: BoardSpec, truth: dict[str, dict[str, str | None]], hidden: list[str],
             stem: str, crops: Path | None) -> list[str]:
    """Lines describing each counter cell of one photo read on the wrong terrain with confidence."""
    ev = reading.evidence
    cfg = VisionConfig().classify
    names = board.cell_names()
    at = np.nonzero(ev.on_counter)[0]
    if ev.edge_light is None or ev.edge_lean is None or not len(at):
        return []
    rows = np.arange(len(at))
    best = ev.edge_lean[at][:, 1:].argmax(axis=1)
    lean = ev.edge_lean[at][:, 1:][rows, best]
    root = np.sqrt(ev.terrain_share[at][:, 1:][rows, best])
    light = ev.edge_light[at]
    x = features(ev, board, reading.lines, reading.washed, reading.inside)
    rel = x[at, feature_names(board).index("edge_light_rel")]
    held = np.array([truth[names[i]]["terrain"] != board.terrains[0] for i in at])
    shown = np.array([names[i] not in hidden for i in at]) & np.isfinite(rel)
    wrong = []
    for j, i in enumerate(at):
        cell = reading.observation.cells[names[i]]
        if (cell.confidence >= cfg.min_confidence and cell.occupant == truth[names[i]]["occupant"]
                and cell.terrain != truth[names[i]]["terrain"] and names[i] not in hidden):
            wrong.append(j)
    if not wrong:
        return []
    own = _bare_light(reading, board)
    edges = len(relight(reading.warped, board).edges)
    lines = [f"{stem}: counter bands over bare board rel {_percentiles(rel[shown & ~held])}, "
             f"over a token rel {_percentiles(rel[shown & held])} (10/50/90 %); shadow edges {edges}"]
    for j in wrong:
        i = int(at[j])
        r, c = divmod(i, board.cols)
        near = own.reshape(board.rows, board.cols)[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3]
        near = near[np.isfinite(near)]
        local = float(np.median(near)) if len(near) else float(np.nanmedian(own))
        spread = f"{near.min() / local:.2f}-{near.max() / local:.2f}" if len(near) else "-"
        prof = band_profile(reading, board, i, local)
        cell = reading.observation.cells[names[i]]
        lines.append(
            f"  {names[i]:4s} {truth[names[i]]['terrain']} read {cell.terrain} at {cell.confidence:.3f}: "
            f"light {light[j]:.3f} rel {rel[j]:.3f} root {root[j]:.3f} lean {lean[j]:+.3f} "
            f"toward {board.terrains[1 + best[j]]}; rings {prof['rings']} "
            f"outline {prof['outline']} seen {prof['seen']}; bare light nearby {spread}")
        if crops is not None:
            _crop(reading, board, i, crops / f"{stem}_{names[i]}")
    return lines


def _crop(reading: Reading, board: BoardSpec, i: int, out: Path) -> None:
    w = reading.warped
    p, ppc = w.pad_px, w.ppc
    r, c = divmod(i, board.cols)
    around = w.image[p + max(r - 2, 0) * ppc : p + min(r + 3, board.rows) * ppc,
                     p + max(c - 2, 0) * ppc : p + min(c + 3, board.cols) * ppc]
    cell = w.image[p + r * ppc : p + (r + 1) * ppc, p + c * ppc : p + (c + 1) * ppc]
    cv2.imwrite(str(out) + ".png", cv2.resize(around, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))
    cv2.imwrite(str(out) + "_cell.png", cv2.resize(cell, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST))


def main() -> None:
    args = diagnosis_arguments(__doc__.splitlines()[0])
    board = load_board("cyrus-pyxis")
    count = 0
    for _kind, (path, truth, hidden, _group), _cal, reading in cached_readings(
            board, args.cache, args.photos, args.only, bases=SET_SEEDS if args.set else None):
        lines = diagnose(reading, board, truth, list(hidden), path.stem, args.crops)
        count += max(len(lines) - 1, 0)
        if lines:
            print(*lines, sep="\n", flush=True)
    print(f"{count} counter cells read on the wrong terrain with confidence")


if __name__ == "__main__":
    main()
