"""Dice: committed digital rolls (HMAC, rejection sampling), typed faces, replay, exact odds."""

from __future__ import annotations

import hashlib
from collections import Counter
from fractions import Fraction

import pytest

from referee.dice import (
    CommittedDice,
    NoDice,
    PhysicalDice,
    ReplayDice,
    combine,
    commitment,
    derive_faces,
    die,
    fingerprint,
    new_seed,
    parse_faces,
)
from referee.errors import DiceError


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = bytes(range(32))
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert fingerprint(commitment(seed)) == "-".join(commitment(seed)[i : i + 4] for i in range(0, 16, 4))


def test_fresh_seeds_differ() -> None:
    assert new_seed() != new_seed() and len(new_seed()) == 32


def test_derivation_depends_on_every_input() -> None:
    seed = b"s" * 32
    base = derive_faces(seed, "g1", 1, "duel", 20, 6)
    assert base == derive_faces(seed, "g1", 1, "duel", 20, 6)
    assert base != derive_faces(seed, "g2", 1, "duel", 20, 6)
    assert base != derive_faces(seed, "g1", 2, "duel", 20, 6)
    assert base != derive_faces(seed, "g1", 1, "battle", 20, 6)
    assert base != derive_faces(b"t" * 32, "g1", 1, "duel", 20, 6)


@pytest.mark.parametrize("sides", [2, 3, 6, 7, 10, 20, 100, 256])
def test_faces_stay_in_range(sides: int) -> None:
    faces = derive_faces(b"x" * 32, "g", 5, "p", 500, sides)
    assert len(faces) == 500 and min(faces) >= 1 and max(faces) <= sides


def test_rejection_sampling_is_unbiased_for_d6() -> None:
    # 256 is not a multiple of 6: modulo mapping would favour faces 1-4. Chi-square, 5 dof.
    counts: Counter[int] = Counter()
    for k in range(3000):
        counts.update(derive_faces(b"fair" * 8, "chi", k, "test", 10, 6))
    n = sum(counts.values())
    chi2 = sum((counts[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert chi2 < 20.5  # p ≈ 0.001 for 5 degrees of freedom


def test_rejection_discards_high_bytes() -> None:
    # With sides=255 only byte 255 is rejected; with sides=129 bytes 129..255 are.
    for k in range(50):
        faces = derive_faces(b"r" * 32, "g", k, "p", 40, 129)
        assert all(1 <= f <= 129 for f in faces)


def test_bad_die_size_is_refused() -> None:
    with pytest.raises(DiceError):
        derive_faces(b"x", "g", 1, "p", 1, 1)
    with pytest.raises(DiceError):
        derive_faces(b"x", "g", 1, "p", 1, 257)


def test_committed_dice_number_their_rolls() -> None:
    dice = CommittedDice(b"k" * 32, "game", next_index=7, epoch=2)
    first, second = dice.roll(2, 6, "a"), dice.roll(1, 6, "b")
    assert (first.index, second.index, dice.next_index) == (7, 8, 9)
    assert first.source == "digital" and first.epoch == 2
    assert first.faces == derive_faces(b"k" * 32, "game", 7, "a", 2, 6)


def test_physical_dice_are_consumed_in_order_and_checked() -> None:
    dice = PhysicalDice([3, 5, 6])
    assert dice.roll(2, 6, "a").faces == (3, 5)
    with pytest.raises(DiceError, match="needs 2 more dice"):
        dice.roll(2, 6, "b")
    with pytest.raises(DiceError, match="not a face"):
        PhysicalDice([7]).roll(1, 6, "c")
    leftover = PhysicalDice([1, 2])
    leftover.roll(1, 6, "d")
    with pytest.raises(DiceError, match="needs only 1"):
        leftover.check_all_used()


def test_replay_dice_refuse_a_different_roll() -> None:
    recorded = PhysicalDice([4]).roll(1, 6, "x")
    assert ReplayDice([recorded]).roll(1, 6, "x") == recorded
    with pytest.raises(DiceError):
        ReplayDice([recorded]).roll(2, 6, "x")
    with pytest.raises(DiceError):
        ReplayDice([]).roll(1, 6, "x")


def test_no_dice_refuses() -> None:
    with pytest.raises(DiceError, match="--dice"):
        NoDice().roll(1, 6, "x")


@pytest.mark.parametrize(("text", "faces"), [("3,5", [3, 5]), ("1 2, 3", [1, 2, 3]), ("6", [6])])
def test_parse_faces(text: str, faces: list[int]) -> None:
    assert parse_faces(text) == faces


@pytest.mark.parametrize("text", ["", "a,b", "3.5"])
def test_parse_faces_rejects(text: str) -> None:
    with pytest.raises(DiceError):
        parse_faces(text)


def test_exact_distributions_sum_to_one() -> None:
    two = combine(die(6), die(6))
    assert sum(two.values()) == 1
    assert two[7] == Fraction(1, 6) and two[2] == Fraction(1, 36)
