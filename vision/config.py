"""Every threshold of the vision pipeline, documented (chesscog style: each stage gets its part).

``VisionConfig()`` holds the defaults the project measured on its own renders (see
``bench/bench_vision.py``); ``VisionConfig.from_yaml(path)`` reads overrides from a YAML file
(through the referee's guarded reader; unknown keys are refused). Units: pixels of the photo unless said
otherwise; *cells* are board cells; *warp* pixels are those of the top-down board image.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vision.errors import VisionError


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LoadConfig(_Section):
    """Reading the photo file (checked from its header before any pixel is decoded)."""

    max_bytes: int = Field(default=60_000_000, description="Largest photo file accepted, in bytes.")
    max_pixels: int = Field(
        default=50_000_000,
        description="Largest photo accepted (width × height, read from the header).",
    )
    min_side: int = Field(default=320, description="Smallest photo side accepted, in pixels.")
    work_pixels: int = Field(
        default=3_200_000,
        description="Photos above this are decoded at 1/2, 1/4 or 1/8 scale (JPEG decodes "
        "scaled natively), keeping the working image near this size (~60 px per cell).",
    )


class RegisterConfig(_Section):
    """Finding the board: ArUco corner markers, else the board outline."""

    detect_max_side: int = Field(
        default=1400,
        description="Markers are searched on a copy shrunk to this longest side (speed).",
    )
    min_markers: int = Field(
        default=3, ge=3, le=4, description="Markers needed for a marker homography."
    )
    max_marker_error: float = Field(
        default=0.06, description="Largest mean reprojection error of marker corners, in cells."
    )
    refine_corners: bool = Field(
        default=True,
        description="Detect each marker again at full resolution in a crop around it, with "
        "sub-pixel corners (the search itself runs on a shrunk copy).",
    )
    outline_margin: float = Field(
        default=0.7,
        description="Printed margin around the grid, in cells: the board outline lies this far out "
        "(the project's board art, referee.picture.MARGIN_CELLS; other boards may differ).",
    )
    outline_min_area: float = Field(
        default=0.12,
        description="Smallest board outline accepted, as a fraction of the photo area.",
    )
    outline_label_ratio: float = Field(
        default=1.6,
        description="Without markers, the orientation comes from the printed coordinates (top and "
        "left margins): their ink must exceed the blank margins' by this factor.",
    )
    min_cell_px: float = Field(
        default=14.0, description="Smallest board cell accepted, in decoded-image pixels."
    )
    blur_floor: float = Field(
        default=0.45,
        description="When no board is found, a photo whose edge strength (register.sharpness) "
        "is below this is reported as too blurred rather than board-less (renders: sharp ≥ "
        "0.75, σ 5-9 px ≤ 0.3).",
    )
    dark_mean: float = Field(
        default=20.0,
        description="Photos darker than this mean grey (0-255) are refused (low: a dark table "
        "around a well-lit board lowers the mean of the whole photo).",
    )
    dark_p99: float = Field(
        default=80.0,
        description="... or whose 99th-percentile grey is below this (the board's paper and "
        "plain cells are the brightest things in a usable photo).",
    )


class GridConfig(_Section):
    """The top-down board image and where each cell is sampled."""

    px_per_cell: int = Field(
        default=48, description="Warp pixels per cell (the label templates need ~48)."
    )
    pad_cells: float = Field(default=1.5, description="Margin warped around the grid, in cells.")
    centre: float = Field(
        default=0.34,
        description="Side of the central patch that shows the counter, as a fraction of a cell.",
    )
    corner: float = Field(
        default=0.09,
        description="Side of each corner patch showing the terrain under a counter (cell share).",
    )
    corner_inset: float = Field(
        default=0.035,
        description="Gap between a corner patch and the grid line, as a fraction of a cell.",
    )
    white_band: tuple[float, float] = Field(
        default=(0.15, 0.55),
        description="Band of the margin (cells outside the grid) sampled as the white reference.",
    )
    refine_radius: tuple[float, ...] = Field(
        default=(0.42, 0.12),
        description="Search radius of each refinement pass around the predicted grid lines, in "
        "cells (empty: no refinement on the grid lines).",
    )
    refine_min_contrast: float = Field(
        default=6.0,
        description="A grid-line sample counts if its dark-line response beats the strip's median "
        "by this (grey levels).",
    )
    refine_min_points: int = Field(
        default=40, description="Crossings needed to refit the homography."
    )
    refine_tolerance: float = Field(
        default=0.06, description="RANSAC tolerance of the refit, in cells."
    )
    refine_max_drift: float = Field(
        default=0.06,
        description="Largest mean distance, in cells, between the markers' corners "
        "and where the refit puts them (else the refit is dropped).",
    )
    refine_max_shift: float = Field(
        default=0.6,
        description="Largest move of a grid corner the refit may make, in cells (else kept).",
    )
    min_sharpness: float = Field(
        default=0.035,
        description="Refuse as blurred below this sharpness (mean |Laplacian| of the warped board "
        "over its mean grey). Renders: 1080p with σ ≤ 1.5 px stays above 0.07; σ 5-9 px falls "
        "under 0.06, and its cells then fail their confidence check.",
    )
    soft_sharpness: float = Field(
        default=0.06,
        description="Below this, a photo refused for unreadable cells is said to look blurred.",
    )


class ClassifyConfig(_Section):
    """Per-cell colour classification (occupant side, terrain) and its confidence."""

    outlier_sigma: float = Field(
        default=6.0,
        description="A patch further than this many standard deviations (Mahalanobis) from every "
        "learned colour is not trusted (a hand, a shadow edge, a foreign object).",
    )
    min_confidence: float = Field(
        default=0.9, description="Cells read below this confidence are reported as unreadable."
    )
    max_unreadable: float = Field(
        default=0.2,
        description="More than this fraction of unreadable cells and the photo is refused.",
    )
    min_chroma_sd: float = Field(
        default=0.005,
        description="Floor on a colour class's chromaticity spread (learned or built in).",
    )
    min_light_sd: float = Field(
        default=0.3,
        description="Floor on a class's log-brightness spread: light and shadows change between "
        "photos.",
    )
    min_detail_sd: float = Field(
        default=0.4,
        description="Floor on a class's spread of log detail (blur and resolution vary).",
    )
    occlusion_reach: int = Field(
        default=2,
        description="How many cells distrust spreads from an untrusted cell (a hand's edge is "
        "one or two cells wide; further, atypical cells are left to their own confidence).",
    )
    occlusion_sigma: float = Field(
        default=3.0,
        description="Distrust spreads from an untrusted cell to neighbours farther than this many "
        "standard deviations from their class (a hand spans several cells).",
    )


class IdentityConfig(_Section):
    """Reading counter labels to tell legions of one side apart."""

    px_per_cell: int = Field(default=80, description="Warp pixels per cell of the label patches.")
    window: tuple[float, float] = Field(
        default=(0.56, 0.3),
        description="Width and height of the label window, as fractions of a cell.",
    )
    search: float = Field(
        default=0.1, description="Shift searched around the cell centre, in cells."
    )
    blurs: tuple[float, ...] = Field(
        default=(0.0,), description="Blurs (σ, identity-warp pixels) of the default templates."
    )


class VisionConfig(_Section):
    """All vision settings, one section per stage."""

    load: LoadConfig = LoadConfig()
    registration: RegisterConfig = RegisterConfig()
    grid: GridConfig = GridConfig()
    classify: ClassifyConfig = ClassifyConfig()
    identity: IdentityConfig = IdentityConfig()

    @classmethod
    def from_yaml(cls, path: Path) -> VisionConfig:
        """Returns the defaults overridden by a YAML file.

        Raises:
            VisionError: unreadable file, invalid YAML, or an unknown or invalid setting.
        """
        from referee.errors import InputFileError
        from referee.files import load_data

        try:
            data = load_data(path, what="vision settings file") or {}
        except InputFileError as exc:
            raise VisionError(f"cannot read vision settings: {exc}") from None
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise VisionError(f"{path}: {loc}: {err['msg']}") from None
