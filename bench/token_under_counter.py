"""How much of a terrain token a counter on it leaves in sight, as the second renderer draws them.

Run from the repository root:

    python bench/token_under_counter.py --seeds 5790000 --count 300 [--out FILE]
    python bench/token_under_counter.py --cache /tmp/w50train/cache --base 5500000 --count 300 [--out FILE]

The second renderer (:mod:`vision.tabletop`) lays each piece as a flat square: a token 0.82-0.96
cell wide, up to a tenth of its room off the cell's centre, turned up to 5°; then a counter 0.58-0.78
cell wide, off centre and turned up to 12°, drawn over it (``vision/tabletop/art.py``). Every
counter on a token of a photo's scene is placed again here exactly as the renderer placed it (the
photo's seed, its scene and conditions drawn as ``bench/bench_reliability.py``'s
``tabletop_photos`` draws them; ``art._token`` and ``art._counter`` wrapped to note where they lay
their tile) and rasterised at 400 pixels a cell:

- ``shown``: the share of the token's area outside the counter;
- ``reach``: how far (cells) the farthest shown token pixel lies past the counter's outline (the
  widest sliver); ``reach_px`` the same in the photo's pixels (its mean cell side);
- ``band``: the shown token's area (cells²) between ``classify.edge_band_from`` past the outline
  and ``colours.BAND_TO`` within the cell's inside, where the reader reads a counter's band.

With ``--cache`` (a training cache the benchmark's generator rendered, never a held-out one), each
photo is also read as ``cached_readings`` reads it, and every counter cell on a token is listed with
its reading and the counter's outline share of the cell as the reader measured it
(``bench/diagnose_bands.py``'s ``band_profile``): the cue that a token could lie unseen. The
counters on the plain read with their occupant right give the cost of asking on that cue.

Dev seeds only: held-out and eval ranges are refused (``bench/dump_cell_features.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import BOXES, cached_readings, commit  # noqa: E402
from bench.bench_vision import cyrus_labels, machine, setup_state  # noqa: E402
from bench.diagnose_bands import band_profile, counter_outline  # noqa: E402
from bench.dump_cell_features import held_out  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.colours import BAND_TO, class_names  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.evidence import INSIDE  # noqa: E402
from vision.pipeline import Reading  # noqa: E402
from vision.render import random_scene  # noqa: E402
from vision.tabletop import art, camera  # noqa: E402

RASTER = 400
"""Pixels a cell when a token and a counter are rasterised (a 400th of a cell)."""
FAR = (0.12, 0.25)
"""A second band past the counter's outline as the reader finds it (cells): on this renderer's
counters that outline runs inside their light frame, about a tenth of a cell within their edge,
so this band lies about 0.03-0.15 cell past the edge, where a token's sliver shows."""
Square = tuple[tuple[float, float], float, float]
"""A tile laid on the plane: centre (plane pixels), side (pixels), turn (degrees)."""


def corners(square: Square, ppc: int, extent: float, row: int, col: int) -> npt.NDArray[np.float64]:
    """The tile's four corners in cells from its cell's top-left corner, as ``art._paste`` turns it."""
    (cx, cy), side, angle = square
    s = max(8, round(side))
    m = cv2.getRotationMatrix2D((s / 2, s / 2), angle, 1.0)
    m[:, 2] += (cx - s / 2, cy - s / 2)
    pts = np.array([[0, 0, 1], [s, 0, 1], [s, s, 1], [0, s, 1]], np.float64) @ m.T
    return pts / ppc - extent - np.array([col, row], np.float64)


def sliver(token: npt.NDArray[np.float64], counter: npt.NDArray[np.float64]) -> dict[str, float]:
    """What a counter leaves of a token in sight (corners in cells, the cell from 0 to 1)."""
    pad = 0.25
    size = round((1 + 2 * pad) * RASTER)

    def mask(pts: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
        out = np.zeros((size, size), np.uint8)
        cv2.fillConvexPoly(out, np.round((pts + pad) * RASTER * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        return out

    t, c = mask(token), mask(counter)
    shown = (t == 1) & (c == 0)
    away = cv2.distanceTransform((1 - c).astype(np.uint8), cv2.DIST_L2, 5) / RASTER
    centre = (np.arange(size) + 0.5) / RASTER - pad - 0.5
    inside = np.maximum(np.abs(centre)[:, None], np.abs(centre)[None, :]) < INSIDE
    start = VisionConfig().classify.edge_band_from
    band = shown & inside & (away > start) & (away <= BAND_TO)
    return {"shown": float(shown.sum() / max(t.sum(), 1)), "reach": float(away[shown].max()) if shown.any() else 0.0,
            "band": float(band.sum()) / RASTER**2}


def laid(board: BoardSpec, seed: int) -> tuple[dict[str, Any], float, dict[str, str]]:
    """Photo ``seed``'s scene, drawn as ``tabletop_photos`` draws it: per cell holding a counter on a
    token, what it leaves in sight (:func:`placed`); the photo's mean cell side (pixels); the
    scene's terrain."""
    scene, cond = drawn(board, seed)
    cells, cell_px = placed(board, scene, cond, seed)
    return cells, cell_px, dict(scene.terrain)


def drawn(board: BoardSpec, seed: int) -> tuple[art.Layout, tabletop.TabletopConditions]:
    """Photo ``seed``'s scene and conditions, drawn as ``tabletop_photos`` draws them."""
    names = board.cell_names()
    rng = np.random.default_rng(seed)
    scene = random_scene(board, rng, cyrus_labels(setup_state()), 0.3)
    at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
    return scene, tabletop.sample_conditions(rng, 1920, 1080, box=seed % 100_000 % BOXES, counters=at, hand=0.3,
                                             glare=0.3)


def placed(board: BoardSpec, scene: art.Layout, cond: tabletop.TabletopConditions,
           seed: int) -> tuple[dict[str, Any], float]:
    """Where ``tabletop.render(board, scene, cond, seed)`` lays its pieces: per cell holding a
    counter on a token, :func:`sliver`'s measures, the two sides and the counter's offset from the
    cell's centre (cells); and the photo's mean cell side (pixels)."""
    token_at, counter_at, cell_px = squares(board, scene, cond, seed)
    out: dict[str, Any] = {}
    for name, cs in counter_at.items():
        if name not in token_at:
            continue
        out[name] = {**sliver(token_at[name], cs), "counter_side": side(cs), "token_side": side(token_at[name]),
                     "offset": float(np.hypot(*(cs.mean(axis=0) - 0.5)))}
    return out, cell_px


def side(pts: npt.NDArray[np.float64]) -> float:
    """A laid square's side (cells), from its corners."""
    return float(np.hypot(*(pts[1] - pts[0])))


def squares(board: BoardSpec, scene: art.Layout, cond: tabletop.TabletopConditions,
            seed: int) -> tuple[dict[str, npt.NDArray[np.float64]], dict[str, npt.NDArray[np.float64]], float]:
    """Where ``tabletop.render(board, scene, cond, seed)`` lays each token and each counter: their
    corners (cells from their cell's top-left corner) by cell; and the photo's mean cell side
    (pixels)."""
    names = board.cell_names()
    to_image = camera.camera(board, cond)
    cell_px = camera._cell_px(to_image, board)
    ppc = int(np.clip(round(cell_px * 1.3), 16, 160))
    tokens: list[Square] = []
    counters: list[Square] = []
    real_token, real_counter = art._token, art._counter

    def note(into: list[Square], real: Callable[..., None]) -> Callable[..., None]:
        def wrapped(*args: Any) -> None:
            into.append((args[4], args[5], args[6]))  # centre, side, turn: both functions' 5th-7th
            real(*args)
        return wrapped

    art._token, art._counter = note(tokens, real_token), note(counters, real_counter)  # type: ignore[assignment]
    try:
        art.draw(board, scene, ppc, camera.EXTENT, cond.box, np.random.default_rng(seed), cond.table)
    finally:
        art._token, art._counter = real_token, real_counter  # type: ignore[assignment]
    held = [n for n in names if scene.terrain.get(n, board.terrains[0]) != board.terrains[0]]

    def laid_at(cells: list[str], tiles: list[Square]) -> dict[str, npt.NDArray[np.float64]]:
        return {n: corners(sq, ppc, camera.EXTENT, *divmod(names.index(n), board.cols))
                for n, sq in zip(cells, tiles, strict=True)}

    return laid_at(held, tokens), laid_at(list(scene.counters), counters), cell_px


def geometry(board: BoardSpec, seeds: Iterator[int]) -> list[dict[str, Any]]:
    """Every counter on a token of the photos ``seeds``, with what it leaves of the token."""
    rows = []
    for seed in seeds:
        cells, cell_px, _ = laid(board, seed)
        for name, g in cells.items():
            rows.append({"seed": seed, "cell": name, **g, "reach_px": g["reach"] * cell_px, "cell_px": cell_px})
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Percentiles of the geometry and how often the token is as good as hidden."""
    def pct(key: str) -> list[float]:
        return [round(float(v), 4) for v in np.percentile([r[key] for r in rows], [0, 1, 5, 10, 50])]

    return {"cells": len(rows), "shown_p0_1_5_10_50": pct("shown"), "reach_p0_1_5_10_50": pct("reach"),
            "reach_px_p0_1_5_10_50": pct("reach_px"), "band_p0_1_5_10_50": pct("band"),
            "wholly_hidden": sum(r["shown"] == 0 for r in rows),
            "reach_under_band_start": sum(r["reach"] <= VisionConfig().classify.edge_band_from for r in rows),
            "reach_under_1px": sum(r["reach_px"] < 1 for r in rows),
            "reach_under_2px": sum(r["reach_px"] < 2 for r in rows)}


def side_lean(reading: Reading, board: BoardSpec, i: int) -> dict[str, float]:
    """The band around cell ``i``'s counter (as ``_edge_band`` takes it: past the outline from
    ``edge_band_from`` to ``BAND_TO``, within the cell's inside), cut into four sides by the
    direction from the counter's centre: the mean lean toward each token's colour of the whole
    band (``whole``, as ``edge_lean`` reads it, tint left in) and of its most leaning side
    (``side``), taken over the tokens; ``dark`` the darkest side's brightness over the band's."""
    cfg = VisionConfig().classify
    means, _ = reading.evidence.model.arrays(class_names(board))
    sides = len(board.sides)
    f, away, ppc = counter_outline(reading, board, i)
    if away is None:
        return {f"{k}{m}": float("nan") for k in ("", "far_") for m in ("whole", "side", "dark")}
    c = (np.arange(ppc, dtype=np.float32) + 0.5) / ppc - 0.5
    within = np.maximum(np.abs(c)[:, None], np.abs(c)[None, :]) < INSIDE
    near_band = (away > cfg.edge_band_from * ppc) & (away <= BAND_TO * ppc) & within
    far_band = (away > FAR[0] * ppc) & (away <= FAR[1] * ppc) & within
    ys, xs = np.nonzero(away == 0)
    cy, cx = ys.mean(), xs.mean()
    yy, xx = np.mgrid[0:ppc, 0:ppc]
    dy, dx = yy - cy, xx - cx
    quarter = np.where(np.abs(dx) >= np.abs(dy), np.where(dx >= 0, 0, 1), np.where(dy >= 0, 2, 3))
    rel = f[..., :2] - means[sides].astype(np.float32)
    out: dict[str, float] = {}
    for key, band in (("", near_band), ("far_", far_band)):
        whole, best, light = -9.0, -9.0, []
        for t in range(1, len(board.terrains)):
            d = (means[sides + t] - means[sides]).astype(np.float32)
            proj = np.clip((rel @ d) / max(float(d @ d), 1e-9), -1.0, 2.0)
            if band.sum() >= 5:
                whole = max(whole, float(proj[band].mean()))
            for q in range(4):
                part = band & (quarter == q)
                if part.sum() >= 5:
                    best = max(best, float(proj[part].mean()))
                    if t == 1:
                        light.append(float(f[..., 2][part].mean()))
        mean_light = float(f[..., 2][band].mean()) if band.sum() else float("nan")
        dark = min(light) / mean_light if light else float("nan")
        out |= {f"{key}whole": whole, f"{key}side": best, f"{key}dark": dark}
    return out


def readings(board: BoardSpec, cache: Path, base: int, count: int) -> list[dict[str, Any]]:
    """Each counter cell of the cached photos the reader reads (refused ones left out), read with
    its occupant right and not under a hand:
    its truth, reading, the counter's outline share as measured, and (on a token) the geometry."""
    names = board.cell_names()
    floor = VisionConfig().classify.min_confidence
    rows = []
    for _kind, (path, truth, hidden, _group), _cal, reading in cached_readings(
            board, cache, count, "tabletop", bases={"tabletop": base}, strict=True):
        seed = base + int(path.stem.rsplit("_", 1)[1])
        cells, cell_px, terrain = laid(board, seed)
        assert all(truth[n]["terrain"] == terrain.get(n, board.terrains[0]) for n in names), path
        for i in np.nonzero(reading.evidence.on_counter)[0]:
            name = names[int(i)]
            cell = reading.observation.cells[name]
            if name in hidden or cell.occupant != truth[name]["occupant"] or cell.occupant is None:
                continue
            prof = band_profile(reading, board, int(i), 1.0)
            lean = side_lean(reading, board, int(i))
            rows.append({"seed": seed, "cell": name, "terrain": truth[name]["terrain"], "read": cell.terrain,
                         "confidence": round(float(cell.confidence), 4), "sure": bool(cell.confidence >= floor),
                         "outline": prof["outline"], **lean})
            if name in cells:
                rows[-1] |= {"reach_px": cells[name]["reach"] * cell_px, **cells[name]}
    return rows


def cue(rows: list[dict[str, Any]], plain: str, key: str, ats: tuple[float, ...]) -> list[dict[str, Any]]:
    """For thresholds on one measure (asked at or above it): the tokens read sure on the plain an
    ask would catch, and the counters on the plain read sure and right it would ask."""
    missed = [r for r in rows if r["terrain"] != plain and r["read"] == plain and r["sure"]]
    right = [r for r in rows if r["terrain"] == plain and r["read"] == plain and r["sure"]]
    return [{"at_least": at, "tokens_read_plain_caught": sum(r[key] >= at for r in missed), "of": len(missed),
             "plain_counters_asked": sum(r[key] >= at for r in right), "of_plain": len(right)} for at in ats]


def spread(rows: list[dict[str, Any]], plain: str, key: str) -> dict[str, list[float]]:
    """A measure's 10th, 50th and 90th percentiles over counters on the plain read right, on a
    token, and on a token read sure on the plain."""
    kinds = (("plain_read_plain", [r for r in rows if r["terrain"] == plain and r["read"] == plain]),
             ("token", [r for r in rows if r["terrain"] != plain]),
             ("token_read_plain_sure", [r for r in rows if r["terrain"] != plain and r["read"] == plain and r["sure"]]))
    return {kind: [round(float(v), 3) for v in np.nanpercentile([r[key] for r in sel], [10, 50, 90])]
            for kind, sel in kinds if sel}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, help="First seed of scenes drawn (geometry only).")
    parser.add_argument("--cache", type=Path, help="A training cache to read as well.")
    parser.add_argument("--base", type=int, help="First seed of the cache's tabletop index.")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    first = args.seeds if args.seeds is not None else args.base
    if first is None or (args.cache is not None) == (args.seeds is not None):
        parser.error("give --seeds, or --cache with --base")
    if held_out(first):
        parser.error(f"seed range {first} is held out: never drawn here")
    board = load_board("cyrus-pyxis")
    report: dict[str, Any] = {"machine": machine(), "commit": commit(), "first_seed": first, "count": args.count}
    if args.seeds is not None:
        rows = geometry(board, iter(range(first, first + args.count)))
        report["geometry"] = summary(rows)
        report["thinnest"] = sorted(rows, key=lambda r: r["reach_px"])[:10]
    else:
        rows = readings(board, args.cache, first, args.count)
        on_token = [r for r in rows if "reach" in r]
        report["geometry"] = summary(on_token)
        plain = board.terrains[0]
        report["tokens_read_plain_sure"] = [r for r in on_token if r["read"] == plain and r["sure"]]
        for key, ats in (("outline", (0.3, 0.35, 0.4)), ("side", (0.2, 0.3, 0.4, 0.5)),
                         ("far_side", (0.1, 0.15, 0.2, 0.25, 0.3, 0.4)), ("far_whole", (0.05, 0.1, 0.15, 0.2)),
                         ("reach_px", ())):
            report[f"spread_{key}"] = spread([r for r in rows if key in r], plain, key)
            if ats:
                report[f"cue_{key}"] = cue(rows, plain, key, ats)
        for key in ("whole", "dark", "far_dark"):
            report[f"spread_{key}"] = spread(rows, plain, key)
    text = json.dumps(report, indent=1, default=float)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
