"""Sealed secrets: a commitment opens with the sealed secret and its salt, and with nothing else."""

from __future__ import annotations

import doctest

import pytest

import referee.sealed
from referee.sealed import Commitment, Seal, canonical, opens


def test_a_seal_opens_only_with_its_secret() -> None:
    seal = Seal.make("moines", "garrison 0512", {"counters": ["moine", "fantassin"]})
    assert seal.opens({"counters": ["moine", "fantassin"]})
    assert not seal.opens({"counters": ["fantassin", "moine"]})
    assert not seal.opens({"counters": ["moine"]})
    assert not seal.opens(None)


def test_the_salt_hides_equal_secrets_and_binds_the_reveal() -> None:
    a = Seal.make("dragons", "garrison 1010", ["dragon"])
    b = Seal.make("dragons", "garrison 1010", ["dragon"])
    assert a.public.digest != b.public.digest  # two equal garrisons do not look equal
    assert not opens(a.public, b.salt, ["dragon"])
    assert opens(a.public, a.salt, ["dragon"])


def test_canonical_form_ignores_key_order_not_values() -> None:
    assert canonical({"b": 1, "a": [1, 2]}) == canonical({"a": [1, 2], "b": 1})
    assert canonical({"a": [1, 2]}) != canonical({"a": [2, 1]})
    with pytest.raises(ValueError, match="at most"):
        canonical("x" * 5000)
    with pytest.raises(ValueError):
        canonical(float("nan"))


def test_commitment_is_strict() -> None:
    with pytest.raises(ValueError):
        Commitment(owner="x", label="y", digest="not-hex")
    seal = Seal.make("ailes", "garrison 0203", [], salt=bytes(16))
    assert len(seal.public.fingerprint()) == 19


def test_module_examples() -> None:
    assert doctest.testmod(referee.sealed).failed == 0
