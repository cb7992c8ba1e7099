"""The fitted decision: gradient-boosted trees over each cell's features
(:mod:`vision.cell_features`) giving the probability of every content the board allows (occupant
side or none, by terrain), evaluated with numpy.

The trees are fitted by ``bench/fit_cell_trees.py`` (scikit-learn's
``HistGradientBoostingClassifier``, on training photos of both renderers that no measurement
reads) and exported to :data:`MODEL_FILE`, JSON: no pickle, the file's size and every array's
length capped before use, every field checked. The file holds a *bag*: one or more members, each
a boosted model fitted by the same recipe on another part of the training photos (w59a: one fit
is one draw of the recipe, and a refit alone moved as many cells as the derivations it was to
judge). Each tree is a table of nodes (feature, threshold, where a missing value goes, children,
leaf value); a cell goes left where its feature is at most the threshold. A member's raw score
of a content is its baseline plus its trees' leaves, its probabilities their softmax; the bag's
probability is the mean of its members' probabilities (:meth:`Trees.probabilities` says why not
of their raw scores). All members' trees are evaluated in one pass. The fitted trees are one
fitted model (one tunable entry), however many members; their hyper-parameters, the number of
members and the partition of the photos among them are named in the file's ``fitted`` record
and in ``docs/vision.md``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.i18n import _
from vision.board import BoardSpec
from vision.cell_features import feature_names, features
from vision.decide import READ_INSIDE
from vision.errors import VisionError
from vision.evidence import CellEvidence

FORMAT = "referee-cell-trees/2"
"""Format: a bag of members (w59a); a file of the single-model format ``/1`` is refused."""
MODEL_FILE = Path(__file__).with_name("cell_trees.json")
MAX_FILE_BYTES = 8_000_000
"""Cap: the largest model file read."""
MAX_TREES = 20_000
"""Cap: the most trees a model may hold."""
MAX_NODES = 2_000_000
"""Cap: the most nodes, all trees together."""
MAX_DEPTH = 64
"""Cap: the deepest a tree may go (evaluation steps)."""
MAX_NAMES = 1000
"""Cap: the most features or contents a model may name."""
MAX_MEMBERS = 32
"""Cap: the most members a bag may hold."""

LIKELIHOOD_TEMPERATURE = 1.1
"""Fitted (``bench/fit_trees_photo.py``, 2026-11-30, w53b: the shipped model's training photos
each read by trees fitted without it, 149 881 visible cells): the photo's likelihood of a
content, what the rules' priors weigh (:class:`Decided`), is the trees' probability over the
training share of that content raised to ``1 / LIKELIHOOD_TEMPERATURE``: the value of a 0.1 grid
giving those cells' true contents the least log loss (0.03543 against 0.03547 untempered). Fitted
on the 3 545 cells the trees leave unsure alone it is 1.3 (1.4 for the trees before w53b), and
then the rules' 9 to 1 for a piece staying overrode bare cells the photo read right at
0.96-0.999: the likelihood is weighed on every cell the rules name, sure ones most of all."""
PHOTO_SUMMARY = ("unsure_share", "sure_doubt", "entropy", "photo_counter_purity", "photo_washed", "photo_other",
                 "photo_texture", "photo_terrain_pixels")
"""What the refusal reads of a photo (:func:`photo_summary`): the share of its cells the trees
leave unsure (below the ask floor, or partly outside the photo), their mean doubt (1 less the
probability) on the cells read sure, their mean entropy over all cells, and four of the
photo's colour columns (:data:`vision.cell_features.PHOTO`, and ``photo_other``)."""
REFUSE_WEIGHTS = (19.938528, 89.047781, -9.32446, -5.713879, 1.459661, 7.90772, 29.220832, 1.094602, -1.34891)
"""Fitted (``bench/fit_trees_photo.py``, 2026-11-30, w53b, 1 242 photos: the 1 106 training
photos of the shipped trees, each read by trees fitted without it; 56 glared of
``/tmp/w50a/glare`` and 80 under a wide glare of ``bench/render_glared_set.py``, read by the
shipped trees, which never saw them): the refusal's logistic, one weight per
:data:`PHOTO_SUMMARY` column and the intercept last; its value is the probability that the trees
read at least one visible cell of the photo sure and wrong."""
REFUSE_AT = 0.377318
"""Fitted (``bench/fit_trees_photo.py``): a photo whose refusal probability is above this is
refused, as is one with more than ``classify.max_unreadable`` of its cells unsure (too many
questions). The criterion: both together refuse no more of the training photos (each read by
trees fitted without it) and of the glared ones the shipped trees never saw (1 242 in all) than
the hand-set cascade's count of unsure cells refused (111, from the confidences the training
dumps recorded before the cascade was removed); the cells read sure and wrong left in the photos
read: 95 (the logistic fitted on every photo; 101 with each quarter's score from a fit without
it), the cascade's count 181, the trees' count of unsure cells alone 129."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]
Masks = npt.NDArray[np.unsignedinteger[Any]]
MASKS = (np.uint8, np.uint16, np.uint32, np.uint64)
"""Format: the integers a tree's leaves are numbered in, one bit each (:class:`Exits`), the
narrowest holding them all; a tree with more leaves than the widest's bits is walked instead."""


@dataclass(frozen=True)
class Exits:
    """Every tree's inner nodes as tests, to find where each row leaves each tree without walking
    it (the order of QuickScorer, Lucchese et al., 2015): a tree's leaves are numbered left to
    right, one bit each; a test a row fails (it would go right) rules out the leaves of the
    node's left branch, and the row ends on the first leaf no failed test rules out. Each tree
    has ``count`` tests (rows grouped by tree; a short tree's padded with tests ruling nothing
    out)."""

    feature: Ints
    """(trees × count,): the column each test reads."""
    threshold: Floats
    """(trees × count, 1): a row passes where its value is at most this, ..."""
    missing_left: npt.NDArray[np.bool_]
    """(trees × count, 1): ... or is missing (NaN) where this is set."""
    keeps: Masks
    """(trees × count, 1): the leaves a failed test leaves in, one bit each."""
    count: int
    values: Floats
    """(trees, leaves): each tree's leaf values, left to right (padded with zeros)."""

    def leaf_values(self, x: Floats) -> Floats:
        """Returns (rows, trees): the value of the leaf each row ends on in each tree."""
        n, trees = x.shape[0], self.values.shape[0]
        seen = np.ascontiguousarray(x.T)[self.feature]
        passed = (seen <= self.threshold) | (np.isnan(seen) & self.missing_left)
        kept = self.keeps | passed.astype(self.keeps.dtype) * np.iinfo(self.keeps.dtype).max
        left = np.bitwise_and.reduce(kept.reshape(trees, self.count, n), axis=1)
        # the lowest bit still set: its value is a power of two, exactly a float's
        first = np.frexp((left & (~left + left.dtype.type(1))).astype(np.float64))[1] - 1
        out: Floats = np.ascontiguousarray(self.values[np.arange(trees)[:, None], first].T)
        return out


@dataclass(frozen=True)
class Trees:
    """A fitted model: the feature names it reads, the contents it predicts and the trees of all
    its members, flattened (every tree's nodes one after the other; ``root``: each tree's first
    node), and the same trees as tests (``exits``; None where a tree has too many leaves for
    them)."""

    features: tuple[str, ...]
    contents: tuple[tuple[str | None, str], ...]
    baseline: Floats
    """(members, contents): each member's raw score before any tree."""
    tree_class: Ints
    """Per tree, the raw score it adds to: ``member × len(contents) + content`` (trees sorted by it)."""
    root: Ints
    feature: Ints
    threshold: Floats
    missing_left: npt.NDArray[np.bool_]
    left: Ints
    right: Ints
    value: Floats
    leaf: npt.NDArray[np.bool_]
    depth: int
    fitted: dict[str, Any]
    exits: Exits | None = None

    def raw(self, x: Floats) -> Floats:
        """Returns (rows, members, contents): each row's raw score per member and content (before
        the softmax): the baseline plus the leaves it ends on, found by the tests
        (:class:`Exits`), else by the walk (:meth:`walk`); both find the same leaves, and the
        sums are the same."""
        n = x.shape[0]
        values = self.exits.leaf_values(x) if self.exits is not None else self.value[self.walk(x)]
        out = np.tile(self.baseline.reshape(-1), (n, 1))
        # trees are kept grouped by member and content: one sum per group's run of columns
        scored = np.unique(self.tree_class)
        if scored.size:
            out[:, scored] += np.add.reduceat(values, np.searchsorted(self.tree_class, scored), axis=1)
        return out.reshape(n, *self.baseline.shape)

    def walk(self, x: Floats) -> Ints:
        """Returns (rows, trees): the leaf each row ends on in each tree, every tree walked
        ``depth`` steps at once (a leaf is its own child either way)."""
        n = x.shape[0]
        node = np.broadcast_to(self.root, (n, len(self.root))).copy()
        rows = np.arange(n)[:, None]
        for _step in range(self.depth):
            seen = x[rows, self.feature[node]]
            go_left = (seen <= self.threshold[node]) | (np.isnan(seen) & self.missing_left[node])
            node = np.where(go_left, self.left[node], self.right[node])
        return node

    def frequency(self) -> Floats:
        """Returns each content's share of the (weighted) training cells: per member the softmax
        of its baseline, the probability it starts from before any feature is read; their mean
        over the members."""
        e = np.exp(self.baseline - self.baseline.max(axis=1, keepdims=True))
        out: Floats = (e / e.sum(axis=1, keepdims=True)).mean(axis=0)
        return out

    def probabilities(self, x: Floats) -> Floats:
        """Returns each row's probability of each content (rows sum to 1): the mean over the
        members of each member's softmax.

        The mean of probabilities, not of raw scores (log-odds): a member sure of a wrong content
        where the others hesitate moves a mean of raw scores by its whole (unbounded) margin, and
        the bag then reads sure what one draw read sure; the mean of probabilities moves by at
        most ``1 / members`` for it, so a cell is read sure only where most members are. On the
        glared photos none of the members saw, it also had the lower log loss and ECE of the two
        (``bench/fit_cell_trees.py --unseen``, ``docs/vision.md``, w59a). A one-member bag
        reads exactly as its member."""
        raw = self.raw(x)
        raw -= raw.max(axis=2, keepdims=True)
        e = np.exp(raw)
        out: Floats = (e / e.sum(axis=2, keepdims=True)).mean(axis=1)
        return out


@dataclass(frozen=True)
class Decided:
    """The trees' reading of every cell: per cell the likeliest content and its probability
    (``cells``), and the probability of every content (``spread``, rows in board order, columns
    ``contents``) with the likelihood the photo gives each (``likelihood``: the probability over
    the training set's share of that content, tempered by :data:`LIKELIHOOD_TEMPERATURE`,
    normalised per cell; what the rules' priors weigh, :mod:`vision.prior`)."""

    cells: list[tuple[str | None, str, float]]
    contents: tuple[tuple[str | None, str], ...]
    spread: Floats
    likelihood: Floats
    doubt: float
    """The photo's refusal probability (:data:`REFUSE_WEIGHTS`); refused above :data:`REFUSE_AT`."""


def decide(ev: CellEvidence, board: BoardSpec, lines: Floats, washed: Floats, inside: Floats,
           floor: float) -> Decided:
    """Returns every cell's reading by the shipped model (:func:`default_trees`): its likeliest
    content and that content's probability, with the whole distribution and the photo's refusal
    probability (``floor``: the ask floor, ``classify.min_confidence``).

    Raises:
        VisionError: the shipped model is unreadable or fits another board.
    """
    model = default_trees()
    columns = check_board(model, feature_names(board), board)
    x = features(ev, board, lines, washed, inside)
    proba = model.probabilities(x[:, columns])
    best = proba.argmax(axis=1)
    cells = [(*model.contents[int(k)], float(proba[i, k])) for i, k in enumerate(best)]
    seen = np.exp((np.log(np.maximum(proba, 1e-300)) - np.log(model.frequency())) / LIKELIHOOD_TEMPERATURE)
    doubt = photo_doubt(photo_summary(proba, x, feature_names(board), floor))
    return Decided(cells, model.contents, proba, seen / seen.sum(axis=1, keepdims=True), doubt)


def photo_summary(proba: Floats, x: Floats, names: list[str], floor: float) -> Floats:
    """Returns the :data:`PHOTO_SUMMARY` of one photo from its cells' probabilities (rows: cells,
    any order of the contents) and features (``x``, columns ``names``); ``floor``: the ask floor."""
    conf = proba.max(axis=1)
    sure = (conf >= floor) & (x[:, names.index("inside")] >= READ_INSIDE)
    entropy = -(proba * np.log(np.clip(proba, 1e-12, 1.0))).sum(axis=1)
    first = x[0] if len(x) else np.full(len(names), np.nan)
    colours = [float(first[names.index(c)]) for c in PHOTO_SUMMARY[3:]]
    row = [1.0 - float(sure.mean()) if len(x) else 1.0, float((1 - conf[sure]).mean()) if sure.any() else 0.0,
           float(entropy.mean()) if len(x) else 0.0, *[0.5 if math.isnan(v) else v for v in colours]]
    return np.asarray(row, np.float64)


def photo_doubt(summary: Floats) -> float:
    """Returns the refusal's probability of a photo from its :func:`photo_summary`."""
    w = np.asarray(REFUSE_WEIGHTS, np.float64)
    return float(1.0 / (1.0 + math.exp(-float(summary @ w[:-1] + w[-1]))))


@cache
def default_trees() -> Trees:
    """The model shipped beside the reader (:data:`MODEL_FILE`), loaded once."""
    return load_trees(MODEL_FILE)


def load_trees(path: Path) -> Trees:
    """Returns the model in ``path``, checked.

    Raises:
        VisionError: unreadable, too large, or a field missing or malformed (the message names
            the file and the field).
    """
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _Bad("size")
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise _Bad("format")
        return _parse(data)
    except _Bad as bad:
        raise VisionError(_("{path}: not a valid cell model: {field}").format(path=path, field=bad.field)) from None
    except (OSError, ValueError, RecursionError):
        raise VisionError(_("{path}: not a valid cell model: {field}").format(path=path, field="json")) from None


def check_board(trees: Trees, names: list[str], board: BoardSpec) -> Ints:
    """Returns the columns of :func:`vision.cell_features.features` the model reads, in its order;
    refuses a model reading a feature not computed, or predicting a content ``board`` lacks.

    Raises:
        VisionError: the model does not fit the board.
    """
    contents = {(occ, ter) for occ in (None, *board.sides) for ter in board.terrains}
    if not set(trees.features) <= set(names) or len(set(trees.features)) != len(trees.features):
        raise VisionError(_("{path}: not a valid cell model: {field}").format(path=MODEL_FILE, field="features"))
    if not set(trees.contents) <= contents or len(set(trees.contents)) != len(trees.contents):
        raise VisionError(_("{path}: not a valid cell model: {field}").format(path=MODEL_FILE, field="contents"))
    out: Ints = np.array([names.index(f) for f in trees.features], np.intp)
    return out


class _Bad(Exception):
    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


def _parse(data: dict[str, Any]) -> Trees:
    features = _strings(data.get("features"), "features")
    contents = data.get("contents")
    if not isinstance(contents, list) or not contents or len(contents) > MAX_NAMES:
        raise _Bad("contents")
    pairs: list[tuple[str | None, str]] = []
    for item in contents:
        if not (isinstance(item, list) and len(item) == 2 and (item[0] is None or isinstance(item[0], str))
                and isinstance(item[1], str)):
            raise _Bad("contents")
        pairs.append((item[0], item[1]))
    members = data.get("members")
    if not isinstance(members, list) or not members or len(members) > MAX_MEMBERS:
        raise _Bad("members")
    tables: list[dict[str, Any]] = []
    for k, member in enumerate(members):
        if not isinstance(member, dict):
            raise _Bad(f"members[{k}]")
        tables.append(_member(member, f"members[{k}].", len(features), len(pairs), k,
                              sum(len(t["feature"]) for t in tables)))
    joined = {key: np.concatenate([t[key] for t in tables]) for key in tables[0] if key != "baseline"}
    if len(joined["root"]) > MAX_TREES:
        raise _Bad("trees.root")
    if len(joined["feature"]) > MAX_NODES:
        raise _Bad("trees.feature")
    depth = data.get("depth")
    if not isinstance(depth, int) or not 0 <= depth <= MAX_DEPTH:
        raise _Bad("depth")
    root, left, right, leaf = joined["root"], joined["left"], joined["right"], joined["leaf"]
    if not _reaches_leaves(root, left, right, leaf, depth):
        raise _Bad("depth")
    fitted = data.get("fitted", {})
    if not isinstance(fitted, dict):
        raise _Bad("fitted")
    # a leaf is its own child: walking on from it stays there; trees grouped by member and content
    inner, own = ~leaf, np.arange(len(leaf))
    order = np.argsort(joined["class"], kind="stable")
    feature = np.where(inner, joined["feature"], 0)
    left, right = np.where(inner, left, own), np.where(inner, right, own)
    threshold, missing_left, value = joined["threshold"], joined["missing_left"], joined["value"]
    return Trees(tuple(features), tuple(pairs), np.array([t["baseline"] for t in tables]), joined["class"][order],
                 root[order], feature, threshold, missing_left, left, right, value, leaf, depth, fitted,
                 _exits(root[order], feature, threshold, missing_left, left, right, value, leaf))


def _member(data: dict[str, Any], at: str, features: int, contents: int, k: int, offset: int) -> dict[str, Any]:
    """One member's baseline and trees, checked (``at``: the member's place, for the message),
    with its trees' classes numbered ``k × contents + content`` and its nodes from ``offset``."""
    baseline = _floats(data.get("baseline"), at + "baseline", contents)
    trees = data.get("trees")
    if not isinstance(trees, dict):
        raise _Bad(at + "trees")
    tree_class = _ints(trees.get("class"), at + "trees.class", MAX_TREES)
    root = _ints(trees.get("root"), at + "trees.root", MAX_TREES)
    if len(root) != len(tree_class) or (len(tree_class) and (tree_class.min() < 0 or tree_class.max() >= contents)):
        raise _Bad(at + "trees.class")
    feature = _ints(trees.get("feature"), at + "trees.feature", MAX_NODES)
    n = len(feature)
    threshold = _floats(trees.get("threshold"), at + "trees.threshold", n, infinite_ok=True)
    missing_left = _ints(trees.get("missing_left"), at + "trees.missing_left", n).astype(bool)
    left = _ints(trees.get("left"), at + "trees.left", n)
    right = _ints(trees.get("right"), at + "trees.right", n)
    value = _floats(trees.get("value"), at + "trees.value", n)
    leaf = _ints(trees.get("leaf"), at + "trees.leaf", n).astype(bool)
    if len(missing_left) != n or len(left) != n or len(right) != n or len(leaf) != n:
        raise _Bad(at + "trees")
    inner = ~leaf
    if len(root) and (n == 0 or root.min() < 0 or root.max() >= n):
        raise _Bad(at + "trees.root")
    if inner.any() and (feature[inner].min() < 0 or feature[inner].max() >= features):
        raise _Bad(at + "trees.feature")
    for name, child in (("trees.left", left), ("trees.right", right)):
        if inner.any() and (child[inner].min() < 0 or child[inner].max() >= n):
            raise _Bad(at + name)
    return {"baseline": baseline, "class": tree_class + k * contents, "root": root + offset, "feature": feature,
            "threshold": threshold, "missing_left": missing_left, "left": np.where(inner, left + offset, 0),
            "right": np.where(inner, right + offset, 0), "value": value, "leaf": leaf}


def _exits(root: Ints, feature: Ints, threshold: Floats, missing_left: npt.NDArray[np.bool_], left: Ints,
           right: Ints, value: Floats, leaf: npt.NDArray[np.bool_]) -> Exits | None:
    """Returns the trees as tests (:class:`Exits`), or None when a tree has more leaves than the
    widest of :data:`MASKS` has bits."""
    widest = np.iinfo(MASKS[-1]).bits
    tests: list[list[tuple[int, int]]] = []  # per tree: (node, its left branch's leaves as bits)
    leaves: list[list[float]] = []
    for top in root:
        mine: list[tuple[int, int]] = []
        order: list[float] = []
        stack: list[tuple[int, int]] = [(int(top), 0)]  # (node, 0: to visit; 1: its left branch done)
        firsts: list[int] = []
        while stack:
            node, done = stack.pop()
            if leaf[node]:
                order.append(float(value[node]))
                if len(order) > widest:
                    return None
            elif not done:
                firsts.append(len(order))
                stack += [(int(right[node]), 0), (node, 1), (int(left[node]), 0)]
            else:
                first = firsts.pop()  # the leaves numbered since its left branch began
                mine.append((node, sum(1 << k for k in range(first, len(order)))))
        tests.append(mine)
        leaves.append(order)
    bits = max((len(v) for v in leaves), default=1)
    dtype = next(d for d in MASKS if np.iinfo(d).bits >= bits)
    count = max((len(t) for t in tests), default=0)
    nodes = np.zeros((len(tests), count), np.intp)
    keeps = np.full((len(tests), count), np.iinfo(dtype).max, dtype)
    values = np.zeros((len(tests), bits), np.float64)
    for k, (mine, order) in enumerate(zip(tests, leaves, strict=True)):
        everything = (1 << len(order)) - 1
        for j, (node, lefts) in enumerate(mine):
            nodes[k, j], keeps[k, j] = node, everything & ~lefts
        values[k, : len(order)] = order
    at = nodes.reshape(-1)
    padded = np.zeros(nodes.shape, bool)
    for k, mine in enumerate(tests):
        padded[k, len(mine):] = True
    return Exits(np.where(padded.reshape(-1), 0, feature[at]), threshold[at][:, None],
                 missing_left[at][:, None], keeps.reshape(-1, 1), count, values)


def _reaches_leaves(root: Ints, left: Ints, right: Ints, leaf: npt.NDArray[np.bool_], depth: int) -> bool:
    """Whether every walk from a root ends on a leaf within ``depth`` steps (no tree deeper than
    the file says, no loop)."""
    frontier = np.unique(root)
    for _step in range(depth):
        inner = frontier[~leaf[frontier]]
        frontier = np.unique(np.r_[frontier[leaf[frontier]], left[inner], right[inner]])
    return bool(leaf[frontier].all())


def _strings(value: object, field: str) -> list[str]:
    if not isinstance(value, list) or not value or len(value) > MAX_NAMES or not all(isinstance(v, str) for v in value):
        raise _Bad(field)
    return [str(v) for v in value]


def _floats(value: object, field: str, length: int, infinite_ok: bool = False) -> Floats:
    """A list of ``length`` numbers, never NaN (a split at ±infinity where ``infinite_ok``)."""
    if not isinstance(value, list) or len(value) != length:
        raise _Bad(field)
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise _Bad(field)
    arr = np.array(value, dtype=np.float64)
    if np.isnan(arr).any() or not (infinite_ok or np.isfinite(arr).all()):
        raise _Bad(field)
    return arr


def _ints(value: object, field: str, cap: int) -> Ints:
    if not isinstance(value, list) or len(value) > cap:
        raise _Bad(field)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _Bad(field)
    out: Ints = np.array(value, dtype=np.intp)
    return out
