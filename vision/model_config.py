"""The photo reader's model and its parameters: one section, ``model:``, of the vision settings.

Every number here is the model's: what it means, and how its value was obtained. The *fitted*
ones are written by ``bench/fit_vision_model.py`` into ``vision/fitted.json`` from development
renders of both renderers (never their evaluation seeds) and read from there; the *chosen* ones
are decisions (how sure a reading must be, what refuses a photo), set in this file with their
reason. ``--config FILE`` may override any of them (``model: {ask_below: 0.995}``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import Field

from vision.sections import Section

FITTED_FILE = Path(__file__).with_name("fitted.json")


def _fitted() -> dict[str, Any]:
    """The fitted values (``vision/fitted.json``), or an empty mapping when the file is absent."""
    try:
        data = json.loads(FITTED_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    values = data.get("values") if isinstance(data, dict) else None
    return values if isinstance(values, dict) else {}


_F = _fitted()


def _f(name: str, fallback: float) -> float:
    value = _F.get(name, fallback)
    return float(value) if isinstance(value, int | float) else fallback


class ModelConfig(Section):
    """The per-cell model (:mod:`vision.normalise`, :mod:`vision.evidence`,
    :mod:`vision.occlusion`, :mod:`vision.decide`)."""

    # --- fitted by bench/fit_vision_model.py (minimum log loss of the true contents on dev cells)
    temperature: float = Field(
        default=_f("temperature", 0.3), gt=0, le=1,
        description="Fitted. Weight of each pixel's log-likelihood in a cell's (the pixels of a cell are not "
        "independent: the photo's blur, noise and print spread over neighbours); the posterior is "
        "softmax(temperature × log-likelihood + log prior).",
    )
    outlier: float = Field(
        default=_f("outlier", 0.05), gt=0, lt=1,
        description="Fitted. Share of a cell's pixels that no material explains (a counter's label and rim, "
        "printed art, dirt, a fingertip): each pixel's likelihood is (1 - outlier) × the materials' mixture "
        "+ outlier × a uniform density over the log values.",
    )
    field_sd: float = Field(
        default=_f("field_sd", 0.06), gt=0,
        description="Fitted. Spread (log units, per channel) of the error of the bare board's field where a "
        "cell is read, added to every material's covariance.",
    )
    counter_half: float = Field(
        default=_f("counter_half", 0.3), gt=0, lt=0.5,
        description="Fitted. Half-side (cells) of a counter as the model expects it around the cell centre "
        "(Chebyshev distance): a pixel lies on the counter with probability "
        "sigmoid((counter_half - d) / counter_soft).",
    )
    counter_soft: float = Field(
        default=_f("counter_soft", 0.03), gt=0,
        description="Fitted. Softness (cells) of that edge: counters of several sizes, off centre and turned.",
    )
    token_half: float = Field(
        default=_f("token_half", 0.43), gt=0, lt=1,
        description="Fitted. Half-side (cells) of a terrain token, as counter_half (a token whose print "
        "fills the cell has 0.5).",
    )
    token_soft: float = Field(
        default=_f("token_soft", 0.03), gt=0, description="Fitted. Softness (cells) of a token's edge."
    )
    adapt_weight: float = Field(
        default=_f("adapt_weight", 200.0), ge=0,
        description="Fitted. How many of the photo's pixels a material's calibrated mean counts as when the "
        "materials adapt to the photo: a material's mean moves to (adapt_weight × calibrated + the sum of the "
        "photo's pixels most likely drawn from it) / (adapt_weight + their count); every fourth usable pixel "
        "is counted.",
    )
    adapt_reach: float = Field(
        default=_f("adapt_reach", 0.15), gt=0,
        description="Fitted. How far (log units, per channel) a material's colour may lie from its calibration "
        "in a photo (another print batch, lamp or phone): the photo's pixels are given to the materials under "
        "covariances widened by this when they adapt.",
    )
    edge_share: float = Field(
        default=_f("edge_share", 0.45), gt=0, le=1,
        description="Fitted. A straight edge across the board is a hard shadow's when at least this share of "
        "the samples along it step by the same colour ratio (a token's or counter's outline never does).",
    )
    hidden_bias: float = Field(
        default=_f("hidden_bias", -8.0),
        description="Fitted. Probability that a cell is hidden (a hand, a glare): sigmoid(hidden_bias + "
        "hidden_foreign × the share of it under large patches no material explains + hidden_lines × the cube of "
        "the share of its printed lines not seen + hidden_glare × the square root of the largest washed-out "
        "share in it and its neighbours) (vision.occlusion).",
    )
    hidden_foreign: float = Field(default=_f("hidden_foreign", 10.0), description="Fitted. See hidden_bias.")
    hidden_lines: float = Field(default=_f("hidden_lines", 6.0), description="Fitted. See hidden_bias.")
    hidden_glare: float = Field(default=_f("hidden_glare", 6.0), description="Fitted. See hidden_bias.")
    table_spread: float = Field(
        default=_f("table_spread", 0.08), gt=0,
        description="Fitted. Spread (log units, per channel) of each material taken from the board tables' "
        "colours, without a calibration (another set's print, the lamp's colour rendering).",
    )

    # --- chosen
    ask_below: float = Field(
        default=0.99, gt=0, lt=1,
        description="Chosen. A cell whose most probable reading has a probability below this is asked about "
        "(listed as unreadable): on calibrated probabilities, at most about 1 in 100 of the cells read just "
        "above it are wrong, and most cells are read far above it.",
    )
    rules_floor: float = Field(
        default=0.01, ge=0, lt=1,
        description="Chosen. When the rules give priors (the last position, the cells legal moves reach), this "
        "share of each cell's prior stays spread over every reading, so a photo of something the rules did "
        "not expect (a slip of the hand, a mistaken position) is still read as it is.",
    )
    max_unreadable: float = Field(
        default=0.2, gt=0, le=1,
        description="Chosen. More than this share of the cells asked about, besides those a hand or a glare "
        "hides, and the photo is refused ...",
    )
    max_hidden: float = Field(
        default=0.3, gt=0, le=1,
        description="Chosen. ... or more than this share asked about in all, the hidden ones included.",
    )
    min_separation: float = Field(
        default=1.5, gt=0,
        description="Chosen. Calibration refuses two materials whose means lie closer than this many of their "
        "combined spreads (Mahalanobis distance under the sum of their covariances, per pixel): nearly one "
        "colour, as under a strongly coloured lamp. A cell is judged on hundreds of pixels and the "
        "calibration must also read its own photo back, so pixels need not be told apart one by one: the "
        "second renderer's counters, their light labels inside the measured centre, lie 2.1-2.4 apart and "
        "read their positions back (3, issue 13's value, refused every one of its boxes).",
    )
    max_not_board: float = Field(
        default=0.5, gt=0, le=1,
        description="Chosen. A photo refused with more than this share of its cells asked about is refused as "
        "not showing the board at all.",
    )
