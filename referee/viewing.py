"""What one viewer may see of a game file: the one per-viewer function, :func:`seen_by`.

``show``, ``status``, ``log`` and ``export`` (``--as PLAYER`` or the shared table) and every page
and stream of ``referee serve`` draw what they show from :func:`seen_by`, never from the game
file's state or private table directly. A viewer sees the state as the game's
:meth:`~referee.game.Engine.view` masks it for them, the public journal (secrets in it only as
commitments), and their own sealed secrets still hidden — nobody else's. The shared table
(``viewer`` None) sees no secret at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from referee.game import AnyEngine, BoardView, GameState, MapView
from referee.sealed import canonical

if TYPE_CHECKING:
    from referee.journal import Entry, GameFile


@dataclass(frozen=True)
class SecretLine:
    """One of the viewer's own secrets, sealed and not yet revealed."""

    label: str
    value: str
    """The secret in canonical JSON (``["FMo","MCh"]``)."""
    fingerprint: str
    """Short form of its public commitment."""


@dataclass(frozen=True)
class Seen:
    """A game file as one viewer may see it."""

    game: AnyEngine
    viewer: str | None
    state: GameState
    """The state masked for the viewer (:meth:`Engine.view`)."""
    secrets: tuple[SecretLine, ...]
    state_hash: str
    """Hash of the game's true state: what a move from this view must still find (never a secret:
    every view of one state has the same hash, whatever it masks)."""
    source: GameFile = field(repr=False, compare=False)

    @cached_property
    def entries(self) -> tuple[Entry, ...]:
        """The whole journal, undone entries included: public (secrets only as commitments). Read
        and checked from its first entry when first asked for (the game file must still be open):
        ``status`` and ``show`` never pay for it."""
        return tuple(self.source.entries())

    def board(self) -> BoardView | MapView:
        """Returns the board as this viewer sees it."""
        return self.game.board_view(self.state)

    def status(self) -> list[str]:
        """Returns the status lines as this viewer sees them."""
        return self.game.status(self.state)

    def export(self) -> dict[str, object]:
        """Returns the game as JSON data for this viewer (the game file must still be open): the
        journal with secrets as commitments, plus this viewer's own secrets (so their export can be
        imported and revealed later); never the table display's link secret (:mod:`referee.serve`)."""
        return self.source.export(self.viewer)


def seen_by(gf: GameFile, viewer: str | None) -> Seen:
    """Returns what ``viewer`` (a player the game names, or None for the shared table) may see.

    Raises:
        GameFileError: the journal or the private table is damaged.
    """
    game = gf.game
    true_state = gf.state()
    return Seen(game, viewer, game.view(true_state, viewer), _secrets(gf, viewer), game.state_hash(true_state), gf)


def _secrets(gf: GameFile, viewer: str | None) -> tuple[SecretLine, ...]:
    if viewer is None:
        return ()
    hidden = {c.digest for c, shown in gf.sealed_now() if not shown and c.owner == viewer}
    return tuple(SecretLine(s.public.label, canonical(s.secret).decode("utf-8"), s.public.fingerprint())
                 for s in gf.secrets(viewer) if s.public.digest in hidden)
