"""Calibration of the photo reader: is a cell read at confidence p right a share p of the time?

Run from the repository root:

    python bench/bench_reliability.py [--photos 60] [--seeds dev|eval] [--out FILE] [--cache DIR] [--only KIND]

Two renderers, each with its own calibration photos (a clean photo of the sample set-up per
colour style or box, learned with ``vision.calibrate``, never the default colours):

- ``render``: the project's renderer, ``real`` profile (``vision.render``);
- ``tabletop``: the second renderer (``vision.tabletop``), written apart from the reader.

Every visible cell (not under a hand) of every photo read gives (confidence, right or wrong).
The report has, per renderer: photos read and refused, cells asked (below the reader's
confidence floor), cells confidently wrong (above it, wrong), a reliability table by decile of
confidence (cells, mean confidence, share right) and the expected calibration error (ECE: the
cell-weighted mean gap between confidence and share right over the deciles).

The report is JSON, written to ``--out`` (default ``bench/out/reliability-<seeds>.json``) with the
commit it measured (``git describe``, and whether the tree had changes). Seeds: ``dev`` from
5000000 (tabletop) and 1000000 (render, issue 13's dev range); ``eval`` from 6000000 and
3000000, this issue's fresh range, to be run once on a frozen reader: each eval run is appended
to ``bench/reports/eval-history.jsonl`` (kept, never rewritten).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_vision import cyrus_labels, machine, scene_of, setup_state  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_contents, legion_cells, legion_labels  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibrate import calibrate  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import Observation, Reading, observe, read  # noqa: E402
from vision.prior import Priors  # noqa: E402
from vision.render import STYLES, Scene, random_scene, render, sample_real_conditions  # noqa: E402

SEEDS = {"dev": {"render": 1_000_000, "tabletop": 5_000_000}, "eval": {"render": 3_000_000, "tabletop": 6_000_000}}
BOXES = 4
"""Boxes (print batches) of the tabletop renderer, each calibrated on its own clean photo."""
Photo = tuple[Path, dict[str, dict[str, str | None]], list[str], int]
"""A photo file, its truth per cell, the cells under a hand, and its style or box."""


Aim = Callable[[BoardSpec, Scene, np.random.Generator], tuple[float, float]]
"""Where a hand's fingertips go, board (u, v) in cells, drawn from the scene (a purpose-drawn set
such as ``bench/occlusion_set.py``'s)."""


def render_photos(board: BoardSpec, base: int, count: int, tmp: Path,
                  scenes: Callable[[int], Scene] | None = None, occupied: float = 0.3,
                  aim: Aim | None = None) -> Iterator[Photo]:
    """The project's renderer, ``real`` profile, styles in turn; photo ``k`` shows
    ``scenes(k)`` when given, a random scene otherwise (``occupied``: its share of cells holding
    a counter; ``aim``: a hand in every photo, its fingertips there)."""
    labels = cyrus_labels(setup_state())
    for k in range(count):
        seed, style = base + k, k % len(STYLES)
        rng = np.random.default_rng(seed)
        scene = scenes(k) if scenes is not None else random_scene(board, rng, labels, occupied)
        cond = sample_real_conditions(rng, 1920, 1080, style, hands=0.25 if aim is None else 1.0)
        if aim is not None:
            cond = dataclasses.replace(cond, hands=1, hand_at=aim(board, scene, rng))
        shot = render(board, scene, cond, seed)
        yield shot.save(tmp / f"render_{k}"), shot.cells, shot.occluded, style


def tabletop_photos(board: BoardSpec, base: int, count: int, tmp: Path,
                    scenes: Callable[[int], Scene] | None = None, occupied: float = 0.3,
                    aim: Aim | None = None, glare: float = 0.3) -> Iterator[Photo]:
    """The second renderer, boxes in turn, a hard shadow through a counter in 60 % of them, a
    glare in ``glare`` of them; photo ``k`` shows ``scenes(k)`` when given, a random scene
    otherwise (``occupied`` and ``aim`` as for :func:`render_photos`)."""
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    for k in range(count):
        seed, box = base + k, k % BOXES
        rng = np.random.default_rng(seed)
        scene = scenes(k) if scenes is not None else random_scene(board, rng, labels, occupied)
        at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
        cond = tabletop.sample_conditions(rng, 1920, 1080, box=box, counters=at, hand=0.3 if aim is None else 1.0,
                                          glare=glare)
        if aim is not None:
            cond = dataclasses.replace(cond, hand_cell=aim(board, scene, rng))
        shot = tabletop.render(board, scene, cond, seed)
        yield shot.save(tmp / f"tabletop_{k}"), shot.cells, shot.occluded, box


def calibration_photo(board: BoardSpec, kind: str, base: int, k: int, tmp: Path) -> Path:
    """The clean photo of the set-up that calibrates style or box ``k`` (kept when cached)."""
    seed = base + 90_000 + k
    rng = np.random.default_rng(seed)
    setup = setup_state()
    for found in sorted(tmp.glob(f"cal_{kind}_{k}.*")):
        if found.suffix != ".json":
            return found
    if kind == "render":
        return render(board, scene_of(setup), sample_real_conditions(rng, 1920, 1080, k, clean=True), seed).save(
            tmp / f"cal_{kind}_{k}")
    cond = tabletop.sample_conditions(rng, 1920, 1080, box=k, clean=True)
    return tabletop.render(board, scene_of(setup), cond, seed).save(tmp / f"cal_{kind}_{k}")


def cached_photos(cache: Path, kind: str, count: int, base: int | None = None) -> Iterator[Photo]:
    """The photos ``--cache`` rendered into ``cache`` for one renderer (dev seeds unless
    ``base`` names another range), as they were indexed."""
    index = cache / f"{kind}-{SEEDS['dev'][kind] if base is None else base}-{count}.json"
    for path, truth, occluded, group in json.loads(index.read_text(encoding="utf-8")):
        yield Path(path), truth, occluded, group


def cached(kind: str, photos: Iterator[Photo], base: int, count: int, cache: Path) -> Iterator[Photo]:
    """The photos of ``photos``, rendered once into ``cache`` and read from there afterwards
    (an index per renderer, seed range and count): the reader can be measured again and again
    on the same dev photos without paying the renderers' time."""
    index = cache / f"{kind}-{base}-{count}.json"
    if index.exists():
        yield from cached_photos(cache, kind, count, base)
        return
    kept: list[Photo] = []
    for photo in photos:
        kept.append(photo)
        yield photo
    index.write_text(json.dumps([[str(p), t, o, g] for p, t, o, g in kept]), encoding="utf-8")


def calibrations(board: BoardSpec, kind: str, base: int, tmp: Path,
                 cfg: VisionConfig | None = None) -> dict[int, Calibration | str]:
    """One calibration per style (render) or box (tabletop), from a clean photo of the set-up."""
    setup = setup_state()
    out: dict[int, Calibration | str] = {}
    for k in range(len(STYLES) if kind == "render" else BOXES):
        path = calibration_photo(board, kind, base, k, tmp)
        try:
            out[k] = calibrate(path, board, cell_contents(setup), cfg, legions=legion_labels(setup),
                               legion_at=legion_cells(setup))
        except VisionError as exc:
            out[k] = str(exc)
    return out


def cached_readings(board: BoardSpec, cache: Path, photos: int, only: str | None = None,
                    bases: dict[str, int] | None = None,
                    strict: bool = False) -> Iterator[tuple[str, Photo, Calibration | None, Reading]]:
    """Yields every dev photo rendered into ``cache`` by ``--cache`` (both renderers, or ``only``
    one), read with its calibration and without refusal: (renderer, photo, calibration,
    reading). Photos the reader cannot read at all are left out. For the fitting and diagnosis
    scripts; dev seeds only (``bases``: another dev range per renderer, as a purpose-drawn set
    such as ``bench/occlusion_set.py``'s indexes it; default the ordinary dev range)."""
    for kind, base in (bases or SEEDS["dev"]).items():
        if only and kind != only:
            continue
        cals = calibrations(board, kind, base, cache)
        for path, truth, hidden, group in cached_photos(cache, kind, photos, base):
            cal = cals.get(group)
            usable = cal if isinstance(cal, Calibration) else None
            try:
                reading = read(path, board, calibration=usable, strict=strict)
            except VisionError:
                continue
            yield kind, (path, truth, hidden, group), usable, reading


def measure(board: BoardSpec, photos: Iterator[Photo], cals: dict[int, Calibration | str],
            cfg: VisionConfig | None = None, cells: dict[str, str] | None = None,
            priors: Mapping[str, Priors] | None = None) -> dict[str, object]:
    """Reads every photo (with ``cfg``'s settings, the defaults if None) and returns the counts,
    the reliability table and the ECE. ``cells``, when given, receives each visible cell's
    reading ("photo cell" → "occupant/terrain/confidence"), and each refused photo's reason.
    ``priors``, when given, holds each photo's priors from the rules (by file stem): every photo
    is read with them, and the report says how informative they were (``prior_counts``)."""
    floor = (cfg or VisionConfig()).classify.min_confidence
    pairs: list[tuple[float, bool]] = []
    read = asked = wrong = hidden_misread = 0
    refused: dict[str, int] = {}
    wrong_cells: list[str] = []
    hidden_cells: list[str] = []
    rule_counts: dict[str, int] | None = None if priors is None else {}
    for path, truth, occluded, group in photos:
        cal = cals.get(group)
        try:
            obs = observe(path, board, cfg, calibration=cal if isinstance(cal, Calibration) else None, strict=True,
                          priors=priors[path.stem] if priors is not None else None)
        except VisionError as exc:
            reason = type(exc).__name__
            refused[reason] = refused.get(reason, 0) + 1
            if cells is not None:
                cells[path.stem] = reason
            continue
        read += 1
        if priors is not None and rule_counts is not None:
            prior_counts(obs, priors[path.stem], truth, occluded, floor, rule_counts)
        for name, cell in obs.cells.items():
            right = (cell.occupant, cell.terrain) == (truth[name]["occupant"], truth[name]["terrain"])
            sure = cell.confidence >= floor
            if name in occluded:
                if sure and not right:
                    hidden_misread += 1
                    hidden_cells.append(f"{path.stem} {name}: {cell.occupant}/{cell.terrain} at {cell.confidence:.3f}, "
                                        f"truth {truth[name]['occupant']}/{truth[name]['terrain']}")
                continue
            pairs.append((cell.confidence, right))
            if cells is not None:
                cells[f"{path.stem} {name}"] = f"{cell.occupant}/{cell.terrain}/{cell.confidence:.4f}"
            asked += not sure
            if sure and not right:
                wrong += 1
                wrong_cells.append(f"{path.stem} {name}: {cell.occupant}/{cell.terrain} at {cell.confidence:.3f}")
    out: dict[str, object] = {
        "photos_read": read, "refused": refused, **reliability(pairs), "cells_asked": asked,
        "cells_confidently_wrong": wrong, "hidden_misread": hidden_misread, "wrong_cells": wrong_cells[:40],
        "hidden_misread_cells": hidden_cells[:40]}
    if rule_counts is not None:
        out["priors"] = rule_counts
    return out


def prior_counts(obs: Observation, prior: Priors, truth: dict[str, dict[str, str | None]],
                 occluded: list[str], floor: float, counts: dict[str, int]) -> None:
    """Adds to ``counts`` one photo's figures on its priors: visible cells whose prior was
    certain (one content at probability 1), and the cells the rules decided
    (``Observation.from_rules``): how many under a hand, asked (below ``floor``), read right,
    read wrong above the floor."""
    def add(key: str, n: int) -> None:
        counts[key] = counts.get(key, 0) + n

    visible = [name for name in obs.cells if name not in occluded]
    add("cells_visible", len(visible))
    add("prior_certain", sum(max(prior.get(name, {}).values(), default=0.0) >= 1 - 1e-9 for name in visible))
    decided = [name for name in obs.from_rules if name in obs.cells]
    asked = [name for name in decided if obs.cells[name].confidence < floor]
    right = [name for name in decided if (obs.cells[name].occupant, obs.cells[name].terrain)
             == (truth[name]["occupant"], truth[name]["terrain"])]
    add("from_rules", len(decided))
    add("from_rules_hidden", sum(name in occluded for name in decided))
    add("from_rules_asked", len(asked))
    add("from_rules_right", sum(name not in asked for name in right))
    add("from_rules_wrong", len(decided) - len(set(asked) | set(right)))


def reliability(pairs: list[tuple[float, bool]]) -> dict[str, object]:
    """Returns the reliability table by decile of confidence and the expected calibration error."""
    conf = np.array([p for p, _ in pairs], np.float64)
    right = np.array([r for _, r in pairs], bool)
    rows: list[dict[str, float | int]] = []
    gap = 0.0
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        inside = (conf >= lo) & ((conf < hi) if k < 9 else (conf <= hi))
        n = int(inside.sum())
        if n == 0:
            continue
        mean, share = float(conf[inside].mean()), float(right[inside].mean())
        rows.append({"from": lo, "to": hi, "cells": n, "mean_confidence": round(mean, 5),
                     "share_right": round(share, 5)})
        gap += n * abs(mean - share)
    total = len(pairs)
    return {"cells_visible": total, "cells_right": int(right.sum()), "reliability": rows,
            "ece": round(gap / total, 5) if total else None}


def commit() -> dict[str, object]:
    """The commit measured, and whether the work tree differed from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    return {"commit": git("rev-parse", "HEAD"), "describe": git("log", "-1", "--format=%h %s"),
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60, help="Photos per renderer.")
    parser.add_argument("--seeds", choices=("dev", "eval"), default="dev")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cache", type=Path, default=None,
                        help="Keep the rendered photos in this folder and reuse them (dev seeds only).")
    parser.add_argument("--only", choices=("render", "tabletop"), default=None, help="One renderer only.")
    parser.add_argument("--config", type=Path, default=None,
                        help="A vision settings file (as the `--config` of `referee vision`) read instead of the "
                             "defaults: to measure what one setting changes.")
    args = parser.parse_args()
    cfg = VisionConfig.from_yaml(args.config) if args.config is not None else None
    if args.cache is not None and args.seeds == "eval":
        parser.error("--cache is for dev seeds: an eval run renders its photos afresh")
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    report: dict[str, object] = {"what": "reliability of the photo reader's per-cell confidence",
                                 "seeds": args.seeds, **commit(),
                                 "settings": str(args.config) if args.config is not None else "defaults",
                                 "machine": machine(),
                                 "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    sources: dict[str, Callable[[BoardSpec, int, int, Path], Iterator[Photo]]] = {
        "render": render_photos, "tabletop": tabletop_photos}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        if args.cache is not None:
            tmp = args.cache
            tmp.mkdir(parents=True, exist_ok=True)
        for kind, source in sources.items():
            if args.only and kind != args.only:
                continue
            base = SEEDS[args.seeds][kind]
            cals = calibrations(board, kind, base, tmp, cfg)
            photos = source(board, base, args.photos, tmp)
            if args.cache is not None:
                photos = cached(kind, photos, base, args.photos, tmp)
            result = measure(board, photos, cals, cfg)
            result["seeds_from"] = base
            result["photos"] = args.photos
            result["calibrations"] = {str(k): "ok" if isinstance(v, Calibration) else v for k, v in cals.items()}
            report[kind] = result
            print(f"{kind}: {json.dumps({k: v for k, v in result.items() if k not in ('wrong_cells',)})}", flush=True)
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    out = args.out or ROOT / "bench" / "out" / f"reliability-{args.seeds}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.seeds == "eval":
        history = ROOT / "bench" / "reports" / "eval-history.jsonl"
        history.parent.mkdir(parents=True, exist_ok=True)
        with history.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(report) + "\n")
    print(f"wrote {out} in {report['wall_seconds']} s")


if __name__ == "__main__":
    main()
