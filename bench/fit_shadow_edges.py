"""Fits the hard-shadow stage's two thresholds (``vision.shade.SHADOW_AGREE`` and ``HARD``) on
dev photos of both renderers.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/fit_shadow_edges.py --cache DIR [--render 120] [--tabletop 40] [--arms DIR]
    python bench/fit_shadow_edges.py --cache DIR --render 40 --measure FILE [--arms DIR] [--vary NAME=V1,V2 ...]

Truth per photo: the second renderer's photos say whether a hard shadow crosses the board
(``conditions.shadow_edge``); the project's renderer draws none (its shadows are soft bands,
and its hands have straight blurred sides). For every pair of values on a grid, it counts the
photos with a hard shadow where an edge was found (found) and the photos without one where an
edge was found (false: an arm's straight side above all). The values kept: at least ``MARGIN``
grid steps from any pair that finds a false edge, then the most shadows found, then the
nearest the middle of the pairs left. It prints
the table and the choice; the values are then written into ``vision/shade.py`` by hand, with the
date and the figures, so that the reader never reads a file of fitted values at run time.
With ``--measure`` nothing is fitted: the stage runs once with its values as they are, and the
photos whose shadow is found, missed or found where there is none are written to FILE with each
edge found (its line and step) and a digest of the relit board (two runs whose digests all agree
relit every board alike); ``--vary`` adds, for each value of a constant of
:mod:`vision.shade`, the same counts and the photos relit otherwise. The arm photos of ``ARMS``
are rendered into ``--arms`` (default the cache). Eval seeds are never read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import SEEDS  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from vision import grid_overlay as go  # noqa: E402
from vision import shade  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.debug import NullSink  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.register import register  # noqa: E402
from vision.render import random_scene, render, sample_real_conditions  # noqa: E402

ARMS = ((1004167, 1004000),)
"""Dev seeds of the project's renderer (``real`` profile, style ``(seed - base) % 3``) whose hand
reaches in with an arm's two straight, blurred sides, which look like a strip of shadow (found
while testing: none of the first dev photos has one): always part of the photos without a hard
shadow."""
MARGIN = 2
"""Grid steps kept between the values chosen and any that find a false edge (the dev photos
hold few arms: one step is within the noise of one more photo)."""
AGREE = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
HARD = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)


def boards(board: BoardSpec, cache: Path, photos: dict[str, int],
           arms: Path | None = None) -> list[tuple[str, bool, go.Warped]]:
    """Each cached dev photo's warped board (those whose board is found) and whether a hard
    shadow crosses it (the arm photos rendered into ``arms``, the cache when None)."""
    cfg = VisionConfig()
    out = []
    for kind in ("render", "tabletop"):
        index = cache / f"{kind}-{SEEDS['dev'][kind]}-{photos[kind]}.json"
        for path, _truth, _occluded, _group in json.loads(index.read_text(encoding="utf-8")):
            conditions = json.loads(Path(path).with_suffix(".json").read_text(encoding="utf-8")).get("conditions") or {}
            try:
                loaded = read_photo(Path(path), cfg.load)
                found = register(loaded.image, board, cfg.registration, NullSink())
                reg = go.refine(loaded.image, found, board, cfg.grid)
            except VisionError:
                continue
            warped = go.warp_board(loaded.image, reg, board, cfg.grid.px_per_cell, cfg.grid.pad_cells)
            out.append((Path(path).stem, bool(conditions.get("shadow_edge")), warped))
    for seed, base in ARMS:
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, cyrus_labels(setup_state()))
        shot = render(board, scene, sample_real_conditions(rng, 1920, 1080, (seed - base) % 3), seed)
        loaded = read_photo(shot.save((arms or cache) / f"arm_{seed}"), cfg.load)
        found = register(loaded.image, board, cfg.registration, NullSink())
        reg = go.refine(loaded.image, found, board, cfg.grid)
        warped = go.warp_board(loaded.image, reg, board, cfg.grid.px_per_cell, cfg.grid.pad_cells)
        out.append((f"arm_{seed}", False, warped))
    return out


def relit(board: BoardSpec, photos: list[tuple[str, bool, go.Warped]]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Each photo's edges found and relit board's digest with the stage's values as they are now,
    and the counts: boards, shadowed, found, false (an edge on a photo without a shadow), edges."""
    rows: list[dict[str, Any]] = []
    for name, has, warped in photos:
        found = shade.relight(warped, board)
        edges = [[round(e.rho, 3), round(e.theta, 5), [round(v, 4) for v in e.step]] for e in found.edges]
        rows.append({"photo": name, "shadow": has, "edges": edges,
                     "relit": hashlib.sha256(found.warped.image.tobytes()).hexdigest()[:16]})
    counts = {"boards": len(rows), "shadowed": sum(r["shadow"] for r in rows),
              "found": sum(bool(r["shadow"] and r["edges"]) for r in rows),
              "false": sum(bool(not r["shadow"] and r["edges"]) for r in rows),
              "edges": sum(len(r["edges"]) for r in rows)}
    return rows, counts


def measure(board: BoardSpec, photos: list[tuple[str, bool, go.Warped]], out: Path,
            vary: list[str] | None = None) -> None:
    """Writes, for the stage's values as they are, each photo's edges found and relit board's
    digest, and the counts: shadows found, missed, and edges found on a photo without one. Each
    ``vary`` item (``NAME=V1,V2``, a constant of :mod:`vision.shade`) is then set to each value
    in turn (and set back): its counts and the photos relit otherwise, whose shadow is lost or
    newly found, are written too."""
    rows, counts = relit(board, photos)
    print(json.dumps(counts))
    varied = []
    for item in vary or []:
        name, values = item.split("=", 1)
        kept = getattr(shade, name)
        for text in values.split(","):
            setattr(shade, name, type(kept)(float(text)) if isinstance(kept, int) else float(text))
            try:
                other, tally = relit(board, photos)
            finally:
                setattr(shade, name, kept)
            moved = [b["photo"] for a, b in zip(rows, other, strict=True) if a["relit"] != b["relit"]]
            lost = [b["photo"] for a, b in zip(rows, other, strict=True) if a["edges"] and not b["edges"]]
            new = [b["photo"] for a, b in zip(rows, other, strict=True) if b["edges"] and not a["edges"]]
            varied.append({"name": name, "value": float(text), **tally, "relit_otherwise": moved,
                           "edges_lost": lost, "edges_new": new})
            print(json.dumps(varied[-1]), flush=True)
    out.write_text(json.dumps({"counts": counts, "photos": rows, "varied": varied}, indent=1) + "\n",
                   encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--render", type=int, default=120, help="Photos of the project's renderer (cached).")
    parser.add_argument("--tabletop", type=int, default=40, help="Photos of the second renderer (cached).")
    parser.add_argument("--arms", type=Path, default=None, help="Where the arm photos are rendered (the cache).")
    parser.add_argument("--measure", type=Path, default=None, help="Measure the values as they are into FILE.")
    parser.add_argument("--vary", nargs="*", default=[], metavar="NAME=V1,V2",
                        help="With --measure: each value of a vision.shade constant in turn, against the kept one.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    photos = boards(board, args.cache, {"render": args.render, "tabletop": args.tabletop}, args.arms)
    shadowed = sum(1 for _, s, _ in photos if s)
    print(f"{len(photos)} boards found, {shadowed} with a hard shadow")
    if args.measure is not None:
        measure(board, photos, args.measure, args.vary)
        return
    table: dict[tuple[float, float], tuple[int, int]] = {}
    for agree in AGREE:
        for hard in HARD:
            shade.SHADOW_AGREE, shade.HARD = agree, hard
            found = false = 0
            for _name, has, warped in photos:
                edges = shade.relight(warped, board).edges
                found += has and bool(edges)
                false += (not has) and bool(edges)
            table[(agree, hard)] = (found, false)
            print(f"agree {agree:.2f} hard {hard:.2f}: found {found}/{shadowed}, false {false}", flush=True)
    bad = [(AGREE.index(k[0]), HARD.index(k[1])) for k, v in table.items() if v[1] > 0]

    def margin(k: tuple[float, float]) -> int:
        at = (AGREE.index(k[0]), HARD.index(k[1]))
        return min((max(abs(at[0] - b[0]), abs(at[1] - b[1])) for b in bad), default=len(AGREE) + len(HARD))

    safe = {k: v for k, v in table.items() if margin(k) >= MARGIN}
    best = max(v[0] for v in safe.values())
    tied = [k for k, v in safe.items() if v[0] == best]
    widest = min(margin(k) for k in tied)
    mid = (float(np.median([k[0] for k in tied])), float(np.median([k[1] for k in tied])))
    choice = min(tied, key=lambda k: abs(k[0] - mid[0]) + abs(k[1] - mid[1]))
    print(f"choice: SHADOW_AGREE {choice[0]}, HARD {choice[1]} (found {best}/{shadowed}, "
          f"at least {widest} grid steps from a false edge; {len(tied)} pairs tie)")


if __name__ == "__main__":
    main()
