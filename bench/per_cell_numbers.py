"""The per-cell part's tunable numbers, one by one: which cells and photos moving each one changes.

Run from the repository root (the cached dev photos of ``bench/bench_reliability.py --seeds dev
--photos 40 --cache DIR`` must be rendered; the cache is only read):

    python bench/per_cell_numbers.py [--photos 10] [--start 0] [--only NAME ...] [--out FILE]

Every number classed ``tunable`` in the per-cell part by ``tools/vision_tunables.py`` that can be
set from outside the reader is moved in turn (a real value to half and twice, a count one step
each way, each end of a pair to half and twice; :func:`moves`) with the fitted trees as they are,
and the cached dev photos ``--start`` to ``--photos`` of each renderer are read as the reliability bench
reads them (``observe``, strict, each photo with its style's or box's calibration, calibrated
once with the defaults). A setting goes through ``VisionConfig``; a module constant is set in this
script's own process, in its module (none of those moved is imported by name elsewhere) and with
the constants derived from it at import (:data:`DERIVED`), and put back afterwards. For each move the
report lists the visible and hidden cells whose reading (occupant, terrain) changed, the cells
that crossed the ask floor (:data:`FLOOR`) either way, and the photos whose refusal changed.
Numbers this script cannot reach without changing the reader are listed in :data:`SKIPPED`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pydantic import ValidationError  # noqa: E402

from bench.bench_reliability import SEEDS, cached_photos, calibrations, commit  # noqa: E402
from vision import (  # noqa: E402
    colours,
    evidence,
    occluders,
    pipeline,
    prior,
    shade,
    trees,
)
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import observe  # noqa: E402

FLOOR = 0.9
"""The ask floor: a cell read below it is asked (``classify.min_confidence``'s value on main,
held fixed here so that moving that setting shows only what it does inside the reader)."""

MODULES: dict[str, Any] = {"colours": colours, "evidence": evidence, "occluders": occluders,
                           "pipeline": pipeline, "prior": prior, "shade": shade, "trees": trees}

DERIVED: dict[str, tuple[str, Any]] = {
    "occluders.FILTER": ("BLOB_EDGE", lambda f: 2 * (f // 2 + f // 2) + 1),
}
"""Constants computed from another at import: recomputed with it (same module)."""

SCALED_COUNTS = frozenset({"classify.adapt_min_pixels"})
"""Whole numbers that are sizes (pixels), moved to half and twice rather than one step."""

PRIORS_ONLY = frozenset({"prior.OFF_RULES", "trees.LIKELIHOOD_TEMPERATURE"})
"""Numbers read only when a photo is read with the rules' priors (the dev photos are not)."""

SKIPPED: dict[str, str] = {
    "trees.REFUSE_WEIGHTS": "a fitted model (the photo refusal's weights), not one number",
    "colours.CONNECTIVITY": "a choice of two (4 or 8), not a value to halve or double (w56c, the lead measured both)",
}

NUMBERS: tuple[str, ...] = (
    "classify.min_confidence", "classify.max_unreadable", "classify.default_pixel_sd",
    "classify.drift_sd", "classify.min_photo_sd", "classify.pixel_sigma", "classify.adapt_rounds",
    "classify.adapt_min_pixels", "classify.adapt_max_blob", "classify.counter_disc",
    "classify.counter_share", "classify.terrain_square", "classify.lean_min",
    "classify.lean_perp", "classify.edge_band_from", "classify.edge_light_skip",
    "classify.occluder_light", "classify.reach_band", "classify.line_dip",
    "classify.reach_colour", "classify.min_separation",
    "classify.occluder_margin", "classify.occluder_alpha", "classify.occluder_rival",
    "classify.occluder_fringe", "classify.occluder_thin",
    "classify.occluder_thin_ring", "classify.token_cell_ratio",
    "classify.token_cell_gap",
    "classify.edge_unmix", "classify.occluder_local_gap",
    "colours.MODE_WINDOW", "occluders.FILTER",
    "prior.OFF_RULES", "shade.MARGIN", "shade.SHADOW_AGREE", "shade.MIN_STEP",
    "shade.HARD", "shade.EDGE_TOLERANCE", "trees.LIKELIHOOD_TEMPERATURE", "trees.REFUSE_AT",
)
"""The per-cell tunable numbers of ``tools/vision_tunables.py`` less :data:`SKIPPED` (68 when
w55a measured them; w56a removed ``evidence.FEWEST``, ``classify.edge_outline_reach``,
``classify.token_share``; w56b derived or removed ``shade.Q``, ``INSET``, ``SHORTEST``,
``REFINE_DEGREES`` and classed ``shade.shadow_edges``' 180 as math; ``REFINE_STEP`` became
``shade.REFINE_SPLIT``; w56c merged ``classify.hidden_line`` and
``classify.token_cell_ratio_edges`` into ``classify.token_cell_ratio``,
derived ``classify.occluder_thin_near`` and ``classify.occluder_thin_edge`` as
``occluders.RING_NEAR`` and ``EDGE_STRIP``, removed ``classify.blend_sd``, and made
``occluders._joined``'s 8-connectivity 4, as every blob of the finder; w57a derived
``classify.occluder_window`` as ``colours.BAND_TO`` and ``occluders.LOCAL_GREY`` from the
printed line's width, ``grid_overlay.LINE_CELLS``, and ``classify.reach_area`` as the band's
depth times ``classify.occluder_thin``; w58c made a glared cell one with most of its pixels
washed out, ``pipeline.GLARE_SHARE`` gone, and a photo not the board where most of its cells
show neither it nor its pieces, ``classify.max_not_board`` gone, and derived ``shade.REFINE_SPLIT``
as the warp's pixels in one Hough offset bin and ``shade._region_offsets``' 0.6 as
``board.PAPER_PERCENTILE``; w58b derived ``classify.min_pixel_light`` from
``classify.min_photo_sd`` and 8-bit rounding: it moves with that
setting; and merged ``classify.max_drift`` into ``colours.MODE_WINDOW``, the reach of a class's
colour, ``colours.class_reach``)."""

DECIDES: dict[str, str] = {
    "classify.min_confidence": "the unreadable count a photo is refused on",
    "classify.max_unreadable": "refuse a photo: share of cells unreadable",
    "classify.default_pixel_sd": "a class's spread without calibration",
    "classify.drift_sd": "spread added to a calibrated class",
    "classify.min_photo_sd": "floor on a class's spread in the photo",
    "classify.pixel_sigma": "spreads past which a pixel fits no class",
    "classify.adapt_rounds": "rounds re-centring the classes",
    "classify.adapt_min_pixels": "pixels a class needs to re-centre",
    "classify.adapt_max_blob": "a piece-coloured patch too large to be a piece",
    "classify.counter_disc": "central disc a counter is looked for in",
    "classify.counter_share": "disc share that makes a counter",
    "classify.terrain_square": "inner square terrain is sampled in",
    "classify.lean_min": "a pixel's lean toward a token (from)",
    "classify.lean_perp": "a pixel's lean toward a token (off the line)",
    "classify.edge_band_from": "where the band past a counter starts",
    "classify.edge_light_skip": "the band's brightness: how far out",
    "classify.occluder_light": "bright unfitted pixels count as occluder",
    "classify.reach_band": "band around the grid an occluder reaches in by",
    "classify.line_dip": "printed lines parting occluder blobs",
    "classify.reach_colour": "an occluder's colours: least share",
    "classify.min_separation": "calibration refuses classes this close",
    "classify.occluder_margin": "margin left out around an occluder",
    "classify.occluder_alpha": "covered pixel at an occluder's edge",
    "classify.occluder_rival": "a piece colour too near the occluder's",
    "classify.occluder_fringe": "an occluder's soft edge, its width",
    "classify.occluder_thin": "thin occluder parts ringing a counter",
    "classify.occluder_thin_ring": "that ring's share of the band",
    "classify.token_cell_ratio": "a covered cell given back as a token",
    "classify.token_cell_gap": "the same: token and occluder colours apart",
    "classify.edge_unmix": "the band's lean with the counter taken out",
    "classify.occluder_local_gap": "a near piece colour told by its window",
    "colours.MODE_WINDOW": "reach of a class's colour (calibration's mode, a photo's move)",
    "occluders.FILTER": "mean and opening side of the board mask",
    "prior.OFF_RULES": "chance a cell holds what the rules exclude",
    "shade.MARGIN": "border kept around the grid (shadows)",
    "shade.SHADOW_AGREE": "a shadow edge's agreeing share",
    "shade.MIN_STEP": "a shadow edge's least step",
    "shade.HARD": "a shadow edge's sharpness",
    "shade.EDGE_TOLERANCE": "a shadow sample agreeing with the step",
    "trees.LIKELIHOOD_TEMPERATURE": "the likelihood the priors weigh",
    "trees.REFUSE_AT": "the photo refusal's threshold",
}
"""What each number decides, in a few words (its docstring in the reader says it in full)."""

Cells = dict[str, Any]


def current(name: str) -> Any:
    """The value a number has in the reader."""
    module, ident = name.split(".")
    if module in MODULES:
        return getattr(MODULES[module], ident)
    return getattr(getattr(VisionConfig(), module), ident)


def moves(name: str) -> list[Any]:
    """The values tried: half and twice a real value (or a size), one step each way for a count,
    each end of a pair to half and twice with the other end kept."""
    value = current(name)
    if isinstance(value, tuple):
        lo, hi = value
        return [(lo / 2, hi), (lo * 2, hi), (lo, hi / 2), (lo, hi * 2)]
    if isinstance(value, int) and name not in SCALED_COUNTS:
        return [value - 1, value + 1]
    if isinstance(value, int):
        return [max(1, value // 2), value * 2]
    return [value / 2, value * 2]


def set_const(name: str, value: Any) -> Any:
    """Sets a module constant (and the constants derived from it); returns the old value."""
    module, ident = name.split(".")
    old = getattr(MODULES[module], ident)
    setattr(MODULES[module], ident, value)
    if name in DERIVED:
        derived, rule = DERIVED[name]
        setattr(MODULES[module], derived, rule(value))
    return old


def photos(cache: Path, count: int, start: int = 0) -> Iterator[tuple[str, Path, list[str], int]]:
    """The cached dev photos ``start`` to ``count`` (excluded) of each renderer: (renderer, path,
    hidden cells, group)."""
    for kind, base in SEEDS["dev"].items():
        for k, (path, _truth, hidden, group) in enumerate(cached_photos(cache, kind, 40, base)):
            if start <= k < count:
                yield kind, path, hidden, group


def run(board: BoardSpec, shots: list[tuple[str, Path, list[str], int]],
        cals: dict[str, dict[int, Calibration | str]], name: str | None, value: Any) -> Cells:
    """Every photo read with one number moved (none: the defaults): per photo, its refusal or
    each cell's (occupant, terrain, asked) and whether it is hidden."""
    cfg = VisionConfig()
    old = None
    if name is not None and name.split(".")[0] in MODULES:
        old = set_const(name, value)
    elif name is not None:
        section, field = name.split(".")
        cfg = VisionConfig.model_validate(
            {**cfg.model_dump(), section: {**getattr(cfg, section).model_dump(), field: value}})
    try:
        out: Cells = {}
        for kind, path, hidden, group in shots:
            cal = cals[kind].get(group)
            try:
                obs = observe(path, board, cfg, calibration=cal if isinstance(cal, Calibration) else None, strict=True)
            except VisionError as exc:
                out[path.stem] = f"{type(exc).__name__}: {exc}"  # the message names the reason
                continue
            out[path.stem] = {c: (r.occupant, r.terrain, r.confidence < FLOOR, c in hidden)
                              for c, r in obs.cells.items()}
        return out
    finally:
        if old is not None:
            set_const(name or "", old)


def compare(base: Cells, other: Cells) -> dict[str, Any]:
    """Cells whose reading changed, cells that crossed the floor, photos whose refusal changed."""
    changed: list[str] = []
    crossed: list[str] = []
    refusals: list[str] = []
    for photo, was in base.items():
        now = other[photo]
        if isinstance(was, str) or isinstance(now, str):
            if was != now:
                refusals.append(f"{photo}: {was if isinstance(was, str) else 'read'} -> "
                                f"{now if isinstance(now, str) else 'read'}")
            continue
        for cell, (occ, ter, asked, hidden) in was.items():
            n_occ, n_ter, n_asked, _ = now[cell]
            where = f"{photo} {cell}{' (hidden)' if hidden else ''}"
            if (occ, ter) != (n_occ, n_ter):
                changed.append(f"{where}: {occ}/{ter} -> {n_occ}/{n_ter}")
            if asked != n_asked:
                crossed.append(f"{where}: {'asked -> sure' if asked else 'sure -> asked'}")
    return {"cells_changed": changed, "cells_crossed": crossed, "refusals_changed": refusals,
            "moved": bool(changed or crossed or refusals)}


def _count(move: dict[str, Any]) -> str:
    if "rejected" in move:
        return "rejected"
    return f"{len(move['cells_changed'])} / {len(move['cells_crossed'])} / {len(move['refusals_changed'])}"


def table(first: Path, rest: Path | None) -> None:
    """Prints the Markdown table of a first run (and of the rest of the photos, where run)."""
    one = json.loads(first.read_text(encoding="utf-8"))["numbers"]
    two = json.loads(rest.read_text(encoding="utf-8"))["numbers"] if rest else {}
    print("| number | value | decides | moved to: changed / crossed / refusals (first 10) "
          "| photos 11-40 of each (where the first 10 moved nothing) |")
    print("|---|---|---|---|---|")
    for name, entry in one.items():
        moved = "; ".join(f"{v}: {_count(m)}" for v, m in entry["moves"].items())
        later = two.get(name)
        after = ("; ".join(f"{v}: {_count(m)}" for v, m in later["moves"].items()) if later
                 else "priors only: not run" if name in PRIORS_ONLY else "")
        print(f"| `{name}` | {entry['value']} | {DECIDES.get(name, '')} | {moved} | {after} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w41a/cache"))
    parser.add_argument("--photos", type=int, default=10, help="The first N dev photos of each renderer.")
    parser.add_argument("--start", type=int, default=0, help="Skip the first N photos of each renderer.")
    parser.add_argument("--only", nargs="*", default=None, help="These numbers only (default: all).")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--table", type=Path, nargs="+", default=None,
                        help="Print the Markdown table of a first report (and of the rest's) and stop.")
    args = parser.parse_args()
    if args.table:
        table(args.table[0], args.table[1] if len(args.table) > 1 else None)
        return
    board = load_board("cyrus-pyxis")
    started = time.perf_counter()
    shots = list(photos(args.cache, args.photos, args.start))
    cals = {kind: calibrations(board, kind, base, args.cache) for kind, base in SEEDS["dev"].items()}
    base = run(board, shots, cals, None, None)
    report: dict[str, Any] = {
        "what": "the per-cell part's tunable numbers moved one by one, on the cached dev photos",
        **commit(), "photos_per_renderer": [args.start, args.photos], "floor": FLOOR, "skipped": SKIPPED,
        "refused_at_defaults": sorted(p for p, r in base.items() if isinstance(r, str)), "numbers": {}}
    print("defaults read", round(time.perf_counter() - started, 1), "s", flush=True)
    for name in args.only or NUMBERS:
        entry: dict[str, Any] = {"value": current(name), "moves": {}}
        for value in moves(name):
            try:
                other = run(board, shots, cals, name, value)
            except ValidationError as exc:
                entry["moves"][str(value)] = {"rejected": str(exc).splitlines()[0]}
                continue
            result = compare(base, other)
            entry["moves"][str(value)] = result
            print(f"{name} = {value}: {len(result['cells_changed'])} changed, {len(result['cells_crossed'])} "
                  f"crossed, {len(result['refusals_changed'])} refusals", flush=True)
        entry["moved"] = any(m.get("moved", False) for m in entry["moves"].values())
        report["numbers"][name] = entry
        report["seconds"] = round(time.perf_counter() - started, 1)
        if args.out:
            args.out.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    print(report.get("seconds"), "s")


if __name__ == "__main__":
    main()
