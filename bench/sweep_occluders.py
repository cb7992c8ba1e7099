"""Sensitivity of the photo reader to the occluder settings (issue 34): each setting moved alone.

Run from the repository root, after ``bench/bench_reliability.py --cache DIR`` rendered the dev photos:

    python bench/sweep_occluders.py --cache DIR [--photos 40] [--out FILE] [--only NAME ...]

For each setting of ``vision/occluders.py`` (``classify.*``) and each factor (×0.5 and ×2, and
the value that switches its rule off where it has one), the dev photos of both renderers are read
as ``bench/bench_reliability.py --config`` reads them, and the report gives, per renderer, the
photos read, cells asked, cells confidently wrong, the ECE and whether any cell's reading or
confidence (to 3 decimals) changed from the defaults'. A setting that changes nothing on either
renderer holds no information the dev photos can see. Dev seeds only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import SEEDS, calibrations, commit, machine, reliability  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import observe  # noqa: E402

FACTORS = (0.5, 2.0)
OFF: dict[str, object] = {
    "line_dip": 1e6, "occluder_fringe": 0.0, "blend_sd": 1e-6,
    "occluder_thin": 0.0, "occluder_thin_edge": 0.0, "occluder_thin_ring": 0.0,
    "occluder_thin_near": 1.0, "occluder_local_gap": 1e6,
    "lying_solid": 0.0, "occluder_margin": 0.0, "token_cell_gap": 0.0, "occluder_rival": 0.0,
}
"""The value that switches a setting's rule off (or makes it pass everything), where it has one."""


SHARED = frozenset({"min_photo_sd", "pixel_sigma", "adapt_min_pixels", "min_pixel_light", "drift_sd", "occluder_light",
                    "adapt_max_blob"})
"""Settings ``vision/occluders.py`` reads that belong to the colour model (left out of the sweep)."""


def settings() -> dict[str, object]:
    """The settings ``vision/occluders.py`` reads (and the occluder's margin, read by the
    pipeline), the colour model's aside, with their defaults."""
    source = (ROOT / "vision" / "occluders.py").read_text(encoding="utf-8")
    names = sorted({*re.findall(r"cfg\.(\w+)", source), "occluder_margin"} - SHARED)
    defaults = VisionConfig().classify
    return {n: getattr(defaults, n) for n in names if hasattr(defaults, n)}


def moved(value: object, factor: float) -> object:
    """A setting's value times ``factor`` (an integer stays one, a range moves both ends)."""
    if isinstance(value, tuple):
        return tuple(v * factor for v in value)
    if isinstance(value, int):
        return max(1, round(value * factor))
    assert isinstance(value, float)
    return value * factor


def run(board: BoardSpec, cache: Path, photos: int, cfg: VisionConfig) -> dict[str, dict[str, object]]:
    """Reads the cached dev photos of both renderers with ``cfg``: the figures per renderer."""
    out: dict[str, dict[str, object]] = {}
    floor = cfg.classify.min_confidence
    for kind, base in SEEDS["dev"].items():
        cals = calibrations(board, kind, base, cache, cfg)
        index = cache / f"{kind}-{base}-{photos}.json"
        pairs: list[tuple[float, bool]] = []
        digest = hashlib.sha256()
        read = asked = wrong = 0
        for path, truth, occluded, group in json.loads(index.read_text(encoding="utf-8")):
            cal = cals.get(group)
            try:
                obs = observe(Path(path), board, cfg, calibration=cal if isinstance(cal, Calibration) else None,
                              strict=True)
            except VisionError as exc:
                digest.update(f"{path} {type(exc).__name__}".encode())
                continue
            read += 1
            for name, cell in sorted(obs.cells.items()):
                digest.update(f"{name}{cell.occupant}{cell.terrain}{cell.confidence:.3f}".encode())
                if name in occluded:
                    continue
                right = (cell.occupant, cell.terrain) == (truth[name]["occupant"], truth[name]["terrain"])
                sure = cell.confidence >= floor
                pairs.append((cell.confidence, right))
                asked += not sure
                wrong += sure and not right
        rel = reliability(pairs)
        out[kind] = {"read": read, "asked": asked, "wrong": wrong, "ece": rel["ece"],
                     "digest": digest.hexdigest()[:12]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "sweep-occluders.json")
    parser.add_argument("--only", nargs="*", default=None, help="These settings only.")
    parser.add_argument("--off-only", action="store_true", help="Only the trials that switch a rule off.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    base = run(board, args.cache, args.photos, VisionConfig())
    rows: list[dict[str, object]] = []
    for name, value in settings().items():
        if args.only and name not in args.only:
            continue
        trials: list[tuple[str, object]] = [] if args.off_only else [(f"x{f:g}", moved(value, f)) for f in FACTORS]
        if name in OFF:
            trials.append(("off", OFF[name]))
        for label, trial in trials:
            try:
                cfg = VisionConfig.model_validate({"classify": {name: trial}})
            except ValueError:  # past the setting's bounds (a share above 1)
                continue
            figures = run(board, args.cache, args.photos, cfg)
            changed = [k for k in figures if figures[k]["digest"] != base[k]["digest"]]
            rows.append({"setting": name, "trial": label, "value": trial, "changed": changed, **figures})
            print(json.dumps(rows[-1]), flush=True)
            write(args.out, base, rows, start)  # after each trial: a long sweep cut short keeps its rows
    write(args.out, base, rows, start)
    print(f"wrote {args.out}")


def write(out: Path, base: dict[str, dict[str, object]], rows: list[dict[str, object]], start: float) -> None:
    """Writes the report so far (to a temporary file first, then renamed over ``out``)."""
    report = {"what": "sensitivity of the reader to each occluder setting, moved alone (dev photos)",
              **commit(), "machine": machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "defaults": base, "trials": rows, "wall_seconds": round(time.perf_counter() - start, 1)}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".part")
    tmp.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    tmp.replace(out)


if __name__ == "__main__":
    main()
