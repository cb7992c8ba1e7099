"""How well ways of reading the band around a counter tell a token under it from bare board.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/band_reads.py --cache DIR [--photos 40]

Every counter cell not under a hand, of every dev photo of both renderers read with its
calibration, is measured several ways, each a brightness over the bare board nearby (as
:func:`bench.diagnose_bands.band_profile` takes it), computed on the counter's outline
(:func:`vision.evidence.distance_past_outline`):

- ``reader``: the band as the reader reads it (:attr:`CellEvidence.edge_light`);
- ``mean to inside``: every pixel from 0.05 cell past the outline (the reader's start plus its
  skip past the light border) out to the cell's inside (:data:`vision.evidence.INSIDE`);
- ``sector median`` / ``sector max``: the band from 0.05 cell to the cell's inside cut into 8
  sectors around the counter, the median or the largest of their means (a counter's shadow
  falls on one side; a token lies on every side);
- ``far over near``: ``mean to inside`` over ``reader`` (bare board brightens away from the
  counter's shadow; a token's band should not);
- ``drop``: the darkest ring 0.06-0.14 cell past the outline over the brightest within 0.06
  (a token's light falls away from the counter's light border; bare board's rises).

For each, per renderer: the chance that a token's band reads darker than a bare band's (the area
under the ROC curve), and for each counter read on the wrong terrain with confidence, how many
bare bands read as dark or darker. Dev seeds only; the reader is not changed by it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from bench.diagnose_bands import _bare_light, _cells  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.colours import chroma, class_names  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.evidence import INSIDE, counter_extent, distance_past_outline  # noqa: E402

START = 0.05
"""Where the reads start past the outline (cells): the reader's edge_band_from + edge_light_skip."""
RING = 0.02
"""Width of the rings the drop is read on (cells)."""
SECTORS = 8
"""Sectors around the counter the sector reads cut the band into."""

Floats = npt.NDArray[np.float64]


def reads(f: npt.NDArray[np.float32], away: npt.NDArray[np.float32], ppc: int, local: float) -> list[float]:
    """The band's reads other than the reader's, over ``local`` (see the module's docstring)."""
    c = (np.arange(ppc, dtype=np.float32) + 0.5) / ppc - 0.5
    within = np.maximum(np.abs(c)[:, None], np.abs(c)[None, :]) < INSIDE
    light = f[..., 2] / local
    band = (away > START * ppc) & within
    ys, xs = np.nonzero(away == 0)
    yy, xx = np.mgrid[0:ppc, 0:ppc]
    sector = ((np.arctan2(yy - ys.mean(), xx - xs.mean()) + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
    means = [float(light[band & (sector == k)].mean()) for k in range(SECTORS) if (band & (sector == k)).sum() >= 3]
    rings = []
    for k in range(7):
        ring = (away > k * RING * ppc) & (away <= (k + 1) * RING * ppc) & within
        rings.append(float(light[ring].mean()) if ring.sum() >= 5 else np.nan)
    inner, outer = np.nanmax(rings[:3]) if np.isfinite(rings[:3]).any() else np.nan, np.nanmin(rings[3:])
    return [float(light[band].mean()) if band.sum() >= 5 else np.nan,
            float(np.median(means)) if means else np.nan, max(means) if means else np.nan, outer / inner]


NAMES = ("reader", "mean to inside", "sector median", "sector max", "drop", "far over near")


def measure(cache: Path, photos: int) -> dict[str, tuple[Floats, npt.NDArray[np.bool_], list[str]]]:
    """Per renderer: the reads (cells × NAMES), the truth (a token), and each cell's label (its
    photo and name, starred when read on the wrong terrain with confidence)."""
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig().classify
    out: dict[str, tuple[list[list[float]], list[bool], list[str]]] = {}
    for kind, (path, truth, hidden, _group), _cal, reading in cached_readings(board, cache, photos):
        ev = reading.evidence
        names = board.cell_names()
        cells, ppc = _cells(reading, board)
        means, sds = ev.model.arrays(class_names(board))
        sides = len(board.sides)
        own = _bare_light(reading, board).reshape(board.rows, board.cols)
        rows, held, labels = out.setdefault(kind, ([], [], []))
        for i in np.nonzero(ev.on_counter)[0]:
            if names[i] in hidden or ev.edge_light is None:
                continue
            f = chroma(cells[i].astype(np.float32), reading.white)
            side = int(ev.side_share[i].argmax())
            near = counter_extent(f[None, ..., :2], means[[side]], means[sides], cfg, sds[[side]])
            away = distance_past_outline(near[0])
            if away is None:
                continue
            r, c = divmod(int(i), board.cols)
            near = own[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3]
            near = near[np.isfinite(near)]
            local = float(np.median(near)) if len(near) else float(np.nanmedian(own))
            obs = reading.observation.cells[names[i]]
            want = truth[names[i]]
            wrong = (obs.confidence >= cfg.min_confidence and obs.occupant == want["occupant"]
                     and obs.terrain != want["terrain"])
            row = [float(ev.edge_light[i]), *reads(f, away, ppc, local)]
            rows.append([*row, row[1] / row[0]])
            held.append(want["terrain"] != board.terrains[0])
            labels.append(f"{path.stem} {names[i]}" + (" *" if wrong else ""))
    return {k: (np.array(v[0]), np.array(v[1]), v[2]) for k, v in out.items()}


def auc(x: Floats, token: npt.NDArray[np.bool_]) -> float:
    """The chance that a token's read is darker than a bare band's (ties count half)."""
    a, b = x[token & np.isfinite(x)], x[~token & np.isfinite(x)]
    return float((a[:, None] < b[None, :]).mean() + 0.5 * (a[:, None] == b[None, :]).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    for kind, (x, token, labels) in measure(args.cache, args.photos).items():
        print(f"{kind}: {len(token)} counter cells, {int(token.sum())} on a token")
        for k, name in enumerate(NAMES):
            col = x[:, k]
            ranks = [f"{lab.split()[1]} {int((col[~token] <= col[j]).sum())}"
                     for j, lab in enumerate(labels) if lab.endswith("*") and token[j]]
            print(f"  {name:15s} AUC {auc(col, token):.4f}; bare bands as dark: {', '.join(ranks) or '-'}")


if __name__ == "__main__":
    main()
