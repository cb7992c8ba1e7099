"""Every threshold of the vision pipeline, documented (chesscog style: each stage gets its part;
the per-cell colour reading's section is :mod:`vision.classify_config`).

``VisionConfig()`` holds the defaults the project measured on its own renders (see
``bench/bench_vision.py``); ``VisionConfig.from_yaml(path)`` reads overrides from a YAML file
(``referee capture --config FILE``, ``referee vision calibrate --config FILE``) through the
referee's guarded reader ``referee.files.load_data``; unknown keys are refused. Units: pixels of the photo unless said
otherwise; *cells* are board cells; *warp* pixels are those of the top-down board image.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, ValidationError

from referee.errors import InputFileError
from referee.files import load_data
from referee.i18n import _
from vision.classify_config import ClassifyConfig
from vision.errors import VisionError
from vision.sections import Section

__all__ = ["ClassifyConfig", "GridConfig", "IdentityConfig", "LoadConfig", "RegisterConfig", "VisionConfig"]

MAX_SETTINGS_BYTES = 200_000


class LoadConfig(Section):
    """Reading the photo file (checked from its header before any pixel is decoded)."""

    max_bytes: int = Field(default=60_000_000, description="Largest photo file accepted, in bytes.")
    max_pixels: int = Field(
        default=50_000_000,
        description="Largest photo accepted (width × height, read from the header).",
    )
    max_decoded_pixels: int = Field(
        default=25_000_000,
        description="Largest PNG or HEIF photo accepted (width × height): unlike JPEG they are decoded at full "
        "size, and a 24 MP HEIF takes about 1 s to decode here.",
    )
    max_scans: int = Field(
        default=100,
        ge=1,
        description="Most scans (progressive passes) accepted in a JPEG, counted from its segments before "
        "decoding: each one passes over the whole image (cameras write 1 to about 12).",
    )
    min_side: int = Field(default=320, description="Smallest photo side accepted, in pixels.")
    work_pixels: int = Field(
        default=3_200_000,
        description="Photos above this are decoded at 1/2, 1/4 or 1/8 scale (JPEG decodes "
        "scaled natively), keeping the working image near this size (~60 px per cell).",
    )


class RegisterConfig(Section):
    """Finding the board: ArUco corner markers, else the board outline."""

    detect_max_side: int = Field(
        default=1400,
        description="Markers are searched on a copy shrunk to this longest side (speed).",
    )
    search_missing: bool = Field(
        default=True,
        description="With two or three markers found, look for each missing one in a crop around "
        "where they put it (sharpened, enlarged, finer bit reading, full one-bit correction).",
    )
    search_sharpen_sigma: float = Field(
        default=1.5, description="Gaussian σ of the unsharp mask applied to the crop, in photo pixels."
    )
    max_candidates: int = Field(
        default=400,
        ge=1,
        description="A limit on work, not a reading setting: an image (the photo, or a copy searched again) "
        "with more dark marker-sized blobs than this is not searched for markers (the detector's time "
        "grows faster than its candidates: a checked cloth took minutes); the photo itself is then refused. "
        "Rendered board photos show 28-169 (80 dev renders).",
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
    outline_label_ratio: float = Field(
        default=2.0,
        description="Without markers, the orientation comes from the printed coordinates (top and "
        "left margins): each of their margins must show this many times the printed marks chance "
        "leaves (vision.outline.side_measures: darker in the middle of each cell's stretch than across "
        "the cells' edges; chance: either blank margin's marks, and the margin's own standard error), "
        "where the outline puts them and again where the grid refit does. "
        "Fitted by bench/outline_orientation.py on the registration set's outline ladder (48 boards "
        "without markers, both renderers) and 120 drawn boards, half on a dark table: of 1.5, 2, 3, 4, "
        "6, 8, the largest placing the most boards right (1.5 and 2 tie; none is placed turned at any); "
        "checked on outline_check and on bench/bench_hostile_images.py (no outline of noise passes).",
    )
    max_blur_px: float = Field(
        default=3.0,
        description="Photos whose sharpest edges are blurred over more than this Gaussian σ, in "
        "decoded-image pixels (register.edge_blur), are refused as too blurred. Renders: σ ≤ "
        "1.5 px reads under 2, σ 5-9 px over 4.",
    )


class GridConfig(Section):
    """The top-down board image and where each cell is sampled."""

    px_per_cell: int = Field(default=48, description="Warp pixels per cell (the label templates need ~48).")
    pad_cells: float = Field(default=1.5, description="Margin warped around the grid, in cells.")
    refine_radius: float = Field(
        default=0.6,
        ge=0,
        description="Search radius of the grid refit's first pass around the predicted grid lines, in cells "
        "(how far a registration from two or three markers, or from the outline, may put a line); the "
        "next pass searches half as far, the last within twice register.PLACE_TOLERANCE (0: no refit).",
    )
    refine_min_contrast: float = Field(
        default=6.0,
        description="A grid-line sample counts if its dark-line response beats the strip's median "
        "by this (grey levels).",
    )
    refine_line_px: float = Field(
        default=4.0,
        description="Width of the dark-line filter used to find the printed grid lines, at least "
        "this many photo pixels (a thin line blurred over a pixel or two spreads over about as "
        "many; the filter is also at least 1/12 cell).",
    )
    refine_min_points: int = Field(
        default=40,
        description="Crossings needed to refit the homography. Fitted by bench/registration_numbers.py "
        "--fit on the registration set's 214 fitting photos (no board over half a cell off, then the most "
        "placed within two tolerances, then the least error; ties to the most crossings): 4 to 40 tie "
        "(133 placed close), 50 places 132, 60 130, 80 126.",
    )
    refine_drift_per_error: float = Field(
        default=2.0,
        description="A crossing further than register.PLACE_TOLERANCE from where the refit puts it is an "
        "outlier (RANSAC), and the markers' corners may lie that far from where it puts them on average (else "
        "the refit is dropped), or this many times the markers' own fit error, when larger (small blurred "
        "markers' corners are themselves up to about 0.1 cell off), but never more than this many "
        "tolerances (a grid taken one line off drifts ~1 cell).",
    )


class IdentityConfig(Section):
    """Reading counter labels to tell legions of one side apart."""

    px_per_cell: int = Field(default=80, description="Warp pixels per cell of the label patches.")
    window: tuple[float, float] = Field(
        default=(0.56, 0.3),
        description="Width and height of the label window, as fractions of a cell.",
    )
    search: float = Field(default=0.1, description="Shift searched around the cell centre, in cells.")


class VisionConfig(Section):
    """All vision settings, one section per stage."""

    load: LoadConfig = LoadConfig()
    registration: RegisterConfig = RegisterConfig()
    grid: GridConfig = GridConfig()
    classify: ClassifyConfig = ClassifyConfig()
    identity: IdentityConfig = IdentityConfig()

    @classmethod
    def from_yaml(cls, path: Path) -> VisionConfig:
        """Returns the defaults overridden by a YAML (or JSON) file, read through the project's
        guarded reader (regular file, size cap, safe YAML without aliases, bounded depth).

        Raises:
            InputFileError: unreadable or invalid YAML/JSON.
            VisionError: an unknown or invalid setting (the message names it).
        """
        try:
            data = load_data(path, what="vision settings file", limit=MAX_SETTINGS_BYTES) or {}
        except InputFileError as exc:
            raise VisionError(_("cannot read vision settings: {problem}").format(problem=exc)) from None
        if not isinstance(data, dict):
            raise VisionError(_("{path}: expected a mapping of sections (registration, classify, ...)").format(
                path=path))
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise VisionError(f"{path}: {loc}: {err['msg']}") from None
