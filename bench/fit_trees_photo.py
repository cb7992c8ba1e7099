"""Fits the numbers the fitted trees' path reads beside its trees: the temperature of the
likelihood the rules' priors weigh (``vision.trees.LIKELIHOOD_TEMPERATURE``) and the photo's
refusal (``vision.trees.REFUSE_WEIGHTS``, ``REFUSE_AT``).

Needs scikit-learn (``pip install -e '.[fit]'``). Run from the repository root on the dumps the
shipped trees were fitted on (``bench/dump_cell_features.py``; training photos only), plus dumps
of photos the shipped trees never saw (``--unseen``, e.g. ``bench/render_glared_set.py``'s):

    python bench/fit_trees_photo.py /tmp/w50a/render2.npz /tmp/w50a/tabletop2.npz \\
        /tmp/w50a/aimed-render.npz /tmp/w50a/aimed-tabletop.npz \\
        --unseen /tmp/w50a/glare-tabletop.npz /tmp/w51a/glared-tabletop.npz --cache /tmp/w51a/oof.npz \
        [--model OTHER_TREES.json] [--bag K --partition-seed S] [--jobs 2] [--refused N]

(the shipped numbers' run: ``bench/reports/fit-trees-photo-w53b-visible.txt``; ``--model`` fits
for trees other than the shipped ones, e.g. a variant exported by ``bench/fit_cell_trees.py``).

Every training photo is read by trees fitted without it: four outer folds (every fourth photo
held out), each read by a fit on the other three quarters with the model's recipe (its file's
``fitted`` record), or with ``--bag K`` by a bag of K members fitted on them as
``bench/fit_cell_trees.py --bag K --partition-seed S`` fits one (its own functions), the
members' probabilities averaged as the reader averages them (w60a: a bag reads softer than one
fit, and a refusal fitted on single fits' readings refuses more of a bag's photos). An
``--unseen`` photo is read by the model itself (the bag to ship). ``--jobs`` outer folds are
fitted at once, one process each (with ``OMP_NUM_THREADS=1``: a bag of four per fold took
5 minutes for the four folds on two cores, w60a). ``--cache`` keeps the training photos'
probabilities, each fold's as it comes.

- The temperature ``T``: the photo's likelihood of a content is the trees' probability over the
  training share of that content (``Trees.frequency``), raised to ``1/T``; ``T`` is the value of
  a grid that gives the true contents of the visible cells the least log loss once multiplied
  back by the training shares. (Until w53b on the cells the trees leave unsure only, where the
  trees' spread is least calibrated: 1.3 for the refitted trees, and with it the rules' 9 to 1
  for a piece staying overrode bare cells the photo read at 0.96-0.999; the likelihood is
  weighed on every cell the rules name, sure ones most of all.)
- The refusal: a logistic over a photo's summary (:func:`vision.trees.photo_summary`: the share
  of cells the trees leave unsure, their mean doubt on the cells read sure, their mean entropy,
  and the photo's colour columns), labelled "the trees read at least one visible cell sure and
  wrong", fitted on every photo (the coefficients printed go to ``vision.trees.REFUSE_WEIGHTS``;
  its figures are those of four fits, each scoring the quarter of photos it left out). The
  threshold (``vision.trees.REFUSE_AT``): a photo with more than ``classify.max_unreadable``
  (0.25) of its cells unsure by the trees is refused anyway (too many questions); the threshold
  is the lowest at which both together refuse no more of these photos than ``--refused``: by
  default as many as the shipped refusal refuses on the same readings (the ``shipped`` figure:
  the reader keeps refusing as many photos as it does now). A ``--bag`` run needs ``--refused``:
  the shipped refusal refuses more of a bag's softer readings, and the count to keep is that of a
  run without ``--bag`` (w60a: 105). (Until w60a the default was the count of unsure cells on the
  confidences the dumps recorded, the cascade's until w53b; the dumps made since record the
  shipped trees' own confidences on their own training photos, which refuse far fewer, and gave
  ``REFUSE_AT`` 1.0.) The script prints, beside the recorded confidences' refusal (``cascade``), the
  cells read sure and wrong left in the photos read (visible, and hidden under a hand), and the
  same for a refusal by the count of unsure cells alone at the matched count; and how many
  photos the count of unsure cells refuses that the logistic does not (``count_binds_alone``:
  where ``classify.max_unreadable`` decides alone; none on the dev photos, the game positions,
  the occlusion set, the refuse set and ``tests/vision``, w58c); and the shipped refusal
  (``vision.trees.REFUSE_WEIGHTS``, ``REFUSE_AT``) on the same readings (``shipped``). Every
  figure names the training and the unseen photos it refuses.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.dump_cell_features import content_index  # noqa: E402
from bench.fit_cell_trees import (  # noqa: E402
    FLOOR,
    average,
    balanced_where_doubtful,
    fit,
    fit_members,
    load,
    parts,
)
from vision.board import load_board  # noqa: E402
from vision.decide import READ_INSIDE  # noqa: E402
from vision.trees import (  # noqa: E402
    PHOTO_SUMMARY,
    REFUSE_AT,
    Trees,
    default_trees,
    load_trees,
    photo_doubt,
    photo_summary,
)

Floats = npt.NDArray[np.float64]
CASCADE_SHARE = 0.25
"""The cascade's refusal (``classify.max_unreadable``), whose refusal count the trees match."""
TEMPERATURES = np.round(np.arange(0.5, 4.01, 0.1), 2)
"""The grid the temperature is chosen on."""


def out_of_fold(paths: list[Path], cache: Path | None, model: Trees, bag: int = 0, seed: int = 0,
                jobs: int = 1) -> dict[str, Any]:
    """Every training cell's probabilities from trees fitted without its photo (see the module):
    for each outer fold (every fourth photo held out) one fit of the recipe on the other three
    quarters, or with ``bag`` a bag of ``bag`` members fitted on them as ``bench/fit_cell_trees.py
    --bag`` fits one (its own functions; ``seed``: the partition seed), its members' probabilities
    averaged. ``jobs`` folds are fitted at once, in as many processes; with ``cache`` each fold's
    probabilities are kept as they come (``CACHE.foldF.npz``) and the whole in ``cache``."""
    if cache is not None and cache.exists():
        return {k: v for k, v in np.load(cache).items() if not k.startswith("ex_")}
    data = load(paths)
    recipe = model.fitted
    y = data["y"]
    weight = np.where(data["hidden"], float(recipe.get("hidden_weight", 1.0)), 1.0)
    if recipe.get("balance_doubt"):
        weight = balanced_where_doubtful(data, weight)
    leaves, min_leaf = int(recipe["max_leaf_nodes"]), int(recipe["min_samples_leaf"])
    proba = np.zeros((len(y), 9))
    todo = []
    for fold in range(4):
        kept = None if cache is None else cache.with_suffix(f".fold{fold}.npz")
        if kept is not None and kept.exists():
            proba[data["photo"] % 4 == fold] = np.load(kept)["proba"]
            print(f"fold {fold} read from {kept}", flush=True)
        else:
            todo.append((fold, kept))
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo)))) as pool:
        runs = {pool.submit(_fold, data, weight, fold, bag, seed, leaves, min_leaf): (fold, kept)
                for fold, kept in todo}
        for run in as_completed(runs):
            fold, kept = runs[run]
            proba[data["photo"] % 4 == fold] = held = run.result()
            if kept is not None:
                np.savez_compressed(kept, proba=held)
            print(f"fold {fold} fitted", flush=True)
    out = {"proba": proba, "y": y, "hidden": data["hidden"], "photo": data["photo"], "x": data["x"],
           "names": np.array(data["names"]), "cascade_conf": data["cascade_conf"]}
    if cache is not None:
        np.savez_compressed(cache, **out)
    return out


def _fold(data: dict[str, Any], weight: Floats, fold: int, bag: int, seed: int, leaves: int,
          min_leaf: int) -> Floats:
    """The probabilities (9 columns) of the photos of outer fold ``fold``, read by one fit or by a
    bag fitted on the other folds (:func:`out_of_fold`)."""
    held = data["photo"] % 4 == fold
    x, y = data["x"], data["y"]
    out = np.zeros((int(held.sum()), 9))
    if not bag:
        single = fit(x[~held], y[~held], weight[~held], leaves, min_leaf)
        out[:, single.classes_] = single.predict_proba(x[held])
        return out
    rest = {k: (v[~held] if isinstance(v, np.ndarray) else v) for k, v in data.items()}
    members = fit_members(rest, weight[~held], parts(rest, bag, seed), bag, leaves, min_leaf)
    out[:, members[0].model.classes_] = average([m.proba(x[held]) for m in members])
    return out


def shipped(paths: list[Path], model: Trees) -> dict[str, Any]:
    """The shipped trees' probabilities on photos they never saw (``--unseen``)."""
    data = load(paths)
    columns = [data["names"].index(f) for f in model.features]
    proba = np.zeros((len(data["y"]), 9))
    board = load_board("cyrus-pyxis")
    proba[:, [content_index(board, *c) for c in model.contents]] = model.probabilities(data["x"][:, columns])
    return {"proba": proba, "y": data["y"], "hidden": data["hidden"], "photo": data["photo"], "x": data["x"],
            "names": np.array(data["names"]), "cascade_conf": data["cascade_conf"]}


def temperature(proba: Floats, y: npt.NDArray[np.int64], hidden: npt.NDArray[np.bool_], share: Floats) -> float:
    """The grid's temperature of least log loss on the visible cells (see the module)."""
    visible = ~hidden  # every visible cell: the likelihood is weighed on sure cells too (w53b)
    seen = np.log(np.clip(proba[visible], 1e-12, 1)) - np.log(share)
    losses = []
    for t in TEMPERATURES:
        score = seen / t + np.log(share)
        score -= score.max(axis=1, keepdims=True)
        q = np.exp(score)
        q /= q.sum(axis=1, keepdims=True)
        losses.append(-np.mean(np.log(np.clip(q[np.arange(len(q)), y[visible]], 1e-12, 1))))
    best = int(np.argmin(losses))
    one = losses[list(TEMPERATURES).index(1.0)]
    print(f"temperature: {visible.sum()} visible cells; log loss at T=1 {one:.5f}, "
          f"least at T={TEMPERATURES[best]} ({losses[best]:.5f})")
    return float(TEMPERATURES[best])


def photos(d: dict[str, Any], unseen: bool = False) -> list[dict[str, Any]]:
    """Per photo: the trees' unsure cells, the cascade's, the visible cells read sure and wrong,
    the hidden ones (``unseen``: a photo no fit saw, not a training one)."""
    names = [str(n) for n in d["names"]]
    inside_col = names.index("inside")
    out = []
    proba, y, hidden, photo, x, cascade = (d[k] for k in ("proba", "y", "hidden", "photo", "x", "cascade_conf"))
    for ph in np.unique(photo):
        m = photo == ph
        conf, best = proba[m].max(axis=1), proba[m].argmax(axis=1)
        shown = x[m, inside_col] >= READ_INSIDE
        sure = (conf >= FLOOR) & shown
        summary = photo_summary(proba[m], x[m], names, FLOOR)
        out.append({"summary": summary.tolist(), "unsure": int((~sure).sum()),
                    "cascade": int((cascade[m] < FLOOR).sum()),
                    "wrong": int((sure & ~hidden[m] & (best != y[m])).sum()),
                    "hidden": int((sure & hidden[m] & (best != y[m])).sum()), "cells": int(m.sum()),
                    "unseen": unseen})
    return out


def logistic(rows: list[dict[str, Any]]) -> tuple[list[float], Floats]:
    """The refusal's logistic fitted on every photo (weights on the raw summary, intercept last),
    and each photo's score from the fit that left its quarter out."""
    x = np.array([r["summary"] for r in rows], np.float64)
    bad = np.array([r["wrong"] > 0 for r in rows])
    idx = np.arange(len(rows))

    def fitted(keep: npt.NDArray[np.bool_]) -> list[float]:
        mu, sd = x[keep].mean(axis=0), x[keep].std(axis=0) + 1e-9
        model = LogisticRegression(C=1.0, max_iter=5000).fit((x[keep] - mu) / sd, bad[keep])
        w = model.coef_[0] / sd
        return [*map(float, w), float(model.intercept_[0] - (w * mu).sum())]

    score = np.zeros(len(rows))
    for fold in range(4):
        out = idx % 4 == fold
        w = np.array(fitted(~out))
        score[out] = 1 / (1 + np.exp(-(x[out] @ w[:-1] + w[-1])))
    return fitted(np.ones(len(rows), bool)), score


def refusal(rows: list[dict[str, Any]], refused: int | None = None) -> dict[str, Any]:
    """The trees' refusal matched to the cascade's count (see the module), with both figures, and
    those of the shipped refusal (``vision.trees.REFUSE_WEIGHTS``, ``REFUSE_AT``) on the same
    readings; each figure says how many training and unseen photos it refuses. ``refused``: the
    photos the refusal may refuse (default: as many as the shipped refusal refuses on these
    readings)."""
    cells = rows[0]["cells"]
    unsure = np.array([r["unsure"] for r in rows])
    cascade = np.array([r["cascade"] for r in rows]) > CASCADE_SHARE * cells
    wrong, hidden = np.array([r["wrong"] for r in rows]), np.array([r["hidden"] for r in rows])
    x = np.array([r["summary"] for r in rows], np.float64)
    many = unsure > CASCADE_SHARE * cells  # too many questions: refused whatever the logistic says
    shipped = np.array([photo_doubt(s) for s in x]) > REFUSE_AT
    target = int((many | shipped).sum()) if refused is None else refused
    count = min(n for n in range(cells + 1) if (unsure > n).sum() <= target)
    weights, score = logistic(rows)
    full = 1 / (1 + np.exp(-(x @ np.array(weights[:-1]) + weights[-1])))
    at = _matched(full, many, target)
    held = _matched(score, many, target)
    unseen = np.array([r["unseen"] for r in rows])

    def left(refused: npt.NDArray[np.bool_]) -> dict[str, int]:
        return {"photos": len(rows), "refused": int(refused.sum()), "refused_training": int((refused & ~unseen).sum()),
                "refused_unseen": int((refused & unseen).sum()), "wrong": int(wrong[~refused].sum()),
                "hidden_misread": int(hidden[~refused].sum()), "photos_with_wrong": int((wrong[~refused] > 0).sum())}
    return {"summary": list(PHOTO_SUMMARY), "refused_at_most": target, "weights": [round(w, 6) for w in weights],
            "at": round(at, 6),
            "cascade": left(cascade), "logistic_held_out": left(many | (score > held)),
            "logistic": left(many | (full > at)), "shipped": left(many | shipped),
            "count_alone": {"count": count, **left(unsure > count)},
            "both_refuse": int(((many | (full > at)) & cascade).sum()),
            "count_binds_alone": int((many & ~(full > at)).sum())}


def _matched(score: Floats, many: npt.NDArray[np.bool_], count: int) -> float:
    """The lowest threshold on ``score`` above which, with the photos ``many`` refuses anyway, at
    most ``count`` photos are refused."""
    for at in np.sort(np.unique(score)):
        if (many | (score > at)).sum() <= count:
            return float(at)
    return 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", type=Path, nargs="+")
    parser.add_argument("--unseen", type=Path, nargs="*", default=[])
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--model", type=Path, default=None,
                        help="The trees to fit for (their recipe and training shares; default: the shipped ones).")
    parser.add_argument("--bag", type=int, default=0,
                        help="Read each training photo by a bag of this many members (0: by one fit).")
    parser.add_argument("--partition-seed", type=int, default=0, help="How each bag deals its photos.")
    parser.add_argument("--refused", type=int, default=None,
                        help="The photos the refusal may refuse (default: as many as the shipped refusal "
                             "refuses on the same readings; needed with --bag).")
    parser.add_argument("--jobs", type=int, default=1, help="Outer folds fitted at once, one process each.")
    args = parser.parse_args()
    if args.bag and args.refused is None:
        parser.error("--bag needs --refused: the photos a run without --bag finds the shipped refusal refuses")
    model = default_trees() if args.model is None else load_trees(args.model)
    d = out_of_fold(args.dumps, args.cache, model, args.bag, args.partition_seed, args.jobs)
    print(f"training: {len(d['y'])} cells of {len(np.unique(d['photo']))} photos, "
          f"dumps {[str(p) for p in args.dumps]}; unseen: {[str(p) for p in args.unseen]}; read out of fold by "
          + (f"bags of {args.bag}, partition seed {args.partition_seed}" if args.bag else "single fits"))
    t = temperature(d["proba"], d["y"], d["hidden"], model.frequency())
    rows = photos(d) + (photos(shipped(args.unseen, model), unseen=True) if args.unseen else [])
    fitted = refusal(rows, args.refused)
    print(json.dumps({"temperature": t, "refusal": fitted}))


if __name__ == "__main__":
    main()
