"""Priors from the rules, measured on photos of positions reached in games.

Run from the repository root:

    python bench/bench_priors.py [--photos 40] [--seeds dev|eval] [--cache DIR] [--out FILE] [--only KIND]
                                 [--weights rules|even]

The dev photos of ``bench_reliability.py`` are random scenes with no position before them; the
priors (what one turn of the side to play can leave on each cell) need a position the game
reached. So photo ``k`` of a renderer is a game: a seeded random Cyrus & Pyxis game from the
set-up (``RandomBot``, seed ``base + k``), stopped at a turn start of either side drawn at random
among all the game's turn starts (the *before* state), then that side's whole turn played by the
same bot (the *after* state). The after state is rendered by each renderer under the conditions
the dev photos use (the project's ``real`` styles in turn; the second renderer's boxes in turn,
a hard shadow through a counter in 60 % of them); the truth is the after state's contents.

Each photo is read twice, with the same calibration: from the photo alone, and with
``cell_priors(before)`` (the rules' probability of each content per cell). Both rows carry the
fields ``bench_reliability.py`` writes (photos read and refused, visible cells, asked,
confidently wrong with the cells, the reliability table by decile, ECE); the row with priors
adds how informative they were (visible cells whose prior was certain) and the cells the rules
decided (``Observation.from_rules``), how many right. ``truth_outside_prior`` counts cells whose
true content the priors gave probability 0 (the rules side promises none). ``--weights even``
shares each cell's prior equally over the contents the rules allow: what the present content's
weight does.

Seeds: dev from 1200000 (project renderer) and 5200000 (second renderer); eval from 3200000 and
6200000, reserved for one run on a frozen reader (appended to ``bench/reports/eval-history.jsonl``).
``--cache DIR`` keeps the photos, their calibration photos and the games (seed, turns played, side,
the before position) and reuses them; a cached game is replayed from its seed and checked against
the position kept.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import (  # noqa: E402
    Photo,
    cached,
    calibrations,
    commit,
    measure,
    render_photos,
    tabletop_photos,
)
from bench.bench_vision import ENGINE, machine, scene_of, setup_state  # noqa: E402
from referee.dice import NoDice  # noqa: E402
from referee.games.cyrus_pyxis.bot import RandomBot  # noqa: E402
from referee.games.cyrus_pyxis.capture import cell_contents, cell_priors  # noqa: E402
from referee.games.cyrus_pyxis.state import CyrusState  # noqa: E402
from referee.games.cyrus_pyxis.tables import Phase  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.prior import Priors  # noqa: E402

SEEDS = {"dev": {"render": 1_200_000, "tabletop": 5_200_000}, "eval": {"render": 3_200_000, "tabletop": 6_200_000}}
TARGETS = {"cells_confidently_wrong": 0, "asked_share": 0.002, "ece": 0.02}
"""Issue 34's targets: no cell confidently wrong, at most 0.2 % of visible cells asked, ECE ≤ 2 %."""


@dataclass(frozen=True)
class Game:
    """A photo's game: the turn start drawn (``played``: the sides' turns played before it), the
    side to play there, the position then and after that side's turn."""

    seed: int
    played: int
    side: str
    before: CyrusState
    after: CyrusState


def even(prior: Priors) -> dict[str, dict[tuple[str | None, str], float]]:
    """The same priors with each cell's probability shared equally over the contents it allows
    (``--weights even``): what the rules allow, without the weight kept by the present content."""
    return {cell: {content: 1.0 / len(spread) for content in spread} for cell, spread in prior.items()}


def one_turn(state: CyrusState, bot: RandomBot, rng: random.Random) -> CyrusState:
    """Plays the whole turn of the side to play (until the other side is to play or the game ends)."""
    side = state.active
    while state.active is side and state.phase is not Phase.OVER:
        state = ENGINE.apply(state, bot.choose(state, rng).action, NoDice()).state  # type: ignore[assignment]
    return state


def play(seed: int) -> Game:
    """Plays game ``seed`` from the set-up to its end, then draws one of its turn starts (with
    the same generator, so the draw is part of the seed) and returns it with the next one."""
    rng = random.Random(seed)
    bot = RandomBot(ENGINE)
    starts = [setup_state()]
    while starts[-1].phase is not Phase.OVER:
        starts.append(one_turn(starts[-1], bot, rng))
    turn = rng.randrange(len(starts) - 1)
    before = starts[turn]
    return Game(seed, turn, before.active.value, before, starts[turn + 1])


def position(state: CyrusState) -> object:
    """The position file's JSON of a state (what the cache keeps of a before state)."""
    return ENGINE.to_position(state).model_dump(mode="json")


def games_of(base: int, count: int, cache: Path | None, kind: str) -> list[Game]:
    """Plays the ``count`` games of a seed range; with ``cache``, keeps them in an index (seed,
    turns played, side, before position) the first time and checks the replay against it afterwards.

    Raises:
        SystemExit: a cached game no longer replays to the position kept (the engine changed:
            render into a fresh folder).
    """
    games = [play(base + k) for k in range(count)]
    if cache is None:
        return games
    index = cache / f"games-{kind}-{base}-{count}.json"
    rows = [{"photo": f"{kind}_{k}", "seed": g.seed, "played": g.played, "side": g.side, "before": position(g.before)}
            for k, g in enumerate(games)]
    if not index.exists():
        index.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    elif json.loads(index.read_text(encoding="utf-8")) != rows:
        raise SystemExit(f"{index}: the games no longer replay to the positions kept; use a fresh --cache folder")
    return games


def truth_checks(photos: list[Photo], games: list[Game], priors: dict[str, Priors]) -> dict[str, int]:
    """Checks each photo's truth against its after state (cells that differ: 0 expected), and
    counts the cells whose true content the priors left out and those where the priors' most
    likely content is the truth (what the rules alone would guess), over all cells."""
    differ = outside = guessed = cells = 0
    for (path, truth, _hidden, _group), game in zip(photos, games, strict=True):
        after = cell_contents(game.after)
        differ += sum((truth[name]["occupant"], truth[name]["terrain"]) != content for name, content in after.items())
        prior = priors[path.stem]
        for name, t in truth.items():
            spread = prior.get(name, {})
            outside += spread.get((t["occupant"], t["terrain"]), 0.0) <= 0.0
            guessed += bool(spread) and max(spread, key=spread.__getitem__) == (t["occupant"], t["terrain"])
        cells += len(truth)
    return {"truth_differs_from_after_state": differ, "truth_outside_prior": outside, "prior_guess_right": guessed,
            "cells": cells}


def with_truth(row: dict[str, object], photos: list[Photo], alone: dict[str, str] | None = None) -> list[str]:
    """The row's confidently wrong cells ("photo cell: read at confidence"), each with its truth
    and, given ``alone`` (``measure``'s cells of the photo-alone reading), what the photo alone read."""
    truths = {path.stem: truth for path, truth, _hidden, _group in photos}
    out = []
    for text in row["wrong_cells"]:  # type: ignore[attr-defined]
        key = text.split(":", 1)[0]
        stem, name = key.split()
        cell = truths[stem][name]
        seen = f", photo alone {alone[key]}" if alone is not None and key in alone else ""
        out.append(f"{text}, truth {cell['occupant']}/{cell['terrain']}{seen}")
    return out


def status(reading: str, truth: dict[str, str | None], floor: float) -> str:
    """A visible cell's fate, from ``measure``'s "occupant/terrain/confidence": asked, right or wrong."""
    occupant, terrain, confidence = reading.split("/")
    if float(confidence) < floor:
        return "asked"
    return "right" if (occupant, terrain) == (str(truth["occupant"]), truth["terrain"]) else "wrong"


def changes(alone: dict[str, str], ruled: dict[str, str], photos: list[Photo], floor: float) -> dict[str, int]:
    """How the priors changed visible cells' fates ("asked -> right": asked from the photo
    alone, read right with the priors), over the photos both readings read."""
    truths = {path.stem: truth for path, truth, _hidden, _group in photos}
    out: dict[str, int] = {}
    for key, reading in ruled.items():
        if " " not in key or key not in alone:
            continue
        stem, name = key.split()
        before, after = status(alone[key], truths[stem][name], floor), status(reading, truths[stem][name], floor)
        if before != after:
            out[f"{before} -> {after}"] = out.get(f"{before} -> {after}", 0) + 1
    return dict(sorted(out.items()))


def by_prior(alone: dict[str, str], ruled: dict[str, str], photos: list[Photo], priors: dict[str, Priors],
             floor: float) -> dict[str, dict[str, int]]:
    """The visible cells' fates with the priors (asked, right, wrong), grouped by whether their
    prior was certain and whether the photo alone was sure of them (at or above ``floor``)."""
    truths = {path.stem: truth for path, truth, _hidden, _group in photos}
    out: dict[str, dict[str, int]] = {}
    for key, reading in ruled.items():
        if " " not in key or key not in alone:
            continue
        stem, name = key.split()
        certain = max(priors[stem].get(name, {}).values(), default=0.0) >= 1 - 1e-9
        sure = float(alone[key].rsplit("/", 1)[1]) >= floor
        group = out.setdefault(f"prior {'certain' if certain else 'spread'}, photo alone {'sure' if sure else 'asked'}",
                               {"cells": 0, "asked": 0, "right": 0, "wrong": 0})
        group["cells"] += 1
        group[status(reading, truths[stem][name], floor)] += 1
    return dict(sorted(out.items()))


def targets(row: dict[str, object]) -> dict[str, object]:
    """The asked share of one row and whether each of issue 34's targets is met."""
    visible, asked, ece = row["cells_visible"], row["cells_asked"], row["ece"]
    assert isinstance(visible, int) and isinstance(asked, int)
    share = asked / visible if visible else None
    return {"asked_share": round(share, 6) if share is not None else None,
            "met": {"no_cell_confidently_wrong": row["cells_confidently_wrong"] == 0,
                    "asked_at_most_0.2%": share is not None and share <= TARGETS["asked_share"],
                    "ece_at_most_2%": isinstance(ece, float) and ece <= TARGETS["ece"]}}


def measure_kind(board: BoardSpec, kind: str, base: int, count: int, tmp: Path,
                 cache: Path | None, weights: str = "rules", cfg: VisionConfig | None = None) -> dict[str, object]:
    """Both rows (photo alone, with priors) for one renderer; ``weights`` "even" shares each
    cell's prior equally over the contents the rules allow; ``cfg``: the reader's settings
    (the defaults if None)."""
    sources: dict[str, Callable[..., Iterator[Photo]]] = {"render": render_photos, "tabletop": tabletop_photos}
    games = games_of(base, count, cache, kind)
    cals = calibrations(board, kind, base, tmp)
    photos = sources[kind](board, base, count, tmp, scenes=lambda k: scene_of(games[k].after))
    if cache is not None:
        photos = cached(kind, photos, base, count, tmp)
    kept = list(photos)
    priors = {f"{kind}_{k}": cell_priors(g.before) for k, g in enumerate(games)}
    if weights == "even":
        priors = {stem: even(prior) for stem, prior in priors.items()}
    result: dict[str, object] = {
        "seeds_from": base, "photos": count,
        "calibrations": {str(k): "ok" if isinstance(v, Calibration) else v for k, v in cals.items()},
        "games": {"turns_played_before": [g.played for g in games], "sides": [g.side for g in games]},
        **truth_checks(kept, games, priors)}
    alone_cells: dict[str, str] = {}
    alone = measure(board, iter(kept), cals, cfg, cells=alone_cells)
    result["photo_alone"] = {**alone, "wrong_cells": with_truth(alone, kept), **targets(alone)}
    print(f"{kind} photo alone: {summary(alone)}", flush=True)
    ruled_cells: dict[str, str] = {}
    ruled = measure(board, iter(kept), cals, cfg, cells=ruled_cells, priors=priors)
    counts = ruled["priors"]
    assert isinstance(counts, dict)
    if counts["cells_visible"]:
        counts["prior_certain_share"] = round(counts["prior_certain"] / counts["cells_visible"], 4)
    floor = VisionConfig().classify.min_confidence
    counts["changed"] = changes(alone_cells, ruled_cells, kept, floor)
    counts["by_prior"] = by_prior(alone_cells, ruled_cells, kept, priors, floor)
    result["with_priors"] = {**ruled, "wrong_cells": with_truth(ruled, kept, alone_cells), **targets(ruled)}
    print(f"{kind} with priors: {summary(ruled)}", flush=True)
    return result


def summary(row: dict[str, object]) -> str:
    """One line of a row's main figures."""
    keys = ("photos_read", "refused", "cells_visible", "cells_asked", "cells_confidently_wrong", "ece", "priors")
    return json.dumps({k: row[k] for k in keys if k in row})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=40, help="Photos (games) per renderer.")
    parser.add_argument("--seeds", choices=("dev", "eval"), default="dev")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cache", type=Path, default=None,
                        help="Keep the photos and games in this folder and reuse them (dev seeds only).")
    parser.add_argument("--only", choices=("render", "tabletop"), default=None, help="One renderer only.")
    parser.add_argument("--weights", choices=("rules", "even"), default="rules",
                        help="The priors as cell_priors gives them, or shared equally over what each cell allows.")
    parser.add_argument("--config", type=Path, default=None,
                        help="A vision settings file read instead of the defaults (as bench_reliability's).")
    args = parser.parse_args()
    cfg = VisionConfig.from_yaml(args.config) if args.config is not None else None
    if args.cache is not None and args.seeds == "eval":
        parser.error("--cache is for dev seeds: an eval run renders its photos afresh")
    if args.photos < 1:
        parser.error("--photos must be at least 1")
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    report: dict[str, object] = {"what": "the rules' priors on photos of positions reached in random games",
                                 "seeds": args.seeds, **commit(), "machine": machine(),
                                 "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                 "weights": args.weights, "targets": TARGETS}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        if args.cache is not None:
            tmp = args.cache
            tmp.mkdir(parents=True, exist_ok=True)
        for kind, base in SEEDS[args.seeds].items():
            if args.only and kind != args.only:
                continue
            report[kind] = measure_kind(board, kind, base, args.photos, tmp, args.cache, args.weights, cfg)
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    out = args.out or ROOT / "bench" / "out" / f"priors-{args.seeds}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.seeds == "eval":
        history = ROOT / "bench" / "reports" / "eval-history.jsonl"
        with history.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(report) + "\n")
    print(f"wrote {out} in {report['wall_seconds']} s")


if __name__ == "__main__":
    main()
