"""Where the reader's outline of a counter lies against the counter's real edge, and the reach
that would put it there (the share of the way from the counter's colour to the bare board's, without
the class's spreads; the reader takes half the way since w56a, the setting edge_outline_reach before).

Run from the repository root, on a training cache the benchmark's generator rendered (never a
held-out one):

    python bench/counter_edge.py --cache /tmp/w50train/cache [--bases 1500000 5500000] [--out FILE]

The band around a counter (``vision.evidence._edge_band``) is read past the counter's outline:
the convex hull of the largest patch of pixels that :func:`vision.evidence.counter_extent` takes
for the counter's. Each photo of both renderers is read as ``cached_readings`` reads it
(refused photos left out); every counter read with its occupant right and not under a hand is
laid again as its renderer laid it (the second renderer's by ``bench/token_under_counter.py``'s
``squares``, the project renderer's by :func:`project_squares`), and its outline's **inset** is
measured: the mean distance (cells) of the outline's border pixels inside the counter's real
edge (negative: outside it), with the reader's rule ("reader": within ``classify.pixel_sigma``
of the side class's spreads, at most half the way from its colour to the
bare board's) and with the share of the way alone, for each reach of :data:`REACHES`. The
fitted reach is the one whose worse renderer's |median inset| is least.

With the reader's own settings, each counter's band is also cut into four sides by the
direction from the counter's centre (``token_under_counter.side_lean``): the band's lean toward
the likelier token over the whole ring (``whole``) and on its most leaning side (``side``), for
counters on the plain, on a token, and on a token read on the plain with confidence; and the
cost of asking on the most leaning side (``cue_side``), per renderer.

Dev seeds only: held-out and eval ranges are refused (``bench/dump_cell_features.py``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

import vision.render as project

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings, commit  # noqa: E402
from bench.bench_vision import cyrus_labels, machine, setup_state  # noqa: E402
from bench.diagnose_bands import _cells  # noqa: E402
from bench.dump_cell_features import held_out  # noqa: E402
from bench.token_under_counter import cue, drawn, side_lean, spread, squares  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.colours import chroma, class_names  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.evidence import counter_extent, distance_past_outline  # noqa: E402
from vision.pipeline import Reading  # noqa: E402
from vision.render import STYLES, random_scene, sample_real_conditions  # noqa: E402

REACHES = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85)
"""The reaches tried (shares of the way from a side's colour to the bare board's)."""


def inset(away: npt.NDArray[np.float32] | None, real: npt.NDArray[np.float64], ppc: int) -> float:
    """How far (cells) the outline whose distance map is ``away`` runs inside the counter whose
    corners (cells from its cell's top-left corner) are ``real``: the mean over the outline's
    border pixels (NaN: no outline)."""
    if away is None:
        return float("nan")
    truth = np.zeros((ppc, ppc), np.uint8)
    cv2.fillConvexPoly(truth, np.round(real * ppc * 16 - 8).astype(np.int32), 1, cv2.LINE_8, 4)
    signed = (cv2.distanceTransform(1 - truth, cv2.DIST_L2, 5) - cv2.distanceTransform(truth, cv2.DIST_L2, 5)) / ppc
    hull = (away == 0).astype(np.uint8)
    border = (hull == 1) & (cv2.erode(hull, np.ones((3, 3), np.uint8)) == 0)
    return -float(signed[border].mean()) if border.any() else float("nan")


def project_squares(board: BoardSpec, seed: int, k: int) -> dict[str, npt.NDArray[np.float64]]:
    """Where the project's renderer (``real`` profile, as ``bench_reliability.render_photos`` draws
    photo ``k`` of seed ``seed``) lays each counter: its corners (cells from its cell's top-left
    corner), by cell. The board is drawn again as ``render.render`` draws it
    (``render.top_down_real``), the sprites of counters noted where they are pasted."""
    rng = np.random.default_rng(seed)
    scene = random_scene(board, rng, cyrus_labels(setup_state()), 0.3)
    cond = sample_real_conditions(rng, 1920, 1080, k % len(STYLES), hands=0.25)
    extent = 2.0
    ppc = int(np.clip(round(project._cell_px(project.camera(board, cond, extent), board) * 1.15), 24, 220))
    sprites: set[int] = set()
    laid: list[npt.NDArray[np.float64]] = []
    real_sprite, real_paste = project.real_counter_sprite, project._paste_turned

    def sprite(*args: Any) -> npt.NDArray[np.uint8]:
        out = real_sprite(*args)
        sprites.add(id(out))
        return out

    def paste(canvas: npt.NDArray[np.uint8], tile: npt.NDArray[np.uint8], centre: tuple[float, float],
              angle: float) -> None:
        if id(tile) in sprites:  # as _paste_turned turns it: about the tile's centre, pixel edges at ±0.5
            n = tile.shape[0]
            m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), angle, 1.0)
            m[:, 2] += (centre[0] - n / 2 + 0.5, centre[1] - n / 2 + 0.5)
            edge = np.array([[-0.5, -0.5, 1], [n - 0.5, -0.5, 1], [n - 0.5, n - 0.5, 1], [-0.5, n - 0.5, 1]])
            laid.append((edge @ m.T + 0.5) / ppc - extent)
        real_paste(canvas, tile, centre, angle)

    wrapped: tuple[Callable[..., Any], Callable[..., Any]] = (sprite, paste)
    project.real_counter_sprite, project._paste_turned = wrapped  # type: ignore[assignment]
    try:
        project.top_down_real(board, scene, ppc, extent, np.random.default_rng(seed), cond)
    finally:
        project.real_counter_sprite, project._paste_turned = real_sprite, real_paste  # type: ignore[assignment]
    names = board.cell_names()
    return {n: pts - np.array(divmod(names.index(n), board.cols)[::-1], np.float64)
            for n, pts in zip(scene.counters, laid, strict=True)}


def counters(reading: Reading, board: BoardSpec, kind: str, seed: int, k: int,
             truth: dict[str, dict[str, str | None]], hidden: list[str],
             reaches: tuple[float, ...]) -> list[dict[str, Any]]:
    """One row per counter of the photo read with its occupant right and in sight: its side,
    terrain, reading, the outline's inset at each reach, and the band's lean by side."""
    names = board.cell_names()
    cfg = VisionConfig().classify
    ev = reading.evidence
    if kind == "render":
        real = project_squares(board, seed, k)
    else:
        scene, cond = drawn(board, seed)
        _tokens, real, _cell_px = squares(board, scene, cond, seed)
    cells, ppc = _cells(reading, board)
    means, sds = ev.model.arrays(class_names(board))
    sides = len(board.sides)
    rows = []
    for i in np.nonzero(ev.on_counter)[0]:
        name = names[int(i)]
        cell = reading.observation.cells[name]
        if name in hidden or cell.occupant is None or cell.occupant != truth[name]["occupant"] or name not in real:
            continue
        x = chroma(cells[i].astype(np.float32), reading.white)[None, ..., :2]
        side = int(ev.side_share[i].argmax())
        # the reader's rule (the class's spreads bound the reach), then the reach alone
        near = counter_extent(x, means[[side]], means[sides], cfg, sds[[side]])
        insets = {"inset_reader": inset(distance_past_outline(near[0]), real[name], ppc)}
        for r in reaches:
            near = counter_extent(x, means[[side]], means[sides], cfg, share=r)
            insets[f"inset_{r}"] = inset(distance_past_outline(near[0]), real[name], ppc)
        lean = {f"lean_{k}": v for k, v in side_lean(reading, board, int(i)).items() if not k.startswith("far")}
        rows.append({"renderer": kind, "seed": seed, "cell": name, "side": cell.occupant,
                     "terrain": truth[name]["terrain"], "read": cell.terrain,
                     "sure": bool(cell.confidence >= cfg.min_confidence), **insets, **lean})
    return rows


def percentiles(values: list[float]) -> list[float]:
    """10th, 50th and 90th percentiles (NaN left out), rounded."""
    return [round(float(v), 4) for v in np.nanpercentile(values, [10, 50, 90])] if values else []


def summary(rows: list[dict[str, Any]], board: BoardSpec) -> dict[str, Any]:
    """Per reach alone (and the reader's rule, "reader"), the insets' percentiles by renderer and side; the
    fitted reach: the one whose larger |median inset| over the two renderers is least."""
    kinds = sorted({row["renderer"] for row in rows})
    by_reach: dict[str, Any] = {}
    for r in ("reader", *REACHES):
        key = f"inset_{r}"
        by_reach[str(r)] = {kind: {"all": percentiles([row[key] for row in rows if row["renderer"] == kind]),
                                   **{s: percentiles([row[key] for row in rows
                                                      if row["renderer"] == kind and row["side"] == s])
                                      for s in board.sides}}
                            for kind in kinds}

    def worst(r: float) -> float:
        medians = [by_reach[str(r)][kind]["all"][1] for kind in kinds if by_reach[str(r)][kind]["all"]]
        return max((abs(m) for m in medians), default=float("inf"))

    by_reach["reader"]["what"] = "the reader's rule: within pixel_sigma class spreads, at most half the way"
    return {"inset_p10_50_90_by_reach": by_reach, "fitted_reach": min(REACHES, key=worst),
            "worst_median_by_reach": {str(r): round(worst(r), 4) for r in REACHES}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True, help="A training cache (never a held-out one).")
    parser.add_argument("--bases", type=int, nargs=2, default=(1_500_000, 5_500_000), metavar=("RENDER", "TABLETOP"),
                        help="First seeds of the cache's two indexes.")
    parser.add_argument("--count", type=int, default=300, help="Photos in each of the cache's indexes.")
    parser.add_argument("--read", type=int, default=None, help="Read only each index's first READ photos.")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if any(held_out(b) for b in args.bases):
        parser.error(f"seed ranges {args.bases} include a held-out one: never read here")
    board = load_board("cyrus-pyxis")
    rows: list[dict[str, Any]] = []
    bases = dict(zip(("render", "tabletop"), args.bases, strict=True))
    for kind, base in bases.items():
        photos = cached_readings(board, args.cache, args.count, kind, bases={kind: base}, strict=True)
        for _kind, (path, truth, hidden, _group), _cal, reading in itertools.islice(photos, args.read):
            k = int(path.stem.rsplit("_", 1)[1])
            rows += counters(reading, board, kind, base + k, k, truth, list(hidden), REACHES)
    plain = board.terrains[0]
    report: dict[str, Any] = {
        "machine": machine(), "commit": commit(), "cache": str(args.cache), "bases": bases, "count": args.count,
        "counters": {kind: sum(row["renderer"] == kind for row in rows) for kind in bases},
        "settings_reach": 0.5, **summary(rows, board)}
    for kind in bases:
        own = [row for row in rows if row["renderer"] == kind]
        report[kind] = {
            "spread_lean_whole": spread(own, plain, "lean_whole"), "spread_lean_side": spread(own, plain, "lean_side"),
            "cue_lean_side": cue(own, plain, "lean_side", (0.1, 0.15, 0.2, 0.25, 0.3)),
            "tokens_read_plain_sure": [{k: v for k, v in r.items() if not k.startswith("inset")} for r in own
                                       if r["terrain"] != plain and r["read"] == plain and r["sure"]]}
    text = json.dumps(report, indent=1, default=float)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
