"""Settings of the per-cell colour reading (issue 13's classifier: :mod:`vision.adaptive`), one
section of :class:`vision.config.VisionConfig`; every field documented."""

from __future__ import annotations

from pydantic import Field

from vision.sections import Range, Section


class ClassifyConfig(Section):
    """Per-cell reading (occupant side, terrain) from per-pixel colours adapted to each photo
    (:mod:`vision.adaptive`). Shares are fractions of a cell region's pixels; chromaticity is
    ``r = R/(R+G+B)``, ``g = G/(R+G+B)`` after dividing by the white reference."""

    min_confidence: float = Field(
        default=0.9, description="Cells read below this confidence are reported as unreadable."
    )
    max_unreadable: float = Field(
        default=0.25,
        description="More than this fraction of unreadable cells, a hand's and a glare's included, and the "
        "photo is refused (0.3 until the occupant and bare terrain became fitted probabilities, which "
        "leave fewer cells unsure in a bad photo: 0.25 keeps refused the dev photo of a shadow strip "
        "under a glare that 0.3 then let through with 12 cells wrong; provisional, set by hand). One "
        "limit since 29 November (max_unreadable, 0.2, for the cells unreadable for no known reason, "
        "and max_hidden, 0.25, for all of them, before: no dev photo was read or refused otherwise). "
        "Measured (w58c): every photo it refuses of the dev photos, the game positions, the occlusion set, "
        "the refuse set and tests/vision (11) the trees' refusal (trees.REFUSE_AT) refuses too; kept: "
        "REFUSE_AT was fitted as its partner (both together match the cascade's refusals), it gates a "
        "refusal's named reason and calibration's read-back, and 1 turns both refusals off.",
    )
    pixel_step: int = Field(default=2, ge=1, le=8, description="Every this many warp pixels is classified (speed).")
    default_pixel_sd: float = Field(
        default=0.015,
        description="Spread of a class taken from the tables' colours (no calibration).",
    )
    drift_sd: float = Field(
        default=0.012,
        description="Photo-to-photo drift added to a calibrated class's spread (another print "
        "batch, lamp or phone: about ±10 levels per channel); also the floor on that spread "
        "(the setting min_pixel_sd before, always of this value).",
    )
    min_photo_sd: float = Field(
        default=0.006,
        description="Floor on a class's spread measured in the photo itself (each class is "
        "narrowed to its own spread there, never widened past its calibrated one); it also sets "
        "the darkest pixel read, min_pixel_light (derived, w58b).",
    )

    @property
    def min_pixel_light(self) -> float:
        """Pixels darker than this share of the white reference are left out (grid lines, rims,
        deep shadows: their chromaticity is mostly noise). Derived, not set: the darkest grey whose
        chromaticity the 8-bit rounding of one channel (half a level, the white reference being at
        most 255 levels) moves by less than the tightest spread a class may have
        (``min_photo_sd``). For a grey of brightness b, r = R / (R + G + B) moves by
        (1 - 1/3) / (3 b) per unit of R, so b = (2/3) / (3 · 2 · 255 · min_photo_sd) = 0.0726.
        The setting min_pixel_light, 0.1 by hand, until w58b: at most 134 of a set's 24 million
        board pixels lay below 0.1 (dev photos, game positions, occlusion set), and each set read
        every cell the same with the derived value."""
        half_level = 0.5 / 255
        return (1 - 1 / 3) * half_level / (3 * self.min_photo_sd)

    pixel_sigma: float = Field(
        default=4.0,
        description="A pixel further than this many spreads from every class fits none (occluder evidence).",
    )
    adapt_rounds: int = Field(default=3, ge=0, le=10, description="Rounds of re-centring the classes on the photo.")
    adapt_max_pixels: int = Field(default=20_000, description="Pixels sampled (evenly) to adapt the classes (speed).")
    adapt_min_pixels: int = Field(
        default=30,
        description="Fewest pixels a statistic of the per-cell reading is taken on: a class is re-centred "
        "(or measured, or an occluder's colour taken) only from at least this many, and a band's "
        "brightness and lean, a bare cell's own board light, a counter's centre likewise (one number since "
        "w56a: 30 here and evidence.FEWEST, 5, for the others before; neither moved a dev photo's "
        "reading at half or twice).",
    )
    adapt_max_blob: float = Field(
        default=3.0,
        description="A connected patch of one token's or counter's colour larger than this (cells², every "
        "second pixel, 4-connected) is not a piece (a hand, a sleeve): its pixels are left out when the "
        "classes adapt to the photo, and one of a counter's colour counts as an occluder's. Pieces are "
        "smaller than a cell; a few touching tokens stay below.",
    )
    counter_disc: float = Field(
        default=0.2,
        description="Radius of the central disc where a counter is looked for, in cells (a "
        "counter 0.6 cell wide, 0.08 cell off centre, still covers it).",
    )
    counter_share: float = Field(
        default=0.25,
        description="Share of a region in a piece's colour that makes the piece: of the central disc in a "
        "side's colour, a counter; of the inner square's terrain-coloured pixels in a token's colour, a "
        "token (a cell with less of the latter is bare board, whose own light the band under a counter "
        "is read against). One share since w56a (token_share, 0.5, before: at 0.25 it moved no dev "
        "photo's reading, w55a).",
    )
    terrain_square: float = Field(
        default=0.36,
        description="Half-side of the inner square where terrain is sampled, in cells: a token "
        "0.85 cell wide and 0.07 cell off centre still covers it, and a neighbour's token "
        "reaching over the grid line does not reach it.",
    )
    lean_min: float = Field(
        default=0.4,
        description="Under a counter, a pixel counts for a token when its colour lies at least "
        "this far from the bare board's toward the token's (0: board, 1: token) ...",
    )
    lean_perp: float = Field(
        default=0.35,
        description="... and no further than this (same unit) off that line.",
    )
    edge_band_from: float = Field(
        default=0.02,
        ge=0,
        description="Under a counter, the band outside its outline whose brightness and colour are read "
        "at full warp resolution starts this far (cells) out from it, past the outline's blur (it ends "
        "at colours.BAND_TO, within the cell's printed line, evidence.INSIDE): a token under the counter "
        "fills it up to the token's edge; bare board only darkens there in the counter's rim and shadow "
        "(the first number of the setting edge_band before; 0.042, half a blurred printed line, reads the "
        "second renderer's dev photos a little better but leaves a described scene read right without "
        "the clear-lean rule).",
    )
    edge_light_skip: float = Field(
        default=0.03,
        ge=0,
        description="The band's brightness is read on its part at least this much (cells) further out "
        "than its start (on all of it when fewer than 5 pixels are left): a counter's light border, "
        "blurred, brightens the band's inner edge, and a hill there read as bright as bare board.",
    )
    occluder_light: float = Field(
        default=0.6,
        description="Only pixels brighter than this (share of the white reference) that fit no "
        "class count as occluder evidence (printed art and rims are darker).",
    )
    occluder_step: int = Field(
        default=4,
        ge=1,
        le=12,
        description="The search for occluders reaching in runs on the warp shrunk this many times (a "
        "working size, for speed: 4 leaves 12 samples a cell on the 48-pixel warp, its colours judged over "
        "3 × 3 of them, a quarter cell).",
    )
    reach_band: Range = Field(
        default=(0.15, 0.4),
        description="Band around the grid (from, to: cells out from its edge) where an occluder "
        "reaching in from outside shows on the sheet (a token at the edge, slightly misplaced, "
        "does not reach it); it leaves out the square of its outer reach around each corner of the grid, "
        "where the corner markers' printed guides run along the grid's edge lines. An occluder blob "
        "needs the band's depth times occluder_thin (a finger's width across the band) in cells², "
        "there and inside the grid (the setting reach_area, 0.15, until w57a).",
    )
    line_dip: float = Field(
        default=0.08,
        description="A printed line (grid, token edge) shows as a thin dip this deep (share of the grey "
        "around); lines part the blobs an occluder is looked for in (a hand hides them).",
    )
    reach_colour: float = Field(
        default=0.1,
        description="The occluder's colours: the classes (or 'fits none') making at least this share of its "
        "pixels on the sheet; only pixels of those colours are followed into the grid.",
    )
    min_separation: float = Field(
        default=3.5,
        description="Calibration refuses classes closer than this many combined spreads.",
    )
    occluder_margin: float = Field(
        default=0.06,
        ge=0,
        le=1,
        description="Once an occluder is found, the cells are read again without its pixels and this "
        "much (cells) around them (its soft edge and the blur): a cell it only touches is read from "
        "the rest, and the piece colours adapt without it (a hand may have a token's colour).",
    )
    occluder_alpha: float = Field(
        default=0.3,
        gt=0,
        le=1,
        description="Near the edge of an occluder found on the shrunk warp, each pixel is judged at full "
        "resolution: covered when its colour is nearer the occluder's than every piece colour's, or when "
        "it blends a piece colour with the occluder's (its soft edge) past this share of the occluder's "
        "colour.",
    )
    occluder_rival: float = Field(
        default=3.0,
        ge=0,
        description="A piece colour within this many combined spreads of the occluder's own colour "
        "cannot tell them apart: pixels of it near the occluder count as covered.",
    )
    occluder_fringe: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="Width (cells) of an occluder's soft edge, its own blurred outline: a blend of a piece "
        "colour with the occluder's counts as covered only within this much of pixels of the occluder's "
        "own colour, and its narrow parts within this much of its wider parts stay the occluder "
        "(occluder_thin). One setting since 29 November (blend_reach and occluder_thin_fringe before, "
        "both 0.1).",
    )
    occluder_thin: float = Field(
        default=0.3,
        ge=0,
        le=1,
        description="The occluder's parts narrower than this (cells), away from its wider parts "
        "(occluder_fringe), are not the occluder where they ring a counter "
        "(occluders.RING_NEAR, occluder_thin_ring) or run along the grid's edge "
        "(occluders.EDGE_STRIP): a hand and its fingers are wider, while a token's band around a "
        "counter, mixed with the counter's rim by the blur, can have a hand's colour (0: off).",
    )
    occluder_thin_ring: float = Field(
        default=0.3,
        ge=0,
        le=1,
        description="A ring covers at least this share of the band around the counter in its cell "
        "(a hand's edge lies along one side).",
    )
    token_cell_ratio: float = Field(
        default=0.65,
        ge=0,
        description="A cell an occluder covers by at least the smallest token's area (colours.TOKEN_SIDE "
        "squared: a whole token joined to it) is given back as a token when the mean colour of its "
        "covered pixels is nearer that token's colour than this share of its distance to the "
        "occluder's (one ratio since 30 November, w56c: 0.5, and token_cell_ratio_edges, 0.65, where "
        "none of the cell's printed edges was hidden by hidden_line, 0.3, before) ...",
    )
    token_cell_gap: float = Field(
        default=1.0,
        ge=0,
        description="... when the token's and the occluder's colours lie at least this many of the "
        "token colour's spreads apart.",
    )
    edge_unmix: float = Field(
        default=0.3,
        ge=0,
        description="Under a counter, the band's lean toward a token is read after taking out the "
        "counter's colour (each pixel as the board's colour plus shares of the token's and the "
        "counter's) when the two directions from the board's colour are this far from parallel "
        "(sine of their angle; 2 or more: never, the tinted pixels are left out instead).",
    )
    occluder_local_gap: float = Field(
        default=1.2,
        ge=0,
        description="A piece colour closer to the occluder's than occluder_rival (one pixel cannot "
        "tell them apart) but at least this many combined spreads from it is told from it by the "
        "mean colour over a small window (as wide as the band a token shows around a counter, "
        "colours.BAND_TO; the setting occluder_window, 0.15, until w57a): a hill token beside a hand of nearly "
        "its colour is read, not counted as covered.",
    )
