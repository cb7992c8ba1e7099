"""What each registration number does on the dev photos: a sensitivity sweep.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into ``DIR``:

    python bench/sweep_registration.py --cache DIR [--photos 40] [--out FILE] [--only NAME ...]
    python bench/sweep_registration.py --cache DIR --show [--set grid.refine_min_points=30]

Every cached dev photo of both renderers (and their calibration photos) is registered as the
reader does it (``register``, the grid refit, the refusal of an outline or two markers the grid
lines do not confirm, the warped board's sharpness floor), and the registration is compared
with the renderer's own homography: the largest error, in cells, at the grid's corners and
centre. A sweep scales each registration setting (sections ``registration`` and ``grid``) by
0.5, 0.8, 1.25 and 2 and each module constant given with ``--const`` likewise (set on the
module for the run, never written), and reports per value: photos whose outcome changed
(registered or refused, and why), photos whose error moved by more than 0.01 cell, the mean
and the largest error. A value that changes nothing on any photo holds no information the dev
photos can see. The report is JSON (``--out``), with the commit measured; dev seeds only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import grid_overlay as go  # noqa: E402
from vision import outline, register  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.debug import NullSink  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.load import Photo, read_photo  # noqa: E402

SECTIONS = ("registration", "grid")
FACTORS = (0.5, 0.8, 1.25, 2.0)
PROBE = np.array([[[0, 0], [12, 0], [12, 12], [0, 12], [6, 6]]], np.float64)
CAPS = ("grid.px_per_cell", "registration.detect_max_side", "registration.upscale_max_side",
        "registration.max_candidates")
MODULES = {"register": register, "grid_overlay": go, "outline": outline}
ODD = frozenset({"outline._SMOOTH"})
"""Numbers that must stay odd (a Gaussian kernel's side): a scaled value is made odd."""


@dataclass(frozen=True)
class Case:
    """One cached dev photo: its name, the decoded photo and the renderer's board → image map."""

    name: str
    photo: Photo
    truth: np.ndarray
    lens: tuple[float, float, float] | None = None
    """The second renderer's radial distortion (k1, k2, field of view in degrees), if any."""


def cases(cache: Path, photos: int) -> list[Case]:
    """Every dev photo of both renderers' indexes in ``cache``, and the calibration photos."""
    cfg = VisionConfig()
    out: list[Case] = []
    paths = [Path(p) for index in sorted(cache.glob(f"*-{photos}.json"))
             for p, *_ in json.loads(index.read_text(encoding="utf-8"))]
    paths += sorted(p for p in cache.glob("cal_*.*") if p.suffix != ".json")
    for path in paths:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        cond = meta.get("conditions") or {}
        lens = (cond["k1"], cond.get("k2", 0.0), cond["fov_deg"]) if "k1" in cond else None
        out.append(Case(path.stem, read_photo(path, cfg.load), np.array(meta["homography"], np.float64), lens))
    return out


def outcome(case: Case, board: BoardSpec, cfg: VisionConfig) -> dict[str, Any]:
    """Registers one photo as the reader does; returns its method and error, or why it was refused."""
    image = case.photo.image
    try:
        found = register.register(image, board, cfg.registration, NullSink())
        reg = go.refine(image, found, board, cfg.grid)
        if found.method in ("outline", "two-markers") and reg is found:
            return {"refused": "unconfirmed " + found.method}
        if found.method == "outline" and not outline.marks_confirm(image, reg.to_board, board, cfg.registration):
            return {"refused": "unconfirmed outline (marks)"}
    except VisionError as exc:
        return {"refused": type(exc).__name__ + ": " + str(exc).split(" (")[0][:60]}
    img = truth_points(case, PROBE)
    back = cv2.perspectiveTransform(img, reg.to_board)[0]
    error = float(np.linalg.norm(back - PROBE[0], axis=1).max())
    return {"method": reg.method, "markers": list(reg.markers), "error": round(error, 4)}


def truth_points(case: Case, board_pts: np.ndarray) -> np.ndarray:
    """Where the renderer put board points in the working image: its homography, then (the second
    renderer) its lens's radial distortion, inverted by fixed-point steps."""
    img = cv2.perspectiveTransform(board_pts, case.truth)
    if case.lens is not None:
        k1, k2, fov = case.lens
        h, w = case.photo.image.shape[:2]
        h, w = h * case.photo.reduction, w * case.photo.reduction
        f = w / (2 * np.tan(np.radians(fov) / 2))
        centre = np.array([w / 2, h / 2])
        undistorted = (img - centre) / f
        out = undistorted.copy()
        for _ in range(50):
            r2 = (out**2).sum(axis=-1, keepdims=True)
            out = undistorted / (1 + k1 * r2 + k2 * r2 * r2)
        img = out * f + centre
    return np.asarray(img / case.photo.reduction, np.float64)


def run(all_cases: list[Case], board: BoardSpec, cfg: VisionConfig) -> dict[str, dict[str, Any]]:
    return {c.name: outcome(c, board, cfg) for c in all_cases}


def refit(case: Case, found: register.Registration, board: BoardSpec, cfg: VisionConfig) -> dict[str, Any]:
    """The grid refit alone, from the registration ``register`` gave with the defaults."""
    reg = go.refine(case.photo.image, found, board, cfg.grid)
    if found.method in ("outline", "two-markers") and reg is found:
        return {"refused": "unconfirmed " + found.method}
    back = cv2.perspectiveTransform(truth_points(case, PROBE), reg.to_board)[0]
    return {"method": reg.method, "markers": list(reg.markers),
            "error": round(float(np.linalg.norm(back - PROBE[0], axis=1).max()), 4)}


def measures(case: Case, board: BoardSpec) -> dict[str, Any]:
    """The measures the registration's refusals compare with a threshold, with the defaults."""
    cfg = VisionConfig()
    image = case.photo.image
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    out: dict[str, Any] = {"mean_grey": float(gray.mean()), "p99_grey": float(np.percentile(gray[::4, ::4], 99)),
                           "edge_blur": register.edge_blur(gray, cfg.registration.max_blur_px)}
    plain = cfg.registration.model_copy(update={"search_missing": False})
    out["plain_markers"] = len(register.find_markers(gray, board, plain))
    try:
        found = register.register(image, board, cfg.registration, NullSink())
    except VisionError:
        return out
    reg = go.refine(image, found, board, cfg.grid)
    warped = go.warp_board(image, reg, board, cfg.grid.px_per_cell, cfg.grid.pad_cells, coverage=False)
    out |= {"found": found, "cell_px": reg.cell_px, "warp_sharpness": go.sharpness(warped, board)}
    return out


THRESHOLDS = {
    "registration.dark_p99": ("p99_grey", "below"), "register.DARKEST": ("mean_grey", "below"),
}
"""Settings that only compare one measure with a threshold: swept on the measures, not re-run
(``registration.max_blur_px`` is also the blur measure's coarse scale, so it is re-run)."""
REFIT = ("grid.",)
SEARCH = ("registration.search_", "registration.upscale", "register.MODULE_PX", "registration.outline_",
          "outline.")
"""Numbers of the marker search and of the outline: swept on the photos whose detection without
the crop search misses a marker (the outline is only looked for when fewer than two are found)."""


def threshold_rows(name: str, default: float, seen: dict[str, dict[str, Any]]) -> dict[str, Any]:
    key, side = THRESHOLDS[name]
    values = [m[key] for m in seen.values() if key in m]
    rows: dict[str, Any] = {"closest": round(max(values) if side == "above" else min(values), 4)}
    for factor in FACTORS:
        limit = default * factor
        hit = sorted(n for n, m in seen.items() if key in m and (m[key] > limit if side == "above" else m[key] < limit))
        rows[str(factor)] = {"value": limit, "refused": hit}
    return rows


def sweep(all_cases: list[Case], board: BoardSpec, names: list[str]) -> dict[str, Any]:
    """Each name at each factor: thresholds on the measures, the refit from the defaults'
    registration on the photos not framed by four markers, the marker search on the photos
    whose detection without the crop search misses a marker (this leaves out photos where the
    crop search finds a marker the later bled-border pass would also find), anything else on
    every photo."""
    base = run(all_cases, board, VisionConfig())
    seen = {c.name: measures(c, board) for c in all_cases}
    partial = [c for c in all_cases if "found" in seen[c.name] and len(seen[c.name]["found"].markers) < 4]
    hard = [c for c in all_cases if seen[c.name]["plain_markers"] < 4]
    out: dict[str, Any] = {"defaults": compare(base, base), "per_photo": base, "settings": {},
                           "photos_not_four_markers": [c.name for c in partial],
                           "photos_plain_search_missing_a_marker": [c.name for c in hard]}
    for name in names:
        module, ident = name.split(".")
        const = module in MODULES
        default = getattr(MODULES[module], ident) if const else getattr(getattr(VisionConfig(), module), ident)
        if name in THRESHOLDS:
            out["settings"][name] = {"default": default, "kind": "threshold",
                                     "by_factor": threshold_rows(name, default, seen)}
            print(name, out["settings"][name]["by_factor"], flush=True)
            continue
        subset = partial if name.startswith(REFIT) else hard if name.startswith(SEARCH) else all_cases
        rows: dict[str, Any] = {}
        for factor in FACTORS:
            value = scaled(default, factor)
            if value is not None and name in ODD:
                value = None if value | 1 == default else value | 1
            if value is None:
                continue
            try:
                cfg = VisionConfig() if const else with_setting(name, value)
            except ValueError:
                continue
            old = set_const(name, value) if const else None
            try:
                if name.startswith(REFIT):
                    other = {c.name: refit(c, seen[c.name]["found"], board, cfg) for c in subset}
                else:
                    other = run(subset, board, cfg)
            finally:
                if const:
                    set_const(name, old)
            rows[str(factor)] = {"value": value, **compare({n: base[n] for n in other}, other)}
        out["settings"][name] = {"default": default, "photos": [c.name for c in subset], "by_factor": rows}
        print(name, len(subset), {f: (r["registered"], len(r["outcome_changed"]), len(r["error_moved"]),
                                      r["max_error"]) for f, r in rows.items()}, flush=True)
    return out


def compare(base: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """How a run differs from the defaults' run."""
    changed = [n for n in other if ("error" in base[n]) != ("error" in other[n])
               or base[n].get("refused") != other[n].get("refused")]
    moved = [n for n in other if "error" in base[n] and "error" in other[n]
             and abs(base[n]["error"] - other[n]["error"]) > 0.01]
    errors = [o["error"] for o in other.values() if "error" in o]
    return {
        "registered": len(errors),
        "outcome_changed": {n: other[n] for n in changed},
        "error_moved": {n: [base[n]["error"], other[n]["error"]] for n in moved},
        "mean_error": round(float(np.mean(errors)), 4) if errors else None,
        "max_error": round(float(np.max(errors)), 4) if errors else None,
        "over_0.1_cell": sum(e > 0.1 for e in errors),
    }


def scaled(value: Any, factor: float) -> Any:
    if isinstance(value, bool):
        return None
    if isinstance(value, tuple):
        return tuple(scaled(v, factor) for v in value)
    if isinstance(value, int):
        new = max(1, round(value * factor))
        return None if new == value else new
    return value * factor


def with_setting(name: str, value: Any) -> VisionConfig:
    section, field = name.split(".")
    cfg = VisionConfig()
    sub = getattr(cfg, section).model_copy(update={field: value})
    return cfg.model_copy(update={section: sub})


def set_const(name: str, value: Any) -> Any:
    """Sets a module constant for this run (also where another module imported it); returns the old value."""
    module, ident = name.split(".")
    old = getattr(MODULES[module], ident)
    for mod in MODULES.values():
        if hasattr(mod, ident) and getattr(mod, ident) is old:
            setattr(mod, ident, value)
    return old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="Settings to sweep (default: every number).")
    parser.add_argument("--const", nargs="*", default=[], help="Module constants to sweep, e.g. register.MODULE_PX.")
    parser.add_argument("--show", action="store_true", help="Print each photo's registration, no sweep.")
    parser.add_argument("--set", nargs="*", default=[], help="section.field=value (YAML value), with --show.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    started = time.perf_counter()
    all_cases = cases(args.cache, args.photos)
    if args.show:
        import yaml  # bench only

        cfg = VisionConfig()
        for item in args.set:
            key, text = item.split("=", 1)
            cfg = with_setting(key, yaml.safe_load(text)) if key.split(".")[0] in SECTIONS else cfg
            if key.split(".")[0] in MODULES:
                set_const(key, yaml.safe_load(text))
        result = run(all_cases, board, cfg)
        for name, row in result.items():
            print(name, row)
        print(compare(result, result) | {"per_photo": None})
        return
    names = args.only if args.only is not None else [
        f"{s}.{f}" for s in SECTIONS for f, v in getattr(VisionConfig(), s).model_dump().items()
        if not isinstance(v, bool) and f"{s}.{f}" not in CAPS]
    report = sweep(all_cases, board, names + args.const)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                            cwd=ROOT, check=False).stdout.strip()
    report["commit"] = commit
    report["seconds"] = round(time.perf_counter() - started, 1)
    text = json.dumps(report, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(f"{len(all_cases)} photos, {report['seconds']} s")


if __name__ == "__main__":
    main()
