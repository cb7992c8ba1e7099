"""Measures two variants of how the rules' priors settle a cell the trees leave unsure, on the
game positions of ``bench/bench_priors.py``: what each does to the hidden cells read sure and
wrong (``bench/hidden_misreads.py``) and to the cells asked. A measurement, not the reader: the
variant replaces :func:`vision.prior.posterior` for the run only.

Run from the repository root, on the held-out game positions' cache (read only):

    python bench/priors_doubtful_variants.py --cache /tmp/w45c/cache --variant spread --out FILE

Variants (the reader's own way is ``main``: an unsure cell is weighed against the contents the
rules allow evenly, with the photo's likelihood, the trees' probability over the training
share of each content):

- ``spread``: an unsure cell is weighed with the trees' probability itself, the training share
  kept in (the likelihood times the share, as the trees gave it before it was taken out);
- ``ask``: an unsure cell the rules allow more than one content on stays asked (its confidence
  kept a thousandth under the ask floor), whatever the photo's likelihood says; one content allowed is still
  settled;
- ``agree``: as ``ask``, only where the photo gives the contents the rules allow less than even
  odds together (the trees' probability summed over them under one half): the photo disagrees
  with the rules, as under a hand that hides the cell.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_priors import SEEDS, measure_kind  # noqa: E402
from bench.bench_reliability import commit  # noqa: E402
from bench.bench_vision import machine  # noqa: E402
from vision import prior, trees  # noqa: E402
from vision.board import load_board  # noqa: E402

MAIN = prior.posterior


def trees_share(seen: Mapping[prior.Content, float], every: list[prior.Content]) -> dict[prior.Content, float]:
    """The trees' probability of each content back from the likelihood (times the training share)."""
    model = trees.default_trees()
    share = dict(zip(model.contents, map(float, model.frequency()), strict=True))
    raw = {c: seen.get(c, 0.0) ** trees.LIKELIHOOD_TEMPERATURE * share.get(c, 0.0) for c in every}
    total = sum(raw.values()) or 1.0
    return {c: v / total for c, v in raw.items()}


def spread(reading: prior.Read, rules: Mapping[prior.Content, float], every: list[prior.Content],
           seen: Mapping[prior.Content, float], doubtful: float) -> prior.Read:
    """The ``spread`` variant: an unsure cell's likelihood times the training share of each content."""
    if reading[2] <= doubtful:
        seen = trees_share(seen, every)
    return MAIN(reading, rules, every, seen, doubtful)


def ask(reading: prior.Read, rules: Mapping[prior.Content, float], every: list[prior.Content],
        seen: Mapping[prior.Content, float], doubtful: float) -> prior.Read:
    """The ``ask`` variant: an unsure cell a turn may change (several contents allowed) stays asked."""
    occupant, terrain, conf = MAIN(reading, rules, every, seen, doubtful)
    allowed = sum(v > 0 for v in rules.values())
    if 0 < reading[2] <= doubtful and allowed > 1 and not prior._even(rules, every):
        conf = min(conf, doubtful - 1e-3)  # under the floor once rounded to 4 places
    return occupant, terrain, conf


def agree(reading: prior.Read, rules: Mapping[prior.Content, float], every: list[prior.Content],
          seen: Mapping[prior.Content, float], doubtful: float) -> prior.Read:
    """The ``agree`` variant: ``ask`` where the photo gives the allowed contents under even odds."""
    occupant, terrain, conf = MAIN(reading, rules, every, seen, doubtful)
    allowed = [c for c, v in rules.items() if v > 0]
    mass = sum(trees_share(seen, every).get(c, 0.0) for c in allowed)
    if 0 < reading[2] <= doubtful and len(allowed) > 1 and not prior._even(rules, every) and mass < 0.5:
        conf = min(conf, doubtful - 1e-3)
    return occupant, terrain, conf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--variant", choices=("main", "spread", "ask", "agree"), required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    prior.posterior = {"main": MAIN, "spread": spread, "ask": ask, "agree": agree}[args.variant]  # type: ignore[assignment]
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    report: dict[str, object] = {"what": "the rules' priors on unsure cells, one variant", "variant": args.variant,
                                 **commit(), "machine": machine(),
                                 "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    for kind, base in SEEDS["dev"].items():
        report[kind] = measure_kind(board, kind, base, args.photos, args.cache, args.cache)
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {report['wall_seconds']} s")


if __name__ == "__main__":
    main()
