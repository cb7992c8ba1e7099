"""Fits the per-cell model's occupant and bare-terrain probabilities (``vision.cell_confidence``)
on dev photos of both renderers.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/fit_cell_confidence.py --cache DIR [--photos 40] [--dump FILE]

Every visible cell (not under a hand) of every dev photo of both renderers, read with its
calibration and without refusal, that no other rule makes doubtful (no occluder reaching in,
no glare past ``vision.pipeline.GLARE_SHARE``, few off-class colours, wholly inside the photo)
gives the occupant model's inputs (:func:`vision.cell_confidence.counter_features`) and whether
the occupant was read right; those without a counter give the bare terrain model's inputs
(:func:`vision.cell_confidence.terrain_features`) and whether the terrain was read right. A
logistic regression (:func:`bench.fit_cell_model.fit`) gives each model's weights; each is also
fitted on the even photos and scored (log loss) on the odd ones. The values are then written
into ``vision/cell_confidence.py`` by hand, with the date and the figures, so that the reader
never reads a file of fitted values at run time. Eval seeds are never read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from bench.fit_cell_model import fit, log_loss  # noqa: E402
from vision import cell_confidence as cc  # noqa: E402
from vision import grid_overlay as go  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.colours import _geometry  # noqa: E402
from vision.config import ClassifyConfig, VisionConfig  # noqa: E402
from vision.decide import READ_INSIDE  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import glared, read  # noqa: E402

Floats = npt.NDArray[np.float64]
Samples = dict[str, list[list[float]]]


def samples(cache: Path, photos: int) -> Samples:
    """Returns the rows of each fit: features, then truth (1: right), then the photo index."""
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig().classify
    out: Samples = {"counter": [], "terrain": [], "glare": []}
    for k, (_kind, (path, cells, hidden, _group), cal, reading) in enumerate(cached_readings(board, cache, photos)):
        ev = reading.evidence
        counter = cc.counter_features(ev.side_share, cfg.counter_share)
        terrain = cc.terrain_features(ev.terrain_share[:, 1:], cfg.token_share, ev.terrain_pixels)
        washed = go.cell_washed(reading.warped, board)
        doubtful = (ev.other_share > cfg.occluder_share / 3) | glared(washed) | (reading.inside < READ_INSIDE)
        if ev.reached is not None:
            doubtful |= ev.reached > 0
        glare = glare_features(reading.warped, board, cfg)
        read_ok = float(readable(path, cal))
        for n, (name, cell) in enumerate(reading.observation.cells.items()):
            held = cells[name]
            bare = cell.occupant is None and cell.terrain == board.terrains[0]
            if name not in hidden and bare and glare[n].max() > 0 and reading.inside[n] >= READ_INSIDE:
                truth = held["occupant"] is None and held["terrain"] == board.terrains[0]
                out["glare"].append([*glare[n], read_ok, float(truth), float(k)])
            if name in hidden or doubtful[n]:
                continue
            out["counter"].append([*counter[n], float(cell.occupant == held["occupant"]), float(k)])
            if not ev.on_counter[n]:
                out["terrain"].append([*terrain[n], float(cell.terrain == held["terrain"]), float(k)])
    return out


def glare_features(warped: go.Warped, board: BoardSpec, cfg: ClassifyConfig) -> Floats:
    """Returns per cell (washed share of the central disc, washed share of the inner square):
    its pixels with every channel at ``grid_overlay.WASHED`` or more."""
    ppc = warped.ppc
    washed = (warped.grid(board.rows, board.cols) >= go.WASHED).all(axis=2)
    cells = washed.reshape(board.rows, ppc, board.cols, ppc).transpose(0, 2, 1, 3).reshape(-1, ppc, ppc)
    radius, cheb = _geometry(ppc)
    disc = cells[:, radius < cfg.counter_disc].mean(axis=1)
    square = cells[:, cheb < cfg.terrain_square].mean(axis=1)
    out: Floats = np.column_stack([disc, square]).astype(np.float64)
    return out


def readable(path: Path, cal: Calibration | str | None) -> bool:
    """Whether the reader reads the photo (does not refuse it)."""
    board = load_board("cyrus-pyxis")
    try:
        read(path, board, calibration=cal if isinstance(cal, Calibration) else None)
    except VisionError:
        return False
    return True


def report(name: str, rows: list[list[float]]) -> None:
    """Fits one logistic on all rows and on the even photos, and prints both with the log loss."""
    data = np.array(rows, np.float64)
    x, y, photo = data[:, :-2], data[:, -2], data[:, -1]
    w = fit(x, y)
    print(f"{name}: {len(y)} cells ({int((1 - y).sum())} wrong); weights (bias first): {np.round(w, 2).tolist()}")
    half = photo % 2 == 0
    try:
        w_half = fit(x[half], y[half])
    except np.linalg.LinAlgError:  # no wrong cell in one half: the fit does not settle there
        print("  no held-out check: one half of the photos has no wrong cell")
        return
    print(f"  log loss fitted on even photos: {log_loss(w_half, x[~half], y[~half]):.4f} on odd, "
          f"{log_loss(w_half, x[half], y[half]):.4f} on even")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--dump", type=Path, default=None, help="Also write the samples as JSON.")
    args = parser.parse_args()
    rows = samples(args.cache, args.photos)
    if args.dump is not None:
        args.dump.write_text(json.dumps(rows), encoding="utf-8")
    for name, data in rows.items():
        report(name, data)


if __name__ == "__main__":
    main()
