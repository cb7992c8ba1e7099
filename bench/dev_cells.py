"""Every visible cell's reading on the cached dev photos, to compare two readers cell by cell.

Run from the repository root (the cache of ``bench/bench_reliability.py --seeds dev --photos 40
--cache DIR`` must be rendered; it is only read):

    python bench/dev_cells.py --out FILE [--photos 40] [--cache DIR] [--uncalibrated]

Each photo is read as the reliability bench reads it (its ``measure``: strict, each photo with
its style's or box's calibration, calibrated afresh with the reader's settings), or with no
calibration at all (``--uncalibrated``: the tables' colours, the path a player without a
calibration file takes). The report holds the bench's counts per renderer and, under ``cells``,
each visible cell's "occupant/terrain/confidence" and each refused photo's reason.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import SEEDS, cached_photos, calibrations, measure  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w41a/cache"))
    parser.add_argument("--photos", type=int, default=40, help="Photos per renderer.")
    parser.add_argument("--uncalibrated", action="store_true", help="Read without a calibration.")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    report: dict[str, object] = {"uncalibrated": args.uncalibrated}
    for kind, base in SEEDS["dev"].items():
        cals: dict[int, Calibration | str] = {} if args.uncalibrated else calibrations(board, kind, base, args.cache)
        cells: dict[str, str] = {}
        result = measure(board, cached_photos(args.cache, kind, args.photos, base), cals, None, cells)
        result["cells"] = cells
        report[kind] = result
        print(kind, {k: v for k, v in result.items() if k not in ("cells", "reliability")}, flush=True)
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    args.out.write_text(json.dumps(report, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
