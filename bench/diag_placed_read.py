"""Reads one photo with its board placed where the renderer placed it, and prints every cell
read wrong (sure or asked) with its evidence: a per-cell failure told apart from a registration's.

Run from the repository root:

    python bench/diag_placed_read.py PHOTO CALIBRATION_PHOTO [--json FILE]

The photo's ``.json`` beside it holds the renderer's homography (and the second renderer's lens);
the board is placed by a homography fitted on the grid's points where the renderer put them
(``bench/sweep_registration.py``'s ``truth_points``), then refined on the grid lines as the
reader refines any placement; the rest is the reader's own path (``vision.pipeline.read``, its
registration step replaced by this placement for this diagnosis only). The report gives the
counts, each cell not read right with its evidence, and every colour class as calibrated and as
adapted to the photo (chromaticity r, g and spread). Dev photos only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import sweep_registration as sweep_mod  # noqa: E402
from bench.bench_reliability import commit  # noqa: E402
from bench.bench_vision import setup_state  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_contents, legion_cells, legion_labels  # noqa: E402
from vision import grid_overlay as go  # noqa: E402
from vision import pipeline  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibrate import calibrate  # noqa: E402
from vision.colours import PixelModel  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.register import Registration  # noqa: E402


def placed(path: Path, board: BoardSpec, cfg: VisionConfig) -> Registration:
    """The renderer's placement of the board in the photo as a registration (working image)."""
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    cond = meta.get("conditions") or {}
    lens = (cond["k1"], cond.get("k2", 0.0), cond["fov_deg"]) if "k1" in cond else None
    case = sweep_mod.Case(path.stem, read_photo(path, cfg.load), np.array(meta["homography"], np.float64), lens)
    uu, vv = np.meshgrid(np.linspace(0, board.cols, 4 * board.cols + 1), np.linspace(0, board.rows, 4 * board.rows + 1))
    pts = np.stack([uu.ravel(), vv.ravel()], axis=1)[None].astype(np.float64)
    img = sweep_mod.truth_points(case, pts)[0]
    to_board, _ = cv2.findHomography(img, pts[0])
    side = np.linalg.norm(img[1] - img[0]) * 4
    return Registration(np.asarray(to_board, np.float64), "truth", (), 0.0, float(side))


def _classes(model: PixelModel) -> dict[str, list[float]]:
    """Each class's chromaticity r, g and spread."""
    return {k: [round(c.mean[0], 4), round(c.mean[1], 4), round(c.sd, 4)] for k, c in model.classes.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photo", type=Path)
    ap.add_argument("calibration", type=Path)
    ap.add_argument("--no-refine", action="store_true", help="keep the renderer's placement as it is")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig()
    setup = setup_state()
    cal = calibrate(args.calibration, board, cell_contents(setup), cfg, legions=legion_labels(setup),
                    legion_at=legion_cells(setup))
    reg = placed(args.photo, board, cfg)

    def _register(loaded: Any, board: BoardSpec, cfg: VisionConfig, debug: Any) -> Registration:
        return reg if args.no_refine else go.refine(loaded.image, reg, board, cfg.grid)

    pipeline._register = _register  # this diagnosis only: the placement is given, not found
    reading = pipeline.read(args.photo, board, cfg, calibration=cal, strict=False)
    truth = json.loads(args.photo.with_suffix(".json").read_text(encoding="utf-8"))
    ev = reading.evidence
    floor = cfg.classify.min_confidence
    rows = []
    counts = {"right": 0, "asked": 0, "wrong": 0}
    for n, (name, cell) in enumerate(reading.observation.cells.items()):
        want = truth["cells"][name]
        ok = (cell.occupant, cell.terrain) == (want["occupant"], want["terrain"])
        sure = cell.confidence >= floor
        counts["right" if sure and ok else "asked" if not sure else "wrong"] += 1
        if ok and sure:
            continue
        rows.append({
            "cell": name, "read": [cell.occupant, cell.terrain], "truth": [want["occupant"], want["terrain"]],
            "confidence": cell.confidence, "sure": sure,
            "side_share": [round(float(x), 3) for x in ev.side_share[n]],
            "terrain_share": [round(float(x), 3) for x in ev.terrain_share[n]],
            "other_share": round(float(ev.other_share[n]), 3), "terrain_pixels": round(float(ev.terrain_pixels[n]), 3),
            "texture": round(float(ev.texture[n]), 3), "washed": round(float(reading.washed[n]), 3),
        })
    white = np.asarray(reading.white, np.float64)
    out = {"photo": args.photo.name, "calibration": args.calibration.name,
           "counts": counts,
           "white_reference": [round(float(x), 2) for x in white.ravel()[:3]],
           "terrains": list(board.terrains), "sides": list(board.sides),
           "commit": commit(),
           "calibrated": _classes(cal.pixels), "adapted": _classes(ev.model),
           "cells": rows}
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in out.items() if k != "cells"}))
    for r in rows:
        if r["sure"]:
            print(r)


if __name__ == "__main__":
    main()
