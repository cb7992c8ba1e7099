"""Every reading a bench makes, recorded call by call, to show that two readers read alike.

Run from the repository root: record what one bench script reads (any of them: its own
arguments follow ``--``), then compare two records made the same way by two readers:

    python bench/reading_digest.py --out A.npz -- bench/bench_reliability.py --seeds dev ...
    python bench/reading_digest.py --compare A.npz B.npz

Each call of :func:`vision.pipeline.read` (``observe`` and ``calibrate`` read through it) is
recorded in order: the photo's file name, then the refusal (its class and message) or every
cell's reading (occupant, terrain, confidence as rounded), the unreadable cells and the cells the
rules' priors decided, and the fitted trees' probabilities of every content of every cell as
computed, unrounded (:func:`vision.trees.decide`). The comparison says whether the two records
hold the same calls with the same outcomes, and the largest difference of any probability.
A reader made only faster must show none (w58a, ``docs/vision.md``).
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vision.pipeline as pipeline  # noqa: E402
import vision.trees as trees  # noqa: E402
from vision.errors import VisionError  # noqa: E402


def record(script: Path, argv: list[str], out: Path) -> None:
    """Runs ``script`` with ``argv`` as its arguments, recording every reading into ``out``."""
    outcomes: list[str] = []
    spreads: list[np.ndarray[Any, np.dtype[np.float64]]] = []
    read, decide = pipeline.read, trees.decide

    def decide_recorded(*args: Any, **kwargs: Any) -> trees.Decided:
        decided = decide(*args, **kwargs)
        spreads.append(np.array(decided.spread, np.float64))
        return decided

    def read_recorded(photo: Any, *args: Any, **kwargs: Any) -> pipeline.Reading:
        name = Path(photo).name if isinstance(photo, (str, Path)) else type(photo).__name__
        before = len(spreads)
        try:
            reading = read(photo, *args, **kwargs)
        except VisionError as exc:
            outcomes.append(json.dumps([name, len(spreads) - before, type(exc).__name__, str(exc)]))
            raise
        obs = reading.observation
        cells = {k: [c.occupant, c.terrain, c.confidence] for k, c in obs.cells.items()}
        outcomes.append(json.dumps([name, len(spreads) - before, cells, obs.unreadable, obs.from_rules,
                                    obs.identity], sort_keys=True))
        return reading

    pipeline.read = read_recorded
    trees.decide = decide_recorded
    sys.argv = [str(script), *argv]
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        pipeline.read, trees.decide = read, decide
        flat = np.concatenate([s.reshape(-1) for s in spreads]) if spreads else np.zeros(0)
        np.savez_compressed(out, outcomes=np.array(outcomes), spreads=flat)
        print(f"recorded {len(outcomes)} readings, {len(spreads)} decisions into {out}", flush=True)


def compare(a: Path, b: Path) -> bool:
    """Prints how two records differ; returns whether they hold the same readings."""
    ra, rb = np.load(a), np.load(b)
    oa, ob = list(ra["outcomes"]), list(rb["outcomes"])
    differ = [k for k, (x, y) in enumerate(zip(oa, ob, strict=False)) if x != y]
    same_shape = ra["spreads"].shape == rb["spreads"].shape
    largest = float(np.max(np.abs(ra["spreads"] - rb["spreads"]), initial=0.0)) if same_shape else float("inf")
    print(f"{len(oa)} and {len(ob)} readings; {len(differ)} differ; largest probability difference {largest:.3g}")
    for k in differ[:5]:
        print(f"  {k}: {oa[k][:300]}\n  {' ' * len(str(k))}  {ob[k][:300]}")
    return len(oa) == len(ob) and not differ and largest <= 1e-9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="Record into this file (.npz) the bench that follows '--'.")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"), help="Compare two records.")
    parser.add_argument("bench", nargs=argparse.REMAINDER, help="-- SCRIPT [ARGS...]")
    args = parser.parse_args()
    if args.compare:
        sys.exit(0 if compare(*args.compare) else 1)
    rest = args.bench[1:] if args.bench[:1] == ["--"] else args.bench
    if args.out is None or not rest:
        parser.error("give --out FILE -- SCRIPT [ARGS...], or --compare A B")
    record(Path(rest[0]), rest[1:], args.out)


if __name__ == "__main__":
    main()
