"""Where the printed corner markers sit around a board, in cell units.

A game's board table declares its layout (``markers:`` in ``tables/<slug>/board.yaml``); the
game validates it with this schema and the photo reader places the markers with it. It lives in
the core, without OpenCV, so judging a move never loads the photo package."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["MarkerLayout", "MarkerPlacement"]


class MarkerPlacement(BaseModel):
    """One printed ArUco marker: its id and its top-left corner in cell units."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: int = Field(ge=0, description="ArUco id.")
    u: float = Field(description="Smallest u (along the numbers, 1→12) of the marker square, in cells.")
    v: float = Field(description="Smallest v (along the letters, A→L) of the marker square, in cells.")


class MarkerLayout(BaseModel):
    """Where the corner markers sit around a board, in cell units (grid spans (0,0)-(cols,rows)).

    Each marker is upright in board coordinates: its first ArUco corner at its smallest u and v,
    then clockwise.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    dictionary: str = Field(default="DICT_4X4_50", description="OpenCV ArUco dictionary name.")
    size: float = Field(default=1.0, gt=0, description="Side of each marker square, in cells.")
    placements: tuple[MarkerPlacement, ...]
    provenance: str = Field(default="provisional", description="Where the layout comes from.")

    def corners(self, marker_id: int) -> list[tuple[float, float]]:
        """Returns the four (u, v) corners of a marker in ArUco order (TL, TR, BR, BL).

        Raises:
            KeyError: no marker has this id.
        """
        for p in self.placements:
            if p.id == marker_id:
                s = self.size
                return [(p.u, p.v), (p.u + s, p.v), (p.u + s, p.v + s), (p.u, p.v + s)]
        raise KeyError(marker_id)
