"""vision.labels: telling the legions of one side apart by their printed labels."""

from __future__ import annotations

from pathlib import Path

from referee.games.cyrus_pyxis.capture import legion_cells, legion_labels
from vision.pipeline import observe

from .helpers import board, scene_of, setup_state, shoot


def test_each_counter_matches_its_own_label_best(tmp_path: Path) -> None:
    state = setup_state()
    path, _ = shoot(
        tmp_path, scene_of(state), 51, "moderate", (2400, 1800), hands=0, fill=0.9, blur=0.8
    )
    obs = observe(path, board(), labels=legion_labels(state))
    assert obs.identity is not None
    truth = legion_cells(state)
    assert set(obs.identity) == set(truth)
    best = {cell: max(scores, key=scores.__getitem__) for cell, scores in obs.identity.items()}
    right = sum(best[cell] == legion for cell, legion in truth.items())
    assert right >= 38  # of 40
    for cell, legion in truth.items():  # the true legion always stays a candidate (margin 0.12)
        scores = obs.identity[cell]
        assert scores[legion] >= max(scores.values()) - 0.12, (cell, legion, scores)
        side = legion_labels(state)[legion][0]
        assert all(legion_labels(state)[other][0] == side for other in scores)


def test_without_labels_no_identity_is_computed(tmp_path: Path) -> None:
    path, _ = shoot(tmp_path, scene_of(setup_state()), 52, "clean")
    assert observe(path, board()).identity is None
