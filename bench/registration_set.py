"""A dev set drawn for the registration's numbers: ladders that each stress one thing.

Run from the repository root:

    python bench/registration_set.py [--cache /tmp/w50c/regset] [--out FILE]
    python bench/registration_set.py --cache DIR --sweep FILE [--only NAME ...] [--const NAME ...]

The random dev photos of ``bench/bench_reliability.py`` are framed by four markers, sharp, lit
and large: they never reach most of the registration's numbers (``bench/sweep_registration.py``
found that only ``register.PLACE_TOLERANCE`` moves them). Here each *ladder* takes a random dev
photo of either renderer (no hand, unless the ladder is about one) and turns one condition
step by step, the rest as drawn:

- ``blur``: Gaussian σ of the lens, 0.5 to 6 px (at 1080p);
- ``dim``: the exposure, down to an eighth (the second renderer: 2^-3.5);
- ``uneven``: the light across the photo (the project renderer: its darker side down to 0.15 of
  the brighter; the second renderer: a low lamp beside the board);
- ``missing``: one or two markers not printed (the project renderer only; the second renderer
  has no such switch);
- ``hand_on_marker``: a hand's fingertips over marker 0, 1, 2 or 3;
- ``cut_off``: the board pushed past the photo's edge (``offset`` 1 to 2, of the free space);
- ``small``: the board small in the frame (``fill`` 0.42 down to 0.15 of the shorter side);
- ``tilt``: the camera tilted 0 to 65°;
- ``outline``: no markers at all (the outline path), tilted 0 to 30°;
- ``outline_check``: sixteen more photos without markers, tilted 0 to 30° by steps of 2°, kept
  out of every fit (:data:`CHECKS`): what is fitted on ``outline`` is checked there.

Two repeats per ladder (eight for the outline), each from its own seed. Seeds: :data:`SEEDS`, a dev range of this set's
own (1,700,000-1,799,999 and 5,700,000-5,799,999; calibration photos at ``+ 90_000 + k``). The
photos, their truth and an index per renderer (``regset-<kind>.json``: path, ladder, step value,
repeat, style or box) go to ``--cache``.

Each photo is then measured (``--out``, JSON with the commit): registered or refused (and why),
the registration's error against the renderer's own placement of the grid, in cells (as
``bench/sweep_registration.py`` measures it: the largest error at the grid's corners and
centre, the second renderer's lens distortion included), the measures the refusals compare
(mean and 99th-percentile grey, edge blur, cell size, the warped board's sharpness), and the
reading with the renderer's calibration (``vision.pipeline.observe``, strict): cells right,
asked and confidently wrong, or the refusal. With ``--sweep FILE`` the registration numbers are
swept on the set instead (``bench/sweep_registration.py``'s sweep: each setting or constant at
×0.5, ×0.8, ×1.25, ×2) and the report goes to FILE.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import sweep_registration as sweep_mod  # noqa: E402
from bench.bench_reliability import calibrations, commit  # noqa: E402
from bench.bench_vision import cyrus_labels, refusal_kind, setup_state  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.pipeline import observe  # noqa: E402
from vision.register import PLACE_TOLERANCE  # noqa: E402
from vision.render import STYLES, random_scene, render, sample_real_conditions  # noqa: E402

SEEDS = {"render": 1_700_000, "tabletop": 5_700_000}
"""This set's dev seed range per renderer."""
REPEATS = 2
"""Each ladder from this many random photos ..."""
OUTLINE_REPEATS = 8
"""... the outline's from this many (its printed coordinates decide the board's orientation, and
a shadow or a counter near the margin moves that decision: one photo says little)."""


def _marker_centre(board: BoardSpec, mid: int) -> tuple[float, float]:
    corners = np.array(board.markers.corners(mid))
    u, v = corners.mean(axis=0)
    return float(u), float(v)


Change = Callable[[Any, Any, BoardSpec], dict[str, Any]]
"""A ladder step: (step value, the drawn conditions, board) → fields to replace."""

LADDERS: dict[str, tuple[tuple[Any, ...], Change, Change | None]] = {
    # name: (steps, change for the project renderer, change for the second one or None)
    "blur": ((0.5, 1.5, 2.5, 3.5, 4.5, 6.0), lambda s, c, b: {"blur": s}, lambda s, c, b: {"blur": s}),
    "dim": ((1.0, 0.5, 0.35, 0.25, 0.18, 0.125),
            lambda s, c, b: {"exposure": c.exposure * s}, lambda s, c, b: {"exposure": c.exposure * s}),
    "uneven": ((0.8, 0.5, 0.35, 0.25, 0.15),
               lambda s, c, b: {"light": (s, c.light[1])},
               lambda s, c, b: {"lamp": (-6.0, -6.0, 30 * s), "lamp_share": 0.9}),
    "missing": (((), (0,), (2,), (1, 3), (0, 1)), lambda s, c, b: {"missing_markers": tuple(s)}, None),
    "hand_on_marker": ((0, 1, 2, 3),
                       lambda s, c, b: {"hands": 1, "hand_at": _marker_centre(b, s)},
                       lambda s, c, b: {"hand_cell": _marker_centre(b, s), "hand": c.hand_template}),
    "cut_off": ((1.0, 1.25, 1.5, 1.75, 2.0),
                lambda s, c, b: {"offset": (s, 0.0), "fill": 0.9, "rotation_deg": 0.0},
                lambda s, c, b: {"offset": (s, 0.0), "fill": 0.9, "rotation_deg": 0.0}),
    "small": ((0.42, 0.34, 0.28, 0.24, 0.21, 0.18, 0.15),
              lambda s, c, b: {"fill": s}, lambda s, c, b: {"fill": s}),
    "tilt": ((0.0, 25.0, 40.0, 50.0, 58.0, 65.0),
             lambda s, c, b: {"tilt_deg": s}, lambda s, c, b: {"tilt_deg": s}),
    "outline": ((0.0, 15.0, 30.0), lambda s, c, b: {"tilt_deg": s}, lambda s, c, b: {"tilt_deg": s}),
    "outline_check": (tuple(2.0 * k for k in range(16)),
                      lambda s, c, b: {"tilt_deg": s}, lambda s, c, b: {"tilt_deg": s}),
}
CHECKS = ("outline_check",)
"""Ladders kept out of every fit: a number fitted on a ladder is checked on its check."""


@dataclasses.dataclass(frozen=True)
class _Drawn:
    """The second renderer's drawn conditions, with a hand to place when a ladder asks for one."""

    cond: tabletop.TabletopConditions

    def __getattr__(self, name: str) -> Any:
        if name == "hand_template":
            return tabletop.hands.Hand(tip=(0, 0), base=(0, 0), width=0, tone=0.5, redness=0.0, lift=0.8, spread=0.5)
        return getattr(self.cond, name)


Entry = tuple[str, str, Any, int, int]
"""A photo of the set: path, ladder, step value, repeat, style or box."""


def _no_markers(board: BoardSpec) -> BoardSpec:
    return dataclasses.replace(board, markers=board.markers.model_copy(update={"placements": ()}))


def draw(board: BoardSpec, kind: str, cache: Path) -> Iterator[Entry]:
    """Renders every ladder step of one renderer into ``cache`` (kept when there)."""
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    for li, (ladder, (steps, change_render, change_tabletop)) in enumerate(LADDERS.items()):
        change = change_render if kind == "render" else change_tabletop
        if change is None:
            continue
        for rep in range(OUTLINE_REPEATS if ladder == "outline" else 1 if ladder in CHECKS else REPEATS):
            for si, step in enumerate(steps):
                seed = SEEDS[kind] + li * 1000 + rep * 100 + si
                group = (li + rep) % (len(STYLES) if kind == "render" else 4)
                out = cache / f"{kind}_{ladder}_{rep}_{si}"
                found = [p for p in cache.glob(out.name + ".*") if p.suffix != ".json"]
                if found:
                    yield str(found[0]), ladder, step, rep, group
                    continue
                rng = np.random.default_rng(seed)
                scene = random_scene(board, rng, labels, 0.3)
                if ladder.startswith("outline"):
                    scene = dataclasses.replace(scene, markers=False)
                if kind == "render":
                    cond = sample_real_conditions(rng, 1920, 1080, group, hands=0.0)
                    cond = dataclasses.replace(cond, **change(step, cond, board))
                    path = render(board, scene, cond, seed).save(out)
                else:
                    at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5)
                          for n in scene.counters]
                    cond = tabletop.sample_conditions(rng, 1920, 1080, box=group, counters=at, hand=0.0)
                    cond = dataclasses.replace(cond, **change(step, _Drawn(cond), board))
                    shown = _no_markers(board) if ladder.startswith("outline") else board
                    path = tabletop.render(shown, scene, cond, seed).save(out)
                yield str(path), ladder, step, rep, group


def measure(board: BoardSpec, kind: str, entries: list[Entry], cache: Path) -> list[dict[str, Any]]:
    """Each photo's registration (or refusal), its error in cells, the refusals' measures and
    the reading with the renderer's calibration."""
    cals = calibrations(board, kind, SEEDS[kind], cache)
    cfg = VisionConfig()
    rows: list[dict[str, Any]] = []
    for path, ladder, step, rep, group in entries:
        case = _case(Path(path), cfg)
        row: dict[str, Any] = {"photo": Path(path).stem, "ladder": ladder, "step": step, "repeat": rep,
                               **sweep_mod.outcome(case, board, cfg)}
        seen = sweep_mod.measures(case, board)
        seen.pop("found", None)
        row["measures"] = {k: round(float(v), 4) for k, v in seen.items()}
        row["reading"] = _reading(Path(path), board, cals.get(group), cfg)
        rows.append(row)
        print(kind, row["photo"], {k: row.get(k) for k in ("method", "error", "refused")}, row["reading"],
              flush=True)
    return rows


def _case(path: Path, cfg: VisionConfig) -> sweep_mod.Case:
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    cond = meta.get("conditions") or {}
    lens = (cond["k1"], cond.get("k2", 0.0), cond["fov_deg"]) if "k1" in cond else None
    return sweep_mod.Case(path.stem, read_photo(path, cfg.load), np.array(meta["homography"], np.float64), lens)


def _reading(path: Path, board: BoardSpec, cal: Calibration | str | None, cfg: VisionConfig) -> dict[str, Any]:
    truth = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    hidden = set(truth["occluded"])
    try:
        obs = observe(path, board, cfg, calibration=cal if isinstance(cal, Calibration) else None, strict=True)
    except VisionError as exc:
        return {"refused": type(exc).__name__ + ": " + str(exc).split(" (")[0][:60]}
    floor = cfg.classify.min_confidence
    right = asked = wrong = 0
    for name, cell in obs.cells.items():
        if name in hidden:
            continue
        ok = (cell.occupant, cell.terrain) == (truth["cells"][name]["occupant"], truth["cells"][name]["terrain"])
        sure = cell.confidence >= floor
        asked += not sure
        wrong += sure and not ok
        right += sure and ok
    return {"right": right, "asked": asked, "wrong": wrong}


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per ladder: photos, registered within twice ``PLACE_TOLERANCE`` of the truth, placed
    further off (beyond half a cell: turned or a line off), refused (by reason), read, and
    cells confidently wrong in the photos read."""
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        tally = out.setdefault(row["ladder"], {"photos": 0, "registered_close": 0, "registered_off": 0,
                                                "registered_wrong": 0, "refused": {}, "read": 0,
                                                "cells_wrong": 0, "cells_asked": 0})
        tally["photos"] += 1
        error = row.get("error")
        if error is None:
            text = str(row.get("refused"))
            reason = text if text.startswith("unconfirmed") else refusal_kind(text)
            tally["refused"][reason] = tally["refused"].get(reason, 0) + 1
        else:
            key = "registered_close" if error <= 2 * PLACE_TOLERANCE else "registered_off" if error < 0.5 \
                else "registered_wrong"
            tally[key] += 1
        if "right" in row["reading"]:
            tally["read"] += 1
            tally["cells_wrong"] += row["reading"]["wrong"]
            tally["cells_asked"] += row["reading"]["asked"]
    return out


def index(board: BoardSpec, kind: str, cache: Path) -> list[Entry]:
    """The set's photos of one renderer, rendered first if missing (the index is kept)."""
    path = cache / f"regset-{kind}.json"
    if path.exists():
        return [tuple(e) for e in json.loads(path.read_text(encoding="utf-8"))]  # type: ignore[misc]
    entries = list(draw(board, kind, cache))
    path.write_text(json.dumps(entries), encoding="utf-8")
    return entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w50c/regset"))
    parser.add_argument("--out", type=Path, default=None, help="Measure every photo; write the rows here.")
    parser.add_argument("--sweep", type=Path, default=None, help="Sweep the registration numbers; report here.")
    parser.add_argument("--only", nargs="*", default=None, help="Settings to sweep (default: every one).")
    parser.add_argument("--const", nargs="*", default=[], help="Module constants to sweep, e.g. register.REACH.")
    parser.add_argument("--kinds", nargs="*", default=list(SEEDS))
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    args.cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    entries = {kind: index(board, kind, args.cache) for kind in args.kinds}
    print({k: len(v) for k, v in entries.items()}, "photos", round(time.perf_counter() - started, 1), "s", flush=True)
    if args.out:
        report: dict[str, Any] = {"what": "the registration set, each photo measured", **commit(),
                                  "seeds": SEEDS, "ladders": {k: list(v[0]) for k, v in LADDERS.items()}}
        for kind in args.kinds:
            report[kind] = measure(board, kind, entries[kind], args.cache)
            report[f"{kind}_summary"] = summary(report[kind])
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.sweep:
        cases = [_case(Path(p), VisionConfig()) for kind in args.kinds for p, *_ in entries[kind]]
        names = args.only if args.only is not None else [
            f"{s}.{f}" for s in sweep_mod.SECTIONS for f, v in getattr(VisionConfig(), s).model_dump().items()
            if not isinstance(v, bool) and f"{s}.{f}" not in sweep_mod.CAPS]
        report = sweep_mod.sweep(cases, board, names + args.const)
        report |= {"what": "registration numbers swept on the registration set", **commit(),
                   "seconds": round(time.perf_counter() - started, 1)}
        args.sweep.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    print(round(time.perf_counter() - started, 1), "s")


if __name__ == "__main__":
    main()
