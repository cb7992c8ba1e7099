"""Lists the cells under a hand that the reader reads sure and wrong ("hidden misreads"), with
what carries each reading: the trees' three likeliest contents, the features that describe the
hand and the piece, and (for game positions) the rules' prior of the cell; writes a crop of
each (the warped board around the cell, the cell outlined) for a look.

Run from the repository root, on a held-out dev cache (read only, nothing fitted here):

    python bench/hidden_misreads.py --set dev --cache /tmp/w41a/cache --crops /tmp/w54a/crops
    python bench/hidden_misreads.py --set priors --cache /tmp/w45c/cache --crops /tmp/w54a/crops

``--set occlusion``: the set of ``bench/occlusion_set.py`` (a hand over a piece in every photo).
``--set dev``: the photos of ``bench/bench_reliability.py`` (seeds 1000000 / 5000000), read from
the photo alone. ``--set priors``: the game positions of ``bench/bench_priors.py`` (seeds
1200000 / 5200000), each read from the photo alone and with the rules' priors of its position
before the turn; a cell is listed if either reading is sure and wrong. The report (``--out``,
JSON) has one row per cell, and per renderer the hidden cells of the photos read (from the photo
alone): how many, how many read sure, how many of those wrong; a hidden misread is what
``measure`` counts as ``hidden_misread``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_priors import games_of  # noqa: E402
from bench.bench_reliability import cached_photos, calibrations, commit  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_priors  # noqa: E402
from vision import trees  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.cell_features import feature_names, features  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import Reading, read  # noqa: E402
from vision.prior import Priors  # noqa: E402

BASES = {"dev": {"render": 1_000_000, "tabletop": 5_000_000}, "priors": {"render": 1_200_000, "tabletop": 5_200_000},
         "occlusion": {"render": 2_500_000, "tabletop": 2_600_000}}
SHOWN = ("side_share.greek", "side_share.persian", "side_lead", "terrain_share.plain", "terrain_share.forest",
         "terrain_share.hill", "token_lead", "other_share", "terrain_pixels", "on_counter", "reached",
         "reached_strict", "seen_beyond", "lean_beyond.forest", "lean_beyond.hill", "terrain_beyond.plain",
         "terrain_beyond.forest", "terrain_beyond.hill", "edge_light", "edge_light_rel", "edge_lean.forest",
         "edge_lean.hill", "line_min", "line_mean", "line_max",
         "near_other_max", "near_reached_max", "near_counters", "photo_reached")
"""The feature columns shown per cell: the piece's and terrain's colours, the hand's reach."""


def cell_index(board: BoardSpec, name: str) -> tuple[int, int]:
    """The (row, column) of a cell name such as "B9" (rows are letters, columns numbers)."""
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def crop(reading: Reading, board: BoardSpec, name: str, out: Path) -> None:
    """Writes the warped board around cell ``name`` (one cell of margin), the cell outlined."""
    w = reading.warped
    row, col = cell_index(board, name)
    ppc, pad = w.ppc, w.pad_px
    y0, x0 = pad + row * ppc, pad + col * ppc
    image = w.image.copy()
    cv2.rectangle(image, (x0, y0), (x0 + ppc - 1, y0 + ppc - 1), (0, 255, 255), 1)
    part = image[max(0, y0 - ppc):y0 + 2 * ppc, max(0, x0 - ppc):x0 + 2 * ppc]
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), cv2.resize(part, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST))


def describe(reading: Reading, board: BoardSpec, name: str) -> dict[str, object]:
    """The trees' three likeliest contents of a cell and its :data:`SHOWN` features."""
    floor = VisionConfig().classify.min_confidence
    ev, lines, washed, inside = reading.evidence, reading.lines, reading.washed, reading.inside
    decided = trees.decide(ev, board, lines, washed, inside, floor)
    i = board.cell_names().index(name)
    order = np.argsort(-decided.spread[i])[:3]
    top = [f"{decided.contents[k][0]}/{decided.contents[k][1]} {decided.spread[i, k]:.3f}" for k in order]
    x = features(ev, board, lines, washed, inside)[i]
    names = feature_names(board)
    shown = {n: None if np.isnan(x[names.index(n)]) else round(float(x[names.index(n)]), 3) for n in SHOWN}
    return {"trees_top3": top, "features": shown}


def misreads(reading: Reading, truth: dict[str, dict[str, str | None]], hidden: list[str]) -> dict[str, str]:
    """The hidden cells a reading has sure and wrong: name → "occupant/terrain at confidence"."""
    floor = VisionConfig().classify.min_confidence
    out = {}
    for name in hidden:
        cell = reading.observation.cells[name]
        right = (cell.occupant, cell.terrain) == (truth[name]["occupant"], truth[name]["terrain"])
        if cell.confidence >= floor and not right:
            out[name] = f"{cell.occupant}/{cell.terrain} at {cell.confidence:.3f}"
    return out


def reading_of(path: Path, board: BoardSpec, cal: Calibration | None, priors: Priors | None) -> Reading | None:
    """The reading of a photo as the benchmarks read it (with refusal), None if refused."""
    try:
        return read(path, board, calibration=cal, strict=True, priors=priors)
    except VisionError:
        return None


def run(board: BoardSpec, which: str, cache: Path, photos: int, crops: Path | None,
        counts: dict[str, dict[str, int]]) -> list[dict[str, object]]:
    """Every hidden misread of one set, both renderers (see the module); ``counts`` receives the
    hidden cells per renderer (cells, sure, sure and wrong, from the photo alone)."""
    rows: list[dict[str, object]] = []
    floor = VisionConfig().classify.min_confidence
    for kind, base in BASES[which].items():
        tally = counts.setdefault(kind, {"hidden_cells": 0, "sure": 0, "sure_wrong": 0})
        cals = calibrations(board, kind, base, cache)
        games = games_of(base, photos, None, kind) if which == "priors" else []
        for k, (path, truth, hidden, group) in enumerate(cached_photos(cache, kind, photos, base)):
            cal = cals.get(group)
            usable = cal if isinstance(cal, Calibration) else None
            prior = cell_priors(games[k].before) if games else None
            alone = reading_of(path, board, usable, None)
            ruled = reading_of(path, board, usable, prior) if prior is not None else None
            found = {**(misreads(alone, truth, hidden) if alone else {})}
            if alone is not None:
                tally["hidden_cells"] += len(hidden)
                tally["sure"] += sum(alone.observation.cells[n].confidence >= floor for n in hidden)
                tally["sure_wrong"] += len(found)
            with_rules = misreads(ruled, truth, hidden) if ruled else {}
            for name in sorted(set(found) | set(with_rules)):
                base_reading = alone or ruled
                assert base_reading is not None
                t = truth[name]
                row: dict[str, object] = {"photo": path.stem, "cell": name, "truth": f"{t['occupant']}/{t['terrain']}",
                                          "photo_alone": found.get(name, "right or asked"),
                                          **describe(base_reading, board, name)}
                if ruled is not None and prior is not None:
                    row["with_priors"] = with_rules.get(name, "right or asked")
                    row["prior"] = {f"{o}/{tt}": round(p, 3) for (o, tt), p in prior.get(name, {}).items()}
                    row["from_rules"] = name in ruled.observation.from_rules
                rows.append(row)
                print(json.dumps(row), flush=True)
                if crops is not None:
                    crop(base_reading, board, name, crops / f"{which}-{path.stem}-{name}.png")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("dev", "priors", "occlusion"), required=True)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--crops", type=Path, default=None, help="Folder for a PNG crop of each cell.")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    counts: dict[str, dict[str, int]] = {}
    rows = run(load_board("cyrus-pyxis"), args.set, args.cache, args.photos, args.crops, counts)
    print(json.dumps(counts))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"what": "hidden cells read sure and wrong", "set": args.set,
                                        "seeds": BASES[args.set], **commit(), "hidden": counts,
                                        "cells": rows}, indent=1) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
