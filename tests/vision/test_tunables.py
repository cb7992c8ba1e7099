"""How many numbers of the photo reader can be tuned (issue 34: at most 25 in all of ``vision/``).

``tools/vision_tunables.py`` lists them; these limits are today's counts, to be lowered as the
numbers are derived or merged (the per-cell reading's part and the registration's part apart).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.scripts import load
from vision.config import VisionConfig

ROOT = Path(__file__).resolve().parents[2]
# per-cell: w45d 88, + OFF_RULES, - 0.98, + MISTAKES, - MIN_AGREEMENT; w48d 88 -> 84
# register: w48c 37 -> 32; w51c 30 -> 27 (outline.INK, grid.min_sharpness, registration.min_cell_px);
# 28 with outline.INK back (the ink and the marks must agree on a board without markers)
# w53c: register 28 kept (each of the 28 measured: none derived or removed without moving a reading);
# with the cascade gone the lead took w53c's two measured steps: register._CROP_SIDES derived,
# grid.soft_sharpness removed (reached by no photo): 26
# w51a 84 -> 87: + trees.LIKELIHOOD_TEMPERATURE, REFUSE_WEIGHTS, REFUSE_AT (the trees' path, fitted);
# w53b 87 -> 68: the cascade gone (11 classify fields, decide.DISTRUSTED, cell_confidence 2, cell_model 3,
# pipeline.GLARE_RIGHT, prior.MISTAKES)
# w56a 68 -> 65: evidence.FEWEST merged into classify.adapt_min_pixels, classify.edge_outline_reach (the
# half way it stood for), classify.token_share merged into classify.counter_share
# w56b 65 -> 60: shade.Q (half the warp's px_per_cell) and shade.INSET (three LINE_CELLS, the reach of
# an edge's samples) derived; shade.shadow_edges' 180 is degrees to radians (math); shade.SHORTEST merged
# with the one cell of samples _full_step already asked; shade.REFINE_DEGREES derived (shade.TURN: the
# Hough peak's one-degree bin and its neighbours); shade.REFINE_STEP kept as shade.REFINE_SPLIT (steps
# per Hough bin, still set by hand)
# w56c 60 -> 54 (68 -> 62 on its own): the occluder's give-back of a whole token, one ratio
# (token_cell_ratio_edges and hidden_line gone); occluder_thin_near and occluder_thin_edge derived from
# the pieces' sides (occluders.RING_NEAR, EDGE_STRIP); blend_sd removed; occluders._joined 4-connected as
# the finder's other blobs (its 8 was counted as a choice); the lead: the finder's one connectivity
# named and counted, occluders.CONNECTIVITY (4): 55
# w57a 55 -> 53: classify.occluder_window derived (colours.BAND_TO, the token's band around a counter:
# the same 7-pixel window), occluders.LOCAL_GREY derived (the black-hat's reach, from the printed line's
# width grid_overlay.LINE_CELLS at the shrunk warp's sampling)
# w57a 53 -> 52: classify.reach_area derived (the band's depth times classify.occluder_thin, a finger across
# the band: 0.075 cell² for 0.15)
# the lead 52 -> 51: evidence.distance_past_outline's 8-connectivity made 4 and the reader's one
# connectivity moved to colours.CONNECTIVITY (every patch of one colour it follows)
# the lead 51 -> 50: decide.READ_INSIDE derived (what the photo's edge cuts off stays within the
# outer half of the printed line, where nothing is read: 1 - LINE_CELLS / 2)
# w58c 50 -> 49: pipeline.GLARE_SHARE gone (a cell is glared where most of its pixels are washed out)
# w58c 49 -> 48: classify.max_not_board gone (a refusal says "not the board" where most cells
# show neither the board nor its pieces)
# w58c 48 -> 47: shade.REFINE_SPLIT derived (the warp's pixels in one Hough offset bin, 4: the
# offset refined a warp pixel at a time, the angle by the same share of its bin)
# w58c 47 -> 46: shade._region_offsets' 0.6 gone (a region's bare board is its paper's white,
# board.PAPER_PERCENTILE of its brightness, as the margin's)
# w58b 46 -> 45 (50 -> 49 on its own): classify.min_pixel_light derived (the darkest grey whose
# chromaticity half a level of the 8-bit scale moves by less than classify.min_photo_sd: 0.073 for
# 0.1; no set read a cell otherwise)
# w58b 45 -> 44: classify.max_drift merged into colours.MODE_WINDOW, one reach of a class's colour
# (colours.class_reach, 0.072: the calibration's mode window and a photo's largest move of a class)
# the lead (w59l) 44 -> 43: classify.seen_share gone (a counter's band is read where most of it
# shows: half its pixels, a majority rule; the same 0.5, every reading identical)
MAX_TUNABLE = {"register": 26, "per-cell": 43}


def _tool() -> ModuleType:
    return load("tools/vision_tunables.py", "vision_tunables")


def test_the_tunable_numbers_stay_within_the_agreed_count() -> None:
    tool = _tool()
    counts = tool.counts(tool.inventory())
    for part, limit in MAX_TUNABLE.items():
        assert counts[part].get("tunable", 0) <= limit, (part, counts[part])


def test_every_number_is_listed_with_its_file_and_line() -> None:
    tool = _tool()
    numbers = tool.inventory()
    assert {"registration.max_blur_px", "load.max_bytes", "grid_overlay.LINE_CELLS"} <= {n.name for n in numbers}
    kinds = {n.name: n.kind for n in numbers}
    assert kinds["load.max_bytes"] == "cap" and kinds["registration.max_blur_px"] == "tunable"
    for n in numbers:
        text = (ROOT / n.file).read_text(encoding="utf-8").splitlines()
        assert 1 <= n.line <= len(text), n


def test_every_setting_says_what_it_means() -> None:
    cfg = VisionConfig()
    for section in VisionConfig.model_fields:
        model = type(getattr(cfg, section))
        for name, field in model.model_fields.items():
            assert (field.description or "").strip(), f"{section}.{name}"


def test_every_fitted_entry_names_a_listed_tunable_or_cap() -> None:
    tool = _tool()
    kinds = {n.name: n.kind for n in tool.inventory()}
    assert {name: kinds.get(name) for name in tool.FITTED if kinds.get(name) not in ("tunable", "cap")} == {}


def test_the_per_cell_modules_literals_are_listed_and_each_named_kind_is_used() -> None:
    tool = _tool()
    numbers = [n for n in tool.magic() if n.part == "per-cell"]
    literals = {(n.name, float(n.value)) for n in numbers}
    assert ("colours.adapt", 1.177) in literals
    kinds = {(n.name, float(n.value)): n.kind for n in numbers}
    # a stale entry would class the next literal of that value in that function without a look
    assert {key for key in tool.LITERAL_KINDS if key not in literals} == set()
    assert kinds[("colours.adapt", 1.177)] == "math"
    # a literal named as a module constant is still counted (the share of an off-rules table);
    # one computed from others is derived, not listed (decide.READ_INSIDE since 30 November)
    listed = {n.name: n.kind for n in tool.inventory()}
    assert listed["prior.OFF_RULES"] == "tunable" and "decide.READ_INSIDE" not in listed
