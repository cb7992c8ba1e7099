"""A learned cell reading from the colour classes, without the hand-set finders (issue 34, w50b).

Run from the repository root (scikit-learn needed: ``pip install -e '.[fit]'``):

    python bench/fit_ring_model.py [--work /tmp/w50b] [--out bench/reports/ring-model-dev.json]

Per cell, the features of :mod:`vision.ring_features` (colour-class shares by concentric ring of
the box's printed geometry, the unclaimed and washed shares, the light over the bare board's
around the cell, a summary of the neighbours), read from the relit warp with the calibration's
classes adapted once to the photo: no occluder finder, no decision cascade. Gradient-boosted
trees (``HistGradientBoostingClassifier``) predict each cell's content (side standing there or
none, terrain), hidden cells included with their true content.

Steps, each cached in ``--work`` (features as ``.npz`` without pickles, and JSON):

1. features of the training photos (``/tmp/w50train/cache``: 300 per renderer, dev ranges
   1,500,000 and 5,500,000, nothing else uses them) and of the held-out sets (dev photos,
   game positions, occlusion set: read only, never fitted on);
2. hyper-parameters chosen on the training photos held out by photo (fit on the even photos,
   scored by log loss on the odd), then the model refitted on every training photo; its
   reliability by decile and ECE on the odd training photos, as fitted on the even;
3. the reading it gives (likeliest content, confidence its probability; a cell partly outside
   the photo read at 0; the refusal as :mod:`vision.pipeline`'s) on the held-out sets, counted
   as ``bench/bench_reliability.py``'s ``measure`` counts (the game positions also with the
   rules' priors through :func:`vision.prior.combine`), beside the reader's own reading of the
   same photos.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_priors import games_of  # noqa: E402
from bench.bench_reliability import cached_photos, calibrations, commit, reliability  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_priors  # noqa: E402
from vision import ring_features  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration, default_model  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decide import READ_INSIDE  # noqa: E402
from vision.errors import LowConfidenceError, VisionError  # noqa: E402
from vision.pipeline import read, refusal  # noqa: E402
from vision.prior import combine  # noqa: E402

SETS = {
    "train": (Path("/tmp/w50train/cache"), 300, {"render": 1_500_000, "tabletop": 5_500_000}),
    "dev": (Path("/tmp/w41a/cache"), 40, {"render": 1_000_000, "tabletop": 5_000_000}),
    "games": (Path("/tmp/w45c/cache"), 40, {"render": 1_200_000, "tabletop": 5_200_000}),
    "occlusion": (Path("/tmp/w46a/cache"), 40, {"render": 2_500_000, "tabletop": 2_600_000}),
    "aimed": (Path("/tmp/w50b/aimed"), 80, {"render": 1_600_000, "tabletop": 5_600_000}),
}
"""Each set's cache (read only), photos per renderer and dev seed range per renderer."""
TRAINING = ("train", "aimed")
"""The sets fitted on: the lead's random training photos and w50b's hand-aimed ones
(``bench/ring_training_photos.py``)."""
HELD_OUT = ("dev", "games", "occlusion")
GRID = [
    {"learning_rate": 0.1, "max_leaf_nodes": leaves, "min_samples_leaf": 40, "l2_regularization": 1.0}
    for leaves in (15, 31)
]
"""The hyper-parameters tried (tunables of the fit: 4 numbers, with ``MAX_ITER``)."""
MAX_ITER = 300
"""Boosting rounds at most; early stopping on a tenth of the fitting cells ends it sooner."""


def contents(board: BoardSpec) -> list[tuple[str | None, str]]:
    """Every content of a cell, in the order of the model's classes."""
    return [(side, terrain) for side in (None, *board.sides) for terrain in board.terrains]


@dataclass
class Photos:
    """One set's cells, read: features, truth, and what the pipeline needs to refuse a photo."""

    x: np.ndarray
    y: np.ndarray
    hidden: np.ndarray
    photo: np.ndarray
    old: list[tuple[str | None, str, float]]
    meta: list[dict[str, Any]]


def _photos(board: BoardSpec, name: str, kind: str) -> Iterator[tuple[str, Path, dict[str, Any], list[str], Any]]:
    cache, count, bases = SETS[name]
    base = bases[kind]
    cals = calibrations(board, kind, base, cache)
    for path, truth, hidden, group in cached_photos(cache, kind, count, base):
        cal = cals.get(group)
        yield kind, path, truth, hidden, cal if isinstance(cal, Calibration) else None


def collect(board: BoardSpec, name: str, work: Path) -> Photos:
    """Reads one set's photos (both renderers) into per-cell features and truth."""
    return join([collect_kind(board, name, kind, work) for kind in SETS[name][2]])


def collect_kind(board: BoardSpec, name: str, kind: str, work: Path) -> Photos:
    """Reads one set's photos of one renderer (cached in ``work``) into per-cell features and truth."""
    npz, side = work / f"{name}-{kind}.npz", work / f"{name}-{kind}.json"
    if npz.exists() and side.exists():
        data = np.load(npz, allow_pickle=False)
        extra = json.loads(side.read_text(encoding="utf-8"))
        old = [(o, t, c) for o, t, c in extra["old"]]
        x, photo = data["x"], data["photo"]
        names = ring_features.feature_names(board)
        if x.shape[1] < len(names):  # read before the photo's summary was a feature: add it
            x = np.concatenate([ring_features.photo_summary(x[photo == k], names) for k in np.unique(photo)])
        return Photos(x, data["y"], data["hidden"], photo, old, extra["meta"])
    cfg = VisionConfig()
    every = contents(board)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    hid: list[bool] = []
    ph: list[int] = []
    old: list[tuple[str | None, str, float]] = []
    meta: list[dict[str, Any]] = []
    seconds = 0.0
    for _kind, path, truth, hidden, cal in _photos(board, name, kind):
        entry: dict[str, Any] = {"kind": kind, "stem": path.stem}
        try:
            reading = read(path, board, calibration=cal, strict=False)
        except VisionError as exc:
            entry["refused"] = type(exc).__name__
            meta.append(entry)
            continue
        start = time.perf_counter()
        seed = cal.pixels if cal is not None else default_model(board, cfg)
        model = ring_features.adapted(reading.warped, board, reading.white, seed, cfg.classify)
        x = ring_features.features(reading.warped, board, reading.white, model, cfg.classify)
        seconds += time.perf_counter() - start
        names = board.cell_names()
        ev = reading.evidence
        entry.update(reached=[float(v) for v in (ev.reached if ev.reached is not None else np.zeros(len(names)))],
                     washed=[float(v) for v in reading.washed], sharpness=reading.observation.registration.sharpness,
                     inside=[float(v) for v in reading.inside], hidden=list(hidden))
        k = len(meta)
        meta.append(entry)
        xs.append(x)
        for cell in names:
            ys.append(every.index((truth[cell]["occupant"], truth[cell]["terrain"])))
            hid.append(cell in hidden)
            ph.append(k)
            r = reading.observation.cells[cell]
            old.append((r.occupant, r.terrain, r.confidence))
    out = Photos(np.concatenate(xs), np.array(ys), np.array(hid), np.array(ph), old, meta)
    work.mkdir(parents=True, exist_ok=True)
    np.savez(npz, x=out.x, y=out.y, hidden=out.hidden, photo=out.photo)
    side.write_text(json.dumps({"old": old, "meta": meta, "feature_seconds": seconds}), encoding="utf-8")
    print(f"{name} {kind}: {len(meta)} photos, {len(ys)} cells, features {seconds:.1f} s", flush=True)
    return out


def fit(x: np.ndarray, y: np.ndarray, params: dict[str, float], seed: int = 0) -> Any:
    """Gradient-boosted trees on (x, y)."""
    clf = HistGradientBoostingClassifier(max_iter=MAX_ITER, early_stopping=True, validation_fraction=0.1,
                                         n_iter_no_change=20, random_state=seed, **params)
    clf.fit(x, y)
    return clf


def proba(clf: Any, x: np.ndarray, classes: int) -> np.ndarray:
    """The model's probabilities over every content (a content never seen in fitting at 0)."""
    p = np.zeros((len(x), classes))
    p[:, clf.classes_] = clf.predict_proba(x)
    return p


def choose(train: Photos, classes: int, grid: list[dict[str, float]]) -> tuple[dict[str, float], list[dict[str, Any]],
                                                                           np.ndarray]:
    """Fits every setting of ``grid`` on the even training photos, scores it on the odd ones;
    returns the best, the scores, and the best's probabilities on the odd photos."""
    even = train.photo % 2 == 0
    scores: list[dict[str, Any]] = []
    best: tuple[float, dict[str, float], np.ndarray] | None = None
    for params in grid:
        start = time.perf_counter()
        clf = fit(train.x[even], train.y[even], params)
        p = proba(clf, train.x[~even], classes)
        loss = float(-np.log(np.clip(p[np.arange(len(p)), train.y[~even]], 1e-12, 1)).mean())
        scores.append({**params, "iterations": int(clf.n_iter_), "log_loss_odd": round(loss, 5),
                       "seconds": round(time.perf_counter() - start, 1)})
        print(f"  {scores[-1]}", flush=True)
        if best is None or loss < best[0]:
            best = (loss, params, p)
    assert best is not None
    return best[1], scores, best[2]


def held_out_calibration(train: Photos, p: np.ndarray) -> dict[str, Any]:
    """Reliability by decile and ECE of the odd training photos' visible cells, and of their hidden ones."""
    odd = train.photo % 2 == 1
    y, hid = train.y[odd], train.hidden[odd]
    top = p.argmax(axis=1)
    pairs = [(float(p[i, top[i]]), bool(top[i] == y[i])) for i in range(len(y)) if not hid[i]]
    hidden = [(float(p[i, top[i]]), bool(top[i] == y[i])) for i in range(len(y)) if hid[i]]
    out = reliability(pairs)
    out["hidden"] = {"cells": len(hidden), "sure": sum(c >= 0.9 for c, _ in hidden),
                     "sure_wrong": sum(c >= 0.9 and not r for c, r in hidden)}
    return out


def measure(board: BoardSpec, photos: Photos, p: np.ndarray | None, priors: dict[str, Any] | None = None,
            features: list[str] | None = None, both: bool = False) -> dict[str, Any]:
    """Counts as ``bench_reliability.measure`` does, for the model's reading (``p``) or, with
    ``p`` None, for the reader's own (``Photos.old``); with ``both``, the model's reading asked
    where the reader's differs or is unsure (the model as a second opinion): photos read and refused, asked,
    confidently wrong, hidden misread, reliability and ECE, the wrong cells (with, given
    ``features``, what a few features showed)."""
    cfg = VisionConfig()
    floor = cfg.classify.min_confidence
    every = contents(board)
    names = board.cell_names()
    pairs: list[tuple[float, bool]] = []
    read_n = asked = wrong = hidden_misread = 0
    refused: dict[str, int] = {}
    wrong_cells: list[str] = []
    for k, entry in enumerate(photos.meta):
        if "refused" in entry:
            refused[entry["refused"]] = refused.get(entry["refused"], 0) + 1
            continue
        rows = np.nonzero(photos.photo == k)[0]
        readings: dict[str, tuple[str | None, str, float]] = {}
        for n, i in enumerate(rows):
            if p is None:
                occupant, terrain, conf = photos.old[i]
            else:
                j = int(p[i].argmax())
                (occupant, terrain), conf = every[j], float(p[i, j])
                if entry["inside"][n] < READ_INSIDE:
                    conf = 0.0
                if both:
                    was = photos.old[i]
                    conf = min(conf, was[2]) if (was[0], was[1]) == (occupant, terrain) else 0.0
            readings[names[n]] = (occupant, terrain, round(conf, 4))
        unreadable = tuple(c for c, r in readings.items() if r[2] < floor)
        try:
            why = refusal(unreadable, np.array(entry["reached"]), np.array(entry["washed"]), board.cell_names(),
                          cfg.classify.max_unreadable)
            if why is not None:
                raise why.error()
        except VisionError as exc:
            reason = type(exc).__name__ if not isinstance(exc, LowConfidenceError) else "LowConfidenceError"
            refused[reason] = refused.get(reason, 0) + 1
            continue
        if priors is not None:
            readings = combine(readings, priors[entry["stem"]], board)
        read_n += 1
        hidden = set(entry["hidden"])
        for n, i in enumerate(rows):
            occupant, terrain, conf = readings[names[n]]
            right = every.index((occupant, terrain)) == photos.y[i]
            sure = conf >= floor
            if names[n] in hidden:
                hidden_misread += sure and not right
                continue
            pairs.append((conf, bool(right)))
            asked += not sure
            if sure and not right:
                wrong += 1
                truth = every[int(photos.y[i])]
                text = f"{entry['stem']} {names[n]}: {occupant}/{terrain} at {conf:.3f}, truth {truth[0]}/{truth[1]}"
                if features is not None:
                    text += " [" + ", ".join(f"{f} {photos.x[i, c]:.2f}" for c, f in enumerate(features)
                                             if _telling(f) and abs(photos.x[i, c]) > 0.02) + "]"
                wrong_cells.append(text)
    return {"photos_read": read_n, "refused": refused, **reliability(pairs), "cells_asked": asked,
            "cells_confidently_wrong": wrong, "hidden_misread": hidden_misread, "wrong_cells": wrong_cells[:40]}


def _telling(feature: str) -> bool:
    """The features a wrong cell's line shows (the class shares of the inner rings, light, unclaimed)."""
    ring, _, what = feature.partition(" ")
    return ring in ("core", "band") and (what.startswith("share") or what in ("light", "unclaimed_bright"))


def join(parts: list[Photos]) -> Photos:
    """Several sets' cells as one (photo indices renumbered)."""
    shift = np.cumsum([0, *(len(p.meta) for p in parts[:-1])])
    return Photos(np.concatenate([p.x for p in parts]), np.concatenate([p.y for p in parts]),
                  np.concatenate([p.hidden for p in parts]),
                  np.concatenate([p.photo + s for p, s in zip(parts, shift, strict=True)]),
                  [o for p in parts for o in p.old], [m for p in parts for m in p.meta])


def by_kind(photos: Photos, kind: str) -> Photos:
    """The cells of one renderer's photos (photo indices renumbered)."""
    keep = [k for k, m in enumerate(photos.meta) if m["kind"] == kind]
    renumber = {k: j for j, k in enumerate(keep)}
    rows = np.isin(photos.photo, keep)
    return Photos(photos.x[rows], photos.y[rows], photos.hidden[rows],
                  np.array([renumber[int(k)] for k in photos.photo[rows]], int),
                  [o for o, r in zip(photos.old, rows, strict=True) if r], [photos.meta[k] for k in keep])


def game_priors(board: BoardSpec) -> dict[str, Any]:
    """Each game photo's priors from the rules (by file stem), as ``bench/bench_priors.py`` makes them."""
    cache, count, bases = SETS["games"]
    out: dict[str, Any] = {}
    for kind, base in bases.items():
        for k, game in enumerate(games_of(base, count, cache, kind)):
            out[f"{kind}_{k}"] = cell_priors(game.before)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/w50b"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "reports" / "ring-model-dev.json")
    parser.add_argument("--collect-only", nargs=2, metavar=("SET", "KIND"), default=None,
                        help="Only read one set's photos of one renderer into --work.")
    parser.add_argument("--sets", nargs="+", default=list(SETS), help="The sets to read (default: all).")
    parser.add_argument("--quick", action="store_true", help="Fit the grid's first setting only.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    if args.collect_only:
        collect_kind(board, args.collect_only[0], args.collect_only[1], args.work)
        return
    classes = len(contents(board))
    names = ring_features.feature_names(board)
    sets = {name: collect(board, name, args.work) for name in (*TRAINING, *HELD_OUT) if name in args.sets}
    train = join([sets[name] for name in TRAINING if name in sets])
    print(f"fitting on {len(train.meta)} training photos, {len(train.y)} cells, {train.x.shape[1]} features",
          flush=True)
    params, scores, p_odd = choose(train, classes, GRID[:1] if args.quick else GRID)
    report: dict[str, Any] = {
        "what": "a learned cell reading from the colour classes (bench/fit_ring_model.py)", **commit(),
        "machine": machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "fitted_on": {"sets": {name: {"cache": str(SETS[name][0]), "seeds": SETS[name][2]} for name in TRAINING},
                      "photos": len(train.meta),
                      "cells": len(train.y), "features": len(names)},
        "grid": scores, "chosen": params, "held_out_training": held_out_calibration(train, p_odd)}
    clf = fit(train.x, train.y, params)
    report["iterations"] = int(clf.n_iter_)
    priors = game_priors(board) if "games" in sets else {}
    for name in HELD_OUT:
        if name not in sets:
            continue
        photos = sets[name]
        for kind in ("render", "tabletop"):
            part = by_kind(photos, kind)
            start = time.perf_counter()
            p = proba(clf, part.x, classes)
            predict = time.perf_counter() - start
            row: dict[str, Any] = {"model": measure(board, part, p, features=names),
                                   "reader": measure(board, part, None),
                                   "model_and_reader": measure(board, part, p, both=True),
                                   "predict_seconds_per_photo": round(predict / max(len(part.meta), 1), 5)}
            if name == "games":
                row["model_with_priors"] = measure(board, part, p, priors, features=names)
                row["reader_with_priors"] = measure(board, part, None, priors)
            report.setdefault(name, {})[kind] = row
            brief = {k: {m: v[m] for m in ("photos_read", "cells_asked", "cells_confidently_wrong", "hidden_misread",
                                          "ece")} for k, v in row.items() if isinstance(v, dict)}
            print(f"{name} {kind}: {json.dumps(brief)}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
