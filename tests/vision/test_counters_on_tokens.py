"""Counters standing on tokens under a low, warm lamp (second renderer, issue 34): the counters'
own short shadows darken every band around them, so a token's band must be told from bare
board's against the photo's own bands (the band's brightness relative to the photo's usual
band, a feature of the fitted trees, ``vision.cell_features``). Every cell is read right or
asked about, never read wrong with confidence.

The scene is generated here: 24 counters of both sides spread over the board, two in three on a
hill or a forest, the others on bare board; the photo is lit by a low lamp of 3000 K giving most
of the light, in a bluish room light.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from referee.games.cyrus_pyxis.capture import cell_contents, legion_cells, legion_labels
from vision import tabletop
from vision.calibrate import calibrate
from vision.config import VisionConfig
from vision.pipeline import observe

from .helpers import board, counters_on_tokens, scene_of, setup_state

MIN = VisionConfig().classify.min_confidence
SIZE = (1280, 960)


@pytest.mark.parametrize(("box", "seed"), [(1, 82), (3, 84)])
def test_counters_on_tokens_under_a_low_warm_lamp_are_never_read_wrong(tmp_path: Path, box: int, seed: int) -> None:
    setup = setup_state()
    clean = tabletop.sample_conditions(np.random.default_rng(seed), *SIZE, box=box, clean=True)
    cal_path = tabletop.render(board(), scene_of(setup), clean, seed).save(tmp_path / "calibration")
    cal = calibrate(cal_path, board(), cell_contents(setup), legions=legion_labels(setup),
                    legion_at=legion_cells(setup))
    scene = counters_on_tokens(bare_every=3)
    lamp = dataclasses.replace(clean, lamp=(6.0, -4.0, 10.0), lamp_kelvin=3000.0, ambient_kelvin=7000.0,
                               lamp_share=0.8, tilt_deg=12.0)
    shot = tabletop.render(board(), scene, lamp, seed + 100)
    obs = observe(shot.save(tmp_path / "photo"), board(), calibration=cal, strict=False)
    wrong = [f"{name}: {cell.occupant}/{cell.terrain} at {cell.confidence}" for name, cell in obs.cells.items()
             if cell.confidence >= MIN
             and (cell.occupant, cell.terrain) != (shot.cells[name]["occupant"], shot.cells[name]["terrain"])]
    assert wrong == []
    read = [name for name in scene.counters if obs.cells[name].confidence >= MIN]
    assert len(read) >= len(scene.counters) - 3
