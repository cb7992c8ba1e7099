"""Dice: committed digital rolls anyone can verify, physical rolls typed in, exact odds.

Digital rolls are committed in advance: at game creation a secret 32-byte seed is drawn and only the
SHA-256 commitment is shown (as a short fingerprint). Roll *k* of a game is derived as
HMAC-SHA256(seed, game id ‖ k ‖ purpose ‖ block) and mapped to faces by rejection sampling
(bytes ≥ the largest multiple of the die size are discarded), so no face is favoured. Revealing
the seed lets anyone recompute every roll (:func:`derive_faces`) and check it against the
commitment shown at the start.

The engine asks a :class:`Dice` for rolls and never knows who rolled: :class:`CommittedDice`
(digital), :class:`PhysicalDice` (faces typed in), :class:`ReplayDice` (a journal replay).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from referee.errors import DiceError
from referee.i18n import _, ngettext
from referee.phrases import say

RollSource = Literal["digital", "physical"]
SEED_BYTES = 32
MAX_ROLL_INDEX = 10**12
"""Largest digital roll number a record may carry (a game rolls thousands, not trillions)."""
MAX_EPOCH = 10**6
"""Largest seed epoch a record may name."""


class Roll(BaseModel):
    """One roll of one or more dice, as recorded in the journal; it explains itself."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    purpose: str = Field(max_length=1000, description="What the roll decides, e.g. 'duel throw 1: Achilleus'.")
    sides: int = Field(ge=2, le=256)
    faces: tuple[int, ...] = Field(max_length=1000)
    source: RollSource
    index: int | None = Field(default=None, ge=1, le=MAX_ROLL_INDEX, description="k, the digital roll number.")
    epoch: int | None = Field(default=None, ge=0, le=MAX_EPOCH, description="Which committed seed derived it.")

    @model_validator(mode="after")
    def _consistent(self) -> Roll:
        if any(not 1 <= f <= self.sides for f in self.faces):
            raise ValueError(f"a face outside 1..{self.sides}")
        return self

    @property
    def total(self) -> int:
        """Sum of the faces."""
        return sum(self.faces)

    def __str__(self) -> str:
        faces = "+".join(str(f) for f in self.faces)
        return f"{self.purpose}: {faces} ({self.source})"


class Dice(Protocol):
    """Where rolls come from; the engine calls :meth:`roll` and records what it gets."""

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        """Returns ``count`` dice of ``sides`` faces rolled for ``purpose``."""
        ...


def new_seed() -> bytes:
    """Returns a fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """Returns the SHA-256 commitment (hex) of a seed."""
    return hashlib.sha256(seed).hexdigest()


def fingerprint(commit: str) -> str:
    """Returns the short form of a commitment shown to players: ``1a2b-3c4d-5e6f-7a8b``.

    >>> fingerprint("0123456789abcdef" + "0" * 48)
    '0123-4567-89ab-cdef'
    """
    head = commit[:16]
    return "-".join(head[i : i + 4] for i in range(0, 16, 4))


def derive_faces(seed: bytes, game_id: str, index: int, purpose: str, count: int, sides: int) -> tuple[int, ...]:
    """Returns the faces of digital roll ``index``: HMAC-SHA256 stream, rejection sampling.

    Raises:
        DiceError: a die of fewer than 2 or more than 256 sides.
    """
    if not 2 <= sides <= 256:
        raise DiceError(_("a die needs 2 to 256 sides, not {sides}").format(sides=sides))
    limit = 256 - 256 % sides
    header = json.dumps([game_id, index, purpose], ensure_ascii=False)
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        digest = hmac.new(seed, f"{header}|{block}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < limit:
                faces.append(byte % sides + 1)
                if len(faces) == count:
                    break
        block += 1
    return tuple(faces)


class CommittedDice:
    """Digital dice bound to a game: seed, game id, epoch and the next roll number."""

    def __init__(self, seed: bytes, game_id: str, next_index: int = 1, epoch: int = 0) -> None:
        self.seed = seed
        self.game_id = game_id
        self.next_index = next_index
        self.epoch = epoch
        self.drawn: list[Roll] = []

    @classmethod
    def from_text(cls, seed_text: str, game_id: str = "umpire") -> CommittedDice:
        """Returns dice seeded from a user's ``--seed`` text (reproducible umpire rolls)."""
        return cls(seed_text.encode(), game_id)

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        """Returns the next digital roll and advances the roll number."""
        faces = derive_faces(self.seed, self.game_id, self.next_index, purpose, count, sides)
        result = Roll(
            purpose=purpose, sides=sides, faces=faces, source="digital",
            index=self.next_index, epoch=self.epoch,
        )
        self.next_index += 1
        self.drawn.append(result)
        return result


class PhysicalDice:
    """Faces the players rolled on the table and typed in, consumed in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.used = 0
        self.drawn: list[Roll] = []

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        """Returns the next ``count`` typed faces as a roll.

        Raises:
            DiceError: too few faces typed, or a face outside 1..sides.
        """
        if self.used + count > len(self.faces):
            left = len(self.faces) - self.used
            needs = ngettext("{purpose} needs {n} more die", "{purpose} needs {n} more dice", count).format(
                purpose=say(purpose), n=count)
            have = ngettext("{n} typed face left of {total}", "{n} typed faces left of {total}", left).format(
                n=left, total=len(self.faces))
            raise DiceError(f"{needs}; {have}")
        faces = tuple(self.faces[self.used : self.used + count])
        for face in faces:
            if not 1 <= face <= sides:
                raise DiceError(_("{purpose}: {face} is not a face of a {sides}-sided die (1..{sides})").format(
                    purpose=say(purpose), face=face, sides=sides))
        self.used += count
        result = Roll(purpose=purpose, sides=sides, faces=faces, source="physical")
        self.drawn.append(result)
        return result

    def check_all_used(self) -> None:
        """Raises DiceError when typed faces were left over (a likely typing slip).

        Raises:
            DiceError: some typed faces were not needed.
        """
        if self.used == 0 and self.faces:
            raise DiceError(_("this action rolls no dice: the typed faces are not needed (nothing was played)"))
        if self.used < len(self.faces):
            raise DiceError(ngettext("{n} faces typed but the action needs only {used}",
                                     "{n} faces typed but the action needs only {used}", self.used).format(
                n=len(self.faces), used=self.used))


class ReplayDice:
    """Returns the rolls recorded in a journal entry, in order, for replay and redo."""

    def __init__(self, rolls: Iterable[Roll]) -> None:
        self.rolls = list(rolls)
        self.used = 0
        self.drawn: list[Roll] = []

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        """Returns the next recorded roll after checking it is the one asked for.

        Raises:
            DiceError: the journal has no such roll (the file was altered).
        """
        if self.used >= len(self.rolls):
            raise DiceError(_("the journal records no roll for {purpose}").format(purpose=repr(purpose)))
        recorded = self.rolls[self.used]
        if len(recorded.faces) != count or recorded.sides != sides:
            raise DiceError(
                f"the journal's roll {recorded.purpose!r} has {len(recorded.faces)}d{recorded.sides}; "
                f"replay asks {count}d{sides} for {purpose!r}"
            )
        self.used += 1
        self.drawn.append(recorded)
        return recorded


class NoDice:
    """Dice for actions that must not roll (deterministic games, umpire checks)."""

    def __init__(self) -> None:
        self.drawn: list[Roll] = []

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        """Always refuses.

        Raises:
            DiceError: always; the action was expected to be deterministic.
        """
        raise DiceError(_("{purpose} needs dice, but no dice were given (type them with --dice)").format(
            purpose=say(purpose)))


def parse_faces(text: str) -> list[int]:
    """Returns the faces of ``--dice 3,5`` (commas or spaces).

    Raises:
        DiceError: not a list of whole numbers.

    >>> parse_faces("3, 5 6")
    [3, 5, 6]
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise DiceError(_("--dice needs at least one face, e.g. --dice 3,5"))
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise DiceError(_("--dice takes whole numbers separated by commas, not {text}").format(
            text=repr(text))) from None


# ---------------------------------------------------------------------------------------------
# Exact distributions


def die(sides: int = 6) -> dict[int, Fraction]:
    """Returns the exact distribution of one fair die.

    >>> sum(die(6).values())
    Fraction(1, 1)
    """
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def combine(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Returns the distribution of the sum of two independent variables."""
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out
