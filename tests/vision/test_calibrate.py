"""vision.calibrate: learning a set's own colours from a photo of a known position."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from referee.games.cyrus_pyxis.capture import cell_contents, legion_cells, legion_labels
from vision.calibrate import calibrate
from vision.calibration import Calibration, load_calibration, save_calibration
from vision.errors import LowConfidenceError, VisionError
from vision.pipeline import observe
from vision.render import render, sample_conditions

from .helpers import board, play, scene_of, setup_state

# A set printed in other shades than the board tables say (a redder violet, a teal blue, a
# paler sand): what a user's own box under their own lamp looks like to the default colours.
USER_SET = dataclasses.replace(
    board(),
    side_colours={"greek": (150, 62, 140), "persian": (28, 112, 168)},
    terrain_colours={"plain": (214, 206, 170), "forest": (58, 104, 58), "hill": (160, 116, 78)},
)


def user_photo(
    tmp: Path, state: object, seed: int, name: str
) -> tuple[Path, dict[str, dict[str, str | None]]]:
    import numpy as np

    cond = dataclasses.replace(
        sample_conditions(np.random.default_rng(seed), "moderate", 1280, 960), hands=0
    )
    rendered = render(USER_SET, scene_of(state), cond, seed)  # type: ignore[arg-type]
    return rendered.save(tmp / name), rendered.cells


@pytest.fixture(scope="module")
def learned(tmp_path_factory: pytest.TempPathFactory) -> Calibration:
    tmp = tmp_path_factory.mktemp("cal")
    state = setup_state()
    path, _ = user_photo(tmp, state, 41, "known")
    return calibrate(
        path,
        board(),
        cell_contents(state),
        legions=legion_labels(state),
        legion_at=legion_cells(state),
    )


def later_position() -> object:
    return play(
        setup_state(), "Pyxis F4", "Samos G5", "Praxitèle A6", "done", "Cyrus G9", "Suze I8", "done"
    )


def test_calibration_measures_what_the_known_position_shows(learned: Calibration) -> None:
    assert set(learned.measured) == {"side:greek", "side:persian", "plain", "forest", "hill"}
    assert all(learned.pixels.classes[k].pixels > 100 for k in learned.measured)
    assert len(learned.templates) == 40


def test_a_calibrated_set_is_read_where_the_default_colours_fail(
    tmp_path: Path, learned: Calibration
) -> None:
    path, truth = user_photo(tmp_path, later_position(), 42, "later")
    obs = observe(path, board(), calibration=learned)
    wrong = [
        n
        for n, c in obs.cells.items()
        if (c.occupant, c.terrain) != (truth[n]["occupant"], truth[n]["terrain"])
        or n in obs.unreadable
    ]
    assert wrong == []
    try:
        default = observe(path, board())
    except LowConfidenceError as err:
        assert len(err.cells) > 28
    else:
        bad = [
            n
            for n, c in default.cells.items()
            if n in default.unreadable
            or (c.occupant, c.terrain) != (truth[n]["occupant"], truth[n]["terrain"])
        ]
        assert len(bad) >= 10


def test_calibration_files_round_trip(tmp_path: Path, learned: Calibration) -> None:
    path = tmp_path / "cal.json"
    save_calibration(learned, path)
    again = load_calibration(path, board())
    assert again == learned
    assert set(again.label_templates(80)) == set(learned.templates)


def test_a_calibration_for_another_board_is_refused(tmp_path: Path, learned: Calibration) -> None:
    path = tmp_path / "cal.json"
    path.write_text(
        learned.model_copy(update={"board": "iliad"}).model_dump_json(), encoding="utf-8"
    )
    with pytest.raises(VisionError, match="for 'iliad'"):
        load_calibration(path, board())


@pytest.mark.parametrize(
    "content", ["not json", json.dumps({"format": "something else"}), json.dumps([1, 2])]
)
def test_a_file_that_is_not_a_calibration_is_refused(tmp_path: Path, content: str) -> None:
    path = tmp_path / "cal.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(VisionError, match="calibration"):
        load_calibration(path, board())


def test_a_photo_of_another_position_is_not_learned_from(tmp_path: Path) -> None:
    state = setup_state()
    path, _ = user_photo(tmp_path, later_position(), 43, "other")
    with pytest.raises(VisionError, match="does not show the known position"):
        calibrate(path, board(), cell_contents(state))


def test_a_known_position_wrong_in_one_cell_is_refused_naming_it(tmp_path: Path) -> None:
    # the photo shows the set-up; the position typed says a bare plain cell holds a Greek
    # counter: the learned colours read that cell back bare and sure, and one sure cell read
    # otherwise is enough to refuse (a share of the cells let one through before)
    state = setup_state()
    path, _ = user_photo(tmp_path, state, 41, "known")
    known = dict(cell_contents(state))
    inner = [name for name in board().cell_names() if name[0] not in "AL" and name[1:] not in {"1", "12"}]
    bare = next(name for name in inner if known[name] == (None, "plain"))
    known[bare] = ("greek", "plain")
    with pytest.raises(VisionError, match=rf"does not show the known position: 1 cell disagrees \({bare}\)"):
        calibrate(path, board(), known)
