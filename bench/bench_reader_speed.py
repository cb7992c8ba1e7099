"""Reader time per photo at 1080p, stage by stage, on both renderers' development photos.

Run from the repository root:

    python bench/bench_reader_speed.py [--photos 20] [--repeat 3]

Renders ``--photos`` photos of each renderer at 1920 x 1080 (``vision.render`` ``real`` profile
from seed 1000000, ``vision.tabletop`` from 5000000: dev seeds) and reads each ``--repeat`` times
with ``vision.pipeline.read`` (file decoding included, no counter labels, a calibration from a
clean photo of the set-up). Prints, and writes to ``bench/out/reader-speed.json``, the median
wall and CPU time per read (CPU: all the process's threads, ``time.process_time``; on a machine
shared with other jobs the wall time moves with their load, the CPU time much less) and the
median CPU time of each stage, with the machine and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import calibrations, render_photos, tabletop_photos  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from vision import evidence as ev_mod  # noqa: E402
from vision import normalise as nz  # noqa: E402
from vision import occlusion as oc_mod  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import read  # noqa: E402

STAGES = {"normalise": (nz, "normalise"), "evidence": (ev_mod, "evidence"), "occlusion": (oc_mod, "occlusion")}


def timed_stages() -> dict[str, list[float]]:
    """Wraps the model's stages (as the pipeline calls them) to record their CPU time."""
    import vision.pipeline as pipeline

    spent: dict[str, list[float]] = {k: [] for k in STAGES}
    for name in STAGES:
        original = getattr(pipeline, name)

        def wrapper(*args: object, _f: object = original, _n: str = name) -> object:
            t = time.process_time()
            out = _f(*args)  # type: ignore[operator]
            spent[_n].append(time.process_time() - t)
            return out

        setattr(pipeline, name, wrapper)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=20, help="Photos per renderer.")
    parser.add_argument("--repeat", type=int, default=3, help="Reads of each photo.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    spent = timed_stages()
    result: dict[str, object] = {"machine": machine()}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for kind, source, base in (("render", render_photos, 1_000_000), ("tabletop", tabletop_photos, 5_000_000)):
            cals = calibrations(board, kind, base, tmp)
            walls, cpus = [], []
            for k in spent.values():
                k.clear()
            for path, _truth, _hidden, group in source(board, base, args.photos, tmp):
                cal = cals.get(group)
                for _ in range(args.repeat):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    try:
                        read(path, board, calibration=cal if isinstance(cal, Calibration) else None, strict=False)
                    except VisionError:
                        break
                    walls.append(time.perf_counter() - start)
                    cpus.append(time.process_time() - start_cpu)
            result[kind] = {
                "reads": len(walls),
                "wall_median_s": round(statistics.median(walls), 4),
                "wall_p90_s": round(float(np.percentile(walls, 90)), 4),
                "cpu_median_s": round(statistics.median(cpus), 4),
                "stage_cpu_median_s": {k: round(statistics.median(v), 4) for k, v in spent.items() if v},
                "load_average": round(os.getloadavg()[0], 2),
            }
            print(kind, json.dumps(result[kind]), flush=True)
    out = ROOT / "bench" / "out" / "reader-speed.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
