"""Sensitivity sweep of the settings only the per-cell decision reads (``vision.decide``).

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/sweep_decide.py --cache DIR [--photos 40] [--out FILE] [--settings a,b,...]
        [--try NAME=VALUE ...]

Each setting is set in turn to ×0.5, ×0.8, ×1.25 and ×2 its default (an integer to its default
−2…+2, a range both ends scaled; kept within its bounds), the decision replayed on every dev photo
(``bench/decide_replay.py``: the same figures as ``bench/bench_reliability.py --config``), and the
figures that differ from the defaults' are written out. A setting whose every value changes
nothing on either renderer holds nothing the dev photos can see. ``counter_share`` and
``token_share`` are left out: the evidence reads them too, which a replay does not measure again.
``--try NAME=VALUE`` replays those values only (a YAML scalar or list; ``decide.DISTRUSTED=0.35``
sets that module constant for the replay): the value that switches a rule off, a derived or
merged value. Eval seeds are never read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import commit  # noqa: E402
from bench.decide_replay import photos, score  # noqa: E402
from vision import decide  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.config import ClassifyConfig, VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402

SETTINGS = (
    "edge_type_share", "edge_type_scale", "edge_lean_clear", "edge_share_clear", "occluder_share", "hidden_line",
    "smooth_texture", "reach_cover", "reach_cover_counter", "given_cover_counter", "reach_cover_filled",
    "reach_cover_whole", "reach_cover_edges", "pure_token", "token_detail", "pure_seen", "given_lean",
    "given_lean_beyond", "given_seen_beyond", "occlusion_reach",
)
"""The settings only ``vision.decide`` reads (those still there)."""
FACTORS = (0.5, 0.8, 1.25, 2.0)


def variants(name: str) -> list[object]:
    """The values a setting is swept over (within its bounds)."""
    default = getattr(ClassifyConfig(), name)
    if isinstance(default, int):
        return [v for v in range(default - 2, default + 3) if v >= 0 and v != default]
    if isinstance(default, tuple):
        return [tuple(f * x for x in default) for f in FACTORS]
    return [f * default for f in FACTORS]


def _tried(items: list[str]) -> dict[str, list[Any]]:
    """The values of ``--try NAME=VALUE``, by name (YAML scalars or lists, safe loader)."""
    out: dict[str, list[Any]] = {}
    for item in items:
        name, _, text = item.partition("=")
        value = yaml.safe_load(text)
        out.setdefault(name, []).append(tuple(value) if isinstance(value, list) else value)
    return out


def _score_with(board: Any, shots: Any, name: str, value: Any) -> dict[str, Any]:
    """The figures with one setting (or ``decide.NAME``) at ``value``."""
    if name.startswith("decide."):
        old = getattr(decide, name[7:])
        setattr(decide, name[7:], value)
        try:
            return score(board, shots, VisionConfig())
        finally:
            setattr(decide, name[7:], old)
    return score(board, shots, VisionConfig.model_validate({"classify": {name: value}}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "sweep-decide.json")
    parser.add_argument("--settings", default=",".join(s for s in SETTINGS if s in ClassifyConfig.model_fields))
    parser.add_argument("--try", dest="tried", action="append", default=[], metavar="NAME=VALUE",
                        help="Replay this value only (repeatable); the default sweep is then skipped.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    shots = photos(board, args.cache, args.photos)
    base = score(board, shots, VisionConfig())
    print(f"defaults: {json.dumps(base)}", flush=True)
    swept: dict[str, list[dict[str, object]]] = {}
    plan = _tried(args.tried) or {name: variants(name) for name in args.settings.split(",")}
    for name, values in plan.items():
        swept[name] = []
        for value in values:
            try:
                got = _score_with(board, shots, name, value)
            except (ValueError, VisionError):
                continue  # out of the setting's bounds
            changed = {kind: {k: v for k, v in fig.items() if v != base[kind][k]} for kind, fig in got.items()}
            swept[name].append({"value": value, "changed": {k: v for k, v in changed.items() if v}})
        moved = any(row["changed"] for row in swept[name])
        print(f"{name}: {'changes' if moved else 'nothing changes'} {json.dumps(swept[name])}", flush=True)
    report = {"what": "sensitivity of the dev photos' figures to each setting only vision.decide reads",
              **commit(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "photos": args.photos, "defaults": base, "swept": swept,
              "inert": [n for n, rows in swept.items() if not any(r["changed"] for r in rows)]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
