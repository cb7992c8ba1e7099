"""The registration's tunable numbers, one by one: what moving each one changes, and fits.

Run from the repository root (the registration set of ``bench/registration_set.py`` and the
cached dev photos of ``bench/bench_reliability.py --seeds dev --photos 40`` must be rendered):

    python bench/registration_numbers.py --compare [--set NAME=VALUE ...] [--out FILE]
    python bench/registration_numbers.py --fit NAME [--out FILE]

Every photo of the registration set (246, both renderers) and every cached dev photo with its
calibration photos (87) is registered as the reader does (``bench/sweep_registration.py``'s
``outcome``: markers or outline, the grid refit, the confirmations) and compared with the
renderer's own grid. ``--compare`` runs the defaults and then each ``--set`` given (a setting
``section.field`` or a module constant ``module.NAME`` of ``register``, ``grid_overlay``,
``outline``), and prints every photo whose registration differs field for field (method,
markers, error to four decimals, or the refusal): a number whose every value up to a bound
changes nothing on any photo is never reached there. ``--fit`` fits one number on the set's
ladders that are not kept out of fits (``registration_set.CHECKS``; the dev photos are held out)
by the criterion written in :data:`FITS`, prints each value tried with what it measured and the
photos it was measured on, and checks the value chosen on the held-out photos.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from bench import registration_set as regset  # noqa: E402
from bench import sweep_registration as sweep_mod  # noqa: E402
from bench.bench_reliability import commit  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.register import PLACE_TOLERANCE  # noqa: E402

Group = dict[str, list[sweep_mod.Case]]
Rows = dict[str, dict[str, Any]]


def load_cases(regset_cache: Path, dev_cache: Path) -> Group:
    """The photos, in three groups: the set's fitting ladders, its check ladders, the dev photos."""
    out: Group = {"fit": [], "check": [], "dev": sweep_mod.cases(dev_cache, 40)}
    for kind in regset.SEEDS:
        for path, ladder, *_ in json.loads((regset_cache / f"regset-{kind}.json").read_text(encoding="utf-8")):
            case = regset._case(Path(path), VisionConfig())
            out["check" if ladder in regset.CHECKS else "fit"].append(case)
    return out


def run(cases: list[sweep_mod.Case], board: BoardSpec, sets: dict[str, Any]) -> Rows:
    """Every photo registered with ``sets`` applied (settings and module constants), then undone."""
    cfg = VisionConfig()
    old: dict[str, Any] = {}
    for name, value in sets.items():
        if name.split(".")[0] in sweep_mod.MODULES:
            old[name] = sweep_mod.set_const(name, value)
        else:
            cfg = cfg.model_copy(update={name.split(".")[0]: getattr(cfg, name.split(".")[0]).model_copy(
                update={name.split(".")[1]: value})})
    try:
        return {c.name: sweep_mod.outcome(c, board, cfg) for c in cases}
    finally:
        for name, value in old.items():
            sweep_mod.set_const(name, value)


def differences(base: Rows, other: Rows) -> dict[str, list[Any]]:
    """Photos whose registration differs field for field."""
    return {n: [base[n], other[n]] for n in base if base[n] != other[n]}


def tally(rows: Rows) -> dict[str, int]:
    """Placed within twice ``PLACE_TOLERANCE``, placed further off, placed over half a cell off
    (turned or lines off), refused."""
    errors = [r["error"] for r in rows.values() if "error" in r]
    return {"close": sum(e <= 2 * PLACE_TOLERANCE for e in errors),
            "off": sum(2 * PLACE_TOLERANCE < e < 0.5 for e in errors),
            "wrong": sum(e >= 0.5 for e in errors), "refused": len(rows) - len(errors)}


def _mean_close(rows: Rows) -> float:
    errors = [r["error"] for r in rows.values() if "error" in r and r["error"] <= 2 * PLACE_TOLERANCE]
    return round(sum(errors) / max(1, len(errors)), 5)


Criterion = Callable[[dict[str, int], float], tuple[float, ...]]
PLACED = "no board placed over half a cell off, then the most placed close, then the least mean error"


def _placed(t: dict[str, int], e: float) -> tuple[float, ...]:
    return (-t["wrong"], t["close"], -e)


FITS: dict[str, tuple[tuple[Any, ...], str, Criterion]] = {
    # name: (values tried, the criterion in words, its key: the largest key wins, the first on ties)
    "register.PLACE_TOLERANCE": (
        (0.03, 0.04, 0.05, 0.055, 0.06, 0.07, 0.08, 0.1, 0.12),
        "no board placed over half a cell off, then the most placed close, then the tightest",
        lambda t, e: (-t["wrong"], t["close"])),
    "grid.refine_min_points": ((80, 60, 50, 40, 30, 20, 10, 4),
                               PLACED + " (ties: the most crossings asked, listed first)", _placed),
    "grid_overlay.LINE_OUTLIER": ((1.5, 2.0, 2.5, 3.0, 4.0, 6.0), PLACED, _placed),
    "outline._SMOOTH": ((3, 5, 7, 9), PLACED, _placed),
    "outline.APPROX": ((0.01, 0.015, 0.02, 0.03, 0.04, 0.05), PLACED, _placed),
}
"""The numbers fitted here: the values tried, and the criterion (ties go to the first value
listed, so the tightest tolerance wins among equals)."""


WHOLE = frozenset({"register.PLACE_TOLERANCE"})
"""Numbers that reach a board framed by four markers (the marker fit's own tolerance)."""


def _current(name: str) -> Any:
    """The value a number has in the reader."""
    module, ident = name.split(".")
    if module in sweep_mod.MODULES:
        return getattr(sweep_mod.MODULES[module], ident)
    return getattr(getattr(VisionConfig(), module), ident)


def fit(name: str, groups: Group, board: BoardSpec) -> dict[str, Any]:
    """Fits one number on the set's fitting ladders; checks the value on the held-out photos."""
    values, words, key = FITS[name]
    photos = groups["fit"]
    print(f"fitting {name} on {len(photos)} photos of the registration set's fitting ladders "
          f"(both renderers; {', '.join(regset.CHECKS)} and the dev photos held out): {words}", flush=True)
    base = run(photos, board, {})
    # a board framed by four markers is never refitted nor outlined: only the tolerance reaches it
    framed = {n for n, r in base.items() if r.get("method") == "markers" and len(r["markers"]) == 4}
    reached = photos if name in WHOLE else [c for c in photos if c.name not in framed]
    print(f"  {len(reached)} of them can move ({len(framed)} framed by four markers)", flush=True)
    tried: dict[str, Any] = {}
    best: tuple[Any, tuple[float, ...]] | None = None
    for value in values:
        rows = base | run(reached, board, {name: value})
        t, e = tally(rows), _mean_close(rows)
        tried[str(value)] = {**t, "mean_error_close": e}
        print(" ", name, "=", value, t, "mean error (close)", e, flush=True)
        if best is None or key(t, e) > best[1]:
            best = (value, key(t, e))
    assert best is not None
    chosen = best[0]
    check: dict[str, Any] = {}
    for group in ("check", "dev"):
        base = run(groups[group], board, {})
        other = base if chosen == _current(name) else run(groups[group], board, {name: chosen})
        check[group] = {"photos": len(base), "chosen": tally(other), "differences": differences(base, other)}
        print(f"  held out ({group}, {len(base)} photos) at {chosen}: {tally(other)};"
              f" {len(check[group]['differences'])} differ from the defaults", flush=True)
    print(f"fitted {name} = {chosen} (the reader's: {_current(name)})", flush=True)
    return {"name": name, "criterion": words, "values": tried, "chosen": chosen, "current": _current(name),
            "held_out": check,
            "fitted_on": [c.name for c in photos]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regset", type=Path, default=Path("/tmp/w50c/regset"))
    parser.add_argument("--dev", type=Path, default=Path("/tmp/w41a/cache"))
    parser.add_argument("--compare", action="store_true", help="Run the defaults, then each --set, and compare.")
    parser.add_argument("--set", nargs="*", default=[], help="NAME=VALUE (YAML value), each run apart.")
    parser.add_argument("--fit", choices=sorted(FITS), default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    started = time.perf_counter()
    groups = load_cases(args.regset, args.dev)
    report: dict[str, Any] = {"what": "the registration's numbers on the registration set and the dev photos",
                              **commit(), "photos": {k: len(v) for k, v in groups.items()}}
    if args.compare:
        everything = [c for group in groups.values() for c in group]
        base = run(everything, board, {})
        report["defaults"] = {"tally": tally(base), "per_photo": base}
        print("defaults", tally(base), round(time.perf_counter() - started, 1), "s", flush=True)
        report["sets"] = {}
        for item in args.set:
            name, text = item.split("=", 1)
            other = run(everything, board, {name: yaml.safe_load(text)})
            diff = differences(base, other)
            report["sets"][item] = {"tally": tally(other), "differences": diff}
            print(item, tally(other), len(diff), "photos differ", flush=True)
            for photo, (was, now) in diff.items():
                print("   ", photo, was, "->", now, flush=True)
    if args.fit:
        report["fit"] = fit(args.fit, groups, board)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    print(report["seconds"], "s")


if __name__ == "__main__":
    main()
