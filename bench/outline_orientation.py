"""A board without markers: which turn of its outline its printed marks give, measured.

Run from the repository root:

    python bench/outline_orientation.py [--cache /tmp/w51c/orient] [--regset /tmp/w50c/regset]
        [--photos 60] --out FILE

Without markers the reader places the board by its outline (:mod:`vision.outline`) and picks
one of the four turns of the square grid by the printed coordinates in the margins. This script
measures that choice, photo by photo, against the renderer's own placement of the grid: for each
photo the outline found, each of its four sides' measures (the darkness of the band and its
marks, :func:`vision.outline.side_measures`), the turn the reader keeps (or none), the true
turn, and the whole registration's outcome (the grid refit and the marks' confirmation
included: placed right, placed wrong, or refused).

Photos: the registration set's ``outline`` and ``outline_check`` ladders (read from
``--regset``, never written) and ``--photos`` more per renderer drawn here without markers,
tilted up to 32°, half of them on a dark table (seeds 1,750,000 + k and 5,750,000 + k, a dev
range of this script's own), cached in ``--cache``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import sweep_registration as sweep_mod  # noqa: E402
from bench.bench_reliability import commit  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from bench.registration_set import _case, _no_markers  # noqa: E402
from vision import outline, tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.render import random_scene, render, sample_real_conditions  # noqa: E402

SEEDS = {"render": 1_750_000, "tabletop": 5_750_000}
"""This script's dev seed range per renderer."""
DARK_TABLES = {"render": (1, 3), "tabletop": (1, 3)}
"""The dark tables of each renderer (``vision.render.TABLES``, ``vision.tabletop.art.table``)."""
CORNERS = np.array([[[0, 0], [12, 0], [12, 12], [0, 12], [6, 6]]], np.float64)


def draw(board: BoardSpec, kind: str, cache: Path, photos: int) -> list[str]:
    """Renders (or finds) ``photos`` boards without markers of one renderer; returns their paths."""
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    out: list[str] = []
    for k in range(photos):
        seed = SEEDS[kind] + k
        stem = cache / f"{kind}_orient_{k}"
        found = [p for p in cache.glob(stem.name + ".*") if p.suffix != ".json"]
        if found:
            out.append(str(found[0]))
            continue
        rng = np.random.default_rng(seed)
        scene = dataclasses.replace(random_scene(board, rng, labels, 0.3), markers=False)
        tilt = float(rng.uniform(0, 32))
        dark = k % 2 == 0
        if kind == "render":
            cond = sample_real_conditions(rng, 1920, 1080, k % 3, hands=0.0)
            table = DARK_TABLES[kind][k // 2 % 2] if dark else cond.table
            cond = dataclasses.replace(cond, tilt_deg=tilt, table=table)
            path = render(board, scene, cond, seed).save(stem)
        else:
            at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
            tcond = tabletop.sample_conditions(rng, 1920, 1080, box=k % 4, counters=at, hand=0.0)
            table = DARK_TABLES[kind][k // 2 % 2] if dark else tcond.table
            tcond = dataclasses.replace(tcond, tilt_deg=tilt, table=table)
            path = tabletop.render(_no_markers(board), scene, tcond, seed).save(stem)
        out.append(str(path))
    return out


def true_shift(case: sweep_mod.Case, quad: np.ndarray, board: BoardSpec, cfg: VisionConfig) -> tuple[int, float]:
    """The turn of the outline nearest the renderer's grid, and its error in cells."""
    errors = []
    img = sweep_mod.truth_points(case, CORNERS)
    for shift in range(4):
        to_board = outline.turned(quad, shift, board, cfg.registration.outline_margin)
        back = cv2.perspectiveTransform(img, to_board)[0]
        errors.append(float(np.linalg.norm(back - CORNERS[0], axis=1).max()))
    best = int(np.argmin(errors))
    return best, round(errors[best], 3)


def measure(path: str, board: BoardSpec, cfg: VisionConfig) -> dict[str, Any]:
    """One photo: its outline's sides measured, the turn kept and the true one."""
    case = _case(Path(path), cfg)
    gray = np.asarray(cv2.cvtColor(case.photo.image, cv2.COLOR_BGR2GRAY), np.uint8)
    row: dict[str, Any] = {"photo": Path(path).stem, "path": _placed(sweep_mod.outcome(case, board, cfg))}
    quad = outline.find_outline(gray, board, cfg.registration)
    if quad is None:
        return row | {"outline": False}
    shift, error = true_shift(case, quad, board, cfg)
    m = cfg.registration.outline_margin
    to_board = outline.turned(quad, 0, board, m)
    row |= {"outline": True, "true_shift": shift, "true_error": error,
            "sides": outline.side_measures(gray, to_board, board, m)}
    kept = outline.board_homography(gray, board, cfg.registration)
    if kept is None:
        row["kept"] = None
    else:
        back = cv2.perspectiveTransform(sweep_mod.truth_points(case, CORNERS), kept)[0]
        row["kept_error"] = round(float(np.linalg.norm(back - CORNERS[0], axis=1).max()), 3)
        row["kept"] = "right" if row["kept_error"] < 0.5 else "turned"
    return row


RATIOS = (1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
"""The values of ``registration.outline_label_ratio`` tried (:func:`ratio_table`)."""


def ratio_table(rows: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """Per ratio and ladder, the turn the marks keep from each photo's side measures: right,
    turned, none, or any when the outline itself is over half a cell off (left to the grid
    refit and the marks' confirmation). The criterion (``registration.outline_label_ratio``):
    the largest ratio placing the most boards right on the ``outline`` ladder and the drawn
    boards together, ``outline_check`` kept to check it."""
    cfg = VisionConfig()
    out: dict[str, dict[str, dict[str, int]]] = {}
    for ratio in RATIOS:
        tried = cfg.registration.model_copy(update={"outline_label_ratio": ratio})
        for row in rows:
            if not row.get("outline"):
                key = "no outline"
            else:
                shift = outline._turn(row["sides"], tried)
                key = ("outline off, kept" if shift is not None else "outline off, none") \
                    if row["true_error"] > 0.5 else \
                    "none" if shift is None else "right" if shift == row["true_shift"] else "turned"
            tally = out.setdefault(str(ratio), {}).setdefault(row["ladder"], {})
            tally[key] = tally.get(key, 0) + 1
    return out


def _placed(outcome: dict[str, Any]) -> str:
    """The whole registration's outcome (markers or outline, the grid refit, its confirmation):
    placed right (within half a cell of the renderer's grid), placed wrong, or refused."""
    if outcome.get("error") is None:
        return "refused"
    return "right" if outcome["error"] < 0.5 else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w51c/orient"))
    parser.add_argument("--regset", type=Path, default=Path("/tmp/w50c/regset"))
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig()
    args.cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    report: dict[str, Any] = {"what": "the outline's turn, measured photo by photo", **commit(), "seeds": SEEDS}
    for kind in SEEDS:
        index = json.loads((args.regset / f"regset-{kind}.json").read_text(encoding="utf-8"))
        paths = [(e[0], e[1]) for e in index if str(e[1]).startswith("outline")]
        paths += [(p, "drawn") for p in draw(board, kind, args.cache, args.photos)]
        rows = []
        for path, ladder in paths:
            row = {"ladder": ladder, **measure(path, board, cfg)}
            rows.append(row)
            print(kind, row["photo"], row.get("true_shift"), row.get("kept"), row["path"], flush=True)
        report[kind] = rows
        report[f"{kind}_ratios"] = ratio_table(rows)
        report[f"{kind}_summary"] = {
            ladder: {"turn kept": {str(k): sum(1 for r in rows if r["ladder"] == ladder and r.get("kept") == k)
                                   for k in ("right", "turned", None)},
                     "registration": {k: sum(1 for r in rows if r["ladder"] == ladder and r["path"] == k)
                                      for k in ("right", "wrong", "refused")}}
            for ladder in ("outline", "outline_check", "drawn")}
    report["seconds"] = round(time.perf_counter() - started, 1)
    args.out.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k.endswith(("summary", "ratios"))}, indent=1, default=str))


if __name__ == "__main__":
    main()
