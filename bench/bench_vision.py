"""Vision benchmark: registration, per-cell accuracy, move inference and speed on rendered photos.

Run from the repository root (about 15 minutes on 2 cores; ``--quick`` for a 2-minute smoke run):

    python bench/bench_vision.py [--quick] [--out bench/out/vision.json]

Every image is rendered at run time (nothing is committed) from seeds the tests never use
(tests use seeds below 1000; this uses 400000 and up):

- *accuracy set*: 300 photos at 1920×1080 of random scenes (terrain, counters of both sides),
  moderately degraded by ``vision.render.sample_conditions(level="moderate")``: tilt ≤ 30°, any
  rotation, scale 0.6-0.92, light ×0.7-1.1 with shadows, colour cast, blur σ ≤ 1.5 px, noise
  σ ≤ 8, JPEG 70-95, and a hand over the board in a quarter of them. It measures registration
  (success, and grid error against the truth) and per-cell accuracy (occupant and terrain).
- *heavy-blur set*: 40 photos as above but blur σ 5-9 px: each must be refused, never misread.
- *sequences*: random games from the sample set-up (engine's random bot, stopping after each
  move with probability 0.25), one 12-megapixel photo (4000×3000, moderate, no hand) after
  every turn. Each photo is read with the counter labels and the rules against the position
  the referee tracks. A question is answered with the truth (as a player would) and the game
  goes on; an unexplained or refused photo is counted and the truth is used to go on.
- *speed*: median time of ``observe`` (file decoding included, labels included) per photo at
  12 MP and at 1080p, and of bare ArUco detection (decode, grey, ``detectMarkers``) on the same
  files, with their ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.dice import NoDice  # noqa: E402
from referee.games.cyrus_pyxis.bot import RandomBot  # noqa: E402
from referee.games.cyrus_pyxis.capture import (  # noqa: E402
    infer_turn,
    legion_cells,
    legion_labels,
)
from referee.games.cyrus_pyxis.engine import CyrusEngine  # noqa: E402
from referee.games.cyrus_pyxis.state import CyrusState, Phase  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.markers import dictionary  # noqa: E402
from vision.pipeline import observe, read  # noqa: E402
from vision.render import Counter, Scene, random_scene, render, sample_conditions  # noqa: E402

ENGINE = CyrusEngine()
SEED_ACCURACY = 800_000
SEED_BLUR = 850_000
SEED_GAMES = 900_000
# Development looked at seeds 100000-300999 (failures there were debugged; 300000+ tuned the
# summed label margin), then at two evaluation rounds whose failures led to a change each:
# 400000-500999 (3 refusals, "too dark" photos of a well-lit board on a dark table: lower
# dark_mean) and 600000-700999 (one hand whose distrust flooded 80 visible cells: a reach of 2
# cells). The figures come from the ranges above, run once after the last change.
GRID_TOLERANCE = 0.1
"""A registration counts as successful when the grid is placed within this many cells."""


def scene_of(state: CyrusState) -> Scene:
    grid = state.tables.grid
    return Scene(
        terrain={grid.name(c): t.value for c, t in state.terrain.items()},
        counters={
            grid.name(c): Counter(state.tables.by_id[lid].side.value, state.tables.by_id[lid].short)
            for lid, c in state.where.items()
        },
    )


def setup_state() -> CyrusState:
    state = ENGINE.sample_start()
    assert isinstance(state, CyrusState)
    return state


def grid_error(homography: np.ndarray, to_board: np.ndarray, reduction: int) -> float:
    pts = np.array([[[0, 0], [12, 0], [12, 12], [0, 12], [6, 6]]], np.float64)
    img = cv2.perspectiveTransform(pts, homography) / reduction
    return float(np.linalg.norm(cv2.perspectiveTransform(img, to_board)[0] - pts[0], axis=1).max())


def cyrus_labels(state: CyrusState) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"greek": [], "persian": []}
    for lg in state.tables.legions:
        out[lg.side.value].append(lg.short)
    return out


# ---------------------------------------------------------------------------------------------


def accuracy_set(
    board: BoardSpec, count: int, tmp: Path, labels: dict[str, list[str]]
) -> dict[str, object]:
    """Registration and per-cell accuracy on moderately degraded 1080p renders."""
    registered = misregistered = refused = 0
    errors: list[float] = []
    visible = right = doubted = wrong = hidden = hidden_flagged = hidden_misread = 0
    with_hands = 0
    reasons: list[str] = []
    times: list[float] = []
    files: list[Path] = []
    for k in range(count):
        seed = SEED_ACCURACY + k
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels)
        cond = sample_conditions(rng, "moderate", 1920, 1080)
        rendered = render(board, scene, cond, seed)
        path = rendered.save(tmp / f"acc_{k}")
        files.append(path)
        with_hands += bool(cond.hands)
        start = time.perf_counter()
        try:
            reading = read(path, board, strict=False)
        except VisionError as exc:
            refused += 1
            reasons.append(
                f"seed {seed} (hands {cond.hands}, markers in view "
                f"{rendered.markers_visible}): {exc}"
            )
            continue
        times.append(time.perf_counter() - start)
        err = grid_error(rendered.homography, reading.registration.to_board, 1)
        errors.append(err)
        if err > GRID_TOLERANCE:
            misregistered += 1
        else:
            registered += 1
        obs = reading.observation
        occluded = set(rendered.occluded)
        for name, truth in rendered.cells.items():
            got = obs.cells[name]
            ok = got.occupant == truth["occupant"] and got.terrain == truth["terrain"]
            confident = name not in obs.unreadable
            if name in occluded:
                hidden += 1
                hidden_flagged += not confident
                hidden_misread += confident and not ok
                continue
            visible += 1
            if not confident:
                doubted += 1
            elif ok:
                right += 1
            else:
                wrong += 1
    return {
        "images": count,
        "with_hands": with_hands,
        "size": "1920x1080",
        "registration": {
            "success": registered,
            "misregistered": misregistered,
            "refused": refused,
            "success_rate": registered / count,
            "refusals": reasons,
            "grid_error_cells": {
                "median": statistics.median(errors) if errors else None,
                "p99": float(np.percentile(errors, 99)) if errors else None,
                "max": max(errors) if errors else None,
            },
        },
        "cells": {
            "visible": visible,
            "right": right,
            "doubted": doubted,
            "wrong": wrong,
            "accuracy": right / visible if visible else None,
            "confident_accuracy": right / (right + wrong) if right + wrong else None,
            "hidden_by_hands": hidden,
            "hidden_flagged": hidden_flagged,
            "hidden_misread": hidden_misread,
        },
        "seconds_median": statistics.median(times) if times else None,
        "_files": [str(p) for p in files],
    }


def blur_set(
    board: BoardSpec, count: int, tmp: Path, labels: dict[str, list[str]]
) -> dict[str, object]:
    """Heavily blurred photos: refused (any VisionError), or read — and then misread or not."""
    refused = read_clean = misread = 0
    for k in range(count):
        seed = SEED_BLUR + k
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels)
        cond = dataclasses.replace(sample_conditions(rng, "heavy-blur", 1920, 1080), hands=0)
        rendered = render(board, scene, cond, seed)
        path = rendered.save(tmp / f"blur_{k}")
        try:
            obs = observe(path, board)
        except VisionError:
            refused += 1
            continue
        bad = [
            n
            for n, c in obs.cells.items()
            if n not in obs.unreadable
            and (c.occupant, c.terrain)
            != (rendered.cells[n]["occupant"], rendered.cells[n]["terrain"])
        ]
        misread += bool(bad)
        read_clean += not bad
    return {"images": count, "refused": refused, "read_correctly": read_clean, "misread": misread}


def sequences(
    board: BoardSpec, games: int, turns: int, tmp: Path, size: tuple[int, int]
) -> dict[str, object]:
    """Random games photographed after every turn, read against the tracked position."""
    counts = {
        "explained_right": 0,
        "silently_wrong": 0,
        "questions": 0,
        "answered_right": 0,
        "answered_wrong": 0,
        "answered_unsettled": 0,
        "unexplained": 0,
        "refused": 0,
    }
    question_turns: list[str] = []
    unexplained_turns: list[str] = []
    moves_per_turn: list[int] = []
    read_times: list[float] = []
    infer_times: list[float] = []
    files: list[Path] = []
    total = 0
    for g in range(games):
        rng = random.Random(SEED_GAMES + g)
        state = setup_state()
        bot = RandomBot(ENGINE, stop_chance=0.25)
        for t in range(turns):
            if state.phase is Phase.OVER:
                break
            before, side = state, state.active
            moves = 0
            while state.active is side and state.phase is not Phase.OVER:
                action = bot.choose(state, rng).action
                moves += action.text().split()[0] not in ("done", "resolve", "support")
                state = ENGINE.apply(state, action, NoDice()).state  # type: ignore[assignment]
            moves_per_turn.append(moves)
            seed = SEED_GAMES + 1000 * g + t
            cond = dataclasses.replace(
                sample_conditions(np.random.default_rng(seed), "moderate", *size), hands=0
            )
            path = render(board, scene_of(state), cond, seed).save(tmp / f"seq_{g}_{t}")
            files.append(path)
            total += 1
            tag = f"game {g} turn {t}"
            start = time.perf_counter()
            try:
                obs = observe(path, board, labels=legion_labels(before))
            except VisionError as exc:
                counts["refused"] += 1
                unexplained_turns.append(f"{tag}: refused: {exc}")
                continue
            read_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            report = infer_turn(before, obs.cells, identity=obs.identity)
            infer_times.append(time.perf_counter() - start)
            asked = report.status == "ambiguous"
            if asked:
                counts["questions"] += 1
                question_turns.append(f"{tag}: " + "; ".join(q.text for q in report.questions))
                truth = legion_cells(state)
                answers = {q.cell: truth.get(q.cell, "?") for q in report.questions if q.cell}
                for q in report.questions:
                    if q.cell is None and q.options == ("off", "eliminated"):
                        king = q.text.split()[1]
                        answers[king] = (
                            "off"
                            if state.winner is not None
                            and king not in state.where
                            and state.tables.by_id[king].side is state.winner
                            else "eliminated"
                        )
                report = infer_turn(before, obs.cells, identity=obs.identity, answers=answers)
            if report.status == "explained":
                assert report.position is not None
                got = ENGINE.from_position(
                    state.tables.table_set, report.position.model_dump(mode="json"), "x"
                )
                if got.where != state.where or got.winner != state.winner:
                    counts["silently_wrong" if not asked else "answered_wrong"] += 1
                    unexplained_turns.append(f"{tag}: WRONG {report.moves}")
                elif not asked:
                    counts["explained_right"] += 1
                else:
                    counts["answered_right"] += 1
            elif asked:
                counts["answered_unsettled"] += 1
                unexplained_turns.append(f"{tag}: still {report.status} after the answers")
            elif report.status == "unexplained":
                counts["unexplained"] += 1
                unexplained_turns.append(
                    f"{tag}: unexplained: "
                    + ", ".join(f"{d.cell} {d.problem}" for d in report.disagreements[:4])
                )
            else:
                counts["refused"] += 1
                unexplained_turns.append(f"{tag}: unreadable {report.unreadable}")
    return {
        "turns": total,
        "size": f"{size[0]}x{size[1]}",
        **counts,
        "question_rate": counts["questions"] / total if total else None,
        "moves_per_turn_mean": statistics.mean(moves_per_turn) if moves_per_turn else None,
        "read_seconds_median": statistics.median(read_times) if read_times else None,
        "infer_seconds_median": statistics.median(infer_times) if infer_times else None,
        "infer_seconds_max": max(infer_times) if infer_times else None,
        "question_turns": question_turns,
        "other_turns": unexplained_turns,
        "_files": [str(p) for p in files],
    }


def speed(
    board: BoardSpec, files: list[str], labels: dict[str, tuple[str, str]], repeat: int = 1
) -> dict[str, object]:
    """Median seconds per photo: the pipeline (file to observation, labels included) and bare
    ArUco detection (file decode, grey, detectMarkers at full size) on the same files."""
    cfg = VisionConfig()
    detector = cv2.aruco.ArucoDetector(dictionary(board.markers), cv2.aruco.DetectorParameters())
    ours: list[float] = []
    bare: list[float] = []
    observe(Path(files[0]), board, labels=labels, strict=False)  # warm caches (default colours)
    for f in files:
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                observe(Path(f), board, cfg, labels=labels, strict=False)
            except VisionError:
                continue
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            img = cv2.imread(f, cv2.IMREAD_COLOR)
            detector.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
            bare.append(time.perf_counter() - start)
    photo = read_photo(Path(files[0]), cfg.load)
    ours_med, bare_med = statistics.median(ours), statistics.median(bare)
    return {
        "photos": len(ours),
        "size": f"{photo.width}x{photo.height}",
        "pipeline_median_s": ours_med,
        "aruco_median_s": bare_med,
        "pipeline_over_aruco": ours_med / bare_med,
    }


def machine() -> dict[str, object]:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "opencv": cv2.__version__,
        "numpy": np.__version__,
        "system": platform.platform(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="A small smoke run.")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "vision.json")
    args = parser.parse_args()
    n_acc, n_blur, games, turns = (20, 6, 2, 5) if args.quick else (300, 40, 10, 20)
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    setup = setup_state()
    labels = cyrus_labels(setup)
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        print(f"accuracy set: {n_acc} photos at 1920x1080 ...", flush=True)
        acc = accuracy_set(board, n_acc, tmp, labels)
        print(f"heavy-blur set: {n_blur} photos ...", flush=True)
        blur = blur_set(board, n_blur, tmp, labels)
        print(f"sequences: {games} games x {turns} turns at 4000x3000 ...", flush=True)
        seq = sequences(board, games, turns, tmp, (4000, 3000))
        print("speed ...", flush=True)
        all_labels = legion_labels(setup)
        speed_12 = speed(board, seq.pop("_files")[:20], all_labels)  # type: ignore[arg-type]
        speed_hd = speed(board, acc.pop("_files")[:20], all_labels)  # type: ignore[arg-type]
    result = {
        "machine": machine(),
        "wall_seconds": round(time.perf_counter() - start, 1),
        "accuracy": acc,
        "heavy_blur": blur,
        "sequences": seq,
        "speed_12mp": speed_12,
        "speed_1080p": speed_hd,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    reg, cells = acc["registration"], acc["cells"]  # type: ignore[index]
    mach = result["machine"]
    print(f"\nmachine: {mach['cpu']}, {mach['cores']} cores, OpenCV {cv2.__version__}")
    print(
        f"registration: {reg['success']}/{acc['images']} moderate photos "
        f"({reg['success_rate']:.1%}); "
        f"refused {reg['refused']}, misregistered {reg['misregistered']}; grid error median "
        f"{reg['grid_error_cells']['median']:.3f} cells, max {reg['grid_error_cells']['max']:.3f}"
    )
    print(
        f"cells: {cells['right']}/{cells['visible']} visible cells right "
        f"({cells['accuracy']:.3%}), {cells['doubted']} doubted, {cells['wrong']} wrong; "
        f"hidden by hands {cells['hidden_by_hands']}: "
        f"{cells['hidden_flagged']} flagged, {cells['hidden_misread']} misread"
    )
    print(f"heavy blur: {blur['refused']}/{blur['images']} refused, {blur['misread']} misread")
    print(
        f"sequences: {seq['turns']} turns ({seq['moves_per_turn_mean']:.1f} moves/turn): "
        f"{seq['explained_right']} explained right, {seq['silently_wrong']} silently wrong, "
        f"{seq['questions']} with questions ({seq['question_rate']:.1%}), "
        f"{seq['unexplained']} unexplained, "
        f"{seq['refused']} refused"
    )
    for label, sp in (("12 MP", speed_12), ("1080p", speed_hd)):
        print(
            f"speed {label}: pipeline {sp['pipeline_median_s']:.3f} s, "
            f"bare ArUco {sp['aruco_median_s']:.3f} s "
            f"(x{sp['pipeline_over_aruco']:.1f})"
        )
    print(f"wrote {args.out} in {result['wall_seconds']} s")


if __name__ == "__main__":
    main()
