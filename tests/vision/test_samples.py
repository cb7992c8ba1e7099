"""The committed sample photos (samples/cyrus-pyxis/photos/) read as expected.yaml says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from referee.cli.common import read_data_file
from referee.games.cyrus_pyxis.capture import infer_turn, legion_labels
from referee.tables import data_root, load_table_set
from vision.errors import VisionError
from vision.pipeline import observe

from .helpers import ENGINE, board

PHOTOS = data_root("samples") / "cyrus-pyxis" / "photos"
EXPECTED = yaml.safe_load((PHOTOS / "expected.yaml").read_text(encoding="utf-8"))


def truth(photo: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((PHOTOS / photo).with_suffix(".truth.json").read_text())
    return data


def test_every_sample_is_small_and_described() -> None:
    photos = sorted(p.name for p in PHOTOS.glob("*.jpg"))
    assert photos == sorted(EXPECTED)
    assert sum(p.stat().st_size for p in PHOTOS.iterdir()) < 3_000_000


@pytest.mark.parametrize("photo", ["setup.jpg", "setup-hand.jpg"])
def test_sample_cells_are_read_as_their_truth(photo: str) -> None:
    obs = observe(PHOTOS / photo, board())
    cells = truth(photo)["cells"]
    assert isinstance(cells, dict)
    wrong = [
        n
        for n, c in obs.cells.items()
        if n not in obs.unreadable
        and (c.occupant, c.terrain) != (cells[n]["occupant"], cells[n]["terrain"])
    ]
    assert wrong == []
    want = EXPECTED[photo]
    if "unreadable" in want:
        assert len(obs.unreadable) == want["unreadable"]
        assert sum(c.occupant == "greek" for c in obs.cells.values()) == want["greek"]
    else:
        hidden = set(truth(photo)["occluded"])  # type: ignore[arg-type]
        assert hidden and set(obs.unreadable) <= hidden


@pytest.mark.parametrize("photo", ["turn1.jpg", "turn1-three-markers.jpg"])
def test_sample_turns_are_explained(photo: str) -> None:
    position = PHOTOS / "setup-position.yaml"
    state = ENGINE.from_position(
        load_table_set("cyrus-pyxis"), read_data_file(position), str(position)
    )
    obs = observe(PHOTOS / photo, board(), labels=legion_labels(state))
    report = infer_turn(state, obs.read_cells(), identity=obs.identity)
    assert report.status == EXPECTED[photo]["status"]
    assert sorted(report.moves) == EXPECTED[photo]["moves"]
    if "markers" in EXPECTED[photo]:
        assert list(obs.registration.markers) == EXPECTED[photo]["markers"]


def test_the_blurred_sample_is_refused() -> None:
    with pytest.raises(VisionError, match="blur"):
        observe(PHOTOS / "blurred.jpg", board())


def test_sample_position_is_the_setup(tmp_path: Path) -> None:
    position = PHOTOS / "setup-position.yaml"
    state = ENGINE.from_position(
        load_table_set("cyrus-pyxis"), read_data_file(position), str(position)
    )
    assert len(state.where) == 40 and len(state.terrain) == 40
