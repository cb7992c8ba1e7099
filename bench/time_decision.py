"""Times the photo reader at 1080p (its decision: the fitted trees, :mod:`vision.trees`) on cached
dev photos.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR``:

    python bench/time_decision.py --cache DIR [--photos 10] [--repeat 2]

Prints the median seconds of ``vision.pipeline.read`` (file to reading, without refusal) over the
project renderer's photos, each read ``--repeat`` times after one warm-up read (the trees' file is
loaded once per process, in the warm-up): the wall time, and the process's CPU time (all its
threads: OpenCV's too), which a machine shared with other work disturbs less. Until 30 November
it timed both decisions side by side (the hand-set cascade and the trees, ``classify.decision``);
to compare with an older reader, run this script with that commit's code (a copy of the script
in its tree) on the same photos in the same minutes, alternating.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_photos, calibrations  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.pipeline import read  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    cals = calibrations(board, "render", 1_000_000, args.cache)
    photos = list(cached_photos(args.cache, "render", 40))[: args.photos]
    out: dict[str, object] = {"machine": machine(), "photos": len(photos)}
    cfg = VisionConfig()
    times: list[float] = []
    cpu: list[float] = []
    for k, (path, _truth, _hidden, group) in enumerate(photos):
        cal = cals.get(group)
        usable = cal if isinstance(cal, Calibration) else None
        for _ in range(args.repeat + (k == 0)):
            start, start_cpu = time.perf_counter(), time.process_time()
            read(path, board, cfg, calibration=usable, strict=False)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    out["model"] = {"median_s": round(statistics.median(times[1:]), 4), "reads": len(times) - 1,
                    "cpu_median_s": round(statistics.median(cpu[1:]), 4)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
