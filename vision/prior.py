"""What the rules allow, combined with what the photo shows, cell by cell (issue 34).

The game's capture rules say, for the photo taken after one turn, how likely each content of a
cell is from the rules alone (``CellPriors``: cell → (side standing there or None, terrain) →
probability). Vision imports no game: the priors reach it as plain data of that shape.

The model, per cell:

- The photo's reading is the fitted trees' (:mod:`vision.trees`): a label ``r`` (occupant,
  terrain) at its probability ``c``, and a likelihood of every content (the trees' probability
  over the training set's share of that content, tempered, normalised;
  :class:`vision.trees.Decided`): what the photo says of each content, the training scenes'
  base rates taken out so that the rules' prior replaces them.
- The rules' prior is mixed with the even prior by :data:`OFF_RULES`, the chance a cell holds
  what the rules did not allow (a bumped counter, an illegal move the referee must still see):
  ``prior(l) = (1 - OFF_RULES) * rules(l) + OFF_RULES / K`` (``K = (len(sides) + 1) *
  len(terrains)`` contents in all). No content is ever impossible, so a confident reading
  against the rules stays (a strong photo beats a small prior).
- The posterior is ``prior × likelihood``, normalised. The cell's reading becomes its argmax,
  with the posterior as its confidence; the photo's label is kept where it ties for the maximum
  — unless the rules exclude it: then the likeliest of the tied contents the rules allow is
  shown (a question never shows a content the rules rule out). Whether the cell is asked about
  is decided afterwards, once, by ``classify.min_confidence`` on that posterior
  (:mod:`vision.pipeline`).
- A cell the photo does not show (confidence 0: part of it is outside the photo) stays unread:
  the rules only weigh what the photo shows at least weakly.
- A cell the trees leave unsure (at most the ask floor, ``doubtful``) is weighed against the
  rules' **allowed contents evenly**, not their odds: those odds are measured over every cell of
  a turn, while the cells the photo cannot settle are no random draw of them (a hand hovers
  where a piece is being moved; on the game photos of ``bench/bench_priors.py`` the rules' odds
  tipped three such cells wrong; ``docs/decisions/vision-rules-priors.md``,
  ``docs/decisions/vision-trees-path.md``). A cell no turn can change is settled by the rules
  alone; where a turn allows several contents, the photo's likelihood chooses among them, and
  the cell is asked only if that choice stays under the ask floor — between two contents the
  trees both find unlikely, their likelihoods' ratio can still settle it (on the game photos,
  four hidden cells read sure and wrong that way; making such cells always asked was measured
  and not adopted: ``docs/decisions/vision-hidden-misreads.md``).
- Cells the priors do not name, and cells whose prior is even over every content (the rules say
  nothing of them), are read from the photo alone.

Priors are checked before the photo is read: an unknown cell, side or terrain, a content that is
not a (side or None, terrain) pair, a negative or non-finite value, or a cell's values not
summing to 1 (within 1e-6, float rounding) raise :class:`~vision.errors.PriorsError` (a
``ValueError``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from referee.i18n import _
from vision.board import BoardSpec
from vision.errors import PriorsError

Content = tuple[str | None, str]
"""A cell's content: the side standing there (or None) and its terrain (``CellContent`` of the
capture rules, declared again here because vision imports no game)."""
Priors = Mapping[str, Mapping[Content, float]]
"""Cell name → content → probability from the rules alone, each cell's values summing to 1."""
Read = tuple[str | None, str, float]
"""A cell's reading: occupant (or None), terrain, confidence."""

OFF_RULES = 0.01
"""The chance a cell holds what the rules did not allow (a bumped counter, an illegal move),
mixed into every prior as an even share over the board's contents. Set by hand, measured
(``bench/fit_off_rules.py``, w58c, the game positions' dev photos, both renderers): not placed.
No cell of those games lies off the rules (a bot plays them by the rules), so they cannot
measure the chance; the criterion written for them (the most room for an off-rules table that
asks no more cells and misreads none more than the rules trusted most) gives 0.001, which reads
one more hidden cell sure and wrong (``render_1 B10``). Smaller values misread more hidden cells
(the rules' likeliest content wins under a hand), larger ones ask more (0.02: two hidden
misreads fewer, two cells more asked; 0.05: 22 more asked). The trees' own rate of visible
cells read sure and wrong (about 5 in 10 000 on the dev photos) would give 0.0005: the same new
hidden misread. ``bench/reports/off-rules-w58c.json``."""


def contents(board: BoardSpec) -> list[Content]:
    """Returns every content a cell of the board can hold, bare cells first, in table order."""
    return [(side, terrain) for side in (None, *board.sides) for terrain in board.terrains]


def check(priors: Priors, board: BoardSpec) -> None:
    """Checks priors against the board before any photo is read.

    Raises:
        PriorsError: an unknown cell, side or terrain; a content that is not a pair; a negative
            or non-finite value; a cell's values not summing to 1.
    """
    cells = set(board.cell_names())
    sides, terrains = set(board.sides), set(board.terrains)
    for cell, spread in priors.items():
        if cell not in cells:
            raise PriorsError(_("priors name an unknown cell {cell!r}").format(cell=cell))
        total = 0.0
        for content, value in spread.items():
            _check_content(cell, content, sides, terrains)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
                raise PriorsError(
                    _("priors of cell {cell}: {value!r} is not a probability").format(cell=cell, value=value)
                )
            total += value
        if abs(total - 1) > 1e-6:  # a guard against float rounding, not a setting
            raise PriorsError(
                _("priors of cell {cell} sum to {total}, not 1").format(cell=cell, total=f"{total:.6g}")
            )


def _check_content(cell: str, content: object, sides: set[str], terrains: set[str]) -> None:
    """Raises PriorsError unless ``content`` is a (known side or None, known terrain) pair."""
    if not isinstance(content, tuple) or len(content) != 2:
        raise PriorsError(
            _("priors of cell {cell}: {content!r} is not a (side or None, terrain) pair").format(
                cell=cell, content=content)
        )
    side, terrain = content
    if side is not None and side not in sides:
        raise PriorsError(
            _("priors of cell {cell} name an unknown side {side!r} (known: {known})").format(
                cell=cell, side=side, known=", ".join(sorted(sides)))
        )
    if terrain not in terrains:
        raise PriorsError(
            _("priors of cell {cell} name an unknown terrain {terrain!r} (known: {known})").format(
                cell=cell, terrain=terrain, known=", ".join(sorted(terrains)))
        )


def posterior(
    reading: Read,
    rules: Mapping[Content, float],
    every: list[Content],
    seen: Mapping[Content, float],
    doubtful: float,
) -> Read:
    """Returns a cell's reading once the rules' prior is weighed in (see the module's model).

    Args:
        reading: the photo's occupant, terrain and confidence (the trees' probability).
        rules: the content → probability the rules give the cell (checked by :func:`check`).
        every: every content the board's cells can hold (:func:`contents`).
        seen: the photo's likelihood of every content (the fitted trees' probabilities over their
            training set's shares, :class:`vision.trees.Decided`).
        doubtful: the strongest reading whose cell the rules' odds do not weigh, only which
            contents they allow (the ask floor).
    """
    occupant, terrain, conf = reading
    if conf <= 0 or _even(rules, every):
        return reading  # the photo does not show the cell, or the rules say nothing of it
    k = len(every)
    read: Content = (occupant, terrain)
    odds = rules
    if conf <= doubtful:
        rules = _support(rules)  # the photo cannot settle it: what is allowed, not how likely
    weight = {c: ((1 - OFF_RULES) * rules.get(c, 0.0) + OFF_RULES / k) * seen.get(c, 0.0) for c in every}
    total = sum(weight.values())
    best = max(weight.values())
    if total <= 0:
        return reading  # the trees give no content a chance (never, short of underflow)
    tops = [c for c, w in weight.items() if w >= best * (1 - 1e-12)]  # ties, float rounding aside
    if len(tops) == 1 or (read not in tops and rules.get(read, 0.0) <= 0):
        label = max(tops, key=lambda c: odds.get(c, 0.0))  # the photo's label the rules exclude
    else:
        label = read
    return label[0], label[1], weight[label] / total


def _even(rules: Mapping[Content, float], every: list[Content]) -> bool:
    """Whether the rules give every content the same chance (they say nothing of the cell)."""
    return all(rules.get(c, 0.0) == rules.get(every[0], 0.0) for c in every)


def _support(rules: Mapping[Content, float]) -> dict[Content, float]:
    """Returns the contents the rules allow, each as likely as the others."""
    allowed = [c for c, v in rules.items() if v > 0]
    return {c: 1 / len(allowed) for c in allowed}


def combine(
    readings: Mapping[str, Read],
    priors: Priors,
    board: BoardSpec,
    likelihoods: Mapping[str, Mapping[Content, float]],
    doubtful: float,
) -> dict[str, Read]:
    """Returns every cell's reading with its prior weighed in (cells without one unchanged);
    ``likelihoods``: per cell, the photo's likelihood of every content; ``doubtful``: see
    :func:`posterior`."""
    every = contents(board)
    return {
        name: posterior(r, priors[name], every, likelihoods.get(name, {}), doubtful) if name in priors else r
        for name, r in readings.items()
    }
