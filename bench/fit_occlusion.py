"""Fits, on dev photos of both renderers, the probability that a cell an occluder reaches into is
read right, and measures what it would do in place of the reach-cover rules of ``vision.decide``.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR (and, for ``--set``, ``bench/occlusion_set.py --cache SET`` the
set drawn for the question: hands over pieces):

    python bench/fit_occlusion.py --cache DIR [--photos 40] [--set SET [--set-photos 40]] [--out FILE]

Every cell an occluder reaches into (``CellEvidence.reached`` above 0), wholly inside the photo,
of every dev photo the reader registers gives the inputs below and two truths: whether the cell
is read right, and whether it is read right *and* the renderer did not hide it (``occluded``: a
hand over more than 8 % of it). Inputs: the square roots of the share of the cell under the
occluder and of the share given back to a piece colour near it, a counter read there, the share
of its four printed edges hidden, the share of its inner square that is terrain-coloured, the
largest terrain's share of it, the logit of the reading's confidence before any occluder rule
(occupant × terrain, capped at 1e-4 from 0 and 1), and the share of the cell fitting no class.

For each truth a logistic is fitted (:func:`bench.fit_cell_model.fit`) on all cells (the dev
photos and the set together) and on the even photos, its log loss printed on the odd ones beside
the base rate's; then the decision is replayed (``bench/decide_replay.py``) on the dev photos and
on the set apart, with the fitted probability instead of the reach-cover rules (the cell's
confidence capped at it, and cells below the ask floor spreading distrust as covered cells do),
and its figures printed beside the defaults' and beside the reach-cover rules switched off
(``reach_cover`` 1), with, per decision, every reached cell read wrong with confidence. The
reader does not use the fit (see ``docs/decisions/vision-occlusion-probability.md``: it reads more
cells wrong with confidence or asks more than the rules, on the set too). Eval seeds are never
read.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import commit  # noqa: E402
from bench.decide_replay import Decision, Photo, default_decision, photos, score  # noqa: E402
from bench.fit_cell_model import fit, log_loss  # noqa: E402
from bench.occlusion_set import SEEDS as SET_SEEDS  # noqa: E402
from vision import decide as dc  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import ClassifyConfig, VisionConfig  # noqa: E402
from vision.decide import READ_INSIDE  # noqa: E402
from vision.evidence import CellEvidence  # noqa: E402
from vision.pipeline import _readings  # noqa: E402

Floats = npt.NDArray[np.float64]
Reading = list[tuple[str | None, str, float]]
NAMES = ("root_reached", "root_given", "counter", "edges_hidden", "terrain_seen", "purity", "logit_base", "off_class")


Parts = dict[str, npt.NDArray[np.generic]]


def _parts(ev: CellEvidence, board: BoardSpec, cfg: ClassifyConfig, lines: Floats) -> Parts:
    """The reading before any occluder rule, as ``vision.decide`` makes it."""
    tokens = ev.terrain_share[:, 1:]
    order, has, c_conf = dc._counters(ev, cfg)
    t_best, is_token, t_conf = dc._terrains(ev, tokens, cfg)
    return {"order": order, "has": has, "t_best": t_best, "is_token": is_token, "base": c_conf * t_conf,
            "detail": dc._detail(ev, tokens, ~has & is_token, t_best), "hidden": dc._hidden_edges(lines, board, cfg)}


def features(ev: CellEvidence, base: Floats, hidden: npt.NDArray[np.intp]) -> Floats:
    """Per cell, the inputs of :data:`NAMES` (see the module)."""
    reached = ev.reached if ev.reached is not None else np.zeros(len(base))
    strict = ev.reached_strict if ev.reached_strict is not None else reached
    sure = np.clip(base, 1e-4, 1 - 1e-4)
    out: Floats = np.column_stack([
        np.sqrt(reached), np.sqrt(np.maximum(strict - reached, 0.0)), ev.on_counter.astype(np.float64),
        hidden / 4.0, ev.terrain_pixels, ev.terrain_share.max(axis=1), np.log(sure / (1 - sure)), ev.other_share])
    return out


def _label(board: BoardSpec, parts: Parts, i: int) -> tuple[str | None, str]:
    occupant = board.sides[int(parts["order"][i, 0])] if parts["has"][i] else None
    terrain = board.terrains[1 + int(parts["t_best"][i])] if parts["is_token"][i] else board.terrains[0]
    return occupant, terrain


def samples(board: BoardSpec, shots: list[Photo]) -> tuple[Floats, Floats, Floats, Floats]:
    """Returns the inputs, right, right and shown, and the photo index of every reached cell."""
    cfg = VisionConfig().classify
    rows: list[Floats] = []
    truth: list[tuple[float, float, float]] = []
    names = board.cell_names()
    for shot in shots:
        ev = shot.evidence
        if ev.reached is None:
            continue
        parts = _parts(ev, board, cfg, shot.lines)
        x = features(ev, parts["base"].astype(np.float64), parts["hidden"].astype(np.intp))
        for i in np.nonzero((ev.reached > 0) & (shot.inside >= READ_INSIDE))[0]:
            held = shot.truth[names[i]]
            right = _label(board, parts, int(i)) == (held["occupant"], held["terrain"])
            rows.append(x[i])
            truth.append((float(right), float(right and names[i] not in shot.hidden), float(shot.index)))
    t = np.array(truth, np.float64)
    return np.array(rows, np.float64), t[:, 0], t[:, 1], t[:, 2]


def fitted_decision(weights: Floats) -> Decision:
    """The decision with the fitted probability in place of the reach-cover rules."""
    def decision(ev: CellEvidence, board: BoardSpec, cfg: VisionConfig, lines: Floats, washed: Floats) -> Reading:
        del washed  # the fitted probability replaces the reach-cover rules only; it was fitted without it
        c = cfg.classify
        parts = _parts(ev, board, c, lines)
        base = parts["base"].astype(np.float64)
        hidden = parts["hidden"].astype(np.intp)
        conf = base.copy()
        occluded = ev.other_share > c.occluder_share
        if ev.reached is not None:
            z = np.clip(weights[0] + features(ev, base, hidden) @ weights[1:], -50.0, 50.0)
            chance = 1.0 / (1.0 + np.exp(-z))
            reached = ev.reached > 0
            conf = np.where(reached, np.minimum(conf, chance), conf)
            occluded |= reached & (chance < c.min_confidence)
        untrusted = dc._distrust(ev, board, occluded, parts["detail"].astype(np.float64), hidden, c)
        conf = np.where(untrusted, np.minimum(conf, 0.3), conf)
        return [(*_label(board, parts, i), float(conf[i])) for i in range(len(conf))]
    return decision


def _figures(result: dict[str, dict[str, object]]) -> str:
    return "; ".join(f"{kind}: read {fig['photos_read']}, asked {fig['cells_asked']}, wrong "
                     f"{fig['cells_confidently_wrong']}, hidden misread {fig['hidden_misread']}, ECE {fig['ece']}"
                     for kind, fig in result.items())


def _spread(board: BoardSpec, shots: list[Photo]) -> dict[str, int]:
    """How many reached cells holding a piece each band of the reader's cover has."""
    edges = (0.0, 0.05, 0.15, 0.3, 0.45, 0.6, 1.01)
    out = {f"{lo:.2f}-{hi:.2f}": 0 for lo, hi in itertools.pairwise(edges)}
    names = board.cell_names()
    for shot in shots:
        if shot.evidence.reached is None:
            continue
        for i in np.nonzero((shot.evidence.reached > 0) & (shot.inside >= READ_INSIDE))[0]:
            held = shot.truth[names[i]]
            if held["occupant"] is None and held["terrain"] == board.terrains[0]:
                continue
            r = float(shot.evidence.reached[i])
            for lo, hi in itertools.pairwise(edges):
                if lo <= r < hi:
                    out[f"{lo:.2f}-{hi:.2f}"] += 1
    return out


def reached_wrong(board: BoardSpec, shots: list[Photo], decision: Decision) -> list[dict[str, object]]:
    """Every cell an occluder reaches into, read wrong at or above the ask floor by ``decision``
    (refused photos included: the decision is what is compared), hidden by the renderer or not."""
    cfg = VisionConfig()
    names = board.cell_names()
    out: list[dict[str, object]] = []
    for shot in shots:
        if shot.evidence.reached is None:
            continue
        decided = decision(shot.evidence, board, cfg, shot.lines, shot.washed)
        readings = _readings(decided, shot.inside, shot.washed, board)
        for i in np.nonzero(shot.evidence.reached > 0)[0]:
            cell, held = readings[names[i]], shot.truth[names[i]]
            if cell.confidence < cfg.classify.min_confidence or (cell.occupant, cell.terrain) == (
                    held["occupant"], held["terrain"]):
                continue
            out.append({"photo": f"{shot.kind} {shot.index}", "cell": names[i], "hidden": names[i] in shot.hidden,
                        "reached": round(float(shot.evidence.reached[i]), 2),
                        "confidence": round(cell.confidence, 3), "read": [cell.occupant, cell.terrain],
                        "truth": [held["occupant"], held["terrain"]]})
    return out


def _base_loss(y: Floats, half: npt.NDArray[np.bool_]) -> float:
    """The held-out log loss of the base rate alone (fitted on the same half)."""
    p = float(np.clip(y[half].mean(), 1e-6, 1 - 1e-6))
    rest = y[~half]
    return float(-np.mean(rest * np.log(p) + (1 - rest) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--set", type=Path, default=None,
                        help="The cache of bench/occlusion_set.py: its photos join the fit and are scored apart.")
    parser.add_argument("--set-photos", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None, help="Write the figures as JSON here.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    groups = {"dev": photos(board, args.cache, args.photos)}
    if args.set is not None:
        drawn = photos(board, args.set, args.set_photos, bases=SET_SEEDS)
        offset = len(groups["dev"])
        groups["set"] = [dataclasses.replace(s, index=s.index + offset) for s in drawn]
    shots = [s for group in groups.values() for s in group]
    x, right, shown, photo = samples(board, shots)
    report: dict[str, object] = {"what": "occlusion as a fitted probability (bench/fit_occlusion.py)", **commit(),
                                 "inputs": list(NAMES), "reached_cells": len(right),
                                 "read_right": int(right.sum()), "read_right_and_shown": int(shown.sum()),
                                 "photos": {k: len(v) for k, v in groups.items()},
                                 "set_seeds": SET_SEEDS if args.set is not None else None}
    print(f"{len(right)} reached cells in {len(shots)} photos: {int(right.sum())} read right, "
          f"{int(shown.sum())} read right and not hidden")
    print(f"inputs: {', '.join(NAMES)}")
    off = VisionConfig.model_validate({"classify": {"reach_cover": 1.0}})
    figures: dict[str, dict[str, dict[str, object]]] = {}
    for group, members in groups.items():
        figures[f"{group} defaults"] = score(board, members, VisionConfig())
        figures[f"{group} reach-cover off"] = score(board, members, off)
    wrong = {f"{group} defaults": reached_wrong(board, members, default_decision) for group, members in groups.items()}
    half = photo % 2 == 0
    fits: dict[str, object] = {}
    for name, y in (("right", right), ("right and shown", shown)):
        w = fit(x, y)
        held_out = log_loss(fit(x[half], y[half]), x[~half], y[~half])
        base = _base_loss(y, half)
        fits[name] = {"weights": np.round(w, 4).tolist(), "held_out_log_loss": round(held_out, 4),
                      "base_rate_log_loss": round(base, 4)}
        print(f"P({name}): weights (bias first) {np.round(w, 2).tolist()}; fitted on even photos, "
              f"log loss {held_out:.4f} on odd (base rate alone {base:.4f})")
        for group, members in groups.items():
            figures[f"{group} fitted P({name})"] = score(board, members, VisionConfig(), fitted_decision(w))
            wrong[f"{group} fitted P({name})"] = reached_wrong(board, members, fitted_decision(w))
    for label, result in figures.items():
        print(f"{label:32s} {_figures(result)}")
    for label, cells in wrong.items():
        print(f"{label:32s} reached cells read wrong with confidence: {sum(not c['hidden'] for c in cells)} "
              f"shown, {sum(bool(c['hidden']) for c in cells)} hidden")
    report["fits"] = fits
    report["figures"] = figures
    report["reached_cells_read_wrong"] = wrong
    if "set" in groups:
        report["set_cover_spread"] = _spread(board, groups["set"])
        print(f"set: reached cells holding a piece by the reader's cover: {report['set_cover_spread']}")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
