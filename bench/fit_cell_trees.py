"""Fits the reader's decision as one model: gradient-boosted trees over each cell's features
(``vision.cell_features``) predicting its content, exported to ``vision/cell_trees.json``.

Needs scikit-learn (``pip install -e '.[fit]'``); the reader never imports it. Run from the
repository root on the dumps of ``bench/dump_cell_features.py`` (training photos only):

    python bench/fit_cell_trees.py /tmp/w50a/render.npz /tmp/w50a/tabletop.npz \
        [--bag K [--partition-seed S]] [--unseen GLARED.npz ...] \
        [--export vision/cell_trees.json] [--rows tests/vision/data/cell_trees_rows.json]

Photos are held out by photo to choose the number of boosting rounds (by held-out log loss) and
to check calibration: the script prints, on the held-out photos' visible cells, the log loss,
the cells asked (below the ask floor), read sure and wrong, the hidden cells read sure and wrong,
the reliability by decile and the ECE, next to the same figures of the cascade the training
dumps recorded on the same cells. Without ``--bag`` one model is fitted on three quarters of the
photos (every fourth photo of each dump held out) and exported as a one-member bag (the recipe
before w59a). With ``--bag K`` each dump's photos are shuffled (``--partition-seed``) and dealt
into K parts; member k is fitted on every part but k and its rounds chosen on part k, so every
training photo is held out by exactly one member (the figures printed are those out-of-fold
readings, one member each). The K members are exported together; the reader averages their
probabilities (``vision.trees``). ``--unseen`` dumps (photos no member saw, e.g. the glared set)
are read by the whole bag, its probabilities averaged both ways (probabilities, raw scores), and
by each member alone. ``--rows`` stores a few rows with the probabilities scikit-learn's members
give them, averaged, which a test checks the numpy inference (``vision.trees``) against.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from sklearn.ensemble import HistGradientBoostingClassifier

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.board import load_board  # noqa: E402
from vision.cell_features import PHOTO, photo_summary  # noqa: E402
from vision.trees import FORMAT  # noqa: E402

Floats = npt.NDArray[np.float64]
FLOOR = 0.9
"""The reader's ask floor (``classify.min_confidence``)."""
LEARNING_RATE = 0.1
"""Hyper-parameter (tunable): the boosting's shrinkage."""
MAX_LEAF_NODES = 15
"""Hyper-parameter (tunable): leaves per tree (``--leaves``)."""
MIN_SAMPLES_LEAF = 40
"""Hyper-parameter (tunable): fewest training cells in a leaf (``--min-leaf``)."""
MAX_ROUNDS = 100
"""Cap: boosting rounds fitted; the rounds kept are chosen by held-out log loss."""
HIDDEN_WEIGHT = 1.0
"""Hyper-parameter (tunable): the weight of a cell the renderer hid under a hand, against 1 for a
visible cell (``--hidden-weight``)."""


class Member(NamedTuple):
    """One fitted member of the bag: the model, its rounds kept and the photos it held out."""

    model: HistGradientBoostingClassifier
    rounds: int
    held: npt.NDArray[np.bool_]
    held_proba: Floats
    """Its probabilities on the cells it held out, at the rounds kept."""

    def proba(self, x: Floats) -> Floats:
        """Its probabilities on ``x`` at the rounds kept."""
        for k, p in enumerate(self.model.staged_predict_proba(x), start=1):
            if k == self.rounds:
                out: Floats = p
                return out
        raise AssertionError("fewer rounds fitted than kept")


def load(paths: list[Path]) -> dict[str, Any]:
    """The dumps joined; a ``kind`` column (the dump's index) and photo keys unique across them.
    A dump from before the photo's summary columns gets them here, computed as the reader does."""
    parts = [dict(np.load(p)) for p in paths]
    names: list[str] = []
    for part in parts:
        x = part["x"].astype(np.float64)
        x[~np.isfinite(x)] = np.nan
        part_names = [str(n) for n in part["names"]]
        if not set(PHOTO) <= set(part_names):
            summary = np.zeros((len(x), len(PHOTO)))
            for photo in np.unique(part["photo"]):
                rows = part["photo"] == photo
                summary[rows] = photo_summary(x[rows], part_names)
            x = np.hstack([x, summary])
            part_names = [*part_names, *PHOTO]
        if names and part_names != names:
            raise SystemExit(f"the dumps' feature columns differ: {names} and {part_names}")
        names = part_names
        part["x"] = x
    out: dict[str, Any] = {"names": names}
    for key in ("x", "y", "hidden", "cascade", "cascade_conf"):
        out[key] = np.concatenate([p[key] for p in parts])
    out["kind"] = np.concatenate([np.full(len(p["y"]), k) for k, p in enumerate(parts)])
    out["photo"] = np.concatenate([p["photo"] + 100_000 * k for k, p in enumerate(parts)])
    return out


def figures(proba: Floats, classes: npt.NDArray[np.int64], y: npt.NDArray[np.int64],
            hidden: npt.NDArray[np.bool_]) -> dict[str, Any]:
    """The held-out figures of a model's probabilities (rows: cells; columns: ``classes``)."""
    best = proba.argmax(axis=1)
    conf = proba.max(axis=1)
    right = classes[best] == y
    return {**reading_figures(conf, right, hidden), "log_loss": round(log_loss(proba, classes, y), 5)}


def log_loss(proba: Floats, classes: npt.NDArray[np.int64], y: npt.NDArray[np.int64]) -> float:
    col = {int(c): k for k, c in enumerate(classes)}
    idx = np.array([col.get(int(c), -1) for c in y])
    p_true = np.where(idx >= 0, proba[np.arange(len(idx)), np.maximum(idx, 0)], 0.0)
    return float(-np.mean(np.log(np.clip(p_true, 1e-12, 1))))


def reading_figures(conf: Floats, right: npt.NDArray[np.bool_], hidden: npt.NDArray[np.bool_]) -> dict[str, Any]:
    """Asked, sure and wrong, hidden misread, ECE and the reliability by decile."""
    visible = ~hidden
    sure = conf >= FLOOR
    rows = []
    gap = 0.0
    c, r = conf[visible], right[visible]
    for k in range(10):
        inside = (c >= k / 10) & ((c < (k + 1) / 10) if k < 9 else (c <= 1))
        if inside.any():
            rows.append((k / 10, int(inside.sum()), round(float(c[inside].mean()), 4),
                         round(float(r[inside].mean()), 4)))
            gap += inside.sum() * abs(c[inside].mean() - r[inside].mean())
    return {"visible": int(visible.sum()), "asked": int((visible & ~sure).sum()),
            "wrong": int((visible & sure & ~right).sum()), "hidden": int(hidden.sum()),
            "hidden_asked": int((hidden & ~sure).sum()), "hidden_misread": int((hidden & sure & ~right).sum()),
            "ece": round(float(gap / max(1, visible.sum())), 5), "deciles": rows}


def fit(x: Floats, y: npt.NDArray[np.int64], weight: Floats, leaves: int = MAX_LEAF_NODES,
        min_leaf: int = MIN_SAMPLES_LEAF) -> HistGradientBoostingClassifier:
    model = HistGradientBoostingClassifier(learning_rate=LEARNING_RATE, max_iter=MAX_ROUNDS, early_stopping=False,
                                           max_leaf_nodes=leaves, min_samples_leaf=min_leaf, random_state=0)
    model.fit(x, y, sample_weight=weight)
    return model


def balanced_where_doubtful(data: dict[str, Any], weight: Floats) -> Floats:
    """Weights under which what a hand or a glare may hide is not the training scenes' base rate:
    each cell's doubt ``s`` is the largest of its hidden flag, its occluder's reach, its washed
    share and its off-class share; its weight moves from ``weight`` (s = 0) to its content's
    balanced weight among the doubtful cells (s = 1: every content weighs alike there). A cell
    under a hand then comes out unsure unless what still shows decides it."""
    names = data["names"]
    x, y = data["x"], data["y"]
    doubt = np.max([data["hidden"].astype(np.float64),
                    *[np.nan_to_num(x[:, names.index(k)]) for k in ("reached", "washed", "other_share")]], axis=0)
    doubt = np.clip(doubt, 0.0, 1.0)
    mass = np.bincount(y, weights=doubt, minlength=int(y.max()) + 1)
    present = mass > 0
    balanced = np.where(present, mass.sum() / (present.sum() * np.maximum(mass, 1e-9)), 0.0)
    out: Floats = (1 - doubt) * weight + doubt * balanced[y]
    return out


def held_out_rounds(model: HistGradientBoostingClassifier, x: Floats,
                    y: npt.NDArray[np.int64]) -> tuple[int, Floats]:
    """The number of rounds whose model has the lowest log loss on the held-out cells, and its
    probabilities on them."""
    best: tuple[float, int, Floats] = (np.inf, 0, np.zeros(0))
    for k, p in enumerate(model.staged_predict_proba(x), start=1):
        loss = log_loss(p, model.classes_, y)
        if loss < best[0]:
            best = (loss, k, p)
    return best[1], best[2]


def parts(data: dict[str, Any], bag: int, seed: int) -> npt.NDArray[np.int64]:
    """Each cell's part: without a bag (0) every fourth photo of each dump is part 1 (held out),
    the rest part 0; with one, each dump's photos are shuffled by ``seed`` and dealt into ``bag``
    parts in turn, so every part holds a share of every dump."""
    if bag == 0:
        out: npt.NDArray[np.int64] = (data["photo"] % 4 == 3).astype(np.int64)
        return out
    rng = np.random.default_rng(seed)
    part = {}
    for kind in np.unique(data["kind"]):
        photos = rng.permutation(np.unique(data["photo"][data["kind"] == kind]))
        part.update({int(ph): k % bag for k, ph in enumerate(photos)})
    return np.array([part[int(ph)] for ph in data["photo"]], np.int64)


def fit_members(data: dict[str, Any], weight: Floats, part: npt.NDArray[np.int64], bag: int, leaves: int,
                min_leaf: int) -> list[Member]:
    """The bag's members: each fitted on every part but its own, its rounds chosen on its own
    (without a bag: one member, held out part 1)."""
    x, y = data["x"], data["y"]
    out = []
    for k in range(max(bag, 1)):
        held = part == (k if bag else 1)
        model = fit(x[~held], y[~held], weight[~held], leaves, min_leaf)
        if out and list(model.classes_) != list(out[0].model.classes_):
            raise SystemExit("a member's training part lacks a content the others have")
        rounds, proba = held_out_rounds(model, x[held], y[held])
        out.append(Member(model, rounds, held, proba))
        print(f"member {k}: {int((~held).sum())} cells fitted, rounds kept {out[-1].rounds} of {MAX_ROUNDS}",
              flush=True)
    return out


def average(each: list[Floats], raw_mean: bool = False) -> Floats:
    """The members' probabilities ``each`` averaged: their mean (as ``vision.trees`` reads), or
    with ``raw_mean`` the softmax of the mean of their raw scores (measured, not shipped)."""
    if not raw_mean:
        out: Floats = np.mean(each, axis=0)
        return out
    logs = np.mean([np.log(np.clip(p, 1e-300, 1)) for p in each], axis=0)  # softmax(mean raw) = this, renormalised
    e = np.exp(logs - logs.max(axis=1, keepdims=True))
    out = e / e.sum(axis=1, keepdims=True)
    return out


def export(members: list[Member], names: list[str], contents: list[tuple[str | None, str]],
           fitted: dict[str, Any]) -> dict[str, Any]:
    """The bag as ``vision.trees`` reads it."""
    tables = [member_tables(m.model, m.rounds) for m in members]
    return {"format": FORMAT, "features": names, "contents": [[o, t] for o, t in contents],
            "depth": max(depth for depth, _ in tables), "fitted": fitted,
            "members": [member for _, member in tables]}


def member_tables(model: HistGradientBoostingClassifier, rounds: int) -> tuple[int, dict[str, Any]]:
    """One member's depth, and its baseline and trees as ``vision.trees`` reads them."""
    nodes: dict[str, list[Any]] = {k: [] for k in ("class", "root", "feature", "threshold", "missing_left",
                                                   "left", "right", "value", "leaf")}
    depth = 0
    for per_class in model._predictors[:rounds]:
        for k, predictor in enumerate(per_class):
            t = predictor.nodes
            start = len(nodes["feature"])
            nodes["class"].append(k)
            nodes["root"].append(start)
            leaf = t["is_leaf"].astype(bool)
            nodes["feature"] += [int(v) for v in t["feature_idx"]]
            nodes["threshold"] += [float(v) for v in t["num_threshold"]]
            nodes["missing_left"] += [int(v) for v in t["missing_go_to_left"]]
            nodes["left"] += [0 if f else start + int(v) for v, f in zip(t["left"], leaf, strict=True)]
            nodes["right"] += [0 if f else start + int(v) for v, f in zip(t["right"], leaf, strict=True)]
            nodes["value"] += [float(v) for v in t["value"]]
            nodes["leaf"] += [int(v) for v in leaf]
            depth = max(depth, int(t["depth"].max()))
    baseline = [float(v) for v in np.asarray(model._baseline_prediction).reshape(-1)]
    return depth, {"baseline": baseline, "trees": nodes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", type=Path, nargs="+")
    parser.add_argument("--hidden-weight", type=float, default=HIDDEN_WEIGHT)
    parser.add_argument("--balance-doubt", action="store_true",
                        help="Weigh the contents evenly where something may hide the cell "
                             "(see balanced_where_doubtful).")
    parser.add_argument("--leaves", type=int, default=MAX_LEAF_NODES)
    parser.add_argument("--min-leaf", type=int, default=MIN_SAMPLES_LEAF)
    parser.add_argument("--bag", type=int, default=0, help="Members of the bag (0: one model, a fourth held out).")
    parser.add_argument("--partition-seed", type=int, default=0, help="How the photos are dealt among the members.")
    parser.add_argument("--unseen", type=Path, nargs="*", default=[], help="Dumps no member saw, read by the bag.")
    parser.add_argument("--export", type=Path, default=None)
    parser.add_argument("--rows", type=Path, default=None)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    all_contents = [(occ, ter) for occ in (None, *board.sides) for ter in board.terrains]
    data = load(args.dumps)
    x, y, hidden = data["x"], data["y"], data["hidden"]
    part = parts(data, args.bag, args.partition_seed)
    print(f"training: {len(y)} cells of {len(set(data['photo']))} photos ({int(hidden.sum())} hidden), "
          f"dumps {[str(p) for p in args.dumps]}; "
          + (f"a bag of {args.bag}, partition seed {args.partition_seed}" if args.bag else "every fourth held out"))
    weight = np.where(hidden, args.hidden_weight, 1.0)
    if args.balance_doubt:
        weight = balanced_where_doubtful(data, weight)
    members = fit_members(data, weight, part, args.bag, args.leaves, args.min_leaf)
    fitted: dict[str, Any] = {
        "by": "bench/fit_cell_trees.py", "command": " ".join(["python", *sys.argv]),
        "cells": int((~members[0].held).sum()), "photos": len(set(data["photo"][~members[0].held])),
        "learning_rate": LEARNING_RATE, "max_leaf_nodes": args.leaves, "min_samples_leaf": args.min_leaf,
        "hidden_weight": args.hidden_weight, "balance_doubt": args.balance_doubt,
        "rounds": [m.rounds for m in members], "bag": {"members": len(members), "partition_seed": args.partition_seed,
                                                       "partition": "photo % 4 == 3 held out" if not args.bag else
                                                       "each dump's photos shuffled, dealt in turn"},
        "held_out": held_out(args.dumps, data, members)}
    if args.unseen:
        fitted["unseen"] = unseen(args.unseen, members)
    if args.export is None:
        return
    contents = [all_contents[int(c)] for c in members[0].model.classes_]
    args.export.write_text(json.dumps(export(members, data["names"], contents, fitted),
                                      separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"exported {args.export} ({args.export.stat().st_size} bytes)")
    if args.rows is not None:
        pick = np.random.default_rng(0).choice(len(y), 12, replace=False)
        rows = {"rows": [[None if np.isnan(v) else float(v) for v in r] for r in x[pick]],
                "probabilities": average([m.proba(x[pick]) for m in members]).round(8).tolist()}
        args.rows.write_text(json.dumps(rows) + "\n", encoding="utf-8")
        print(f"stored {len(pick)} rows with their probabilities in {args.rows}")


def held_out(dumps: list[Path], data: dict[str, Any], members: list[Member]) -> dict[str, Any]:
    """Per dump, the figures of the cells each member held out, read by that member (and the
    cascade's the dumps recorded), printed and returned."""
    y, hidden = data["y"], data["hidden"]
    classes = members[0].model.classes_
    held = np.zeros(len(y), bool)
    proba = np.zeros((len(y), len(classes)))
    for m in members:
        proba[m.held] = m.held_proba
        held |= m.held
    out = {}
    for kind in sorted(set(data["kind"])):
        mine = held & (data["kind"] == kind)
        right = data["cascade"][mine] == y[mine]
        cascade = reading_figures(data["cascade_conf"][mine], right, hidden[mine])
        out[str(dumps[kind])] = mod = figures(proba[mine], classes, y[mine], hidden[mine])
        print(f"{dumps[kind]} held out, cascade: {json.dumps(cascade)}")
        print(f"{dumps[kind]} held out, model:   {json.dumps(mod)}")
    return out


def unseen(paths: list[Path], members: list[Member]) -> dict[str, Any]:
    """The figures of photos no member saw: the bag averaged both ways, and each member alone."""
    data = load(paths)
    x, y, hidden = data["x"], data["y"], data["hidden"]
    classes = members[0].model.classes_
    each = [m.proba(x) for m in members]
    out: dict[str, Any] = {"photos": len(set(data["photo"])),
                           "bag": figures(average(each), classes, y, hidden),
                           "bag_raw_mean": figures(average(each, raw_mean=True), classes, y, hidden),
                           "members": [figures(p, classes, y, hidden) for p in each]}
    for key in ("bag", "bag_raw_mean"):
        print(f"unseen {[str(p) for p in paths]}, {key}: {json.dumps(out[key])}")  # log loss last
    for k, fig in enumerate(out["members"]):
        print(f"unseen, member {k} alone: {json.dumps({f: fig[f] for f in fig if f != 'deciles'})}")
    return out


if __name__ == "__main__":
    main()
