"""Boards small in the photo: what the smallest cell the reader accepts decides, measured.

Run from the repository root:

    python bench/small_boards.py [--cache /tmp/w51c/small] [--photos 16] --out FILE [--min-cell PX ...]

The reader refuses a board whose cells are smaller in the photo than
:func:`vision.markers.smallest_cell_px` (10 px for markers a cell wide; until 30 November the
setting ``registration.min_cell_px``, 14 px, set by hand). The registration set's ``small``
ladder never reaches it with markers (they are lost first); here ``--photos`` boards per
renderer are drawn with the board filling 9-15 % of the photo's shorter side (about 8-14 px per
cell at 1080p), every other one without markers (the outline path), from seeds of this script's
own (1,770,000 + k and 5,770,000 + k). Each is read (strict, with the registration set's
calibrations, never written) once per ``--min-cell`` value (the smallest cell put in place of
:func:`vision.markers.smallest_cell_px` where the reader calls it): refused (why) or read, and
then its cells right, asked and confidently wrong.
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

from bench.bench_reliability import calibrations, commit  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from bench.registration_set import SEEDS as REGSET_SEEDS  # noqa: E402
from bench.registration_set import _no_markers, _reading  # noqa: E402
from vision import markers, outline, register, tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.render import random_scene, render, sample_real_conditions  # noqa: E402

SEEDS = {"render": 1_770_000, "tabletop": 5_770_000}


def draw(board: BoardSpec, kind: str, cache: Path, count: int) -> list[tuple[str, int]]:
    """Renders (or finds) ``count`` small boards of one renderer; returns (path, style or box)."""
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    out = []
    for k in range(count):
        seed = SEEDS[kind] + k
        group = k % 3
        stem = cache / f"{kind}_small_{k}"
        found = [p for p in cache.glob(stem.name + ".*") if p.suffix != ".json"]
        if found:
            out.append((str(found[0]), group))
            continue
        rng = np.random.default_rng(seed)
        scene = dataclasses.replace(random_scene(board, rng, labels, 0.3), markers=k % 2 == 0)
        fill = float(rng.uniform(0.09, 0.15))
        if kind == "render":
            cond = dataclasses.replace(sample_real_conditions(rng, 1920, 1080, group, hands=0.0), fill=fill)
            path = render(board, scene, cond, seed).save(stem)
        else:
            at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
            tcond = tabletop.sample_conditions(rng, 1920, 1080, box=group, counters=at, hand=0.0)
            shown = board if scene.markers else _no_markers(board)
            path = tabletop.render(shown, scene, dataclasses.replace(tcond, fill=fill), seed).save(stem)
        out.append((str(path), group))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w51c/small"))
    parser.add_argument("--regset", type=Path, default=Path("/tmp/w50c/regset"), help="Calibrations (read only).")
    parser.add_argument("--photos", type=int, default=16)
    parser.add_argument("--min-cell", type=float, nargs="*", default=[14.0, 10.0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    args.cache.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"what": "small boards read at each smallest cell accepted", **commit(), "seeds": SEEDS}
    for kind in SEEDS:
        cals = calibrations(board, kind, REGSET_SEEDS[kind], args.regset)
        rows = []
        for path, group in draw(board, kind, args.cache, args.photos):
            row: dict[str, Any] = {"photo": Path(path).stem}
            for px in args.min_cell:
                register.smallest_cell_px = outline.smallest_cell_px = lambda layout, px=px: px
                row[str(px)] = _reading(Path(path), board, cals.get(group), VisionConfig())
            register.smallest_cell_px = outline.smallest_cell_px = markers.smallest_cell_px
            rows.append(row)
            print(kind, row, flush=True)
        report[kind] = rows
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
