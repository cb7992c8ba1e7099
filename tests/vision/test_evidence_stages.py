"""The per-cell evidence is computed once: each later stage returns a new value and leaves the
evidence it was given as it was (issue 34, "evidence computed once, immutable")."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import adaptive, trees
from vision.config import VisionConfig
from vision.evidence import CellEvidence
from vision.pipeline import Reading, read

from .helpers import board, scene_of, setup_state, shoot


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Reading:
    """A photo with a hand reaching in, read (its evidence carries the occluder's reach)."""
    path, rendered = shoot(tmp_path_factory.mktemp("hand"), scene_of(setup_state()), 21, "moderate", hands=1)
    assert rendered.occluded, "the hand should hide some cells"
    return read(path, board(), strict=False)


def _snapshot(ev: CellEvidence) -> dict[str, object]:
    return {
        f.name: np.array(v, copy=True) if isinstance(v, np.ndarray) else v
        for f in dataclasses.fields(ev)
        for v in [getattr(ev, f.name)]
    }


def _changed(ev: CellEvidence, before: dict[str, object]) -> list[str]:
    """The fields of ``ev`` that differ from ``before`` (arrays compared element by element)."""
    changed = []
    for name, old in before.items():
        now = getattr(ev, name)
        if isinstance(old, np.ndarray):
            same = isinstance(now, np.ndarray) and np.array_equal(old, now, equal_nan=True)
        else:
            same = now is old
        if not same:
            changed.append(name)
    return changed


def _grid(r: Reading) -> tuple[np.ndarray, np.ndarray]:
    b, p, ppc = board(), r.warped.pad_px, r.warped.ppc
    return r.warped.grid(b.rows, b.cols), r.warped.inside[p : p + b.rows * ppc, p : p + b.cols * ppc]


def test_the_evidence_cannot_be_written_into(reading: Reading) -> None:
    ev = reading.evidence
    assert ev.reached is not None and (ev.reached > 0).any(), "the hand's reach is part of the evidence"
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.reached = None  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        ev.side_share[0, 0] = 1.0


def test_reading_again_beyond_an_occluder_leaves_the_evidence_given(reading: Reading) -> None:
    ev, cfg = reading.evidence, VisionConfig().classify
    grid, inside = _grid(reading)
    before = _snapshot(ev)
    away = inside.copy()
    away[:, : away.shape[1] // 3] = False  # a third of the board taken as under an occluder
    cells = np.ones(len(ev.on_counter), bool)
    again = adaptive.beyond(grid, away, reading.white, board(), ev, cells, cfg)
    assert _changed(ev, before) == []
    assert again is not ev and again.seen_beyond is not None and again.lean_beyond is not None
    assert again.seen_beyond.min() < 0.5 < again.seen_beyond.max()
    assert np.isfinite(again.lean_beyond[ev.on_counter]).any()
    assert _changed(again, {k: v for k, v in before.items() if not k.endswith("_beyond")}) == []


def test_the_occluder_reach_and_the_decisions_leave_the_evidence_given(reading: Reading) -> None:
    ev = reading.evidence
    before = _snapshot(ev)
    wider = adaptive.with_reach(ev, np.ones(len(ev.on_counter)), None)
    assert wider.reached is not None and wider.reached.min() == 1.0 and wider.reached_strict is None
    floor = VisionConfig().classify.min_confidence
    first = trees.decide(ev, board(), reading.lines, reading.washed, reading.inside, floor).cells
    trees.decide(wider, board(), reading.lines, reading.washed, reading.inside, floor)
    assert _changed(ev, before) == []
    assert trees.decide(ev, board(), reading.lines, reading.washed, reading.inside, floor).cells == first


def test_the_check_sees_a_changed_array(reading: Reading) -> None:
    """The comparison the tests above rely on tells a changed array from an unchanged one."""
    before = _snapshot(reading.evidence)
    assert _changed(reading.evidence, before) == []
    moved = np.array(reading.evidence.side_share, copy=True)
    moved[0, 0] += 1.0
    assert _changed(reading.evidence, {**before, "side_share": moved}) == ["side_share"]


def test_an_array_given_to_the_evidence_stays_the_callers(reading: Reading) -> None:
    given = np.array(reading.evidence.texture, copy=True)
    ev = dataclasses.replace(reading.evidence, texture=given)
    given[0] = given[0] + 1.0  # the caller's array is still writable ...
    assert ev.texture[0] == reading.evidence.texture[0]  # ... and a write there does not reach the evidence
