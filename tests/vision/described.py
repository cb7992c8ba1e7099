"""Scenes written out for the per-cell tests (``test_dev_renders``): the cells around the ones
read (terrain other than plain, counters by side), the camera, light, shadow and blur, and a
hand placed by its fingertips, a point its forearm crosses and its skin tone
(:class:`vision.render.Conditions`). Each once was a dev render pinned by its seed (named
beside it); its conditions were written out from that render's and the scene cut down to the
cells around the ones read, then the draw (noise, jitter and shadow) chosen among the first
eight that show the same behaviour.

The later ones (from ``hill_band_around_a_counter_beside_a_finger``) also state what a cut-down
scene would otherwise draw differently from its seed, since the pieces are drawn in order: the
hand's finger lengths (``hand_fingers``), the shadow band's place (``shadow_band``), the
``real`` profile's jittered piece colours (``colours``), and the counters' offsets and turns
around the cells read (``places``). They keep the seed's hill tokens elsewhere on the board
(and its forest tokens where named): the reader narrows each class to its spread in the photo
itself, and with the read cell's hill alone that spread is measured on the band under the
counter, blended with the counter's rim, and takes it in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from vision.render import Conditions, Counter, Rendered, Scene, render

from .helpers import board

SIZE = (1920, 1080)


def dev_conditions(**stated: Any) -> Conditions:
    """The conditions of a dev render as written out: its size, its counters' jitter (0.05 cell)
    and turn (6°), the same in every dev render of the project's style, and what the scene
    states."""
    return Conditions(*SIZE, jitter=0.05, turn_deg=6.0, **stated)


def real_conditions(**stated: Any) -> Conditions:
    """The same for a dev render of the ``real`` profile: counters jittered 0.08 cell and turned
    up to 10°, piece colours jittered up to 10 levels."""
    return Conditions(*SIZE, jitter=0.08, turn_deg=10.0, profile="real", colour_jitter=10.0, **stated)


class Described(NamedTuple):
    """A scene and how it is photographed."""

    terrain: dict[str, str]
    counters: dict[str, str]
    conditions: Conditions
    draw: int
    places: dict[str, tuple[float, float, float]] | None = None
    """The counters of the cells read and their neighbours as the seed placed them: offset from
    the cell's centre (u, v, in cells) and turn in degrees (others are drawn)."""


SCENES: dict[str, Described] = {
    "counter_on_a_hill_in_the_corner_beside_a_hand": Described(
        terrain={"A12": "hill", "B12": "hill"},
        counters={"A11": "greek", "A12": "persian"},
        conditions=dev_conditions(
            tilt_deg=13.53, tilt_dir_deg=150.88, rotation_deg=147.87, fill=0.6, offset=(0.6, 0.85),
            light=(0.72, 0.97), light_dir_deg=120.25, vignette=0.21, shadow=0.4, cast=(0.99, 1.0, 1.05),
            blur=1.19, noise=1.67, jpeg=77, hands=1, exposure=1.04, table=1,
            hand_at=(9.09, 4.28), hand_from=(11.31, -19.07), hand_skin=4,
        ),
        draw=1,
    ),  # once dev seed 1001788
    "hill_on_the_top_edge_beside_a_hand": Described(
        terrain={"A10": "hill", "A11": "hill", "B11": "forest"},
        counters={},
        conditions=dev_conditions(
            tilt_deg=24.52, tilt_dir_deg=163.21, rotation_deg=154.03, fill=0.84, offset=(-0.82, -0.54),
            light=(0.79, 1.03), light_dir_deg=82.79, vignette=0.21, cast=(0.95, 1.0, 1.02), blur=1.28,
            noise=5.37, jpeg=70, hands=1, exposure=0.92, table=4,
            hand_at=(5.7, 3.37), hand_from=(17.79, -19.87), hand_skin=4,
        ),
        draw=2,
    ),  # once dev seed 1001779
    "hill_in_the_corner_beside_a_hand": Described(
        terrain={"L1": "hill", "L2": "forest"},
        counters={},
        conditions=dev_conditions(
            tilt_deg=28.86, tilt_dir_deg=72.58, rotation_deg=154.68, fill=0.63, offset=(-0.39, -0.75),
            light=(0.74, 1.01), light_dir_deg=80.0, vignette=0.22, shadow=0.22, cast=(1.05, 1.0, 1.07),
            blur=1.12, noise=0.59, jpeg=91, hands=1, exposure=0.92, table=4,
            hand_at=(8.34, 3.02), hand_from=(-18.17, 43.23), hand_skin=0,
        ),
        draw=3,
    ),  # once dev seed 1003584
    "forest_with_a_hand_over_its_corner": Described(
        terrain={"F2": "forest"},
        counters={"E2": "persian", "F1": "persian", "G2": "greek"},
        conditions=dev_conditions(
            tilt_deg=15.38, tilt_dir_deg=318.2, rotation_deg=303.96, fill=0.87, offset=(-0.34, -0.13),
            light=(0.89, 0.96), light_dir_deg=3.78, vignette=0.22, cast=(0.96, 1.0, 1.06), blur=0.61,
            noise=7.31, jpeg=93, hands=1, exposure=1.01, table=2,
            hand_at=(4.18, 5.05), hand_from=(-0.29, 9.02), hand_skin=4,
        ),
        draw=1,
    ),  # once dev seed 1006191
    "plain_with_a_hand_over_its_corner": Described(
        terrain={"F10": "hill"},
        counters={"F10": "greek", "F11": "persian", "F12": "persian"},
        conditions=dev_conditions(
            tilt_deg=5.29, tilt_dir_deg=240.95, rotation_deg=236.73, fill=0.75, offset=(0.05, -0.25),
            light=(0.83, 1.09), light_dir_deg=132.36, vignette=0.23, shadow=0.24, cast=(0.92, 1.0, 1.08),
            blur=0.72, noise=2.94, jpeg=90, hands=1, exposure=0.94, table=2,
            hand_at=(7.75, 5.97), hand_from=(28.84, 6.68), hand_skin=0,
        ),
        draw=1,
    ),  # once dev seed 1006139
    "counter_on_a_hill_with_a_hand_at_its_corner": Described(
        terrain={"B3": "hill", "C3": "hill", "C4": "hill", "D3": "hill", "B5": "forest"},
        counters={"C4": "persian", "B5": "persian", "C3": "greek"},
        conditions=dev_conditions(
            tilt_deg=18.9, tilt_dir_deg=250.2, rotation_deg=321.3, fill=0.6, offset=(0.88, -0.13),
            light=(0.85, 0.98), light_dir_deg=291.2, vignette=0.23, cast=(1.01, 1.0, 0.97), blur=0.48,
            noise=0.9, jpeg=84, hands=1, hand_at=(4.4, 3.4), hand_from=(17.8, -13.78), hand_skin=4,
            exposure=0.96, table=3,
        ),
        draw=3,
    ),  # once dev seed 1006999
    "counter_on_the_plain_with_a_hand_at_its_corner": Described(
        terrain={"H3": "forest"},
        counters={"I3": "greek", "J3": "greek"},
        conditions=dev_conditions(
            tilt_deg=21.48, tilt_dir_deg=328.41, rotation_deg=300.88, fill=0.63, offset=(-0.64, 0.7),
            light=(0.82, 0.98), light_dir_deg=67.81, vignette=0.02, shadow=0.39, cast=(0.95, 1.0, 0.95),
            blur=1.43, noise=1.63, jpeg=75, hands=1, exposure=0.98, table=1,
            hand_at=(7.66, 9.81), hand_from=(-10.5, 11.38), hand_skin=4,
        ),
        draw=1,
    ),  # once dev seed 1007136
    "counter_on_a_hill_beside_a_brown_hand": Described(
        terrain={"A5": "hill", "A6": "hill", "B6": "forest", "B7": "hill"},
        counters={"A6": "persian", "B5": "persian", "B6": "persian"},
        conditions=dev_conditions(
            tilt_deg=0.3, tilt_dir_deg=50.1, rotation_deg=237.2, fill=0.7, offset=(0.32, 0.6),
            light=(0.94, 1.05), light_dir_deg=117.31, vignette=0.15, cast=(0.93, 1.0, 0.96), blur=0.34,
            noise=6.66, jpeg=80, hands=1, exposure=1.02, table=1,
            hand_at=(8.09, 2.26), hand_from=(-6.1, 1.24), hand_skin=1,
        ),
        draw=1,
    ),  # once dev seed 1002664
    "counter_on_a_hill_beside_a_tan_hand": Described(
        terrain={"G4": "hill", "H4": "hill"},
        counters={"G5": "greek", "H3": "greek", "H4": "greek"},
        conditions=dev_conditions(
            tilt_deg=24.69, tilt_dir_deg=356.76, rotation_deg=80.04, fill=0.76, offset=(-0.44, -0.59),
            light=(0.84, 1.07), light_dir_deg=55.21, vignette=0.06, cast=(1.02, 1.0, 0.93), blur=0.63,
            noise=3.78, jpeg=85, hands=1, exposure=0.91, table=4,
            hand_at=(4.07, 5.75), hand_from=(-2.94, -1.59), hand_skin=1,
        ),
        draw=2,
    ),  # once dev seed 1007111
    "pale_counters_in_the_second_style": Described(
        terrain={"A10": "hill", "A11": "hill", "A12": "hill", "B10": "forest", "B12": "hill", "D4": "hill",
                 "D5": "hill"},
        counters={"A11": "greek", "B6": "greek", "C5": "greek", "D4": "greek", "D5": "persian"},
        conditions=real_conditions(
            tilt_deg=21.87, tilt_dir_deg=160.5, rotation_deg=28.5, fill=0.45, offset=(0.49, 0.17),
            light=(0.73, 1.08), light_dir_deg=177.94, vignette=0.17, shadow=0.36, cast=(0.98, 1.02, 1.01),
            blur=1.14, noise=1.87, jpeg=79, exposure=0.93, table=1, style=1,
        ),
        draw=8,
    ),  # once dev seed 1006424
    "pale_counters_tilted_in_the_second_style": Described(
        terrain={"B4": "forest"},
        counters={"A3": "persian", "A4": "greek", "A5": "greek", "B4": "persian", "D2": "greek", "E3": "greek"},
        conditions=real_conditions(
            tilt_deg=28.64, tilt_dir_deg=60.66, rotation_deg=331.07, fill=0.5, offset=(0.48, -0.02),
            light=(0.82, 1.14), light_dir_deg=80.82, vignette=0.06, shadow=0.35, cast=(1.0, 0.91, 1.05),
            blur=1.48, noise=4.9, jpeg=84, exposure=0.97, table=1, style=1,
        ),
        draw=1,
    ),  # once dev seed 1006751
    "plain_under_a_dark_hand": Described(
        terrain={"J5": "forest", "K5": "hill", "K6": "forest"},
        counters={"I6": "persian", "K5": "persian", "K6": "greek"},
        conditions=dev_conditions(
            tilt_deg=23.47, tilt_dir_deg=277.61, rotation_deg=239.43, fill=0.61, offset=(0.95, 0.02),
            light=(0.91, 1.04), light_dir_deg=150.89, vignette=0.19, cast=(0.95, 1.0, 1.0), blur=0.18,
            noise=7.68, jpeg=74, hands=1, exposure=0.97, table=2,
            hand_at=(5.96, 9.85), hand_from=(-0.53, 25.43), hand_skin=3,
        ),
        draw=4,
    ),  # once dev seed 1003909
    "hill_band_around_a_counter_beside_a_finger": Described(
        terrain={
            "A12": "hill", "C10": "hill", "D4": "hill", "D7": "hill", "E7": "hill", "E9": "hill", "F2": "hill",
            "F8": "hill", "G4": "hill", "G6": "hill", "G12": "hill", "H6": "hill", "I2": "hill", "J9": "forest",
            "J10": "hill", "K8": "hill", "L1": "hill", "L10": "hill",
        },
        counters={"J8": "persian", "K8": "persian", "K9": "greek"},
        conditions=dev_conditions(
            tilt_deg=20.67, tilt_dir_deg=45.61, rotation_deg=346.01, fill=0.72, offset=(-0.74, 0.08),
            light=(0.93, 1.01), light_dir_deg=187.64, vignette=0.03, cast=(1.04, 1.0, 0.94), blur=1.37, noise=3.5,
            jpeg=91, hands=1, hand_at=(9.94, 9.85), hand_from=(7.26, 25.98), hand_skin=4,
            hand_fingers=(1.26, 1.22, 0.89, 0.95), exposure=0.95, table=4,
        ),
        draw=1,
        places={"J8": (0.025, 0.032, 1.035), "K8": (0.001, 0.041, 2.713), "K9": (0.003, 0.008, 2.972)},
    ),  # once dev seed 1001523
    "counter_on_a_hill_in_the_corner_as_bright_as_the_board": Described(
        terrain={
            "A12": "hill", "B2": "hill", "B6": "hill", "D1": "hill", "D8": "hill", "E8": "hill", "F1": "hill",
            "F2": "hill", "F5": "hill", "F6": "hill", "F10": "hill", "G4": "hill", "G5": "hill", "H7": "hill",
            "I6": "hill", "I12": "hill", "J10": "hill", "K8": "hill", "L3": "hill", "L6": "hill", "L12": "hill",
        },
        counters={"A12": "persian", "B11": "persian", "B12": "greek"},
        conditions=dev_conditions(
            tilt_deg=24.99, tilt_dir_deg=25.17, rotation_deg=293.57, fill=0.9, offset=(-0.85, -0.92),
            light=(0.83, 0.99), light_dir_deg=226.57, vignette=0.05, shadow=0.44, cast=(0.98, 1.0, 0.97), blur=1.27,
            noise=2.04, jpeg=90, shadow_band=(0.945, 0.031, 160.63, 0.304), exposure=1.02,
            table=3,
        ),
        draw=1,
        places={"A12": (-0.035, 0.007, 0.009), "B11": (0.05, 0.003, -4.283), "B12": (0.003, -0.013, -2.049)},
    ),  # once dev seed 1003801
    "counter_on_a_hill_in_a_shadow_beside_a_hand": Described(
        terrain={
            "A3": "hill", "B6": "hill", "B9": "hill", "C10": "hill", "D1": "hill", "D9": "hill", "D11": "hill",
            "D12": "hill", "E6": "hill", "E11": "hill", "F5": "hill", "F9": "forest", "F10": "forest", "G3": "hill",
            "G6": "hill", "G9": "hill", "G10": "hill", "H2": "hill", "H3": "hill", "H4": "hill", "H5": "hill",
            "H10": "hill", "I5": "hill", "I11": "hill", "J7": "hill", "K1": "hill", "K7": "hill", "K11": "hill",
            "L2": "hill", "L4": "hill", "L10": "hill",
        },
        counters={"G8": "greek", "G9": "greek", "H9": "greek", "H10": "greek"},
        conditions=dev_conditions(
            tilt_deg=28.28, tilt_dir_deg=146.46, rotation_deg=232.95, fill=0.91, offset=(-0.12, -0.73),
            light=(0.82, 1.02), light_dir_deg=280.63, vignette=0.11, shadow=0.39, cast=(0.98, 1.0, 0.96), blur=1.46,
            noise=1.59, jpeg=86, hands=1, hand_at=(7.51, 4.21), hand_from=(-1.68, -0.32), hand_skin=1,
            hand_fingers=(0.8, 1.36, 0.9, 1.13), shadow_band=(0.521, 0.453, 110.69, 0.169),
            exposure=0.98, table=4,
        ),
        draw=2,
        places={
            "G8": (-0.046, 0.049, -3.816), "G9": (0.017, 0.048, -4.399), "H9": (-0.019, -0.012, 4.963),
            "H10": (0.045, 0.035, -2.367),
        },
    ),  # once dev seed 1004256
    "counter_on_a_hill_in_the_far_corner_a_little_darker": Described(
        terrain={
            "B1": "hill", "C4": "hill", "C11": "hill", "D1": "hill", "D3": "hill", "D4": "hill", "D6": "hill",
            "D12": "hill", "E7": "hill", "G1": "hill", "G10": "hill", "L2": "hill", "L12": "hill",
        },
        counters={"L12": "greek"},
        conditions=dev_conditions(
            tilt_deg=11.53, tilt_dir_deg=67.52, rotation_deg=219.73, fill=0.87, offset=(-0.45, 1.0),
            light=(0.91, 0.97), light_dir_deg=250.29, vignette=0.18, shadow=0.33, cast=(0.99, 1.0, 0.94), blur=0.87,
            noise=6.92, jpeg=91, shadow_band=(0.182, 0.61, 156.67, 0.238), exposure=1.02,
        ),
        draw=1,
        places={"L12": (0.021, 0.01, -0.87)},
    ),  # once dev seed 1004316
    "counter_on_a_hill_in_the_first_corner": Described(
        terrain={
            "A1": "hill", "A9": "hill", "B8": "hill", "C11": "hill", "C12": "hill", "E2": "hill", "E3": "hill",
            "E10": "hill", "H10": "hill", "I6": "hill", "I8": "hill", "J3": "hill", "J4": "hill", "L3": "hill",
            "L10": "hill",
        },
        counters={"A1": "greek", "B2": "persian"},
        conditions=dev_conditions(
            tilt_deg=7.16, tilt_dir_deg=155.29, rotation_deg=24.24, fill=0.84, offset=(0.92, 0.85),
            light=(0.82, 1.09), light_dir_deg=241.91, vignette=0.04, shadow=0.33, cast=(0.94, 1.0, 1.06), blur=0.84,
            noise=4.38, jpeg=75, shadow_band=(0.627, 0.427, 145.82, 0.179), exposure=0.9,
            table=4,
        ),
        draw=1,
        places={"A1": (-0.025, 0.028, -4.803), "B2": (0.004, -0.048, -5.749)},
    ),  # once dev seed 1006011
    "hill_tokens_beside_a_dark_brown_hand": Described(
        terrain={
            "A4": "forest", "A10": "hill", "A12": "hill", "B1": "hill", "B7": "hill", "C2": "hill", "C6": "hill",
            "C9": "forest", "C10": "forest", "D9": "forest", "D12": "hill", "E2": "forest", "E3": "hill", "E6": "hill",
            "E8": "forest", "E10": "hill", "E11": "hill", "F2": "hill", "F10": "hill", "G4": "forest", "G7": "forest",
            "G12": "forest", "H2": "hill", "H3": "hill", "H6": "forest", "I2": "hill", "I3": "hill", "I7": "forest",
            "I11": "hill", "J1": "hill", "J4": "hill", "J6": "forest", "J9": "forest", "J10": "forest", "K4": "hill",
            "K7": "forest", "K11": "hill", "L1": "hill", "L9": "forest", "L10": "forest", "L11": "forest",
            "L12": "hill",
        },
        counters={"J11": "greek", "K12": "greek", "L11": "persian", "L12": "greek"},
        conditions=dev_conditions(
            tilt_deg=24.87, tilt_dir_deg=40.49, rotation_deg=129.37, fill=0.7, offset=(0.46, 0.64),
            light=(0.81, 0.97), light_dir_deg=108.05, vignette=0.2, shadow=0.41, cast=(1.04, 1.0, 0.94), blur=1.45,
            noise=6.65, jpeg=90, hands=1, hand_at=(11.32, 9.7), hand_from=(24.24, 2.93), hand_skin=3,
            hand_fingers=(1.25, 0.81, 1.03, 1.27), shadow_band=(0.827, 0.848, 81.83, 0.201),
            exposure=0.98, table=2,
        ),
        draw=3,
        places={
            "J11": (0.029, -0.015, -0.995), "K12": (-0.033, 0.043, -5.226), "L11": (0.013, 0.009, 2.213),
            "L12": (-0.041, -0.026, -2.832),
        },
    ),  # once dev seed 1002616
    "plain_under_a_real_hand_of_the_hills_colour": Described(
        terrain={
            "A7": "hill", "B2": "hill", "B3": "hill", "C1": "hill", "C6": "hill", "D3": "hill", "D10": "hill",
            "E2": "hill", "F11": "hill", "F12": "hill", "G4": "hill", "G6": "hill", "G9": "hill", "G11": "hill",
            "I4": "forest", "I5": "hill", "I7": "hill", "J5": "forest", "K1": "hill", "K3": "forest", "L1": "hill",
            "L4": "hill", "L8": "hill", "L10": "hill",
        },
        counters={"J3": "persian", "K5": "persian"},
        conditions=real_conditions(
            tilt_deg=14.42, tilt_dir_deg=235.99, rotation_deg=156.03, fill=0.77, offset=(0.34, -0.28),
            light=(0.69, 1.03), light_dir_deg=28.2, vignette=0.07, cast=(0.98, 0.98, 0.93), blur=1.36, noise=1.79,
            jpeg=78, hands=1, hand_at=(2.96, 7.89), hand_from=(2.52, 14.1), hand_skin=2,
            hand_fingers=(1.13, 1.19, 0.92, 1.28),
            colours=(
                ("forest", (58, 121, 41)), ("greek", (149, 52, 142)), ("hill", (168, 114, 79)),
                ("persian", (41, 100, 194)), ("plain", (226, 217, 183)),
            ),
            exposure=0.94, table=4, style=1,
        ),
        draw=3,
        places={"J3": (-0.065, 0.053, 6.791), "K5": (0.0, 0.028, -0.88)},
    ),  # once dev seed 1000853
    "persian_counter_hidden_under_a_real_hand": Described(
        terrain={
            "A4": "hill", "A6": "hill", "B11": "hill", "C8": "hill", "D7": "hill", "D9": "hill", "E7": "hill",
            "E9": "hill", "F3": "hill", "H1": "forest", "H2": "hill", "I1": "hill", "J6": "hill", "J9": "hill",
            "K3": "hill", "L8": "hill",
        },
        counters={"F2": "greek", "G2": "persian", "H1": "greek"},
        conditions=real_conditions(
            tilt_deg=1.24, tilt_dir_deg=286.21, rotation_deg=352.13, fill=0.85, offset=(0.49, -0.66),
            light=(0.82, 1.02), light_dir_deg=34.33, vignette=0.16, cast=(1.06, 0.91, 0.99), blur=1.26, noise=5.79,
            jpeg=80, hands=1, hand_at=(0.77, 6.28), hand_from=(-1.48, -2.57), hand_skin=3,
            hand_fingers=(0.94, 0.89, 1.12, 0.82),
            colours=(
                ("forest", (70, 109, 49)), ("greek", (143, 54, 156)), ("hill", (160, 108, 71)),
                ("persian", (44, 91, 175)), ("plain", (240, 218, 186)),
            ),
            exposure=0.93, table=3, style=1,
        ),
        draw=1,
        places={"F2": (-0.037, -0.029, 7.914), "G2": (-0.075, -0.079, -3.394), "H1": (-0.013, 0.022, 5.6)},
    ),  # once dev seed 1005715
    "greek_counter_under_a_real_hand_of_the_hills_colour": Described(
        terrain={
            "C11": "hill", "D5": "hill", "D10": "forest", "D11": "hill", "E4": "hill", "F6": "hill", "G3": "hill",
            "G6": "hill", "G8": "hill", "G11": "hill", "I4": "hill", "I10": "hill", "J10": "hill", "K5": "hill",
            "K12": "hill", "L7": "hill", "L11": "hill",
        },
        counters={"E11": "greek", "F10": "persian"},
        conditions=real_conditions(
            tilt_deg=20.52, tilt_dir_deg=207.89, rotation_deg=125.53, fill=0.73, offset=(0.84, -0.57),
            light=(0.74, 1.17), light_dir_deg=318.69, vignette=0.02, shadow=0.34, cast=(1.08, 1.01, 0.9), blur=0.45,
            noise=1.95, jpeg=90, hands=1, hand_at=(8.79, 3.74), hand_from=(17.98, -0.6), hand_skin=2,
            hand_fingers=(1.37, 1.37, 0.95, 1.06), shadow_band=(0.863, 0.018, 136.71, 0.177),
            colours=(
                ("forest", (39, 108, 80)), ("greek", (111, 35, 149)), ("hill", (195, 135, 86)),
                ("persian", (29, 68, 176)), ("plain", (217, 201, 165)),
            ),
            exposure=0.86, table=1, style=2,
        ),
        draw=1,
        places={"E11": (0.063, 0.072, 9.63), "F10": (0.061, -0.045, -7.032)},
    ),  # once dev seed 1004488
    "real_hand_along_a_persian_counter_first_style": Described(
        terrain={
            "A5": "hill", "A10": "hill", "A11": "hill", "B2": "hill", "B3": "hill", "B9": "hill", "D4": "hill",
            "E1": "hill", "E7": "hill", "E12": "hill", "F5": "forest", "F8": "hill", "F9": "hill", "F12": "hill",
            "G3": "hill", "G4": "forest", "H2": "hill", "I7": "hill",
        },
        counters={"G5": "persian", "H6": "persian"},
        conditions=real_conditions(
            tilt_deg=8.69, tilt_dir_deg=52.92, rotation_deg=128.34, fill=0.43, offset=(-0.02, -0.63),
            light=(0.83, 1.07), light_dir_deg=191.21, vignette=0.19, cast=(0.96, 1.02, 1.1), blur=0.05, noise=6.0,
            jpeg=77, hands=1, hand_at=(3.19, 6.62), hand_from=(2.9, 23.49), hand_skin=3,
            hand_fingers=(1.36, 1.39, 1.14, 1.08),
            colours=(
                ("forest", (51, 120, 45)), ("greek", (132, 52, 158)), ("hill", (167, 118, 63)),
                ("persian", (40, 94, 193)), ("plain", (226, 219, 155)),
            ),
            exposure=0.95, table=3,
        ),
        draw=1,
        places={"G5": (-0.071, 0.03, 9.047), "H6": (0.047, -0.064, -9.223)},
    ),  # once dev seed 1000773
    "real_hand_along_a_persian_counter_third_style": Described(
        terrain={
            "A5": "hill", "A8": "hill", "B6": "hill", "B7": "hill", "C3": "hill", "C5": "hill", "D6": "forest",
            "D8": "hill", "E1": "hill", "E5": "hill", "E12": "hill", "F4": "hill", "G9": "hill", "H1": "hill",
            "H5": "hill", "H8": "hill", "I6": "hill", "I7": "hill", "J1": "hill", "J2": "hill", "J4": "hill",
            "J7": "hill", "J11": "hill", "K2": "hill", "K5": "hill", "K9": "hill", "L2": "hill", "L7": "hill",
            "L8": "hill",
        },
        counters={"C6": "persian"},
        conditions=real_conditions(
            tilt_deg=19.6, tilt_dir_deg=318.86, rotation_deg=287.03, fill=0.45, offset=(0.74, 0.36),
            light=(0.85, 1.07), light_dir_deg=164.66, vignette=0.11, cast=(1.03, 0.91, 1.07), blur=0.4, noise=0.15,
            jpeg=74, hands=1, hand_at=(4.73, 2.07), hand_from=(-6.06, 1.74), hand_skin=2,
            hand_fingers=(1.35, 1.26, 0.91, 0.82),
            colours=(
                ("forest", (55, 130, 52)), ("greek", (128, 56, 159)), ("hill", (176, 130, 71)),
                ("persian", (41, 86, 194)), ("plain", (230, 214, 155)),
            ),
            exposure=0.96, table=3,
        ),
        draw=1,
        places={"C6": (-0.058, -0.08, -2.05)},
    ),  # once dev seed 1003818
    "real_hand_along_a_persian_counter_second_style": Described(
        terrain={
            "A4": "hill", "A7": "hill", "A8": "hill", "A12": "hill", "B3": "hill", "B12": "hill", "C5": "hill",
            "D10": "hill", "E5": "hill", "E10": "hill", "F2": "hill", "F4": "hill", "F5": "hill", "F6": "hill",
            "G4": "hill", "G6": "hill", "H2": "hill", "I11": "hill", "J10": "hill", "J12": "hill", "K3": "forest",
            "K10": "hill", "L3": "hill", "L5": "hill", "L6": "hill", "L8": "hill",
        },
        counters={"I2": "persian", "J3": "persian", "K3": "greek", "K4": "greek"},
        conditions=real_conditions(
            tilt_deg=8.3, tilt_dir_deg=356.12, rotation_deg=209.98, fill=0.72, offset=(0.86, -0.04),
            light=(0.64, 1.16), light_dir_deg=152.3, cast=(1.03, 1.02, 0.93), blur=0.18, noise=4.79, jpeg=86, hands=1,
            hand_at=(2.22, 10.49), hand_from=(0.84, 17.08), hand_skin=3, hand_fingers=(0.86, 1.2, 1.08, 1.31),
            colours=(
                ("forest", (36, 111, 49)), ("greek", (121, 58, 168)), ("hill", (174, 118, 55)),
                ("persian", (41, 79, 209)), ("plain", (224, 206, 169)),
            ),
            exposure=0.98, table=3,
        ),
        draw=1,
        places={
            "I2": (-0.034, -0.051, -3.894), "J3": (-0.021, -0.019, 9.655), "K3": (0.043, -0.001, -0.117),
            "K4": (0.014, 0.063, -2.056),
        },
    ),  # once dev seed 1000578
    "hill_band_around_a_counter_beside_a_hand_in_a_shadow": Described(
        terrain={
            "B3": "hill", "B4": "forest", "B12": "hill", "C1": "forest", "C8": "forest", "C11": "forest",
            "D4": "forest", "D5": "forest", "D6": "forest", "D9": "hill", "E4": "hill", "E5": "forest", "E6": "forest",
            "E8": "hill", "E11": "forest", "F3": "forest", "F5": "hill", "F11": "forest", "G1": "hill", "G4": "hill",
            "G5": "forest", "G7": "hill", "H1": "hill", "H5": "forest", "H6": "hill", "H8": "hill", "H10": "forest",
            "I1": "hill", "I8": "hill", "I10": "hill", "I11": "forest", "J3": "forest", "J4": "forest", "J8": "hill",
            "J11": "forest", "K2": "hill", "K3": "hill", "K7": "hill", "K9": "forest", "K10": "hill", "L1": "hill",
            "L3": "forest", "L4": "forest", "L7": "hill", "L8": "hill", "L10": "hill", "L12": "hill",
        },
        counters={"F5": "greek", "G6": "greek", "H7": "persian"},
        conditions=dev_conditions(
            tilt_deg=1.7618, tilt_dir_deg=346.2394, rotation_deg=65.4209, fill=0.6493, offset=(0.9795, -0.7145),
            light=(0.7284, 1.0201), light_dir_deg=301.0756, vignette=0.0845, shadow=0.3723, cast=(0.9574, 1.0, 1.0664),
            blur=1.495, noise=1.2078, jpeg=89, hands=1, hand_at=(4.65, 3.64), hand_from=(4.42, -0.06), hand_skin=4,
            hand_fingers=(0.81, 0.88, 1.27, 1.38), shadow_band=(0.94, 0.791, 171.27, 0.236),
            exposure=0.9989, table=1,
        ),
        draw=3,
        places={"F5": (-0.023, -0.042, -3.465), "G6": (-0.007, -0.011, 1.961), "H7": (0.012, -0.027, 0.996)},
    ),  # once dev seed 1002250
    "forest_under_dark_fingers": Described(
        terrain={
            "A1": "hill", "A7": "hill", "A10": "hill", "B12": "hill", "C2": "hill", "C4": "hill", "C5": "hill",
            "D6": "forest", "E5": "forest", "E6": "forest", "E12": "hill", "F2": "hill", "F3": "hill", "G3": "hill",
            "G8": "hill", "H3": "hill", "I2": "hill", "J1": "hill", "J2": "hill", "J8": "hill", "K6": "hill",
            "K8": "hill", "K12": "hill", "L10": "hill",
        },
        counters={"D5": "greek", "E4": "greek"},
        conditions=dev_conditions(
            tilt_deg=21.2918, tilt_dir_deg=170.6803, rotation_deg=10.5897, fill=0.7952,
            offset=(-0.5545, -0.8282), light=(0.7061, 0.9626), light_dir_deg=90.4183, vignette=0.2214,
            cast=(1.0033, 1.0, 1.0377), blur=1.4468, noise=2.6651, jpeg=77, hands=1, hand_at=(3.75, 4.61),
            hand_from=(0.93, 0.28), hand_skin=3, hand_fingers=(1.01, 0.95, 1.22, 1.18),
            exposure=1.0185, table=3,
        ),
        draw=2,
        places={"D5": (-0.002, -0.043, 1.373), "E4": (0.021, 0.042, -1.253)},
    ),  # once dev seed 1002759
    "counter_on_a_hill_leaning_over_less_of_its_cell": Described(
        terrain={
            "A7": "forest", "A9": "hill", "A10": "forest", "A12": "forest", "B9": "forest", "B11": "forest",
            "C6": "hill", "C10": "hill", "D2": "forest", "D5": "forest", "D10": "forest", "D12": "forest",
            "E3": "forest", "E4": "forest", "F5": "forest", "G9": "hill", "H1": "forest", "H2": "hill", "H3": "forest",
            "H9": "hill", "H10": "hill", "H11": "hill", "I1": "hill", "I3": "forest", "I10": "hill", "J4": "forest",
            "J7": "hill", "J8": "hill", "J9": "hill", "J12": "hill", "K5": "hill", "L7": "forest", "L11": "forest",
        },
        counters={"B9": "persian", "C10": "persian", "C11": "greek", "D10": "persian"},
        conditions=dev_conditions(
            tilt_deg=1.8364, tilt_dir_deg=92.7903, rotation_deg=345.7632, fill=0.7487, offset=(0.1886, 0.3682),
            light=(0.797, 1.0225), light_dir_deg=255.3793, vignette=0.0879, shadow=0.4377, cast=(0.9483, 1.0, 0.9406),
            blur=1.2666, noise=4.962, jpeg=75, shadow_band=(0.703, 0.502, 169.63, 0.259),
            exposure=0.9503, table=1,
        ),
        draw=7,
        places={
            "B9": (-0.001, -0.031, 0.56), "C10": (-0.027, 0.038, -1.541), "C11": (0.016, 0.038, -3.804),
            "D10": (0.003, 0.012, -2.783),
        },
    ),  # once dev seed 1005950
}


def shoot_described(tmp: Path, name: str) -> tuple[Path, Rendered]:
    """Renders scene ``name`` of :data:`SCENES` at 1920 × 1080 to a file."""
    scene = SCENES[name]
    places = scene.places or {}
    counters = {cell: Counter(side, "X", places.get(cell)) for cell, side in scene.counters.items()}
    rendered = render(board(), Scene(terrain=dict(scene.terrain), counters=counters), scene.conditions, scene.draw)
    return rendered.save(tmp / name), rendered
