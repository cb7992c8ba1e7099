"""The table display's links: one for the table, one per player, each a token of 128 bits.

Tokens are derived with HMAC-SHA256 from a secret kept in the game file
(:meth:`referee.journal.GameFile.link_secret`), so the links a phone saved still work after a
restart of ``referee serve``; ``--new-links`` draws a new secret and every old link dies.
A token names its viewer to the server and to nobody else: it is never written to a log.

>>> links = Links.derive(bytes(32), ("north", "south"))
>>> len(links.table), links.viewer(links.players["south"])
(32, 'south')
>>> links.viewer("0" * 32) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import io
from collections.abc import Mapping
from dataclasses import dataclass

TOKEN_BYTES = 16
"""128 bits per token."""
TABLE = ""
"""The viewer name of the shared table's link (no player)."""


def _token(secret: bytes, purpose: str) -> str:
    return hmac.new(secret, f"referee-serve/1 {purpose}".encode(), hashlib.sha256).hexdigest()[: 2 * TOKEN_BYTES]


@dataclass(frozen=True)
class Links:
    """The table's token and each player's, derived from one secret."""

    table: str
    players: Mapping[str, str]

    @classmethod
    def derive(cls, secret: bytes, players: tuple[str, ...]) -> Links:
        """Returns the tokens of a game's table and players (``players`` as ``--as`` names them)."""
        return cls(_token(secret, "table"), {p: _token(secret, f"player {p}") for p in players})

    def viewer(self, token: str) -> str | None:
        """Returns whom a token opens the display for (:data:`TABLE` or a player), or None for an
        unknown token; every known token is compared in constant time."""
        found: str | None = None
        candidate = token.encode()
        for name, known in ((TABLE, self.table), *self.players.items()):
            if hmac.compare_digest(candidate, known.encode()):
                found = name
        return found

    def urls(self, base: str) -> dict[str, object]:
        """Returns ``{"table": URL, "players": {PLAYER: URL}}``; every URL ends with ``/``."""
        return {"table": f"{base}/{self.table}/",
                "players": {p: f"{base}/{t}/" for p, t in self.players.items()}}


def qr_text(url: str) -> str:
    """Returns a QR code of ``url`` drawn with block characters, for a phone's camera to read off
    the terminal."""
    import segno  # lazy: segno

    buffer = io.StringIO()
    segno.make(url, error="l").terminal(out=buffer, compact=True, border=2)
    return buffer.getvalue()
