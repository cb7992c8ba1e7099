"""Other ways to adapt the colour classes to a photo, tried side by side on the dev photos.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --photos 40
--cache DIR`` has rendered the dev photos into ``DIR``:

    python bench/try_colour_adaptation.py --cache DIR [--photos 40] [--jobs 2] [--out FILE]
        [VARIANT ...]

The reader (``vision.colours.adapt``) re-centres each class on the median of the pixels nearest
it (within ``classify.pixel_sigma`` of its spread) for ``classify.adapt_rounds`` rounds. Each
variant replaces that function for its run (set on ``vision.colours`` and ``vision.evidence``,
set back after: no source file is edited), the calibrations are learned again and every cached
dev photo of both renderers is read, as ``bench/sweep_settings.py`` does. The variants:

- ``rounds``: the reader's own adaptation (the control: every cell as the defaults);
- ``fixed-point``: the same re-centring repeated until the assignment of the pixels repeats
  (at most ``MAX_ROUNDS``), instead of a count of rounds;
- ``map-pixels``: each class's mean is the maximum a posteriori estimate under a Normal prior
  centred on its seed with the photo-to-photo drift (``classify.drift_sd``) as its spread, the
  photo's evidence the median of its pixels, whose variance is π σ² / (2 n) for n pixels of a
  Gaussian of spread σ (the class's seed spread); no least count of pixels, no cap on the move;
- ``map-cells``: as ``map-pixels``, but n counted in cells' worth of pixels (a piece's pixels
  share one print and one light: what drifts between photos is the piece, not the pixel);
- ``map-anchored``: as ``map-cells``, the prior's centres first moved as the bare board's colour
  moved (each class's chromaticity under the channel gains that take the bare board's seed to
  its median in the photo: one lamp or white balance moves every colour alike), the classes
  then drifting from there;
- a suffix ``@fixed`` iterates a ``map-*`` variant to the fixed point (else the reader's rounds);
  ``:TAU`` sets the prior's spread instead of ``classify.drift_sd``.

Per variant and renderer the report has: photos read, cells asked, cells confidently wrong,
the ECE, the visible cells whose reading changed against the control, and for ``@fixed`` and
``fixed-point`` how many rounds the photos took (the most, and how many hit ``MAX_ROUNDS``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import commit  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from bench.sweep_settings import _changed, _read_all, write_report  # noqa: E402
from vision import colours, evidence  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402

MAX_ROUNDS = 50
"""A cap on the rounds of a fixed-point variant (work, not a setting: reported when reached)."""
VARIANTS = ("rounds", "fixed-point", "map-pixels", "map-pixels@fixed", "map-cells", "map-cells@fixed")
ROUNDS_TAKEN: list[int] = []


def _variant(name: str) -> Any:
    """Returns an ``adapt`` for the variant's name (see the module's doc)."""
    kind, _, tau_text = name.partition(":")
    fixed = kind.endswith("@fixed") or kind == "fixed-point"
    prior = kind.startswith("map-")
    by_cell = kind.startswith(("map-cells", "map-anchored"))
    anchored = kind.startswith("map-anchored")

    def adapt(feats: Any, usable: Any, seed: colours.PixelModel, names: list[str], cfg: Any) -> colours.PixelModel:
        x = feats[usable][:, :2]
        stride = 1
        if len(x) > cfg.adapt_max_pixels:
            stride = -(-len(x) // cfg.adapt_max_pixels)
            x = x[::stride]
        per_cell = (VisionConfig().grid.px_per_cell // cfg.pixel_step) ** 2  # samples of one cell
        tau = float(tau_text) if tau_text else cfg.drift_sd
        means, sds = seed.arrays(names)
        start = means.copy()
        if anchored:
            start = _anchored(x, means, sds, names, seed, cfg)
        counts = np.zeros(len(names), int)
        last = None
        taken = 0
        for _ in range(MAX_ROUNDS if fixed else cfg.adapt_rounds):
            best, dist = colours._assign(x, means, sds)
            near = dist < cfg.pixel_sigma
            labels = np.where(near, best, -1)
            if last is not None and np.array_equal(labels, last):
                break
            last, taken = labels, taken + 1
            for k in range(len(names)):
                mine = x[near & (best == k)]
                counts[k] = len(mine)
                if prior and len(mine):
                    n = len(mine) * stride / per_cell if by_cell else len(mine)
                    data = 2 * n / (math.pi * sds[k] ** 2)  # precision of the median
                    means[k] = (data * np.median(mine, axis=0) + start[k] / tau**2) / (data + 1 / tau**2)
                elif not prior and len(mine) >= cfg.adapt_min_pixels:
                    means[k] = np.median(mine, axis=0)
        ROUNDS_TAKEN.append(taken)
        best, dist = colours._assign(x, means, sds)
        near = dist < cfg.pixel_sigma
        for k in range(len(names)):  # the spreads as the reader measures them
            mine = x[near & (best == k)]
            if len(mine) >= cfg.adapt_min_pixels:
                spread = float(np.median(np.hypot(*(mine - means[k]).T))) / 1.177
                sds[k] = min(sds[k], max(cfg.min_photo_sd, spread))
        return colours.PixelModel(classes={
            n: colours.PixelClass(mean=(float(means[k][0]), float(means[k][1])), sd=float(sds[k]),
                                  pixels=int(counts[k]))
            for k, n in enumerate(names)
        })

    return adapt


def _anchored(x: Any, means: Any, sds: Any, names: list[str], seed: colours.PixelModel, cfg: Any) -> Any:
    """The seeds moved by the channel gains that take the bare board's seed colour to the median
    of the pixels nearest it in the photo (the bare board: the first terrain)."""
    plain = next(k for k, n in enumerate(names) if not n.startswith(colours.SIDE))
    best, dist = colours._assign(x, means, sds)
    mine = x[(dist < cfg.pixel_sigma) & (best == plain)]
    if not len(mine):
        return means.copy()
    seen = np.median(mine, axis=0)

    def rgb(c: Any) -> Any:
        return np.stack([c[..., 0], c[..., 1], 1 - c[..., 0] - c[..., 1]], axis=-1)

    gain = rgb(seen) / rgb(means[plain])
    moved = rgb(means) * gain
    moved /= moved.sum(axis=-1, keepdims=True)
    return moved[:, :2].astype(np.float64)


def _run(task: tuple[str, str, int]) -> tuple[str, dict[str, Any], list[int]]:
    name, cache, count = task
    own = colours.adapt
    ROUNDS_TAKEN.clear()
    if name != "rounds":
        colours.adapt = evidence.adapt = _variant(name)  # type: ignore[assignment]
    try:
        return name, _read_all(load_board("cyrus-pyxis"), Path(cache), count, VisionConfig()), list(ROUNDS_TAKEN)
    finally:
        colours.adapt = evidence.adapt = own  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=list(VARIANTS), metavar="VARIANT")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "colour-adaptation.json")
    args = parser.parse_args()
    start = time.perf_counter()
    names = ["rounds", *[v for v in args.variants if v != "rounds"]]
    report: dict[str, Any] = {"what": "ways to adapt the colour classes to a photo (dev photos)", **commit(),
                              "machine": machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                              "max_rounds": MAX_ROUNDS, "variants": {}}
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(_run, [(n, str(args.cache), args.photos) for n in names])
        _, base, _ = next(results)
        report["control"] = {k: {f: v for f, v in r.items() if f != "cells"} for k, r in base.items()}
        for name, got, rounds in results:
            entry = _changed(base, got)
            if "@fixed" in name or name == "fixed-point":
                entry["rounds"] = {"most": max(rounds), "median": float(np.median(rounds)),
                                   "at_cap": sum(r >= MAX_ROUNDS for r in rounds), "adaptations": len(rounds)}
            report["variants"][name] = entry
            brief = {k: (v["photos_read"], v["cells_changed"], v["cells_asked"], v["cells_confidently_wrong"], v["ece"])
                     for k, v in entry.items() if k in ("render", "tabletop")}
            print(f"{name}: {brief} {entry.get('rounds', '')}", flush=True)
    write_report(report, args.out, start)


if __name__ == "__main__":
    main()
