"""Stage 5, *decide*: each cell's posterior over its readings, from the evidence, the occlusion
and what the rules expect, and the one probability the reader reports.

A cell's pixels show its reading unless something hides them (:mod:`vision.occlusion`, with
probability ``hidden``); then they say nothing and only the prior remains. So the posterior of a
reading ``h`` is ``(1 - hidden) × seen(h) + hidden × prior(h)``, where ``seen(h)`` is
proportional to ``prior(h) × exp(temperature × loglik(h))`` (:mod:`vision.evidence`). The prior
is uniform unless the rules give one (:class:`CellPrior`: the last known position and what legal
moves can change, passed in as data by the game's capture rules; vision knows no game), of which
``rules_floor`` stays spread over every reading. The reported confidence is the posterior of the
most probable reading: the probability that it is right. Whether that is sure enough is one
threshold, ``ask_below``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.evidence import Evidence, Hypothesis
from vision.model_config import ModelConfig
from vision.occlusion import Occlusion

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CellPrior:
    """What the rules expect on one cell: a probability per occupant (None: no counter) and per
    terrain; readings not named get none (before ``rules_floor``)."""

    occupant: Mapping[str | None, float] = field(default_factory=dict)
    terrain: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """Per cell, the posterior over its readings and the reading reported."""

    hypotheses: tuple[Hypothesis, ...]
    posterior: F64
    """(cells, hypotheses), each row summing to 1."""
    best: npt.NDArray[np.intp]
    """(cells,) index of the most probable reading."""
    confidence: F64
    """(cells,) its posterior: the probability that it is right."""


def prior_matrix(names: list[str], hyps: tuple[Hypothesis, ...], priors: Mapping[str, CellPrior] | None,
                 floor: float) -> F64:
    """(cells, hypotheses) prior probabilities: uniform, or the rules' with ``floor`` spread evenly."""
    uniform = np.full((len(names), len(hyps)), 1 / len(hyps))
    if not priors:
        return uniform
    out = uniform.copy()
    for i, name in enumerate(names):
        given = priors.get(name)
        if given is None:
            continue
        occ = np.array([given.occupant.get(o, 0.0) if given.occupant else 1.0 for o, _t in hyps])
        ter = np.array([given.terrain.get(t, 0.0) if given.terrain else 1.0 for _o, t in hyps])
        joint = occ * ter
        total = joint.sum()
        if total > 0:
            out[i] = (1 - floor) * joint / total + floor / len(hyps)
    return out


def decide(ev: Evidence, occ: Occlusion, names: list[str], cfg: ModelConfig,
           priors: Mapping[str, CellPrior] | None = None) -> Decision:
    """Returns each cell's posterior, most probable reading and confidence."""
    prior = prior_matrix(names, ev.hypotheses, priors, cfg.rules_floor)
    post = mixed_posterior(cfg.temperature * ev.loglik, prior, occ.hidden)
    best = post.argmax(axis=1)
    conf = post[np.arange(len(best)), best]
    for a in (post, best, conf):
        a.setflags(write=False)
    return Decision(hypotheses=ev.hypotheses, posterior=post, best=best, confidence=conf)


def mixed_posterior(scaled: F64, prior: F64, hidden: F64) -> F64:
    """(cells, hypotheses): ``(1 - hidden) × softmax(scaled + log prior) + hidden × prior``."""
    z = scaled + np.log(prior)
    z = z - z.max(axis=1, keepdims=True)
    seen = np.exp(z)
    seen /= seen.sum(axis=1, keepdims=True)
    out: F64 = (1 - hidden)[:, None] * seen + hidden[:, None] * prior
    return out
