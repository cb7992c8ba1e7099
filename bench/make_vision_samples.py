"""Writes the committed sample photos of samples/cyrus-pyxis/photos/ (deterministic seeds).

    python bench/make_vision_samples.py

Each photo is a render (vision.render) of a known position, saved with its ground truth
(``<photo>.truth.json``); ``expected.yaml`` says what ``referee`` makes of each. The tests
(tests/vision/test_samples.py) check those expectations against the committed files.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.dice import NoDice  # noqa: E402
from referee.games.cyrus_pyxis.engine import CyrusEngine  # noqa: E402
from referee.games.cyrus_pyxis.state import CyrusState  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.render import Conditions, Counter, Scene, render, sample_conditions  # noqa: E402

OUT = ROOT / "samples" / "cyrus-pyxis" / "photos"
ENGINE = CyrusEngine()
SIZE = (2000, 1500)
TURN = ("Pyxis F4", "Samos G5", "Praxitèle A6", "done")


def setup_state() -> CyrusState:
    state = ENGINE.sample_start()
    assert isinstance(state, CyrusState)
    return state


def play(state: CyrusState, *texts: str) -> CyrusState:
    for text in texts:
        state = ENGINE.apply(state, ENGINE.parse(state, text), NoDice()).state  # type: ignore[assignment]
    return state


def scene_of(state: CyrusState, markers: bool = True) -> Scene:
    grid = state.tables.grid
    return Scene(
        terrain={grid.name(c): t.value for c, t in state.terrain.items()},
        counters={
            grid.name(c): Counter(state.tables.by_id[lid].side.value, state.tables.by_id[lid].short)
            for lid, c in state.where.items()
        },
        markers=markers,
    )


def shoot(
    name: str,
    state: CyrusState,
    seed: int,
    level: str = "moderate",
    markers: bool = True,
    **changes: object,
) -> None:
    cond: Conditions = sample_conditions(np.random.default_rng(seed), level, *SIZE)  # type: ignore[arg-type]
    cond = dataclasses.replace(cond, **{"hands": 0, "fill": 0.9, "jpeg": 85, **changes})  # type: ignore[arg-type]
    rendered = render(load_board("cyrus-pyxis"), scene_of(state, markers), cond, seed)
    path = rendered.save(OUT / name)
    truth = path.with_suffix(".json")
    truth.rename(path.with_name(f"{path.stem}.truth.json"))
    data = json.loads(path.with_name(f"{path.stem}.truth.json").read_text())
    data.pop("homography")
    path.with_name(f"{path.stem}.truth.json").write_text(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    )
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1000} kB")


def write_position(name: str, state: CyrusState, comment: str) -> None:
    data = ENGINE.to_position(state).model_dump(mode="json", exclude_defaults=True)
    text = yaml.safe_dump({"game": "cyrus-pyxis", **data}, allow_unicode=True, sort_keys=False)
    (OUT / name).write_text(f"# {comment}\n{text}", encoding="utf-8")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    setup = setup_state()
    turn1 = play(setup, *TURN)
    write_position(
        "setup-position.yaml",
        setup,
        "The sample set-up (samples/cyrus-pyxis/setup.yaml) as a position: what setup.jpg shows.",
    )
    shoot("setup", setup, 301, "clean", tilt_deg=12.0)
    shoot("turn1", turn1, 302, tilt_deg=24.0)
    shoot("turn1-three-markers", turn1, 303, missing_markers=(2,), tilt_deg=18.0)
    shoot("setup-hand", setup, 304, hands=1)
    shoot("blurred", turn1, 305, "heavy-blur", blur=12.0)
    expected = {
        "setup.jpg": {"with": "--game cyrus-pyxis", "greek": 20, "persian": 20, "unreadable": 0},
        "setup-hand.jpg": {"with": "--game cyrus-pyxis", "hidden_cells_flagged_not_misread": True},
        "turn1.jpg": {
            "with": "--position setup-position.yaml",
            "status": "explained",
            "moves": sorted(TURN[:-1]),
            "actions": "the three moves, then done",
        },
        "turn1-three-markers.jpg": {
            "with": "--position setup-position.yaml",
            "status": "explained",
            "moves": sorted(TURN[:-1]),
            "markers": [0, 1, 3],
        },
        "blurred.jpg": {"with": "--game cyrus-pyxis", "refused": "too blurred (exit 1)"},
    }
    header = (
        "# What referee makes of each sample photo (checked by tests/vision/test_samples.py).\n"
        "# Photos are renders of bench/make_vision_samples.py; <photo>.truth.json holds the\n"
        "# truth.\n"
    )
    (OUT / "expected.yaml").write_text(
        header + yaml.safe_dump(expected, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )


if __name__ == "__main__":
    main()
