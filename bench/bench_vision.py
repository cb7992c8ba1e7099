"""Vision benchmark: registration, per-cell accuracy, move inference and speed on rendered photos.

Run from the repository root (about 7 minutes on 2 idle cores with ``--classic``; ``--quick`` for a smoke run):

    python bench/bench_vision.py [--quick] [--seeds dev|eval] [--classic] [--out bench/out/vision.json]

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
    cell_contents,
    infer_turn,
    legion_cells,
    legion_labels,
)
from referee.games.cyrus_pyxis.engine import CyrusEngine  # noqa: E402
from referee.games.cyrus_pyxis.state import CyrusState  # noqa: E402
from referee.games.cyrus_pyxis.tables import Phase  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.load import read_photo  # noqa: E402
from vision.markers import dictionary  # noqa: E402
from vision.pipeline import observe, read  # noqa: E402
from vision.render import (  # noqa: E402
    STYLES,
    Counter,
    Scene,
    random_scene,
    render,
    sample_conditions,
    sample_real_conditions,
)

ENGINE = CyrusEngine()
SEED_ACCURACY = 800_000
SEED_BLUR = 850_000
SEED_GAMES = 900_000
# Development looked at seeds 100000-300999 (failures there were debugged; 300000+ tuned the
# summed label margin), then at two evaluation rounds whose failures led to a change each:
# 400000-500999 (3 refusals, "too dark" photos of a well-lit board on a dark table: lower
# dark_mean) and 600000-700999 (one hand whose distrust flooded 80 visible cells: a reach of 2
# cells). The figures come from the ranges above, run once after the last change.
SEED_REAL_DEV = 1_000_000
SEED_REAL_EVAL = 2_000_000
"""Issue 13's real-profile photos: development looked only at seeds from 1000000; the reported
figures come from 2000000 on."""
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


def accuracy_set(board: BoardSpec, count: int, tmp: Path, labels: dict[str, list[str]]) -> dict[str, object]:
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
            reasons.append(f"seed {seed} (hands {cond.hands}, markers in view {rendered.markers_visible}): {exc}")
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


def blur_set(board: BoardSpec, count: int, tmp: Path, labels: dict[str, list[str]]) -> dict[str, object]:
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
            and (c.occupant, c.terrain) != (rendered.cells[n]["occupant"], rendered.cells[n]["terrain"])
        ]
        misread += bool(bad)
        read_clean += not bad
    return {"images": count, "refused": refused, "read_correctly": read_clean, "misread": misread}


def sequences(board: BoardSpec, games: int, turns: int, tmp: Path, size: tuple[int, int]) -> dict[str, object]:
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
            cond = dataclasses.replace(sample_conditions(np.random.default_rng(seed), "moderate", *size), hands=0)
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
            report = infer_turn(before, obs.read_cells(), identity=obs.identity)
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
                report = infer_turn(before, obs.read_cells(), identity=obs.identity, answers=answers)
            if report.status == "explained":
                assert report.position is not None
                got = ENGINE.from_position(state.tables.table_set, report.position.model_dump(mode="json"), "x")
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
                    f"{tag}: unexplained: " + ", ".join(f"{d.cell} {d.problem}" for d in report.disagreements[:4])
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


def speed(board: BoardSpec, files: list[str], labels: dict[str, tuple[str, str]], repeat: int = 1) -> dict[str, object]:
    """Median seconds per photo: the pipeline (file to observation, labels included) and bare
    ArUco detection (file decode, grey, detectMarkers at full size) on the same files."""
    cfg = VisionConfig()
    detector = cv2.aruco.ArucoDetector(dictionary(board.markers), cv2.aruco.DetectorParameters())
    ours: list[float] = []
    cpu: list[float] = []
    bare: list[float] = []
    observe(Path(files[0]), board, labels=labels, strict=False)  # warm caches (default colours)
    for f in files:
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            try:
                observe(Path(f), board, cfg, labels=labels, strict=False)
            except VisionError:
                continue
            ours.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
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
        "pipeline_cpu_median_s": statistics.median(cpu),
    }


# ---------------------------------------------------------------------------------------------
# Issue 13: photos of a "real" box (vision.render profile "real"), calibrated per colour style


def style_calibrations(board: BoardSpec, tmp: Path, seed_base: int) -> dict[int, object]:
    """Per colour style, a calibration learned from a separate clean photo of the sample set-up
    (never the default model). A style whose calibration fails maps to the error text."""
    from vision.calibrate import calibrate

    setup = setup_state()
    out: dict[int, object] = {}
    for style in range(len(STYLES)):
        seed = seed_base + 90_000 + style
        rng = np.random.default_rng(seed)
        cond = sample_real_conditions(rng, 1920, 1080, style, clean=True)
        path = render(board, scene_of(setup), cond, seed).save(tmp / f"cal_{style}")
        try:
            out[style] = calibrate(
                path,
                board,
                cell_contents(setup),
                legions=legion_labels(setup),
                legion_at=legion_cells(setup),
            )
        except VisionError as exc:
            out[style] = f"calibration of style {style} failed: {exc}"
    return out


def _cal(cals: dict[int, object], style: int) -> Calibration | None:
    got = cals.get(style)
    return got if isinstance(got, Calibration) else None


def real_accuracy(
    board: BoardSpec,
    count: int,
    tmp: Path,
    labels: dict[str, list[str]],
    cals: dict[int, object],
    seed_base: int,
) -> dict[str, object]:
    """Per-cell accuracy on ``real`` 1080p photos, each read with its style's calibration."""
    visible = right = unread = wrong = hidden = hidden_misread = 0
    refused: dict[str, int] = {}
    refusals: list[str] = []
    wrong_cells: list[str] = []
    hidden_wrong: list[str] = []
    times: list[float] = []
    cell_px: list[float] = []
    files: list[str] = []
    for k in range(count):
        seed = seed_base + k
        style = k % len(STYLES)
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels)
        cond = sample_real_conditions(rng, 1920, 1080, style)
        rendered = render(board, scene, cond, seed)
        path = rendered.save(tmp / f"real_{k}")
        files.append(str(path))
        start = time.perf_counter()
        try:
            obs = observe(path, board, calibration=_cal(cals, style), strict=True)
        except VisionError as exc:
            reason = refusal_kind(str(exc))
            refused[reason] = refused.get(reason, 0) + 1
            refusals.append(f"seed {seed} style {style} ({len(rendered.occluded)} cells under a hand): {exc}")
            continue
        times.append(time.perf_counter() - start)
        cell_px.append(obs.registration.cell_px)
        occluded = set(rendered.occluded)
        for name, truth in rendered.cells.items():
            got = obs.cells[name]
            ok = got.occupant == truth["occupant"] and got.terrain == truth["terrain"]
            confident = name not in obs.unreadable
            if name in occluded:
                hidden += 1
                hidden_misread += confident and not ok
                if confident and not ok:
                    hidden_wrong.append(f"seed {seed} {name}: read {got.occupant}/{got.terrain}")
                continue
            visible += 1
            if not confident:
                unread += 1
            elif ok:
                right += 1
            else:
                wrong += 1
                wrong_cells.append(
                    f"seed {seed} {name}: truth {truth['occupant']}/{truth['terrain']}, read "
                    f"{got.occupant}/{got.terrain} ({got.confidence:.2f})"
                )
    return {
        "photos": count,
        "size": "1920x1080",
        "read": count - sum(refused.values()),
        "refused": refused,
        "refusals": refusals,
        "cells_visible": visible,
        "cells_right": right,
        "cells_unread": unread,
        "cells_confidently_wrong": wrong,
        "accuracy": right / visible if visible else None,
        "unread_rate": unread / visible if visible else None,
        "confidently_wrong_rate": wrong / visible if visible else None,
        "hidden_by_hands": hidden,
        "hidden_misread": hidden_misread,
        "hidden_misread_cells": hidden_wrong[:40],
        "cell_px_range": [min(cell_px), max(cell_px)] if cell_px else None,
        "seconds_median": statistics.median(times) if times else None,
        "wrong_cells": wrong_cells[:40],
        "_files": files,
    }


def refusal_kind(text: str) -> str:
    """The reason class of a refusal message: blur, dark, hand (cells hidden by a hand or
    something over the board), no-board, cells (low confidence) or other."""
    low = text.lower()
    if "blur" in low:
        return "blur"
    if "dark" in low:
        return "dark"
    if "hand or something" in low:
        return "hand"
    if "could not be read" in low or "unreadable" in low or "confidence" in low:
        return "cells"
    if "board" in low or "marker" in low:
        return "no-board"
    return "other"


def clutter(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A sharp photo without a board: a table with papers, a mug, pens (random shapes)."""
    img = np.empty((height, width, 3), np.uint8)
    img[:] = rng.integers(60, 200, 3).tolist()
    for _ in range(40):
        colour = rng.integers(0, 256, 3).tolist()
        x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
        kind = int(rng.integers(0, 3))
        if kind == 0:
            w, h = int(rng.integers(40, 500)), int(rng.integers(40, 500))
            cv2.rectangle(img, (x, y), (x + w, y + h), colour, -1)
        elif kind == 1:
            cv2.circle(img, (x, y), int(rng.integers(20, 200)), colour, -1)
        else:
            end = (int(rng.integers(0, width)), int(rng.integers(0, height)))
            cv2.line(img, (x, y), end, colour, int(rng.integers(2, 12)))
    noise = rng.normal(0, 4, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def refuse_set(
    board: BoardSpec,
    count: int,
    tmp: Path,
    labels: dict[str, list[str]],
    cals: dict[int, object],
    seed_base: int,
) -> dict[str, object]:
    """Photos that must be refused, each with its reason: heavy blur (σ 5-9 px), too dark
    (exposure ×0.04-0.08), no board (a sharp photo of a cluttered table, no board)."""
    out: dict[str, dict[str, int]] = {}
    notes: list[str] = []
    for kind in ("blur", "dark", "no-board"):
        tally = {"photos": 0, "refused_right": 0, "refused_other": 0, "read": 0}
        for k in range(count):
            seed = seed_base + 80_000 + 1000 * ("blur", "dark", "no-board").index(kind) + k
            style = k % len(STYLES)
            rng = np.random.default_rng(seed)
            scene = random_scene(board, rng, labels)
            cond = sample_real_conditions(rng, 1920, 1080, style, hands=0)
            if kind == "blur":
                cond = dataclasses.replace(cond, blur=float(rng.uniform(5, 9)))
            elif kind == "dark":
                cond = dataclasses.replace(cond, exposure=float(rng.uniform(0.04, 0.08)))
            if kind == "no-board":
                img = clutter(rng, 1920, 1080)
                path = tmp / f"none_{k}.jpg"
                cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
            else:
                path = render(board, scene, cond, seed).save(tmp / f"{kind}_{k}")
            tally["photos"] += 1
            try:
                observe(path, board, calibration=_cal(cals, style))
            except VisionError as exc:
                got = refusal_kind(str(exc))
                tally["refused_right" if got == kind else "refused_other"] += 1
                if got != kind:
                    notes.append(f"{kind} seed {seed}: {exc}")
                continue
            tally["read"] += 1
            notes.append(f"{kind} seed {seed}: read")
        out[kind] = tally
    return {**out, "notes": notes[:30]}


def real_sequences(
    board: BoardSpec,
    games: int,
    turns: int,
    tmp: Path,
    cals: dict[int, object],
    seed_base: int,
    size: tuple[int, int] = (1920, 1080),
) -> dict[str, object]:
    """Random games photographed (``real`` profile, no hands) after every turn and read against
    the tracked position with the style's calibration; a question is answered with the truth."""
    counts = {
        "explained_right": 0,
        "silently_wrong": 0,
        "questions": 0,
        "answered_right": 0,
        "answered_wrong": 0,
        "unsettled": 0,
        "unexplained": 0,
        "refused": 0,
    }
    notes: list[str] = []
    total = 0
    for g in range(games):
        rng = random.Random(seed_base + 70_000 + g)
        style = g % len(STYLES)
        cal = _cal(cals, style)
        state = setup_state()
        bot = RandomBot(ENGINE, stop_chance=0.25)
        for t in range(turns):
            if state.phase is Phase.OVER:
                break
            before, side = state, state.active
            while state.active is side and state.phase is not Phase.OVER:
                action = bot.choose(state, rng).action
                state = ENGINE.apply(state, action, NoDice()).state  # type: ignore[assignment]
            seed = seed_base + 100_000 + 1000 * g + t
            cond = sample_real_conditions(np.random.default_rng(seed), *size, style, hands=0)
            path = render(board, scene_of(state), cond, seed).save(tmp / f"rseq_{g}_{t}")
            total += 1
            tag = f"game {g} turn {t}"
            try:
                obs = observe(path, board, calibration=cal, labels=legion_labels(before))
            except VisionError as exc:
                counts["refused"] += 1
                notes.append(f"{tag}: refused: {exc}")
                continue
            report = infer_turn(before, obs.read_cells(), identity=obs.identity)
            asked = report.status == "ambiguous"
            if asked:
                counts["questions"] += 1
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
                report = infer_turn(before, obs.read_cells(), identity=obs.identity, answers=answers)
            if report.status == "explained":
                assert report.position is not None
                got = ENGINE.from_position(state.tables.table_set, report.position.model_dump(mode="json"), "x")
                if got.where != state.where or got.winner != state.winner:
                    counts["answered_wrong" if asked else "silently_wrong"] += 1
                    notes.append(f"{tag}: WRONG {report.moves}")
                else:
                    counts["answered_right" if asked else "explained_right"] += 1
            elif asked:
                counts["unsettled"] += 1
                notes.append(f"{tag}: still {report.status} after the answers")
            elif report.status == "unexplained":
                counts["unexplained"] += 1
                notes.append(
                    f"{tag}: unexplained: " + ", ".join(f"{d.cell} {d.problem}" for d in report.disagreements[:4])
                )
            else:
                counts["refused"] += 1
                notes.append(f"{tag}: unreadable {report.unreadable}")
    return {"turns": total, "size": f"{size[0]}x{size[1]}", **counts, "notes": notes[:40]}


def reader_speed(board: BoardSpec, files: list[str], cals: dict[int, object]) -> dict[str, object]:
    """Median seconds of ``observe`` (file decoding included, no labels) per photo."""
    times: list[float] = []
    cpu: list[float] = []
    for k, f in enumerate(files):
        cal = _cal(cals, k % len(STYLES))
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            observe(Path(f), board, calibration=cal, strict=False)
        except VisionError:
            continue
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    # on a machine shared with other jobs the wall time depends on their load; the process's
    # CPU time (all its threads) does not, and bounds the wall time on an idle machine
    return {
        "photos": len(times),
        "median_s": statistics.median(times) if times else None,
        "p90_s": float(np.percentile(times, 90)) if times else None,
        "cpu_median_s": statistics.median(cpu) if cpu else None,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def speed_files_12mp(board: BoardSpec, count: int, tmp: Path, seed_base: int) -> list[str]:
    files = []
    labels = cyrus_labels(setup_state())
    for k in range(count):
        seed = seed_base + 60_000 + k
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels)
        cond = sample_real_conditions(rng, 4000, 3000, k % len(STYLES), hands=0)
        files.append(str(render(board, scene, cond, seed).save(tmp / f"big_{k}")))
    return files


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
    parser.add_argument(
        "--seeds",
        choices=("eval", "dev"),
        default="eval",
        help="eval: seeds from 2000000 (never used in development); dev: from 1000000.",
    )
    parser.add_argument(
        "--classic",
        action="store_true",
        help="Also run the earlier benchmark on the classic renders (accuracy, blur, 12 MP "
        "sequences with the default colours).",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "vision.json")
    args = parser.parse_args()
    base = SEED_REAL_EVAL if args.seeds == "eval" else SEED_REAL_DEV
    n_real, n_refuse, r_games, r_turns, n_big = (12, 3, 2, 4, 2) if args.quick else (300, 10, 10, 20, 10)
    board = load_board("cyrus-pyxis")
    start = time.perf_counter()
    setup = setup_state()
    labels = cyrus_labels(setup)
    result: dict[str, object] = {"machine": machine(), "seeds_from": base}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        print(f"calibrating {len(STYLES)} colour styles ...", flush=True)
        cals = style_calibrations(board, tmp, base)
        result["calibrations"] = {str(k): (v if isinstance(v, str) else "ok") for k, v in cals.items()}
        print(f"real set: {n_real} photos at 1920x1080 ...", flush=True)
        real = real_accuracy(board, n_real, tmp, labels, cals, base)
        print(f"refuse set: 3 x {n_refuse} photos ...", flush=True)
        refuse = refuse_set(board, n_refuse, tmp, labels, cals, base)
        print(f"real sequences: {r_games} games x {r_turns} turns ...", flush=True)
        rseq = real_sequences(board, r_games, r_turns, tmp, cals, base)
        print("speed ...", flush=True)
        hd = reader_speed(board, real.pop("_files")[:30], cals)  # type: ignore[arg-type]
        big = reader_speed(board, speed_files_12mp(board, n_big, tmp, base), cals)
        result.update(
            {"real": real, "refuse": refuse, "real_sequences": rseq, "speed_real_1080p": hd, "speed_real_12mp": big}
        )
        if args.classic:
            n_acc, n_blur, games, turns = (20, 6, 2, 5) if args.quick else (300, 40, 10, 20)
            print(f"classic accuracy set: {n_acc} photos ...", flush=True)
            acc = accuracy_set(board, n_acc, tmp, labels)
            blur = blur_set(board, n_blur, tmp, labels)
            seq = sequences(board, games, turns, tmp, (4000, 3000))
            all_labels = legion_labels(setup)
            speed_12 = speed(board, seq.pop("_files")[:20], all_labels)  # type: ignore[arg-type]
            speed_hd = speed(board, acc.pop("_files")[:20], all_labels)  # type: ignore[arg-type]
            result.update(
                {"accuracy": acc, "heavy_blur": blur, "sequences": seq, "speed_12mp": speed_12, "speed_1080p": speed_hd}
            )
    result["wall_seconds"] = round(time.perf_counter() - start, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    mach = result["machine"]
    print(f"\nmachine: {mach['cpu']}, {mach['cores']} cores, OpenCV {cv2.__version__}")  # type: ignore[index]
    print(f"calibrations: {result['calibrations']}")
    print(
        f"real: {real['read']}/{real['photos']} photos read, refused {real['refused']}; cells "
        f"{real['cells_right']}/{real['cells_visible']} right ({real['accuracy'] or 0:.3%}), "
        f"{real['cells_unread']} unread, {real['cells_confidently_wrong']} confidently wrong "
        f"({real['confidently_wrong_rate'] or 0:.4%}); cell px {real['cell_px_range']}; "
        f"hidden {real['hidden_by_hands']} ({real['hidden_misread']} misread)"
    )
    print(f"refuse set: { {k: v for k, v in refuse.items() if k != 'notes'} }")
    print(
        f"real sequences: {rseq['turns']} turns: {rseq['explained_right']} right, "
        f"{rseq['silently_wrong']} silently wrong, {rseq['questions']} with questions "
        f"({rseq['answered_right']} right after answers, {rseq['answered_wrong']} wrong), "
        f"{rseq['unexplained']} unexplained, {rseq['refused']} refused"
    )
    print(
        f"reader speed: 1080p {hd['median_s']} s, 12 MP {big['median_s']} s (median wall); CPU "
        f"{hd['cpu_median_s']} s, {big['cpu_median_s']} s; load average {big['load_average']}"
    )
    if args.classic:
        acc_cells = result["accuracy"]["cells"]  # type: ignore[index]
        print(
            f"classic: {acc_cells['right']}/{acc_cells['visible']} right "
            f"({acc_cells['accuracy']:.4%}), {acc_cells['doubted']} doubted, "
            f"{acc_cells['wrong']} wrong; sequences {result['sequences']}"  # type: ignore[index]
        )
    print(f"wrote {args.out} in {result['wall_seconds']} s")


if __name__ == "__main__":
    main()
