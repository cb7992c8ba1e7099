"""A registration-set photo read confidently wrong, rendered again with its markers on.

Run from the repository root:

    python bench/clipped_light.py [--cache /tmp/w52a/clipped] [--draws 12] [--out FILE]

``tabletop_outline_check_0_8`` of ``bench/registration_set.py`` (the second renderer, no
markers) reads bare plain cells as hill with confidence once its board is placed right
(``bench/diag_placed_read.py``). Here its scene and conditions are drawn again (that set's own
draw, seed 5,709,008), the markers put back, and the photo rendered from this script's dev range
(5,780,000-5,789,999; its calibration photo, box 1, at 5,789,901): photo 0 with the very same
conditions; photos 1.. with the light alone drawn again (lamp place, colour and share, ambient
colour, white balance, exposure: ``tabletop.sample_conditions``'s draw from this range), the
scene, camera and shadow kept. Each photo is read by the default reader with that calibration
(``vision.pipeline.observe``, strict) and reported: cells right, asked, confidently wrong (which,
at what confidence) or the refusal, and per wrong cell its share of pixels with two channels or
more clipped (at ``grid_overlay.WASHED``) in the warped board, a clip the glare measure (all
three channels) does not count. Dev seeds only.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import commit  # noqa: E402
from bench.bench_vision import cyrus_labels, scene_of, setup_state  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_contents, legion_cells, legion_labels  # noqa: E402
from vision import grid_overlay as go  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibrate import calibrate  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import read  # noqa: E402
from vision.render import random_scene  # noqa: E402

ORIGINAL = 5_709_008
"""``registration_set``'s seed of ``tabletop_outline_check_0_8`` (ladder 9, repeat 0, step 8)."""
BASE = 5_780_000
"""This script's dev range (second renderer)."""
BOX = 1
LIGHT = ("lamp", "lamp_kelvin", "ambient_kelvin", "lamp_share", "white_balance", "exposure")
"""The fields drawn again for photos 1.."""


def original(board: BoardSpec) -> tuple[Any, tabletop.TabletopConditions]:
    """The scene and conditions ``registration_set`` drew for the photo (its tilt, 16°, applied)."""
    names = board.cell_names()
    rng = np.random.default_rng(ORIGINAL)
    scene = random_scene(board, rng, cyrus_labels(setup_state()), 0.3)
    at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
    cond = tabletop.sample_conditions(rng, 1920, 1080, box=BOX, counters=at, hand=0.0)
    return scene, dataclasses.replace(cond, tilt_deg=16.0)


def clipped(reading: Any, board: BoardSpec) -> np.ndarray:
    """Per cell, the share of the warped board's pixels with two or more channels clipped."""
    w = reading.warped
    g = w.grid(board.rows, board.cols)
    two = (g >= go.WASHED).sum(axis=2) >= 2
    ppc = w.ppc
    return np.asarray(two.reshape(board.rows, ppc, board.cols, ppc).mean(axis=(1, 3)).reshape(-1), np.float64)


def measure(path: Path, board: BoardSpec, cal: Calibration, cfg: VisionConfig) -> dict[str, Any]:
    truth = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    hidden = set(truth["occluded"])
    try:
        reading = read(path, board, cfg, calibration=cal, strict=True)
    except VisionError as exc:
        return {"refused": type(exc).__name__ + ": " + str(exc).split(" (")[0][:80]}
    clip = clipped(reading, board)
    floor = cfg.classify.min_confidence
    out: dict[str, Any] = {"right": 0, "asked": 0, "wrong": 0, "wrong_cells": [],
                           "clipped_cells": int((clip >= 0.2).sum()),
                           "method": reading.observation.registration.method}
    for n, (name, cell) in enumerate(reading.observation.cells.items()):
        if name in hidden:
            continue
        want = truth["cells"][name]
        ok = (cell.occupant, cell.terrain) == (want["occupant"], want["terrain"])
        sure = cell.confidence >= floor
        out["right" if sure and ok else "asked" if not sure else "wrong"] += 1
        if sure and not ok:
            out["wrong_cells"].append({"cell": name, "read": [cell.occupant, cell.terrain],
                                       "truth": [want["occupant"], want["terrain"]],
                                       "confidence": cell.confidence, "clipped": round(float(clip[n]), 3),
                                       "washed": round(float(reading.washed[n]), 3)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/w52a/clipped"))
    ap.add_argument("--draws", type=int, default=12)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig()
    setup = setup_state()
    cal_seed = BASE + 9_900 + BOX
    cal_path = args.cache / f"cal_tabletop_{BOX}.jpg"
    if not cal_path.exists():
        cond = tabletop.sample_conditions(np.random.default_rng(cal_seed), 1920, 1080, box=BOX, clean=True)
        cal_path = tabletop.render(board, scene_of(setup), cond, cal_seed).save(args.cache / f"cal_tabletop_{BOX}")
    cal = calibrate(cal_path, board, cell_contents(setup), cfg, legions=legion_labels(setup),
                    legion_at=legion_cells(setup))
    scene, base_cond = original(board)
    rows = []
    for k in range(args.draws + 1):
        cond = base_cond
        if k:
            fresh = tabletop.sample_conditions(np.random.default_rng(BASE + k), 1920, 1080, box=BOX, hand=0.0)
            cond = dataclasses.replace(cond, **{f: getattr(fresh, f) for f in LIGHT})
        out = args.cache / f"marked_{k}"
        found = [p for p in args.cache.glob(out.name + ".*") if p.suffix != ".json"]
        path = found[0] if found else tabletop.render(board, scene, cond, BASE + k).save(out)
        light = {f: getattr(cond, f) for f in LIGHT}
        row = {"photo": path.stem, "seed": BASE + k, "light": light, **measure(path, board, cal, cfg)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    report = {"what": __doc__.split("\n")[0], "commit": commit(), "calibration_seed": cal_seed, "photos": rows,
              "confidently_wrong_photos": sum(1 for r in rows if r.get("wrong")),
              "refused": sum(1 for r in rows if "refused" in r)}
    print({k: v for k, v in report.items() if k != "photos"})
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
