"""Fits ``vision.prior.OFF_RULES``, the chance a cell holds what the rules did not allow, on the
game positions of ``bench/bench_priors.py`` (dev seeds, its cache read only).

Run from the repository root:

    python bench/fit_off_rules.py --cache /tmp/w45c/cache [--photos 40] [--out FILE]

Each photo is read once from the photo alone, as the benchmark reads it (strict, with its
style's or box's calibration; a refused photo is refused whatever the priors say, the refusal
being on the photo's own confidences). The fitted trees' likelihood of every content is taken
from that reading (:func:`vision.trees.decide` on its evidence, as the reader does), and the
rules' priors are weighed in by :func:`vision.prior.combine` once per value of the grid
(``OFF_RULES`` set in this process only). For each value: the visible cells asked, read sure and
wrong, and the hidden cells (under a hand) read sure and wrong, as ``bench_priors.py`` counts them
with priors; at the reader's own value the figures are that benchmark's.

The criterion. The games are played by the rules' own bot: no cell of them lies off the rules
(``truth_outside_prior`` 0), so they cannot measure how often a real table does, and their
likelihood only grows as the share shrinks. The fit takes the most room for a table off the
rules that the rules' benefit on these photos allows: the largest value of :data:`GRID` at which
they ask no more visible cells and read no more cells sure and wrong (visible or hidden) than at
the grid's smallest value, where the rules are trusted most.

Run once (w58c, 30 November, ``bench/reports/off-rules-w58c.json``): the criterion gives 0.001,
which reads one more hidden cell sure and wrong than the reader's 0.01 (``render_1 B10``): the
smaller the share, the more a hidden cell takes the rules' likeliest content. Not adopted; the
reader's value stays, measured, not placed (``vision.prior.OFF_RULES``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_priors import SEEDS, games_of  # noqa: E402
from bench.bench_reliability import cached_photos, calibrations, commit  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_priors  # noqa: E402
from vision import prior, trees  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.pipeline import read  # noqa: E402

GRID = (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5)
"""The values tried (one, two, five a decade)."""

Cell = tuple[str, prior.Read, dict[prior.Content, float], dict[prior.Content, float], tuple[str | None, str], bool]
"""A cell of a photo read: "photo cell", the photo's reading, its likelihoods, its prior, its truth,
whether a hand hides it."""


def photo_cells(board: BoardSpec, kind: str, base: int, count: int, cache: Path) -> tuple[list[list[Cell]], int]:
    """Every photo read (its cells, with the rules' priors) and the number refused."""
    floor = VisionConfig().classify.min_confidence
    games = games_of(base, count, cache, kind)
    cals = calibrations(board, kind, base, cache)
    out: list[list[Cell]] = []
    refused = 0
    for (path, truth, occluded, group), game in zip(cached_photos(cache, kind, count, base), games, strict=True):
        cal = cals.get(group)
        try:
            got = read(path, board, calibration=cal if isinstance(cal, Calibration) else None, strict=True)
        except VisionError:
            refused += 1
            continue
        decided = trees.decide(got.evidence, board, got.lines, got.washed, got.inside, floor)
        rules = cell_priors(game.before)
        cells: list[Cell] = []
        for n, (name, r) in enumerate(got.observation.cells.items()):
            seen = dict(zip(decided.contents, map(float, decided.likelihood[n]), strict=True))
            t = truth[name]
            cells.append((f"{path.stem} {name}", (r.occupant, r.terrain, r.confidence), seen, dict(rules.get(name, {})),
                          (t["occupant"], str(t["terrain"])), name in occluded))
        out.append(cells)
    return out, refused


def figures(board: BoardSpec, photos: list[list[Cell]], share: float) -> dict[str, object]:
    """The cells asked, read sure and wrong, and hidden read sure and wrong (with their names), at
    one ``OFF_RULES``."""
    floor = VisionConfig().classify.min_confidence
    every = prior.contents(board)
    prior.OFF_RULES = share
    asked = wrong = hidden = 0
    named: list[str] = []
    for cells in photos:
        for key, reading, seen, rules, truth, occluded in cells:
            occupant, terrain, conf = prior.posterior(reading, rules, every, seen, floor) if rules else reading
            conf = round(conf, 4)
            bad = conf >= floor and (occupant, terrain) != truth
            if bad:
                named.append(f"{key}{' (hidden)' if occluded else ''}: {occupant}/{terrain} at {conf:.3f}, "
                             f"truth {truth[0]}/{truth[1]}")
            if occluded:
                hidden += bad
            else:
                asked += conf < floor
                wrong += bad
    return {"asked": asked, "wrong": wrong, "hidden_misread": hidden, "cells": named}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True, help="bench_priors.py's dev cache (read only).")
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    kept = prior.OFF_RULES
    read_by: dict[str, list[list[Cell]]] = {}
    report: dict[str, object] = {"what": "prior.OFF_RULES on the game positions' dev photos", **commit(),
                                 "machine": machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                 "reader_value": kept, "grid": list(GRID)}
    for kind, base in SEEDS["dev"].items():
        read_by[kind], refused = photo_cells(board, kind, base, args.photos, args.cache)
        report[f"{kind}_read"] = len(read_by[kind])
        report[f"{kind}_refused"] = refused
    rows = []
    for share in GRID:
        row: dict[str, object] = {"off_rules": share}
        for kind, photos in read_by.items():
            row[kind] = figures(board, photos, share)
        rows.append(row)
        print(json.dumps({k: {n: v for n, v in p.items() if n != "cells"} if isinstance(p, dict) else p
                          for k, p in row.items()}), flush=True)
    prior.OFF_RULES = kept

    def total(row: dict[str, object]) -> tuple[int, int]:
        parts = [v for k, v in row.items() if k != "off_rules" and isinstance(v, dict)]
        return (sum(int(p["asked"]) for p in parts),
                sum(int(p["wrong"]) + int(p["hidden_misread"]) for p in parts))

    floor_asked, floor_wrong = total(rows[0])
    fitted = max(float(r["off_rules"]) for r in rows  # type: ignore[arg-type]
                 if total(r)[0] <= floor_asked and total(r)[1] <= floor_wrong)
    report["rows"] = rows
    report["criterion"] = fitted
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    print(f"the criterion's OFF_RULES: {fitted} (the reader's: {kept})")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
