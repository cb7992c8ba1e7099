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


def test_the_seal_notation_carries_the_commitment_and_reads_back() -> None:
    from referee.sealed import parse_seal, seal_text

    seal = Seal.make("north", "garrison-0512", ["moine"])
    text = seal_text(seal.public)
    assert "moine" not in text and seal.salt.hex() not in text
    assert parse_seal(text) == seal.public
    assert parse_seal("step") is None


@pytest.mark.parametrize("text", ["seal north", "seal north number nothex", "seal a b " + "0" * 63,
                                  "reveal north number 00 7", "reveal north number " + "0" * 32 + " {bad json",
                                  "reveal north number " + "0" * 32 + " " + "[" * 5000 + "]" * 5000])
def test_malformed_seal_and_reveal_notation_is_a_notation_error(text: str) -> None:
    from referee.errors import NotationError
    from referee.sealed import parse_reveal, parse_seal

    with pytest.raises(NotationError):
        parse_seal(text) if text.startswith("seal") else parse_reveal(text)


def test_check_reveal_accepts_only_the_sealed_secret_of_that_owner_and_label() -> None:
    from referee.sealed import MISMATCH, check_reveal, parse_reveal, reveal_text

    seal = Seal.make("north", "number", 7)
    good = parse_reveal(reveal_text("north", "number", seal.salt, 7))
    assert good is not None and check_reveal(seal.public, good) is None
    for owner, label, salt, value in (("north", "number", seal.salt, 8), ("south", "number", seal.salt, 7),
                                      ("north", "other", seal.salt, 7), ("north", "number", bytes(16), 7)):
        opening = parse_reveal(reveal_text(owner, label, salt, value))
        assert opening is not None
        wrong = check_reveal(seal.public, opening)
        assert wrong is not None and wrong.code == MISMATCH
    assert check_reveal(None, good) is not None
