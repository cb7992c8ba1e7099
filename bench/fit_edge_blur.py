"""Fits the blur measure's two numbers (``register._S_FINE``, ``register._EDGE_SHARE``) on photos
whose lens blur is known.

Run from the repository root:

    python bench/fit_edge_blur.py [--regset /tmp/w50c/regset] [--blurred DIR] --out FILE

:func:`vision.register.edge_blur` estimates a photo's blur (the Gaussian σ, in photo pixels)
from the ratio of its strongest edges' gradients at a fine and a coarse scale; the photo is
refused as blurred above ``registration.max_blur_px``. Its fine scale and the share of pixels
taken as the strongest edges were set by hand. Here each pair of a grid is tried on the
registration set's ``blur`` ladders (both renderers, σ 0.5-6 px; read from ``--regset``, never
written) and on ``--draw`` more photos per renderer drawn into ``--blurred`` (random dev scenes
and conditions, lens blur σ 1-8 px; seeds 1,760,000 + k and 5,760,000 + k, this script's
own). Criterion: the median of |log(estimate / σ)| over the photos of σ ≥ 1.5 px (below that
the measure stands at its own floor, about 1 px), each pair reported with the photos it would
refuse at ``max_blur_px`` (so a change of outcome shows).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import commit  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from vision import register, tabletop  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.render import random_scene, render, sample_real_conditions  # noqa: E402

FINE = (0.7, 1.0, 1.4)
SHARES = (0.001, 0.003, 0.01)


def photos(regset: Path, blurred: Path) -> list[tuple[str, float, Path]]:
    """(name, true σ, path) of every photo of known blur."""
    out = []
    for kind in ("render", "tabletop"):
        for path, ladder, step, *_ in json.loads((regset / f"regset-{kind}.json").read_text(encoding="utf-8")):
            if ladder == "blur":
                out.append((Path(path).stem, float(step), Path(path)))
    if blurred.is_dir():
        for meta in sorted(blurred.glob("*.json")):
            found = [p for p in blurred.glob(meta.stem + ".*") if p.suffix != ".json"]
            blur = json.loads(meta.read_text(encoding="utf-8")).get("conditions", {}).get("blur")
            if found and blur is not None:
                out.append((meta.stem, float(blur), found[0]))
    return out


SEEDS = {"render": 1_760_000, "tabletop": 5_760_000}


def draw(out: Path, count: int) -> None:
    """Renders ``count`` photos per renderer of known lens blur into ``out`` (kept when there)."""
    board = load_board("cyrus-pyxis")
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    for kind, base in SEEDS.items():
        for k in range(count):
            stem = out / f"{kind}_blurred_{k}"
            if list(out.glob(stem.name + ".*")):
                continue
            rng = np.random.default_rng(base + k)
            scene = random_scene(board, rng, labels, 0.3)
            sigma = float(rng.uniform(1.0, 8.0))
            if kind == "render":
                cond = dataclasses.replace(sample_real_conditions(rng, 1920, 1080, k % 3, hands=0.0), blur=sigma)
                render(board, scene, cond, base + k).save(stem)
            else:
                at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
                tcond = tabletop.sample_conditions(rng, 1920, 1080, box=k % 4, counters=at, hand=0.0)
                tabletop.render(board, scene, dataclasses.replace(tcond, blur=sigma), base + k).save(stem)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regset", type=Path, default=Path("/tmp/w50c/regset"))
    parser.add_argument("--blurred", type=Path, default=Path("/tmp/w51c/blurred"))
    parser.add_argument("--draw", type=int, default=20, help="Photos drawn per renderer into --blurred.")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    cfg = VisionConfig()
    args.blurred.mkdir(parents=True, exist_ok=True)
    draw(args.blurred, args.draw)
    limit = cfg.registration.max_blur_px
    greys = [(name, sigma, np.asarray(cv2.cvtColor(read_photo(path, cfg.load).image, cv2.COLOR_BGR2GRAY), np.uint8))
             for name, sigma, path in photos(args.regset, args.blurred)]
    defaults = (register._S_FINE, register._EDGE_SHARE)
    rows: list[dict[str, Any]] = []
    for fine in FINE:
        for share in SHARES:
            register._S_FINE, register._EDGE_SHARE = fine, share
            est = {name: register.edge_blur(grey, limit) for name, _, grey in greys}
            errors = [abs(float(np.log(max(est[name], 1e-3) / sigma))) for name, sigma, _ in greys if sigma >= 1.5]
            rows.append({"fine": fine, "share": share, "median_log_error": round(float(np.median(errors)), 4),
                         "refused": sorted(name for name in est if est[name] > limit),
                         "estimates": {name: round(v, 3) for name, v in est.items()}})
            print(fine, share, rows[-1]["median_log_error"], len(rows[-1]["refused"]), flush=True)
    register._S_FINE, register._EDGE_SHARE = defaults
    best = min(rows, key=lambda r: r["median_log_error"])
    report = {"what": "the blur measure's fine scale and edge share, fitted on photos of known blur", **commit(),
              "photos": {name: sigma for name, sigma, _ in greys}, "criterion": "median |log(estimate / sigma)|, "
              "sigma >= 1.5 px", "best": {k: best[k] for k in ("fine", "share", "median_log_error")}, "rows": rows}
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print("best", report["best"])


if __name__ == "__main__":
    main()
