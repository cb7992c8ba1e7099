"""The fitted decision's trees (``vision.trees``): the numpy inference gives the probabilities the
fitting script printed, and a model file that is malformed or too large is refused in one line
naming the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision import trees
from vision.board import load_board
from vision.cell_features import feature_names
from vision.config import VisionConfig
from vision.errors import VisionError

ROOT = Path(__file__).resolve().parents[2]
MODEL = trees.MODEL_FILE
ROWS = ROOT / "tests" / "vision" / "data" / "cell_trees_rows.json"
"""A few training rows with the probabilities scikit-learn gave them (``bench/fit_cell_trees.py
--rows``)."""


def test_the_numpy_inference_gives_the_fitting_scripts_probabilities() -> None:
    model = trees.load_trees(MODEL)
    stored = json.loads(ROWS.read_text(encoding="utf-8"))
    x = np.array([[np.nan if v is None else v for v in row] for row in stored["rows"]], np.float64)
    np.testing.assert_allclose(model.probabilities(x), np.array(stored["probabilities"]), atol=1e-6)


def test_the_shipped_model_reads_the_boards_features_and_contents() -> None:
    board = load_board("cyrus-pyxis")
    model = trees.default_trees()
    trees.check_board(model, feature_names(board), board)
    assert set(model.contents) <= {(o, t) for o in (None, *board.sides) for t in board.terrains}


def _member(split: float = 0.5) -> dict[str, object]:
    """One member: one stump per content, splitting feature ``a`` at ``split``."""
    return {"baseline": [0.0, 0.0],
            "trees": {"class": [0, 1], "root": [0, 3], "feature": [0, 0, 0, 0, 0, 0],
                      "threshold": [split, 0, 0, split, 0, 0], "missing_left": [1, 0, 0, 1, 0, 0],
                      "left": [1, 0, 0, 4, 0, 0], "right": [2, 0, 0, 5, 0, 0],
                      "value": [0, 2.0, -2.0, 0, -2.0, 2.0], "leaf": [0, 1, 1, 0, 1, 1]}}


def _model() -> dict[str, object]:
    """A tiny valid model: one feature, two contents, one member of one stump per content."""
    return {"format": trees.FORMAT, "features": ["a"], "contents": [[None, "plain"], ["greek", "plain"]],
            "depth": 1, "fitted": {}, "members": [_member()]}


def _tables(data: dict[str, object], k: int = 0) -> dict[str, object]:
    members = data["members"]
    assert isinstance(members, list)
    out = members[k]
    assert isinstance(out, dict)
    return out


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_small_model_reads_as_its_trees_say(tmp_path: Path) -> None:
    model = trees.load_trees(_write(tmp_path, _model()))
    p = model.probabilities(np.array([[0.0], [1.0], [np.nan]]))
    assert p[0, 0] > 0.98 and p[1, 1] > 0.98  # left of the threshold: content 0; right: content 1
    assert p[2, 0] > 0.98  # a missing value goes where the node says
    np.testing.assert_allclose(p.sum(axis=1), 1.0)


def test_the_training_shares_are_the_softmax_of_the_baseline(tmp_path: Path) -> None:
    data = _model()
    _tables(data)["baseline"] = [float(np.log(0.8)), float(np.log(0.2))]
    model = trees.load_trees(_write(tmp_path, data))
    np.testing.assert_allclose(model.frequency(), [0.8, 0.2])
    np.testing.assert_allclose(trees.default_trees().frequency().sum(), 1.0)


@pytest.mark.parametrize(("field", "value"), [
    ("format", "other/1"),
    ("features", "a"),
    ("format", "referee-cell-trees/1"),  # one model, before the bag (w59a)
    ("contents", [["greek"]]),
    ("members", []),
    ("members", [_member(), 3]),
    ("depth", 999),
    ("depth", 0),  # shallower than its trees: a walk would stop on an inner node
])
def test_a_malformed_model_is_refused_naming_the_field(tmp_path: Path, field: str, value: object) -> None:
    data = _model()
    data[field] = value
    path = _write(tmp_path, data)
    with pytest.raises(VisionError) as caught:
        trees.load_trees(path)
    message = str(caught.value)
    assert str(path) in message and field in message and "\n" not in message


@pytest.mark.parametrize(("field", "value"), [
    ("left", [1, 0, 0, 99, 0, 0]),
    ("feature", [5, 0, 0, 0, 0, 0]),
    ("value", [0, "x", 0, 0, 0, 0]),
    ("class", [0, 7]),
])
def test_a_tree_pointing_outside_itself_is_refused(tmp_path: Path, field: str, value: object) -> None:
    data = _model()
    data["members"] = [_member(), _member()]
    tables = _tables(data, 1)["trees"]
    assert isinstance(tables, dict)
    tables[field] = value
    path = _write(tmp_path, data)
    with pytest.raises(VisionError, match=rf"members\[1\]\.trees\.{field}"):
        trees.load_trees(path)


@pytest.mark.parametrize(("field", "value"), [("baseline", [0.0]), ("trees", {"class": [0]})])
def test_a_malformed_member_is_refused_naming_the_member_and_field(tmp_path: Path, field: str,
                                                                   value: object) -> None:
    data = _model()
    _tables(data)[field] = value
    path = _write(tmp_path, data)
    with pytest.raises(VisionError, match=rf"{path}: .*members\[0\]\.{field}") as caught:
        trees.load_trees(path)
    assert "\n" not in str(caught.value)


def test_a_bag_reads_the_mean_of_its_members_probabilities(tmp_path: Path) -> None:
    # w59a: the probability is the mean over the members of each member's probability
    one, other = _model(), _model()
    _tables(other)["trees"] = _member(2.5)["trees"]
    _tables(other)["baseline"] = [0.3, -0.1]
    bag = _model()
    bag["members"] = [_tables(one), _tables(other)]
    x = np.array([[0.0], [1.0], [3.0], [np.nan]])
    alone = [trees.load_trees(_write(tmp_path, m)).probabilities(x) for m in (one, other)]
    model = trees.load_trees(_write(tmp_path, bag))
    np.testing.assert_allclose(model.probabilities(x), (alone[0] + alone[1]) / 2, rtol=0, atol=1e-15)
    assert model.raw(x).shape == (4, 2, 2)
    # a bag of one member twice reads exactly as that member
    bag["members"] = [_tables(one), _tables(one)]
    np.testing.assert_array_equal(trees.load_trees(_write(tmp_path, bag)).probabilities(x), alone[0])


def test_a_bag_too_large_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _model()
    data["members"] = [_member(), _member(), _member()]
    path = _write(tmp_path, data)
    monkeypatch.setattr(trees, "MAX_MEMBERS", 2)
    with pytest.raises(VisionError, match="members"):
        trees.load_trees(path)
    monkeypatch.setattr(trees, "MAX_MEMBERS", 32)
    monkeypatch.setattr(trees, "MAX_TREES", 5)  # two trees a member, six in all: over the cap together
    with pytest.raises(VisionError, match=r"trees\.root"):
        trees.load_trees(path)


def test_an_oversized_or_broken_file_is_refused_before_parsing(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, _model())
    monkeypatch.setattr(trees, "MAX_FILE_BYTES", 10)
    with pytest.raises(VisionError, match="size"):
        trees.load_trees(path)
    monkeypatch.undo()
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(VisionError, match="json"):
        trees.load_trees(path)


def _photo(unsure: float, doubt: float) -> np.ndarray:
    """A photo's cells as the refusal reads them: ``unsure`` of them below the ask floor, the
    others read sure at ``1 - doubt``; ordinary colour columns."""
    board = load_board("cyrus-pyxis")
    names = feature_names(board)
    n = board.rows * board.cols
    x = np.zeros((n, len(names)))
    x[:, names.index("inside")] = 1.0
    for name, value in (("photo_counter_purity", 0.5), ("photo_texture", 0.01), ("photo_terrain_pixels", 1.0),
                        ("photo_other", 0.05)):
        x[:, names.index(name)] = value
    proba = np.full((n, 9), doubt / 8)
    proba[:, 0] = 1 - doubt
    weak = np.arange(n) < round(unsure * n)
    proba[weak] = 1 / 9
    return trees.photo_summary(proba, x, names, 0.9)


def test_a_photo_the_trees_read_sure_is_kept_and_one_they_read_barely_sure_throughout_is_refused() -> None:
    assert trees.photo_doubt(_photo(0.0, 0.001)) < trees.REFUSE_AT
    assert trees.photo_doubt(_photo(0.05, 0.005)) < trees.REFUSE_AT
    # read "sure" cell after cell, but each near the floor: the photo's colours fit badly
    assert trees.photo_doubt(_photo(0.1, 0.08)) > trees.REFUSE_AT


def test_a_settings_file_naming_the_removed_cascade_is_refused_naming_the_key(tmp_path: Path) -> None:
    # the trees are the only decision since 30 November: the cascade's switch and settings are
    # unknown keys, refused with the file and the key rather than silently ignored
    for key, value in (("decision", "cascade"), ("reach_cover", "0.2"), ("given_lean", "0.3")):
        old = tmp_path / f"{key}.yaml"
        old.write_text(f"classify:\n  {key}: {value}\n", encoding="utf-8")
        with pytest.raises(VisionError, match=rf"{key}\.yaml: classify\.{key}: "):
            VisionConfig.from_yaml(old)


def test_the_trees_as_tests_end_on_the_leaves_the_walk_ends_on() -> None:
    # w58a: the leaves are found by each tree's tests at once (Exits), not by walking the trees;
    # rows of every kind (missing values, values on a threshold) end where the walk ends
    model = trees.default_trees()
    assert model.exits is not None
    rng = np.random.default_rng(58)
    stored = json.loads(ROWS.read_text(encoding="utf-8"))
    real = np.array([[np.nan if v is None else v for v in row] for row in stored["rows"]], np.float64)
    noise = rng.random((200, len(model.features))) * rng.choice([0.01, 1.0, 100.0], (200, 1))
    noise[rng.random(noise.shape) < 0.1] = np.nan
    on_threshold = np.tile(real[:1], (50, 1))
    inner = ~model.leaf
    for row in on_threshold:
        k = rng.choice(np.flatnonzero(inner))
        row[model.feature[k]] = model.threshold[k]
    for x in (real, noise, on_threshold):
        np.testing.assert_array_equal(model.exits.leaf_values(x), model.value[model.walk(x)])


def test_a_tree_too_wide_for_the_tests_is_walked(tmp_path: Path) -> None:
    # a chain of stumps to the right, as deep as a model may be: one leaf more than the widest
    # integer has bits
    width = int(np.iinfo(trees.MASKS[-1]).bits) + 1
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    for k in range(width - 1):  # node 2k tests k (its left child 2k + 1 a leaf worth k)
        threshold += [float(k), 0.0]
        left += [2 * k + 1, 0]
        right += [2 * k + 2, 0]
        value += [0.0, float(k)]
    threshold, left, right, value = [*threshold, 0.0], [*left, 0], [*right, 0], [*value, -1.0]
    feature = [0] * len(value)
    leaf = [0, 1] * (width - 1) + [1]
    data = _model()
    data["depth"] = width - 1
    _tables(data)["trees"] = {"class": [0], "root": [0], "feature": feature, "threshold": threshold,
                     "missing_left": [0] * len(feature), "left": left, "right": right, "value": value, "leaf": leaf}
    model = trees.load_trees(_write(tmp_path, data))
    assert model.exits is None
    raw = model.raw(np.array([[0.5], [10.5], [1000.0]]))
    np.testing.assert_array_equal(raw[:, 0, 0], [1.0, 11.0, -1.0])
