"""Fits the per-cell model's terrain-under-a-counter weights (``vision.cell_model``) on dev photos
of both renderers.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/fit_cell_model.py --cache DIR [--photos 40]
    python bench/fit_cell_model.py --cache /tmp/w50train/cache --photos 300 --bases 1500000 5500000

Every counter cell not under a hand, of every dev photo of both renderers read with its
calibration, gives the band's features (its brightness over the photo's usual counter band,
its colour's lean toward the likeliest token, the square root of the share of the cell leaning
toward it; :func:`vision.cell_model.band_features`) and the truth (a token lies under the
counter or not). A logistic regression (iteratively reweighted least squares, a small ridge
``RIDGE`` so that separable data keep finite weights) gives the probability that a token lies
there. It also prints the median brightness of the bands over bare board (``PLAIN_BAND``) and,
fitted on one half of the photos, the log loss on the other half. The values are then written
into ``vision/cell_model.py`` by hand, with the date and the figures, so that the reader never
reads a file of fitted values at run time. Eval seeds are never read.
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
from bench.dump_cell_features import held_out  # noqa: E402
from vision import cell_model  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402

RIDGE = 1e-5
"""Ridge weight of the fit (per cell), not a setting of the reader."""

Floats = npt.NDArray[np.float64]


def samples(cache: Path, photos: int,
            bases: dict[str, int] | None = None) -> tuple[Floats, Floats, Floats, Floats]:
    """Returns per counter cell: raw band light, lean, root share, truth (1: a token), and the
    photo index (for the held-out check); ``bases``: the cache's first seeds by renderer (the dev
    photos' if None)."""
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig().classify
    light: list[float] = []
    lean: list[float] = []
    share: list[float] = []
    truth: list[float] = []
    photo: list[float] = []
    k = 0  # photos with counters measured, numbered for the held-out check
    for _kind, photo_at, _cal, reading in cached_readings(board, cache, photos, bases=bases):
        _path, cells, hidden, _group = photo_at
        ev = reading.evidence
        names = board.cell_names()
        at = np.nonzero(ev.on_counter)[0]
        if ev.edge_light is None or ev.edge_lean is None or not len(at):
            continue
        tokens = ev.terrain_share[at][:, 1:]
        _, f_lean, f_share = cell_model.band_features(ev.edge_lean[at][:, 1:], tokens, cfg.edge_type_share)
        for j, i in enumerate(at):
            if names[i] in hidden or not np.isfinite(ev.edge_light[i]):
                continue
            light.append(float(ev.edge_light[i]))
            lean.append(float(f_lean[j]))
            share.append(float(f_share[j]))
            truth.append(float(cells[names[i]]["terrain"] != board.terrains[0]))
            photo.append(float(k))
        k += 1
    return np.array(light), np.array([lean, share]).T, np.array(truth), np.array(photo)


def fit(x: Floats, y: Floats) -> Floats:
    """Returns the logistic regression's weights (bias first) by IRLS with a small ridge."""
    a = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(a.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        grad = a.T @ (p - y) + RIDGE * len(y) * np.r_[0, w[1:]]
        hess = (a * (p * (1 - p))[:, None]).T @ a + RIDGE * len(y) * np.diag(np.r_[0, np.ones(len(w) - 1)])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(w: Floats, x: Floats, y: Floats) -> float:
    p = np.clip(1 / (1 + np.exp(-np.column_stack([np.ones(len(x)), x]) @ w)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def features(light: Floats, root_share: Floats, photo: Floats, w: Floats, plain_band: float) -> Floats:
    """Returns the model's inputs (relative brightness, root share), each photo's usual band
    found as the reader finds it with weights ``w`` (:func:`vision.cell_model.token_probability`)."""
    rel = np.empty_like(light)
    weights = (float(w[0]), float(w[1]), float(w[2]))
    for k in np.unique(photo):
        at = photo == k
        chance = cell_model.token_probability(light[at], root_share[at], weights, plain_band)
        rel[at] = cell_model.relative_light(light[at], 1.0 - chance, plain_band)
    return np.column_stack([rel, root_share])


def refit(light: Floats, root_share: Floats, truth: Floats, photo: Floats, plain_band: float) -> Floats:
    """Fits the weights, each photo's usual band found with the previous round's (from the
    weights in ``vision.cell_model``), until they settle."""
    w = np.array(cell_model.TOKEN_WEIGHTS, np.float64)
    for _ in range(10):
        new = fit(features(light, root_share, photo, w, plain_band), truth)
        if np.abs(new - w).max() < 1e-3:
            return new
        w = new
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--bases", type=int, nargs=2, metavar=("RENDER", "TABLETOP"),
                        help="The cache's first seeds (a training cache's, e.g. 1500000 5500000); the dev photos' "
                        "by default.")
    args = parser.parse_args()
    bases = dict(zip(("render", "tabletop"), args.bases, strict=True)) if args.bases else None
    if bases and any(held_out(b) for b in bases.values()):
        parser.error(f"seed ranges {args.bases} include a held-out one: never fitted on")
    light, rest, truth, photo = samples(args.cache, args.photos, bases)
    root_share = rest[:, 1]
    plain_band = float(np.median(light[truth == 0]))
    w = refit(light, root_share, truth, photo, plain_band)
    half = photo % 2 == 0
    w_half = refit(light[half], root_share[half], truth[half], photo[half], plain_band)
    x = features(light, root_share, photo, w_half, plain_band)
    print(f"cells {len(truth)} (tokens {int(truth.sum())}); PLAIN_BAND = {plain_band:.3f}")
    print("TOKEN_WEIGHTS (bias, relative light, root share):", np.round(w, 2).tolist())
    print(f"log loss, fitted on even photos: {log_loss(w_half, x[~half], truth[~half]):.4f} on odd, "
          f"{log_loss(w_half, x[half], truth[half]):.4f} on even")


if __name__ == "__main__":
    main()
