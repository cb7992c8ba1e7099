"""Which rule of the per-cell reading leaves each asked cell unsure, on the cached dev photos.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/diagnose_asked.py --cache DIR [--photos 40] [--only tabletop] [--cells]

Every photo is read without refusal (``strict=False``); every visible cell (not under a hand)
below the confidence floor is put under the first rule that explains it, in this order:
``outside`` (part of the cell outside the photo), ``glare`` (a bare plain washed out),
``covered`` (a hand reaching in covers it), ``off-class`` (bright colours fitting no class),
``smooth`` (a token without its print, two edges hidden), ``spread`` (distrust spread from a
neighbour), ``counter`` (the counter's colour share near its threshold), ``under-counter`` (the
terrain under a counter), ``terrain`` (a bare cell's token shares near their threshold). It
prints the counts per rule and per photo (with the right/wrong split and whether the photo
would be refused), and with ``--cells`` every asked cell. Dev seeds only: it never reads eval.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from vision import decide as dc  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decide import READ_INSIDE  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import Reading, glared, read  # noqa: E402


def causes(reading: Reading, board: BoardSpec, cfg: VisionConfig) -> list[str]:
    """Returns, per cell, the first rule that explains a low confidence ('' when sure)."""
    c = cfg.classify
    ev = reading.evidence
    lines = reading.lines
    _order, has, c_conf = dc._counters(ev, c)
    tokens = ev.terrain_share[:, 1:]
    t_best, is_token, _t_conf = dc._terrains(ev, tokens, c)
    detail = dc._detail(ev, tokens, ~has & is_token, t_best)
    off = ev.other_share > c.occluder_share
    hidden = dc._hidden_edges(lines, board, c) if lines.size else None
    covered = np.zeros(len(has), bool)
    if ev.reached is not None:
        covered = dc._covered(ev, tokens, detail, hidden, is_token, t_best, c)
    untrusted = dc._distrust(ev, board, off | covered, c)
    glare = glared(reading.washed)
    out: list[str] = []
    floor = c.min_confidence
    for n, (_name, cell) in enumerate(reading.observation.cells.items()):
        if cell.confidence >= floor:
            out.append("")
        elif reading.inside[n] < READ_INSIDE:
            out.append("outside")
        elif cell.occupant is None and cell.terrain == board.terrains[0] and glare[n]:
            out.append("glare")
        elif covered[n]:
            out.append("covered")
        elif off[n]:
            out.append("off-class")
        elif untrusted[n]:
            out.append("spread")
        elif c_conf[n] < floor:
            out.append("counter")
        elif has[n]:
            out.append("under-counter")
        else:
            out.append("terrain")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--only", choices=("render", "tabletop"), default=None)
    parser.add_argument("--cells", action="store_true", help="List every asked cell.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig()
    totals: dict[str, tuple[Counter[str], Counter[str]]] = {}
    for kind, (path, truth, hidden, _group), cal, reading in cached_readings(board, args.cache, args.photos, args.only):
        total, wrong = totals.setdefault(kind, (Counter(), Counter()))
        try:
            read(path, board, calibration=cal)
            refused = ""
        except VisionError as exc:
            refused = f" refused ({type(exc).__name__})"
        why = causes(reading, board, cfg)
        mine: Counter[str] = Counter()
        for n, (name, cell) in enumerate(reading.observation.cells.items()):
            if name in hidden or not why[n]:
                continue
            right = (cell.occupant, cell.terrain) == (truth[name]["occupant"], truth[name]["terrain"])
            mine[why[n]] += 1
            wrong[why[n]] += not right
            if args.cells:
                print(f"  {path.stem} {name} {why[n]} {cell.occupant}/{cell.terrain} "
                      f"{cell.confidence:.3f} {'right' if right else 'WRONG'} "
                      f"(held {truth[name]['occupant']}/{truth[name]['terrain']})")
        total.update(mine)
        print(f"{path.stem}{refused}: {sum(mine.values())} asked {dict(mine)}")
    for kind, (total, wrong) in totals.items():
        print(f"{kind}: {sum(total.values())} asked; by rule {dict(total.most_common())}; "
              f"of which wrong {dict(wrong)}")


if __name__ == "__main__":
    main()
