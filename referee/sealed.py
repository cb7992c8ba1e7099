"""Sealed secrets: a hidden fact (a face-down garrison) fixed now and checked when it is revealed.

The same construction as the dice commitment (:mod:`referee.dice`): SHA-256 over a random salt
and the canonical form of the secret. The commitment is public — it goes into the journal and
every view shows its short fingerprint — while the salt and the secret stay in the game file's
private part, drawn for their owner only. At the reveal the secret is checked against the
commitment, so nobody can change a garrison after the fact; nothing in another player's view,
log or export carries it. The game file is not a vault against whoever holds the laptop
(DESIGN "Boards, players and secrets").

>>> seal = Seal.make("moines", "garrison 0512", ["moine", "fantassin"], salt=bytes(16))
>>> seal.opens(["moine", "fantassin"]), seal.opens(["moine"])
(True, False)
>>> seal.public.fingerprint()
'cccc-1e8e-c79c-b2d9'
"""

from __future__ import annotations

import hashlib
import json
import secrets as _random
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from referee.dice import fingerprint as _fingerprint

__all__ = ["Commitment", "Seal", "canonical"]

SALT_BYTES = 16
MAX_SECRET_BYTES = 4_096


def canonical(secret: JsonValue) -> bytes:
    """Returns the one byte form of a secret: JSON, sorted keys, no spaces, UTF-8.

    Raises:
        ValueError: the secret is too large (over 4 KiB) or not plain JSON data.
    """
    blob = json.dumps(secret, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    data = blob.encode("utf-8")
    if len(data) > MAX_SECRET_BYTES:
        raise ValueError(f"a secret is at most {MAX_SECRET_BYTES} bytes, this one is {len(data)}")
    return data


def _digest(salt: bytes, secret: JsonValue) -> str:
    return hashlib.sha256(salt + canonical(secret)).hexdigest()


class Commitment(BaseModel):
    """The public side of a secret: whose it is, what it is about, and its SHA-256 commitment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str = Field(max_length=40, description="The player who holds the secret.")
    label: str = Field(max_length=80, description="What the secret is about, shown to everyone.")
    digest: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of salt + canonical secret.")

    def fingerprint(self) -> str:
        """Returns the short form shown at the table, as for the dice."""
        return _fingerprint(self.digest)


@dataclass(frozen=True)
class Seal:
    """A secret with its salt (private) and its commitment (public)."""

    public: Commitment
    salt: bytes
    secret: JsonValue

    @classmethod
    def make(cls, owner: str, label: str, secret: JsonValue, salt: bytes | None = None) -> Seal:
        """Seals a secret with a fresh random salt (or a given one, for tests and replays)."""
        salt = _random.token_bytes(SALT_BYTES) if salt is None else salt
        return cls(Commitment(owner=owner, label=label, digest=_digest(salt, secret)), salt, secret)

    def opens(self, claimed: JsonValue) -> bool:
        """Returns True when a claimed secret is the sealed one (checked against the commitment)."""
        return opens(self.public, self.salt, claimed)


def opens(public: Commitment, salt: bytes, claimed: JsonValue) -> bool:
    """Returns True when ``claimed`` with ``salt`` reproduces the public commitment."""
    try:
        return _random.compare_digest(_digest(salt, claimed), public.digest)
    except (TypeError, ValueError):
        return False
