"""Measures the cause a photo's refusal names (a hand, a glare, the photo itself, not the board)
against what the renderer drew over it.

A refusal tells the player what to fix: "a hand hides 38 of them" sends them looking for a hand,
"a glare washes out 12" to the lamp. Both renderers record what they drew (the cells under a
hand; the second renderer also its hand and its glare), so the cause named can be checked. Run
from the repository root on the dev photos already rendered by the three benches:

    python bench/refusal_reasons.py --dev /tmp/w41a/cache --games /tmp/w45c/cache \\
        --occlusion /tmp/w46a/cache [--photos 40] [--out FILE]

Every photo is read once, not strictly, with its calibration; :func:`vision.pipeline.refusal`
(the reader's own) says whether and why it would be refused. A cause is **drawn** when the
renderer drew it (a hand: cells under one, or the second renderer's hand record; a glare: its
glare record), **not drawn** otherwise; "the photo itself" and "not the board" name nothing
drawn and are counted apart, with what the scene did draw. The game positions' photos are read
without the rules' priors: the refusal comes before them. Dev seeds only (the caches' ranges).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import bench_priors, occlusion_set  # noqa: E402
from bench.bench_reliability import SEEDS, cached_readings, commit  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.pipeline import refusal  # noqa: E402

SETS = {"dev": SEEDS["dev"], "games": bench_priors.SEEDS["dev"], "occlusion": occlusion_set.SEEDS}
"""Each set's dev seed ranges, as its own bench draws them."""


def drawn(path: Path) -> dict[str, bool]:
    """What the renderer drew over the photo at ``path`` (its truth file beside it)."""
    truth = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    conditions = truth.get("conditions") or {}
    hand = conditions.get("hand")
    return {
        "hand": bool(truth.get("occluded")) or bool(hand and hand.get("width", 0) > 0),
        "glare": conditions.get("glare") is not None,
    }


def refusals(board: BoardSpec, cache: Path, bases: dict[str, int], photos: int) -> Iterator[dict[str, Any]]:
    """Every photo of one set the reader refuses after reading its cells: its name, the cause
    named, its count, and what was drawn."""
    cfg = VisionConfig()
    names = board.cell_names()
    # photos refused before their cells are read (registration) are left out: no cause to name
    for _kind, (path, _truth, _hidden, _group), _cal, reading in cached_readings(board, cache, photos, bases=bases):
        why = refusal(reading.observation.unreadable, reading.evidence.reached, reading.washed, names,
                      cfg.classify.max_unreadable, reading.doubted, reading.white)
        if why is None:
            continue
        yield {"photo": path.stem, "cause": why.cause, "count": why.count,
               "unreadable": len(why.unreadable), "drawn": drawn(path),
               "inputs": {"unreadable": list(why.unreadable), "doubted": reading.doubted,
                          "reached": _rounded(reading.evidence.reached, len(names)),
                          "washed": _rounded(reading.washed, len(names))}}


def _rounded(values: Any, n: int) -> list[float]:
    return [0.0] * n if values is None else [round(float(v), 4) for v in values]


def score(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Counts of the hands and glares named that were drawn and not drawn, of the photos said
    overexposed (their paper clipped: a fact of the photo's pixels, not of what was drawn; what
    was drawn is listed with each), and of refusals naming none."""
    out = {"refusals": len(rows), "named": 0, "named_drawn": 0, "named_not_drawn": 0, "overexposed": 0,
           "unnamed": 0, "unnamed_with_hand_or_glare": 0}
    for row in rows:
        if row["cause"] in ("hand", "glare"):
            out["named"] += 1
            out["named_drawn" if row["drawn"][row["cause"]] else "named_not_drawn"] += 1
        elif row["cause"] == "overexposed":
            out["overexposed"] += 1
        else:
            out["unnamed"] += 1
            out["unnamed_with_hand_or_glare"] += any(row["drawn"].values())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dev", type=Path, required=True, help="bench_reliability.py's --cache")
    parser.add_argument("--games", type=Path, required=True, help="bench_priors.py's --cache")
    parser.add_argument("--occlusion", type=Path, required=True, help="occlusion_set.py's --cache")
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None, help="write the report (JSON) here")
    parser.add_argument("--inputs", type=Path, default=None,
                        help="also write each refusal's inputs (cells unsure, shares per cell) here, to replay")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    report: dict[str, Any] = {"what": "the cause each refusal names against what the renderer drew",
                              "commit": commit(), "machine": machine(), "sets": {}}
    caches = {"dev": args.dev, "games": args.games, "occlusion": args.occlusion}
    every: list[dict[str, Any]] = []
    inputs: dict[str, Any] = {}
    for name, bases in SETS.items():
        rows = list(refusals(board, caches[name], bases, args.photos))
        every += rows
        inputs[name] = {row["photo"]: row.pop("inputs") for row in rows}
        report["sets"][name] = {"score": score(rows), "refusals": rows}
        print(name, json.dumps(score(rows)))
        for row in rows:
            print(f"  {row['photo']}: {row['cause']} {row['count']} of {row['unreadable']} unsure;",
                  f"drawn {row['drawn']}")
    report["score"] = score(every)
    print("all", json.dumps(report["score"]))
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.inputs is not None:
        args.inputs.write_text(json.dumps(inputs) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
