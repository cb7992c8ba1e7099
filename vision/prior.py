"""What the rules allow, combined with what the photo shows, cell by cell (issue 34).

The game's capture rules say, for the photo taken after one turn, how likely each content of a
cell is from the rules alone (``CellPriors``: cell → (side standing there or None, terrain) →
probability). Vision imports no game: the priors reach it as plain data of that shape.

The model, per cell:

- The photo's reading is a label ``r`` (occupant, terrain) with a confidence ``c``, the reader's
  calibrated probability that ``r`` is right. It is taken as a noisy observation: the photo's
  likelihood given the true content ``l`` is ``c`` where ``l == r``, and the rest, ``1 - c``,
  is shared among the board's other contents the way the reader's mistakes split
  (:data:`MISTAKES`): a content differing from ``r`` by its terrain only, by its occupant only,
  or by both (``K = (len(sides) + 1) * len(terrains)`` contents in all). Under an even prior the
  posterior of ``r`` is exactly ``c``, so ``priors=None`` and an even prior agree.
- The rules' prior is mixed with the even prior by :data:`OFF_RULES`, the chance a cell holds
  what the rules did not allow (a bumped counter, an illegal move the referee must still see):
  ``prior(l) = (1 - OFF_RULES) * rules(l) + OFF_RULES / K``. No content is ever impossible, so a
  confident reading against the rules stays (a strong photo beats a small prior).
- The posterior is ``prior × likelihood``, normalised. The cell's reading becomes its argmax,
  with the posterior as its confidence; the photo's label is kept where it ties for the maximum,
  or where no single other content beats it (a very weak reading under an even prior: its
  ``K - 1`` alternatives tie) — unless the rules exclude it: then the likeliest of the tied
  contents the rules allow is shown (a question never shows a content the rules rule out).
  Whether the cell is asked about is decided afterwards, once, by ``classify.min_confidence``
  on that posterior (:mod:`vision.pipeline`).
- A cell the photo does not show (confidence 0: part of it is outside the photo) stays unread:
  the rules only weigh what the photo shows at least weakly. A cell under a hand keeps the weak
  confidence the reader gives it (at most 0.3), so the rules settle it where they are nearly
  certain (no legal turn changes it) and it stays asked where a turn may change it.
- A reading no stronger than :data:`vision.decide.DISTRUSTED` (the reader suspects a hand or
  an object over the cell) shares its doubt evenly among the other contents (not by
  :data:`MISTAKES`), and the rules' **allowed contents count evenly**, not by the rules' odds:
  those odds are measured over
  every cell of a turn, while a hand hovers where a piece is being moved, so under it the
  present content is far less likely than the odds say (on the game photos of
  ``bench/bench_priors.py``, the odds read five such cells wrong, and the mistakes' split read
  eight more: a hand's "bare plain" is no ordinary reading; see
  ``docs/decisions/vision-rules-priors.md``). A cell no turn can change is still settled; one a
  turn may change is asked about.
- Where the reader is the fitted trees (``classify.decision: "model"``), the photo's likelihood
  is not built from the label and :data:`MISTAKES` (the cascade's confusions): the trees give a
  probability to every content, and their likelihood of a content is that probability over the
  training set's share of it, tempered (:class:`vision.trees.Decided`). Every cell below the ask
  floor is then doubtful as a hand's is: the rules' allowed contents count evenly (the trees'
  spread over contents they are unsure of is the least calibrated part of it; on the game
  photos of ``bench/bench_priors.py`` the rules' odds tipped three such cells wrong;
  ``docs/decisions/vision-trees-path.md``).
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
from vision.decide import DISTRUSTED
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
mixed into every prior as an even share over the board's contents (provisional, set by hand: no
photo of a real game exists yet to fit it; ``bench/`` measures it on game positions)."""


MISTAKES = (0.545, 0.358, 0.097)
"""Fitted (``bench/fit_confusion.py``, dev photos of both renderers, 276 cells read wrong,
2026-11-29): how the reader's mistakes split, by the share that got the terrain only wrong, the
occupant only, and both. A cell read with a counter on the plain is far likelier a counter on
a token than a bare cell of another terrain; the rules, which know a cell's token, can then
correct the terrain without doubting the counter."""


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
    seen: Mapping[Content, float] | None = None,
    doubtful: float = DISTRUSTED,
) -> Read:
    """Returns a cell's reading once the rules' prior is weighed in (see the module's model).

    Args:
        reading: the photo's occupant, terrain and confidence (its calibrated probability).
        rules: the content → probability the rules give the cell (checked by :func:`check`).
        every: every content the board's cells can hold (:func:`contents`).
        seen: the photo's likelihood of every content, where the reader gives one (the fitted
            trees' probabilities over their training set's shares, :class:`vision.trees.Decided`);
            None builds it from the reading's label and confidence (:func:`likelihood`).
        doubtful: the strongest reading whose cell the rules' odds do not weigh, only which
            contents they allow (see the module's model).
    """
    occupant, terrain, conf = reading
    if conf <= 0 or _even(rules, every):
        return reading  # the photo does not show the cell, or the rules say nothing of it
    k = len(every)
    read: Content = (occupant, terrain)
    odds = rules
    if conf <= doubtful:
        # something is happening there (a hand?): the rules' odds do not hold, and the reader's
        # doubt is no ordinary mistake, to be shared evenly (unless the reader's own spread says
        # how it doubts)
        rules = _support(rules)
        if seen is None:
            seen = {c: conf if c == read else (1 - conf) / (k - 1) for c in every}
    seen = likelihood(read, conf, every) if seen is None else {c: seen.get(c, 0.0) for c in every}
    weight = {c: ((1 - OFF_RULES) * rules.get(c, 0.0) + OFF_RULES / k) * seen[c] for c in every}
    total = sum(weight.values())
    best = max(weight.values())
    tops = [c for c, w in weight.items() if w >= best * (1 - 1e-12)]  # ties, float rounding aside
    if len(tops) == 1 or (read not in tops and rules.get(read, 0.0) <= 0):
        label = max(tops, key=lambda c: odds.get(c, 0.0))  # the photo's label the rules exclude
    else:
        label = read
    return label[0], label[1], weight[label] / total


def likelihood(read: Content, conf: float, every: list[Content]) -> dict[Content, float]:
    """Returns the photo's likelihood of each content given the label read at ``conf``: ``conf``
    for the label, ``1 - conf`` shared by :data:`MISTAKES` among the contents differing by the
    terrain only, the occupant only, or both (a kind the board has no content of gives its share
    to the others). The values sum to 1."""

    def kind(c: Content) -> int:
        return 0 if c[0] == read[0] else 1 if c[1] == read[1] else 2

    count = [0, 0, 0]
    for c in every:
        if c != read:
            count[kind(c)] += 1
    share = [m if n else 0.0 for m, n in zip(MISTAKES, count, strict=True)]
    total = sum(share)
    return {c: conf if c == read else (1 - conf) * share[kind(c)] / total / count[kind(c)] for c in every}


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
    likelihoods: Mapping[str, Mapping[Content, float]] | None = None,
    doubtful: float = DISTRUSTED,
) -> dict[str, Read]:
    """Returns every cell's reading with its prior weighed in (cells without one unchanged);
    ``likelihoods``: per cell, the photo's likelihood of every content, where the reader gives
    one; ``doubtful``: see :func:`posterior`."""
    every = contents(board)
    seen = likelihoods or {}
    return {
        name: posterior(r, priors[name], every, seen.get(name), doubtful) if name in priors else r
        for name, r in readings.items()
    }
