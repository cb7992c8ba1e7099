"""What the occluder finder saw over each cell read wrong with confidence, on a cached dev set.

Run from the repository root, after ``bench/occlusion_set.py`` (or ``bench/bench_reliability.py
--cache``) has rendered the photos into DIR:

    python bench/diagnose_unreached.py --cache DIR [--set] [--photos 40] [--crops OUT]

Every photo is read as ``bench/bench_reliability.py``'s ``measure`` reads it (refusal on, the
photo's calibration); each cell read at or above the confidence floor and wrong is listed, the
visible ones (the renderer hid nothing there) and the hidden ones alike, with what the first
pass of the occluder finder (:func:`vision.occluders.occluder`) saw there: ``cand`` the share of
the cell's shrunk pixels its colour test keeps (neither bare board, nor a side's colour, nor
neutral, nor dark, nor a printed line), ``blob`` the size (cells²) of the kept blob over the cell
and how much of it (cells²) lies in the band around the grid where a hand comes in (``band``,
the corners' squares left out as the finder leaves them), ``own`` the share of that blob in
the colours the finder follows in from that band, ``first`` the share the first pass gave the
cell, ``reached`` the final share (:attr:`CellEvidence.reached`), ``next`` the largest final
share among its eight neighbours, ``dark`` the cell's mean brightness over the bare board's
median (a cast shadow: well under 1; a glare: over 1), ``hand`` how many cells away the nearest
cell the renderer hid lies. With ``--crops``, a PNG per cell: the warped board three
cells around it, and beside it the colour test's pixels (grey) and the occluder found (white).
Dev seeds only (``--set``: :data:`bench.occlusion_set.SEEDS`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import SEEDS, cached_readings  # noqa: E402
from bench.occlusion_set import SEEDS as SET_SEEDS  # noqa: E402
from vision import adaptive  # noqa: E402
from vision import occluders as oc  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import default_model  # noqa: E402
from vision.colours import _assign, chroma, class_names  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.pipeline import Reading  # noqa: E402


def first_pass(reading: Reading, board: BoardSpec, seed: adaptive.PixelModel,
               cfg: VisionConfig) -> dict[str, npt.NDArray[np.generic]]:
    """The occluder finder's first pass on the reading's warp, step by step (shrunk pixels)."""
    c = cfg.classify
    w = reading.warped
    p, ppc = w.pad_px, w.ppc
    grid = w.grid(board.rows, board.cols)
    grid_inside = w.inside[p : p + board.rows * ppc, p : p + board.cols * ppc]
    ev = adaptive.evidence(grid, grid_inside, reading.white, board, seed, c)
    step = c.occluder_step
    h, wd = w.image.shape[:2]
    small = np.asarray(cv2.resize(w.image, (wd // step, h // step), interpolation=cv2.INTER_AREA), np.uint8)
    seen = cv2.resize(w.inside.astype(np.uint8), (wd // step, h // step), interpolation=cv2.INTER_AREA) > 0
    feats = chroma(small.astype(np.float32), reading.white)
    names = class_names(board)
    means, sds = ev.model.arrays(names)
    best, dist = _assign(feats.reshape(-1, 3)[:, :2], means, sds)
    best = best.reshape(small.shape[:2])
    fits = dist.reshape(small.shape[:2]) < c.pixel_sigma
    sides = len(board.sides)
    base = oc._not_board(small, seen, feats, means[sides], best, fits, sides, c).astype(bool)
    sp = ppc / step
    y0 = x0 = p / step
    yy, xx = np.mgrid[0 : small.shape[0], 0 : small.shape[1]] + 0.5
    kind = np.where(fits, best, len(names))
    found = oc.occluder(w.image, w.inside, p, ppc, reading.white, board, ev.model, c)
    lo, hi = c.reach_band
    outer = (yy >= y0 - hi * sp) & (yy < y0 + board.rows * sp + hi * sp) & (xx >= x0 - hi * sp) & (
        xx < x0 + board.cols * sp + hi * sp)
    inner = (yy >= y0 - lo * sp) & (yy < y0 + board.rows * sp + lo * sp) & (xx >= x0 - lo * sp) & (
        xx < x0 + board.cols * sp + lo * sp)
    near = outer & ~inner
    for cy in (y0, y0 + board.rows * sp):  # the square around each corner, as the finder leaves it out
        for cx in (x0, x0 + board.cols * sp):
            near &= (np.abs(yy - cy) > hi * sp) | (np.abs(xx - cx) > hi * sp)
    entry = near & base
    shown = np.bincount(kind[entry], minlength=len(names) + 1)
    own = shown >= c.reach_colour * max(int(shown.sum()), 1) if shown.sum() else np.zeros(len(names) + 1, bool)
    hand = found.blob if found.blob is not None else np.zeros(base.shape, bool)
    return {"small": small, "base": base, "kind": kind, "near": near, "own": own, "hand": hand,
            "first": found.share, "sp": np.array(sp), "origin": np.array(y0)}


def describe(n: int, reading: Reading, board: BoardSpec, fp: dict[str, npt.NDArray[np.generic]]) -> str:
    """One line: what the finder saw over cell ``n``."""
    sp, y0 = float(fp["sp"]), float(fp["origin"])
    r, c = divmod(n, board.cols)
    ys, xs = slice(int(y0 + r * sp), int(y0 + (r + 1) * sp)), slice(int(y0 + c * sp), int(y0 + (c + 1) * sp))
    base = np.asarray(fp["base"], bool)
    cand = float(base[ys, xs].mean())
    count, labels = cv2.connectedComponents(base.astype(np.uint8), connectivity=4)
    ids = np.unique(labels[ys, xs][base[ys, xs]])
    size = band = 0.0
    own_share = 0.0
    if len(ids):
        sizes = np.bincount(labels.ravel(), minlength=count)
        j = int(ids[np.argmax(sizes[ids])])
        blob = labels == j
        size = float(sizes[j]) / (sp * sp)
        band = float((blob & np.asarray(fp["near"], bool)).sum()) / (sp * sp)
        own = np.asarray(fp["own"], bool)
        own_share = float(own[np.asarray(fp["kind"], np.intp)[blob]].mean())
    reached = reading.evidence.reached
    final = reached if reached is not None else np.zeros(board.rows * board.cols)
    around = [final[rr * board.cols + cc] for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
              if 0 <= rr < board.rows and 0 <= cc < board.cols and (rr, cc) != (r, c)]
    grey = cv2.cvtColor(np.asarray(fp["small"], np.uint8), cv2.COLOR_BGR2GRAY).astype(float)
    cells = grey[int(y0) : int(y0 + board.rows * sp), int(y0) : int(y0 + board.cols * sp)]
    dark = float(grey[ys, xs].mean()) / max(float(np.median(cells)), 1.0)
    return (f"cand {cand:.2f} blob {size:.2f} band {band:.2f} own {own_share:.2f} "
            f"first {float(fp['first'][n]):.2f} reached {final[n]:.2f} next {max(around):.2f} dark {dark:.2f}")


def _away(name: str, hidden: list[str], board: BoardSpec) -> int:
    """How many cells (king's moves) from ``name`` to the nearest cell the renderer hid (0: it
    is one; -1: the photo hides none)."""
    names = board.cell_names()
    r, c = divmod(names.index(name), board.cols)
    steps = [max(abs(r - hr), abs(c - hc)) for hr, hc in (divmod(names.index(h), board.cols) for h in hidden)]
    return min(steps) if steps else -1


def crop(path: Path, n: int, reading: Reading, board: BoardSpec, fp: dict[str, npt.NDArray[np.generic]]) -> None:
    """Saves the warp three cells around cell ``n`` and the finder's pixels beside it."""
    w = reading.warped
    p, ppc = w.pad_px, w.ppc
    r, c = divmod(n, board.cols)
    y, x = p + r * ppc + ppc // 2, p + c * ppc + ppc // 2
    h, wd = w.image.shape[:2]
    ys, xs = slice(max(0, y - 3 * ppc // 2), min(h, y + 3 * ppc // 2)), slice(max(0, x - 3 * ppc // 2),
                                                                                 min(wd, x + 3 * ppc // 2))
    view = w.image[ys, xs].copy()
    cv2.rectangle(view, (x - ppc // 2 - xs.start, y - ppc // 2 - ys.start),
                  (x + ppc // 2 - xs.start, y + ppc // 2 - ys.start), (0, 0, 255), 1)
    shown = np.where(np.asarray(fp["hand"], bool), 255, np.where(np.asarray(fp["base"], bool), 128, 0)).astype(np.uint8)
    big = cv2.resize(shown, (wd, h), interpolation=cv2.INTER_NEAREST)[ys, xs]
    cv2.imwrite(str(path), np.hstack([view, cv2.cvtColor(big, cv2.COLOR_GRAY2BGR)]))


def diagnosis_arguments(description: str) -> argparse.Namespace:
    """Parses the options the diagnosis scripts share: the cache, the occlusion set's seeds or
    the dev ones, how many photos, which renderer, and a folder for crops (made here)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--set", action="store_true", help="Read bench/occlusion_set.py's seed range.")
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--only", choices=("render", "tabletop"), default=None)
    parser.add_argument("--crops", type=Path, default=None, help="Folder for a PNG per cell listed.")
    args = parser.parse_args()
    if args.crops is not None:
        args.crops.mkdir(parents=True, exist_ok=True)
    return args


def main() -> None:
    args = diagnosis_arguments(__doc__.splitlines()[0])
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig()
    floor = cfg.classify.min_confidence
    wrong = {kind: {"visible": 0, "hidden": 0} for kind in SEEDS["dev"] if not args.only or kind == args.only}
    readings = cached_readings(board, args.cache, args.photos, args.only,
                               bases=SET_SEEDS if args.set else None, strict=True)
    for kind, (path, truth, hidden, _group), usable, reading in readings:
        seed = usable.pixels if usable is not None else default_model(board, cfg)
        fp: dict[str, npt.NDArray[np.generic]] | None = None
        for n, (name, cell) in enumerate(reading.observation.cells.items()):
            held = truth[name]
            if cell.confidence < floor or (cell.occupant, cell.terrain) == (held["occupant"], held["terrain"]):
                continue
            where = "hidden" if name in hidden else "visible"
            wrong[kind][where] += 1
            fp = fp if fp is not None else first_pass(reading, board, seed, cfg)
            print(f"{kind} {path.stem} {name} {where}: read {cell.occupant}/{cell.terrain} {cell.confidence:.3f}, "
                  f"held {held['occupant']}/{held['terrain']}; {describe(n, reading, board, fp)}; "
                  f"hand {_away(name, hidden, board)} cells away", flush=True)
            if args.crops:
                crop(args.crops / f"{kind}-{path.stem}-{name}.png", n, reading, board, fp)
    for kind, counts in wrong.items():
        print(f"{kind}: {counts['visible']} visible and {counts['hidden']} hidden cells read wrong with confidence",
              flush=True)


if __name__ == "__main__":
    main()
