"""Sensitivity sweep of the reader's settings: what moving one number changes on the dev photos.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --photos 40
--cache DIR`` has rendered the dev photos into ``DIR``:

    python bench/sweep_settings.py --cache DIR [--photos 40] [--factors 0.5,2] [--jobs 2]
        [--out FILE] NAME|NAME=VALUE [...]

Each ``NAME`` is a setting (``classify.pixel_sigma``; one end of a range as
``classify.edge_band.0``) or a module constant (``shade.HARD``, ``decide.READ_INSIDE``,
``prior.OFF_RULES``). Each is multiplied by each factor in turn (a share near 1, such as
``decide.READ_INSIDE``, has its complement multiplied instead; whole numbers are rounded),
the calibrations learned again and every cached dev photo of both renderers read with it, as
``bench_reliability.py --config`` does. A module constant is set on its module for the run and
set back after it: nothing is written to a source file. ``NAME=VALUE`` tries that one value
instead (a YAML scalar: the value that switches a rule off, e.g. ``classify.occluder_fringe=0``).

Per name and factor the report has, per renderer: photos read, cells asked, cells confidently
wrong, the ECE, and how many visible cells changed their reading (occupant, terrain or
confidence to 4 decimals) against the defaults: 0 on both renderers says the dev photos hold no
information about that number.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import SEEDS, cached_photos, calibrations, commit, measure  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402

NEAR_ONE = frozenset({"decide.READ_INSIDE"})
"""Shares near 1 whose complement is scaled (0.98 × 2 would be no share)."""


def _moved(value: Any, factor: float, near_one: bool) -> Any:
    if near_one:
        return 1 - (1 - value) * factor
    moved = value * factor
    return round(moved) if isinstance(value, int) and not isinstance(value, bool) else moved


def _value(text: str) -> Any:
    """A value given on the command line, read as a YAML scalar (safe loader)."""
    return yaml.safe_load(text)


def _config(name: str, factor: float) -> tuple[VisionConfig, tuple[Any, Any] | None, Any]:
    """The settings with ``name`` moved (or the defaults and the module constant's change);
    ``name=value`` sets it to that value (``factor`` unused)."""
    given: str | None = None
    if "=" in name:
        name, given = name.split("=", 1)
    parts = name.split(".")
    base = VisionConfig()
    if not name:
        return base, None, None
    if parts[0] in VisionConfig.model_fields:
        data = base.model_dump()
        section = data[parts[0]]
        if len(parts) == 3:
            pair = list(section[parts[1]])
            old = pair[int(parts[2])]
            pair[int(parts[2])] = _value(given) if given is not None else _moved(old, factor, False)
            section[parts[1]] = tuple(pair)
            return VisionConfig.model_validate(data), None, pair[int(parts[2])]
        section[parts[1]] = (_value(given) if given is not None
                             else _moved(section[parts[1]], factor, name in NEAR_ONE))
        return VisionConfig.model_validate(data), None, section[parts[1]]
    module = importlib.import_module(f"vision.{parts[0]}")
    new = _value(given) if given is not None else _moved(getattr(module, parts[1]), factor, name in NEAR_ONE)
    return base, (module, parts[1]), new


def _read_all(board: BoardSpec, cache: Path, count: int, cfg: VisionConfig) -> dict[str, Any]:
    """Per renderer: the counts and ECE of ``bench_reliability.measure``, and every visible
    cell's reading."""
    out: dict[str, Any] = {}
    for kind in SEEDS["dev"]:
        cals = calibrations(board, kind, SEEDS["dev"][kind], cache, cfg)
        cells: dict[str, str] = {}
        res = measure(board, cached_photos(cache, kind, count), cals, cfg, cells)
        out[kind] = {key: res[key] for key in ("photos_read", "cells_asked", "cells_confidently_wrong", "ece")}
        out[kind]["calibrations_refused"] = sum(not isinstance(c, Calibration) for c in cals.values())
        out[kind]["cells"] = cells
    return out


def _run(task: tuple[str, float, str, int]) -> tuple[str, float, Any, dict[str, Any]]:
    name, factor, cache, count = task
    board = load_board("cyrus-pyxis")
    try:
        cfg, constant, value = _config(name, factor)
    except ValidationError as exc:  # an invalid value is reported, not fatal
        return name, factor, None, {"invalid": str(exc).splitlines()[0]}
    old = None
    if constant is not None:
        old = getattr(*constant)
        setattr(*constant, value)
    try:
        return name, factor, value, _read_all(board, Path(cache), count, cfg)
    finally:
        if constant is not None:
            setattr(*constant, old)


def _changed(base: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    if "invalid" in got:
        return got
    out: dict[str, Any] = {}
    for kind, res in got.items():
        cells, ref = res.pop("cells"), base[kind]["cells"]
        res["cells_changed"] = sum(cells.get(k) != v for k, v in ref.items()) + len(set(cells) - set(ref))
        out[kind] = res
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+", metavar="NAME|NAME=VALUE",
                        help="A setting (classify.pixel_sigma) or module constant (shade.HARD), moved by each "
                             "factor; NAME=VALUE tries that value instead.")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--factors", default="0.5,2")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "sweep.json")
    args = parser.parse_args()
    factors = [float(f) for f in args.factors.split(",")]
    start = time.perf_counter()
    tasks = [("", 1.0, str(args.cache), args.photos)]  # the defaults first: what each run is compared with
    tasks += [(n, f, str(args.cache), args.photos) for n in args.names for f in ([1.0] if "=" in n else factors)]
    report: dict[str, Any] = {"what": "sensitivity of the reader to one number at a time (dev photos)",
                              **commit(), "machine": machine(), "factors": factors,
                              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "sweep": {}}
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(_run, tasks)
        base = next(results)[3]
        report["defaults"] = {k: {f: v for f, v in r.items() if f != "cells"} for k, r in base.items()}
        for name, factor, value, got in results:
            entry = _changed(base, got)
            trial = "set" if "=" in name else str(factor)
            report["sweep"].setdefault(name.split("=")[0], {})[trial] = {"value": value, **entry}
            brief = {k: (v["cells_changed"], v["cells_asked"], v["cells_confidently_wrong"], v["ece"])
                     for k, v in entry.items() if isinstance(v, dict)} or entry
            print(f"{name if '=' in name else f'{name} x{factor}'} = {value}: {brief}", flush=True)
    write_report(report, args.out, start)


def write_report(report: dict[str, Any], out: Path, start: float) -> None:
    """Writes a sweep's report (JSON) with its wall time since ``start``, and says so."""
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} in {report['wall_seconds']} s")


if __name__ == "__main__":
    main()
