"""Decisions (issue 13's reader): each cell's occupant, terrain and confidence from its
evidence, its printed edges and the occluders' cover. A cell's confidence comes from how far the
shares are from their decision thresholds, cut down by the occluder evidence."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.cell_confidence import counter_probability, terrain_probability
from vision.cell_model import band_features, token_probability
from vision.colours import COUNTER_SIDE
from vision.config import ClassifyConfig
from vision.evidence import CellEvidence

READ_INSIDE = 0.98
"""Share of a cell's area inside the photo for it to be read (and, in a calibration or a kept
example, to count as labelled)."""


SEEN_BEYOND = 1 - COUNTER_SIDE * COUNTER_SIDE
"""Derived: the share of a cell without a counter that, showing away from an occluder as first
found, is read from what it shows there: more than a hand hiding a whole counter (the smallest,
``colours.COUNTER_SIDE`` wide) can leave of the cell, 0.64 (the setting given_seen_beyond, 0.65,
until 29 November: nothing read on the dev photos nor in a test changed,
``bench/reports/sweep-decide-off.json``)."""


DISTRUSTED = 0.3
"""The most a reading keeps of its confidence where the reader suspects an occluder over the
cell (a hand, an object): it is asked about, and :mod:`vision.prior` takes a reading this weak
as saying little about the cell (set by hand, issue 13)."""


def _sure(margin: npt.NDArray[np.float64], scale: float | npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Confidence of a decision whose evidence is ``margin`` past its threshold (0.5 at the
    threshold, 0.9 at ``scale`` past it, toward 1 beyond)."""
    k = math.log(9.0) / np.asarray(scale, np.float64)
    out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-k * np.abs(margin)))
    return out


def _under_counter(
    light: npt.NDArray[np.float64],
    lean: npt.NDArray[np.float64],
    share: npt.NDArray[np.float64],
    cfg: ClassifyConfig,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """Returns, per counter cell, the most likely token, whether a token lies under the counter,
    and the confidence of that reading, from the band around the counter (``light``: its
    brightness over the bare board's, NaN when not measured; ``lean``: (k, tokens) its colour's
    lean toward each token's) and the share of the cell leaning toward each token (``share``).

    The token is the one with the largest ``lean + cfg.edge_type_share × share``; whether it lies
    there is the probability of :mod:`vision.cell_model` (the band's brightness relative to the
    photo's usual band, its lean, the root of the share), the confidence that probability or its
    complement, capped by how clearly that token beats the others (90 % sure at a lead of
    ``cfg.edge_lean_clear``, a clear lean). A band leaning at least ``cfg.edge_lean_clear``
    toward a token, with ``cfg.edge_share_clear`` of the cell leaning toward it, is that token
    whatever its brightness. A band that could not be measured leaves the cell unsure.
    """
    k = len(light)
    rows = np.arange(k)
    kind = lean + cfg.edge_type_share * share
    best, _lean, root_share = band_features(lean, share, cfg.edge_type_share)
    ordered = np.sort(kind, axis=1)
    gap = ordered[:, -1] - ordered[:, -2] if kind.shape[1] > 1 else np.full(k, np.inf)
    measured = np.isfinite(light)
    chance = token_probability(light, root_share)
    token = chance > 0.5
    conf = np.where(token, chance, 1.0 - chance)
    conf = np.where(token, np.minimum(conf, _sure(gap, cfg.edge_lean_clear)), conf)
    # a dark band whose colour leans toward no token (a token's dark edge, a shadow) says that
    # a token lies there, not which
    chosen = kind[rows, best]
    conf = np.where(token & (chosen < 0), np.minimum(conf, 1 - _sure(chosen, cfg.edge_lean_clear)), conf)
    # a band leaning clearly toward a token, over a good share of the cell, is that token however
    # bright it measures (a counter's light border, blurred over a thin band, brightens it): as
    # sure when its brightness says token only just as when it says bare board
    clear = measured & (lean[rows, best] >= cfg.edge_lean_clear)
    clear &= share[rows, best] >= cfg.edge_share_clear
    token |= clear
    conf = np.where(clear, _sure(gap, cfg.edge_lean_clear), conf)
    conf = np.where(measured, conf, 0.5)
    return best, token & measured, conf


def decide(
    ev: CellEvidence,
    board: BoardSpec,
    cfg: ClassifyConfig,
    lines: npt.NDArray[np.float64] | None = None,
    glared: npt.NDArray[np.bool_] | None = None,
) -> list[tuple[str | None, str, float]]:
    """Returns per cell (occupant side or None, terrain, confidence) from the colour shares.

    A counter needs ``cfg.counter_share`` of the central disc in its side's colour; a token
    needs ``cfg.token_share`` of the inner square's terrain pixels in its colour (the largest
    token colour wins; below it, the bare board); under a counter, the band around it decides
    (:func:`_under_counter`).

    Distrust needs evidence of an occluder: more than ``cfg.occluder_share`` of bright pixels
    fitting no class (or of a counter's colour in a patch larger than any counter). It spreads
    through every cell with evidence of its own (some off-class colour) joined to a distrusted
    one. A cell's printed edges (``lines``: (n, 4) edge responses) are hidden below
    ``cfg.hidden_line`` of the edges around.
    A cell under an occluder reaching in is unreadable past ``cfg.reach_cover`` of it
    (``cfg.reach_cover_edges`` when its four edges show or one colour fills it;
    ``cfg.reach_cover_whole`` when, besides, it is a token showing its printed detail), counting
    the pixels given back to a piece colour (past ``cfg.given_cover_counter`` with a counter)
    only where a hidden edge says a hand may lie there, and not where the cell read away from the
    occluder as first found agrees: under a counter, its band leans toward its token by
    ``cfg.given_lean``; without one, :data:`SEEN_BEYOND` of the cell shows there, one colour
    filling its inner square (``cfg.pure_token`` of ``cfg.seen_share``), the terrain the cell is
    read as.

    A cell read bare none of whose printed edges show, joined through such cells to the grid's
    border, is distrusted too (:func:`_lines_gone`), unless a glare washes it out (``glared``:
    the glare's own rule, in :mod:`vision.pipeline`, decides those).
    """
    n = ev.side_share.shape[0]
    order, has, c_conf = _counters(ev, cfg)
    tokens = ev.terrain_share[:, 1:]
    t_best, is_token, t_conf = _terrains(ev, tokens, cfg)
    conf = c_conf * t_conf  # two probabilities read on different pixels
    detail = _detail(ev, tokens, ~has & is_token, t_best)
    occluded = ev.other_share > cfg.occluder_share
    hidden = _hidden_edges(lines, board, cfg) if lines is not None and lines.size else None
    if ev.reached is not None:
        occluded |= _covered(ev, tokens, detail, hidden, is_token, t_best, cfg)
    if hidden is not None:
        bare = ~has & ~is_token if glared is None else ~has & ~is_token & ~glared
        occluded |= _lines_gone(np.where(bare, hidden, 0), board)
    untrusted = _distrust(ev, board, occluded, cfg)
    conf = np.where(untrusted, np.minimum(conf, DISTRUSTED), conf)
    terrains = board.terrains
    sides = board.sides
    out: list[tuple[str | None, str, float]] = []
    for i in range(n):
        occ = sides[int(order[i, 0])] if has[i] else None
        ter = terrains[1 + int(t_best[i])] if is_token[i] else terrains[0]
        out.append((occ, ter, float(conf[i])))
    return out


Ints = npt.NDArray[np.intp]
Bools = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]


def _counters(ev: CellEvidence, cfg: ClassifyConfig) -> tuple[Ints, Bools, Floats]:
    """Per cell: the sides by share of the central disc, whether one makes a counter
    (``cfg.counter_share``), and the probability that this reading is right
    (:func:`vision.cell_confidence.counter_probability`)."""
    order = np.argsort(-ev.side_share, axis=1)
    has = ev.side_share.max(axis=1) >= cfg.counter_share
    return order, has, counter_probability(ev.side_share, cfg.counter_share)


def _terrains(ev: CellEvidence, tokens: Floats, cfg: ClassifyConfig) -> tuple[Ints, Bools, Floats]:
    """Per cell: the most likely token, whether the cell holds one (``cfg.token_share`` of the
    inner square's terrain pixels), and the probability that this is right
    (:func:`vision.cell_confidence.terrain_probability`); under a counter, the band around it
    (:func:`_under_counter`)."""
    n = ev.side_share.shape[0]
    rows = np.arange(n)
    t_best = tokens.argmax(axis=1) if tokens.shape[1] else np.zeros(n, int)
    t1 = tokens[rows, t_best] if tokens.shape[1] else np.zeros(n)
    is_token = t1 >= cfg.token_share
    # the probability that the reading is right, from the shares and how much of the inner
    # square is terrain-coloured at all (something may cover nearly all of it)
    t_conf = terrain_probability(tokens, cfg.token_share, ev.terrain_pixels)
    if ev.on_counter.any() and tokens.shape[1] and ev.edge_light is not None and ev.edge_lean is not None:
        # under a counter: the band around it (see _under_counter)
        at = np.nonzero(ev.on_counter)[0]
        edge_best, edge_token, edge_conf = _under_counter(
            ev.edge_light[at], ev.edge_lean[at][:, 1:], tokens[at], cfg
        )
        t_best[at], is_token[at], t_conf[at] = edge_best, edge_token, edge_conf
    return t_best, is_token, t_conf


def _detail(ev: CellEvidence, tokens: Floats, bare_tokens: Bools, t_best: Ints) -> Floats:
    """Each bare token's texture over the median of the photo's bare tokens of its terrain (NaN
    where fewer than 3, or none has texture): a token's printed detail shows as the others' do;
    a hand is smoother."""
    detail = np.full(len(t_best), np.nan)
    for t in range(tokens.shape[1]):
        mine = bare_tokens & (t_best == t)
        typical = float(np.median(ev.texture[mine])) if mine.sum() >= 3 else 0.0
        if typical > 0:
            detail[mine] = ev.texture[mine] / typical
    return detail


def _hidden_edges(lines: Floats, board: BoardSpec, cfg: ClassifyConfig) -> Ints:
    """Per cell, how many of its printed edges are hidden: much fainter than the edges around
    (focus, light and resolution change across a photo: compare within 5 x 5 cells)."""
    local = _local_median(lines.reshape(board.rows, board.cols, 4), 2).reshape(-1, 1)
    typical_line = np.maximum(local, 0.5 * float(np.median(lines)))
    hidden: Ints = ((lines < cfg.hidden_line * typical_line) & (typical_line > 0)).sum(axis=1)
    return hidden


def _covered(ev: CellEvidence, tokens: Floats, detail: Floats, hidden: Ints | None, is_token: Bools,
             t_best: Ints, cfg: ClassifyConfig) -> Bools:
    """The cells an occluder reaching in covers past their limits (see :func:`decide`)."""
    assert ev.reached is not None
    n = len(t_best)
    over = ev.reached > cfg.reach_cover
    # one colour fills the cell: cfg.pure_token of its inner square's terrain pixels, which
    # cover cfg.seen_share of it (not a sliver left beside a hand), are the bare board's or
    # one token's, no counter
    one_colour = ~ev.on_counter & (ev.terrain_pixels >= cfg.seen_share)
    one_colour &= ev.terrain_share.max(axis=1) >= cfg.pure_token
    # a cell whose rest shows it whole, covered up to cfg.reach_cover_edges, has the occluder's
    # soft edge, shadow or a fingertip in a corner beside it (read without those pixels): one
    # colour fills it, whatever its edges show (a hand over its corner hides two), or its four
    # printed edges all show (a hand reaching well into a cell lies across one of them)
    shows_whole = one_colour | (hidden == 0) if hidden is not None else one_colour
    over &= ~(shows_whole & (ev.reached <= cfg.reach_cover_edges))
    # one token fills it: "pure" with at most one edge hidden (a hand reaching in hides the
    # edge it crosses; a token's faint side, one), "whole" when it shows its printed detail
    # (cfg.token_detail)
    fills = one_colour & (tokens.max(axis=1) >= cfg.pure_token) if tokens.shape[1] else np.zeros(n, bool)
    low, high = cfg.token_detail
    whole = fills & (detail >= low) & (detail <= high)
    pure = fills & (hidden <= 1) if hidden is not None else np.zeros(n, bool)
    if hidden is not None:
        # one token filling it with its printed detail, its four edges showing, is that token
        # up to cfg.reach_cover_whole covered: a hand of nearly its colour joined to it is
        # measured over it, but a hand has no print and hides the lines it lies across
        over &= ~(whole & (hidden == 0) & (ev.reached <= cfg.reach_cover_whole))
    if ev.reached_strict is not None:
        over |= _given_back(ev, tokens, hidden, pure, whole, is_token, t_best, cfg)
    return np.asarray(over, bool)


def _given_back(ev: CellEvidence, tokens: Floats, hidden: Ints | None, pure: Bools, whole: Bools,
                is_token: Bools, t_best: Ints, cfg: ClassifyConfig) -> Bools:
    """Covered only if the pixels given back to a piece colour near the occluder's (by their
    window's or cell's mean colour) were the occluder's: believed where the cell's four printed
    edges all show (a hand hides those it lies across), where one is hidden but one token fills
    the cell (pure), or where it fills the cell with its printed detail (whole: a token's sides
    can all be faint); nor under a counter read as standing on a token whose colour its band
    leans toward only weakly (below cfg.given_lean): its terrain is read on the thin band those
    pixels lie in, and a hand's shadow darkens it."""
    assert ev.reached_strict is not None
    n = len(t_best)
    given = ev.reached_strict > np.where(ev.on_counter, cfg.given_cover_counter, cfg.reach_cover)
    if hidden is not None:
        weak = ev.on_counter & is_token
        if ev.edge_lean is not None and tokens.shape[1]:
            weak &= ev.edge_lean[np.arange(n), 1 + t_best] < cfg.given_lean
        given &= ((hidden > 0) & ~pure & ~whole) | weak
    if ev.lean_beyond is not None and tokens.shape[1]:
        # nor where the band away from the occluder, as first found (before those pixels
        # were given back), leans toward that token by cfg.given_lean, as the whole band must
        # for them to be believed at all: the token shows there too, and the pixels given back
        # beside the hand are its
        lean_there = np.nan_to_num(ev.lean_beyond[np.arange(n), 1 + t_best], nan=-np.inf)
        given &= ~(ev.on_counter & is_token & (lean_there >= cfg.given_lean))
    if ev.terrain_beyond is not None and ev.seen_beyond is not None:
        # nor, without a counter, where most of the cell shows away from the occluder as
        # first found (a hand hiding a whole counter leaves less of it) and one colour,
        # the terrain it is read as, fills its inner square there
        there = np.nan_to_num(ev.terrain_beyond)
        found = there.sum(axis=1)
        pure_there = (found >= cfg.seen_share) & (there.max(axis=1) >= cfg.pure_token * found)
        same = there.argmax(axis=1) == np.where(is_token, 1 + t_best, 0)
        away = ~ev.on_counter & (ev.seen_beyond >= SEEN_BEYOND) & pure_there & same
        given &= ~away
    return np.asarray(given, bool)


def _lines_gone(hidden: Ints, board: BoardSpec) -> Bools:
    """The cells read bare (``hidden`` 0 elsewhere) none of whose printed edges show, joined
    (corners included) through such cells to the grid's border: an arm reaching in, whatever its
    colour. The bare board shows the lines around it; a hand of the bare board's colour, which
    the occluder finder cannot tell from it, hides every line it lies over, from the grid's edge
    inward. (A dark token may dim its lines' contrast until they read as hidden: only cells read
    bare count.)"""
    gone = (hidden >= 4).reshape(board.rows, board.cols)
    out = np.zeros_like(gone)
    out[0], out[-1], out[:, 0], out[:, -1] = gone[0], gone[-1], gone[:, 0], gone[:, -1]
    while True:  # grow through gone cells, king's moves, until nothing is added
        grown = out.copy()
        grown[1:] |= out[:-1]
        grown[:-1] |= out[1:]
        grown[:, 1:] |= grown[:, :-1].copy()
        grown[:, :-1] |= grown[:, 1:].copy()
        grown &= gone
        if (grown == out).all():
            return out.reshape(-1)
        out = grown


def _distrust(ev: CellEvidence, board: BoardSpec, occluded: Bools, cfg: ClassifyConfig) -> Bools:
    """The cells not trusted: covered; distrust spreads through every suspect cell (some bright
    colour fitting no class) joined to a distrusted one (eight neighbours; the hand or sleeve
    reaches as far as its evidence does). (A token far smoother than the photo's others of its
    terrain, the setting smooth_texture, was suspect too, and covered with two edges hidden, until
    29 November: switched off, no figure of the dev photos or the game positions moved and no
    test failed; on the occlusion set one photo is refused as too unreadable, not as showing no
    board. It was set for a small occluder lying on the board, which neither renderer draws.)"""
    shape = (board.rows, board.cols)
    suspect = ev.other_share > cfg.occluder_share / 3
    untrusted = occluded.reshape(shape)
    near_ok = suspect.reshape(shape)
    for _ in range(untrusted.size):  # a spread stops within as many steps as there are cells
        grown = untrusted | (_near(untrusted) & near_ok)
        if (grown == untrusted).all():
            break
        untrusted = grown
    return np.asarray(untrusted.reshape(-1), bool)


def _local_median(values: npt.NDArray[np.float64], reach: int) -> npt.NDArray[np.float64]:
    """Per cell of a (rows, cols, k) array, the median of the values within ``reach`` cells."""
    rows, cols = values.shape[:2]
    out = np.empty((rows, cols))
    for r in range(rows):
        for c in range(cols):
            win = values[max(0, r - reach) : r + reach + 1, max(0, c - reach) : c + reach + 1]
            out[r, c] = float(np.median(win))
    return out


def _near(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    rows, cols = mask.shape
    padded = np.pad(mask, 1)
    near = np.zeros_like(mask)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                near |= padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return near
