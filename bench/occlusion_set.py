"""Renders a dev set drawn for the occlusion question: in every photo a hand reaches over a cell
holding a counter or a token, its fingertips placed at a random point of that cell or just
beyond it, so that the cells around the fingertips (pieces on them more often than on the
ordinary dev photos) are covered from a sliver to most of their area.

Run from the repository root:

    python bench/occlusion_set.py [--cache /tmp/w46a/cache] [--photos 40] [--measure OUT]

Both renderers, as ``bench/bench_reliability.py`` draws their photos (same conditions, same
calibrations per style or box, from a clean photo of the set-up), except: more counters on the
board (:data:`OCCUPIED` of the cells instead of 0.3), a hand in every photo, its fingertips over
a piece. Seeds: :data:`SEEDS`, a dev range of its own (the ordinary dev photos start at 1000000
and 5000000, the eval ones at 3000000 and 6000000: never read here). The photos and their index
go to ``--cache`` as ``--cache`` of ``bench/bench_reliability.py`` keeps them, so the fitting
and diagnosis scripts read them with ``bases=SEEDS``.
With ``--measure OUT``, the cached set is read instead (a renderer's photos rendered first if
its index is missing) as ``bench/bench_reliability.py``'s ``measure`` reads the dev photos, and
the figures per renderer (with ``hidden_misread``: cells under a hand read wrong with
confidence) go to OUT as JSON with the commit measured.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import (  # noqa: E402
    cached,
    cached_photos,
    calibrations,
    commit,
    measure,
    render_photos,
    tabletop_photos,
)
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.render_scene import Scene  # noqa: E402

SEEDS = {"render": 2_500_000, "tabletop": 2_600_000}
"""This set's dev seed range per renderer (calibration photos at ``+ 90_000 + k``, as for the
ordinary dev photos)."""
OCCUPIED = 0.5
"""Share of the cells holding a counter (the ordinary dev photos: 0.3)."""
REACH = 0.75
"""The fingertips lie up to this many cells from the piece cell's centre, along each axis: inside
the cell or just past its edge, so the cover of that cell and its neighbours spreads."""


def _fingertips(board: BoardSpec, scene: Scene, rng: np.random.Generator) -> tuple[float, float]:
    """A board point (u, v) near the centre of a random cell holding a counter or a token."""
    names = board.cell_names()
    pieces = sorted(set(scene.counters) | set(scene.terrain))
    i = names.index(pieces[int(rng.integers(0, len(pieces)))])
    du, dv = rng.uniform(-REACH, REACH, 2)
    return float(i % board.cols + 0.5 + du), float(i // board.cols + 0.5 + dv)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w46a/cache"))
    parser.add_argument("--photos", type=int, default=40, help="Photos per renderer.")
    parser.add_argument("--measure", type=Path, default=None, help="Read the cached set; write the figures here.")
    parser.add_argument("--config", type=Path, default=None,
                        help="A vision settings file read instead of the defaults (as bench_reliability's).")
    parser.add_argument("--bases", type=int, nargs=2, default=None, metavar=("RENDER", "TABLETOP"),
                        help="Another seed range per renderer (training photos drawn alike, e.g. 1600000 "
                             "5600000 for bench/fit_cell_trees.py); default SEEDS.")
    parser.add_argument("--glare", type=float, default=0.3,
                        help="Share of the second renderer's photos with a glare (training photos only).")
    args = parser.parse_args()
    seeds = SEEDS if args.bases is None else {"render": args.bases[0], "tabletop": args.bases[1]}
    if args.glare != 0.3 and args.bases is None:
        parser.error("--glare draws another set: give its --bases")
    cfg = VisionConfig.from_yaml(args.config) if args.config is not None else None
    board = load_board("cyrus-pyxis")
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.measure:
        report: dict[str, object] = {"what": "the occlusion set read as bench_reliability's measure", **commit()}
        for kind, base in seeds.items():
            if not (args.cache / f"{kind}-{base}-{args.photos}.json").exists():
                draw(board, kind, base, args)
            report[kind] = measure(board, cached_photos(args.cache, kind, args.photos, base),
                                   calibrations(board, kind, base, args.cache), cfg)
            print(f"{kind}: {json.dumps(report[kind])}", flush=True)
        args.measure.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        return
    for kind, base in seeds.items():
        draw(board, kind, base, args)


def draw(board: BoardSpec, kind: str, base: int, args: argparse.Namespace) -> None:
    """Renders (or finds cached) the set's photos of one renderer and says what they hide."""
    source = render_photos if kind == "render" else tabletop_photos
    calibrations(board, kind, base, args.cache)
    hidden = pieces = 0
    if kind == "tabletop" and args.glare != 0.3:
        drawn = tabletop_photos(board, base, args.photos, args.cache, occupied=OCCUPIED, aim=_fingertips,
                                glare=args.glare)
    else:
        drawn = source(board, base, args.photos, args.cache, occupied=OCCUPIED, aim=_fingertips)
    for _path, truth, occluded, _group in cached(kind, drawn, base, args.photos, args.cache):
        hidden += len(occluded)
        pieces += sum(1 for n in occluded if truth[n]["occupant"] or truth[n]["terrain"] != board.terrains[0])
    print(f"{kind}: {args.photos} photos from seed {base}, {hidden} cells under a hand, {pieces} of them "
          f"holding a piece", flush=True)


if __name__ == "__main__":
    main()
