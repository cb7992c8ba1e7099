"""Sealed secrets: a hidden fact (a face-down garrison) fixed now and checked when it is revealed.

The same construction as the dice commitment (:mod:`referee.dice`): SHA-256 over a random salt
and the canonical form of the secret. The commitment is public — it goes into the journal and
every view shows its short fingerprint — while the salt and the secret stay in the game file's
private part, drawn for their owner only. At the reveal the secret is checked against the
commitment, so nobody can change a garrison after the fact; nothing in another player's view,
log or export carries it. The game file is not a vault against whoever holds the laptop
(docs/decisions/secrets-and-viewers.md).

>>> seal = Seal.make("moines", "garrison 0512", ["moine", "fantassin"], salt=bytes(16))
>>> seal.opens(["moine", "fantassin"]), seal.opens(["moine"])
(True, False)
>>> seal.public.fingerprint()
'cccc-1e8e-c79c-b2d9'
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets as _random
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from referee.dice import fingerprint as _fingerprint
from referee.errors import InputFileError, NotationError
from referee.files import parse_json
from referee.game import Action
from referee.i18n import _
from referee.rulings import RuleRef, Ruling

__all__ = [
    "REVEALED", "SEALED", "Commitment", "Opening", "RevealRequest", "Seal", "SealRequest", "StoredSecret", "canonical",
    "check_reveal", "opens", "parse_reveal", "parse_seal", "reveal_text", "revealed_event", "seal_text",
    "sealed_event", "secret_of",
]

SALT_BYTES = 16
MAX_SECRET_BYTES = 4_096

SEALED = "secret-sealed"
"""Event code of an action that sealed a secret (its commitment is in the journal, not the secret)."""
REVEALED = "secret-revealed"
"""Event code of an action that revealed a secret: undoing it needs ``--force`` and is logged."""
MISMATCH = "secret-mismatch"
"""Violation code of a reveal that does not open its commitment."""

WORD = r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}"
"""An owner or a label in the canonical notation: one word (``north``, ``garrison-0512``)."""
_SEAL_RE = re.compile(rf"seal ({WORD}) ({WORD}) ([0-9a-f]{{64}})")
_REVEAL_RE = re.compile(rf"reveal ({WORD}) ({WORD}) ([0-9a-f]{{{2 * SALT_BYTES}}}) (.+)", re.DOTALL)


def canonical(secret: JsonValue) -> bytes:
    """Returns the one byte form of a secret: JSON, sorted keys, no spaces, UTF-8.

    Raises:
        ValueError: the secret is too large (over 4 KiB) or not plain JSON data.
    """
    blob = json.dumps(secret, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    data = blob.encode("utf-8")
    if len(data) > MAX_SECRET_BYTES:
        raise ValueError(_("a secret is at most {limit} bytes, this one is {n}").format(limit=MAX_SECRET_BYTES,
                                                                                     n=len(data)))
    return data


def secret_of(text: str) -> JsonValue:
    """Returns a secret as typed: JSON data when the text parses as JSON (``7``, ``["FMo","MCh"]``),
    else the text itself (``CHV``).

    >>> secret_of('["FMo", "MCh"]'), secret_of("CHV")
    (['FMo', 'MCh'], 'CHV')
    """
    try:
        return parse_json("secret", text)  # type: ignore[return-value]  # parsed JSON is JSON data
    except InputFileError:
        return text


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


class StoredSecret(BaseModel):
    """A secret as the game file's private table (and its owner's export) holds it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str = Field(max_length=40)
    label: str = Field(max_length=80)
    digest: str = Field(pattern=r"^[0-9a-f]{64}$")
    salt: str = Field(pattern=rf"^[0-9a-f]{{{2 * SALT_BYTES}}}$")
    secret: JsonValue

    @classmethod
    def of(cls, seal: Seal) -> StoredSecret:
        """Returns the stored form of a seal."""
        p = seal.public
        return cls(owner=p.owner, label=p.label, digest=p.digest, salt=seal.salt.hex(), secret=seal.secret)

    def seal(self) -> Seal | None:
        """Returns the seal, or None when the salt and secret do not reproduce the digest (altered)."""
        public = Commitment(owner=self.owner, label=self.label, digest=self.digest)
        salt = bytes.fromhex(self.salt)
        return Seal(public, salt, self.secret) if opens(public, salt, self.secret) else None


class SealRequest(Action):
    """A bot's choice to seal a secret: played through the game file's ``seal``, which keeps the
    secret in its private table (the secret is never serialised, shown or journaled)."""

    owner: str = Field(max_length=40)
    label: str = Field(max_length=80)
    secret: JsonValue = Field(default=None, exclude=True, repr=False)

    def text(self) -> str:
        return f"seal {self.owner} {self.label}"


class RevealRequest(Action):
    """A bot's choice to reveal a sealed secret: played through the game file's ``reveal_secret``,
    which holds the salt and the secret."""

    owner: str = Field(max_length=40)
    label: str = Field(max_length=80)

    def text(self) -> str:
        return f"reveal {self.owner} {self.label}"


@dataclass(frozen=True)
class Opening:
    """A reveal as typed: whose secret, which one, the salt and the claimed secret."""

    owner: str
    label: str
    salt: bytes
    secret: JsonValue


def seal_text(public: Commitment) -> str:
    """Returns the canonical action that declares a sealed secret: it carries the commitment only.

    >>> seal_text(Commitment(owner="north", label="number", digest="0" * 64)).split()[:3]
    ['seal', 'north', 'number']
    """
    return f"seal {public.owner} {public.label} {public.digest}"


def reveal_text(owner: str, label: str, salt: bytes, secret: JsonValue) -> str:
    """Returns the canonical action that reveals a secret: the salt and the secret in canonical JSON."""
    return f"reveal {owner} {label} {salt.hex()} {canonical(secret).decode('utf-8')}"


def parse_seal(text: str) -> Commitment | None:
    """Returns the commitment a ``seal`` action declares, or None when the text is not one.

    Raises:
        NotationError: it starts with ``seal`` but is not ``seal OWNER LABEL DIGEST``.
    """
    words = text.strip()
    if words.split(" ", 1)[0].lower() != "seal":
        return None
    match = _SEAL_RE.fullmatch(words)
    if match is None:
        raise NotationError(_("a seal is: seal OWNER LABEL SHA256 (one word each; enter it with referee seal)"))
    return Commitment(owner=match[1], label=match[2], digest=match[3])


def parse_reveal(text: str) -> Opening | None:
    """Returns the opening a ``reveal`` action claims, or None when the text is not one.

    Raises:
        NotationError: it starts with ``reveal`` but is not ``reveal OWNER LABEL SALT JSON``.
    """
    words = text.strip()
    if words.split(" ", 1)[0].lower() != "reveal":
        return None
    match = _REVEAL_RE.fullmatch(words)
    if match is None:
        raise NotationError(_("a reveal is: reveal OWNER LABEL SALT SECRET (enter it with referee reveal)"))
    try:
        secret: JsonValue = json.loads(match[4])
        canonical(secret)
    except (ValueError, RecursionError):
        raise NotationError(_("the revealed secret is not plain JSON data of at most 4 KiB")) from None
    return Opening(owner=match[1], label=match[2], salt=bytes.fromhex(match[3]), secret=secret)


def check_reveal(public: Commitment | None, opening: Opening, cites: tuple[RuleRef, ...] = ()) -> Ruling | None:
    """Returns the violation of a reveal that does not open the sealed commitment, or None.

    The one check every game's judge calls for a reveal (a missing seal is a violation too).
    """
    if public is None:
        return Ruling.violation(MISMATCH, "{owner} has no sealed {label} to reveal", cites,
                                owner=opening.owner, label=opening.label)
    if public.owner != opening.owner or public.label != opening.label:
        return Ruling.violation(MISMATCH, "the reveal names {owner} {label}, the seal {sealed_owner} {sealed_label}",
                                cites, owner=opening.owner, label=opening.label, sealed_owner=public.owner,
                                sealed_label=public.label)
    if not opens(public, opening.salt, opening.secret):
        return Ruling.violation(
            MISMATCH, "the revealed {label} does not match {owner}'s sealed commitment {fingerprint}", cites,
            label=opening.label, owner=opening.owner, fingerprint=public.fingerprint())
    return None


def revealed_event(opening: Opening, cites: tuple[RuleRef, ...] = ()) -> Ruling:
    """Returns the event of an accepted reveal (its code makes undo across it need ``--force``)."""
    value = canonical(opening.secret).decode("utf-8")
    return Ruling.event(REVEALED, "{owner} reveals {label}: {value}", cites, owner=opening.owner,
                        label=opening.label, value=value)


def sealed_event(public: Commitment, cites: tuple[RuleRef, ...] = ()) -> Ruling:
    """Returns the event of an accepted seal: the public commitment's fingerprint, never the secret."""
    return Ruling.event(SEALED, "{owner} seals {label} ({fingerprint})", cites, owner=public.owner,
                        label=public.label, fingerprint=public.fingerprint())
