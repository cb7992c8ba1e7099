"""Scenes written out for the per-cell tests (``test_dev_renders``): the cells around the ones
read (terrain other than plain, counters by side), the camera, light, shadow and blur, and a
hand placed by its fingertips, a point its forearm crosses and its skin tone
(:class:`vision.render.Conditions`). Each once was a dev render pinned by its seed (named
beside it); its conditions were written out from that render"s and the scene cut down to the
cells around the ones read, then the draw (noise, jitter and shadow) chosen among the first
eight that show the same behaviour.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from vision.render import Conditions, Counter, Rendered, Scene, render

from .helpers import board

SIZE = (1920, 1080)


class Described(NamedTuple):
    """A scene and how it is photographed."""

    terrain: dict[str, str]
    counters: dict[str, str]
    conditions: Conditions
    draw: int


SCENES: dict[str, Described] = {
    "counter_on_a_hill_in_the_corner_beside_a_hand": Described(
        terrain={"A12": "hill", "B12": "hill"},
        counters={"A11": "greek", "A12": "persian"},
        conditions=Conditions(
            *SIZE, tilt_deg=13.53, tilt_dir_deg=150.88, rotation_deg=147.87, fill=0.6, offset=(0.6, 0.85),
            light=(0.72, 0.97), light_dir_deg=120.25, vignette=0.21, shadow=0.4, cast=(0.99, 1.0, 1.05),
            blur=1.19, noise=1.67, jpeg=77, hands=1, jitter=0.05, turn_deg=6.0, exposure=1.04, table=1,
            hand_at=(9.09, 4.28), hand_from=(11.31, -19.07), hand_skin=4,
        ),
        draw=1,
    ),  # once dev seed 1001788
    "hill_on_the_top_edge_beside_a_hand": Described(
        terrain={"A10": "hill", "A11": "hill", "B11": "forest"},
        counters={},
        conditions=Conditions(
            *SIZE, tilt_deg=24.52, tilt_dir_deg=163.21, rotation_deg=154.03, fill=0.84, offset=(-0.82, -0.54),
            light=(0.79, 1.03), light_dir_deg=82.79, vignette=0.21, cast=(0.95, 1.0, 1.02), blur=1.28,
            noise=5.37, jpeg=70, hands=1, jitter=0.05, turn_deg=6.0, exposure=0.92, table=4,
            hand_at=(5.7, 3.37), hand_from=(17.79, -19.87), hand_skin=4,
        ),
        draw=2,
    ),  # once dev seed 1001779
    "hill_in_the_corner_beside_a_hand": Described(
        terrain={"L1": "hill", "L2": "forest"},
        counters={},
        conditions=Conditions(
            *SIZE, tilt_deg=28.86, tilt_dir_deg=72.58, rotation_deg=154.68, fill=0.63, offset=(-0.39, -0.75),
            light=(0.74, 1.01), light_dir_deg=80.0, vignette=0.22, shadow=0.22, cast=(1.05, 1.0, 1.07),
            blur=1.12, noise=0.59, jpeg=91, hands=1, jitter=0.05, turn_deg=6.0, exposure=0.92, table=4,
            hand_at=(8.34, 3.02), hand_from=(-18.17, 43.23), hand_skin=0,
        ),
        draw=3,
    ),  # once dev seed 1003584
    "forest_with_a_hand_over_its_corner": Described(
        terrain={"F2": "forest"},
        counters={"E2": "persian", "F1": "persian", "G2": "greek"},
        conditions=Conditions(
            *SIZE, tilt_deg=15.38, tilt_dir_deg=318.2, rotation_deg=303.96, fill=0.87, offset=(-0.34, -0.13),
            light=(0.89, 0.96), light_dir_deg=3.78, vignette=0.22, cast=(0.96, 1.0, 1.06), blur=0.61,
            noise=7.31, jpeg=93, hands=1, jitter=0.05, turn_deg=6.0, exposure=1.01, table=2,
            hand_at=(4.18, 5.05), hand_from=(-0.29, 9.02), hand_skin=4,
        ),
        draw=1,
    ),  # once dev seed 1006191
    "plain_with_a_hand_over_its_corner": Described(
        terrain={"F10": "hill"},
        counters={"F10": "greek", "F11": "persian", "F12": "persian"},
        conditions=Conditions(
            *SIZE, tilt_deg=5.29, tilt_dir_deg=240.95, rotation_deg=236.73, fill=0.75, offset=(0.05, -0.25),
            light=(0.83, 1.09), light_dir_deg=132.36, vignette=0.23, shadow=0.24, cast=(0.92, 1.0, 1.08),
            blur=0.72, noise=2.94, jpeg=90, hands=1, jitter=0.05, turn_deg=6.0, exposure=0.94, table=2,
            hand_at=(7.75, 5.97), hand_from=(28.84, 6.68), hand_skin=0,
        ),
        draw=1,
    ),  # once dev seed 1006139
    "counter_on_a_hill_with_a_hand_at_its_corner": Described(
        terrain={"B3": "hill", "C3": "hill", "C4": "hill", "D3": "hill", "B5": "forest"},
        counters={"C4": "persian", "B5": "persian", "C3": "greek"},
        conditions=Conditions(
            *SIZE, tilt_deg=18.9, tilt_dir_deg=250.2, rotation_deg=321.3, fill=0.6, offset=(0.88, -0.13),
            light=(0.85, 0.98), light_dir_deg=291.2, vignette=0.23, cast=(1.01, 1.0, 0.97), blur=0.48,
            noise=0.9, jpeg=84, hands=1, hand_at=(4.4, 3.4), hand_from=(17.8, -13.78), hand_skin=4,
            jitter=0.05, turn_deg=6.0, exposure=0.96, table=3,
        ),
        draw=3,
    ),  # once dev seed 1006999
    "counter_on_the_plain_with_a_hand_at_its_corner": Described(
        terrain={"H3": "forest"},
        counters={"I3": "greek", "J3": "greek"},
        conditions=Conditions(
            *SIZE, tilt_deg=21.48, tilt_dir_deg=328.41, rotation_deg=300.88, fill=0.63, offset=(-0.64, 0.7),
            light=(0.82, 0.98), light_dir_deg=67.81, vignette=0.02, shadow=0.39, cast=(0.95, 1.0, 0.95),
            blur=1.43, noise=1.63, jpeg=75, hands=1, jitter=0.05, turn_deg=6.0, exposure=0.98, table=1,
            hand_at=(7.66, 9.81), hand_from=(-10.5, 11.38), hand_skin=4,
        ),
        draw=1,
    ),  # once dev seed 1007136
    "counter_on_a_hill_beside_a_brown_hand": Described(
        terrain={"A5": "hill", "A6": "hill", "B6": "forest", "B7": "hill"},
        counters={"A6": "persian", "B5": "persian", "B6": "persian"},
        conditions=Conditions(
            *SIZE, tilt_deg=0.3, tilt_dir_deg=50.1, rotation_deg=237.2, fill=0.7, offset=(0.32, 0.6),
            light=(0.94, 1.05), light_dir_deg=117.31, vignette=0.15, cast=(0.93, 1.0, 0.96), blur=0.34,
            noise=6.66, jpeg=80, hands=1, jitter=0.05, turn_deg=6.0, exposure=1.02, table=1,
            hand_at=(8.09, 2.26), hand_from=(-6.1, 1.24), hand_skin=1,
        ),
        draw=1,
    ),  # once dev seed 1002664
    "counter_on_a_hill_beside_a_tan_hand": Described(
        terrain={"G4": "hill", "H4": "hill"},
        counters={"G5": "greek", "H3": "greek", "H4": "greek"},
        conditions=Conditions(
            *SIZE, tilt_deg=24.69, tilt_dir_deg=356.76, rotation_deg=80.04, fill=0.76, offset=(-0.44, -0.59),
            light=(0.84, 1.07), light_dir_deg=55.21, vignette=0.06, cast=(1.02, 1.0, 0.93), blur=0.63,
            noise=3.78, jpeg=85, hands=1, jitter=0.05, turn_deg=6.0, exposure=0.91, table=4,
            hand_at=(4.07, 5.75), hand_from=(-2.94, -1.59), hand_skin=1,
        ),
        draw=2,
    ),  # once dev seed 1007111
    "pale_counters_in_the_second_style": Described(
        terrain={"A10": "hill", "A11": "hill", "A12": "hill", "B10": "forest", "B12": "hill", "D4": "hill",
                 "D5": "hill"},
        counters={"A11": "greek", "B6": "greek", "C5": "greek", "D4": "greek", "D5": "persian"},
        conditions=Conditions(
            *SIZE, tilt_deg=21.87, tilt_dir_deg=160.5, rotation_deg=28.5, fill=0.45, offset=(0.49, 0.17),
            light=(0.73, 1.08), light_dir_deg=177.94, vignette=0.17, shadow=0.36, cast=(0.98, 1.02, 1.01),
            blur=1.14, noise=1.87, jpeg=79, jitter=0.08, turn_deg=10.0, exposure=0.93, table=1,
            profile="real", style=1, colour_jitter=10.0,
        ),
        draw=8,
    ),  # once dev seed 1006424
    "pale_counters_tilted_in_the_second_style": Described(
        terrain={"B4": "forest"},
        counters={"A3": "persian", "A4": "greek", "A5": "greek", "B4": "persian", "D2": "greek", "E3": "greek"},
        conditions=Conditions(
            *SIZE, tilt_deg=28.64, tilt_dir_deg=60.66, rotation_deg=331.07, fill=0.5, offset=(0.48, -0.02),
            light=(0.82, 1.14), light_dir_deg=80.82, vignette=0.06, shadow=0.35, cast=(1.0, 0.91, 1.05),
            blur=1.48, noise=4.9, jpeg=84, jitter=0.08, turn_deg=10.0, exposure=0.97, table=1,
            profile="real", style=1, colour_jitter=10.0,
        ),
        draw=1,
    ),  # once dev seed 1006751
    "plain_under_a_dark_hand": Described(
        terrain={"J5": "forest", "K5": "hill", "K6": "forest"},
        counters={"I6": "persian", "K5": "persian", "K6": "greek"},
        conditions=Conditions(
            *SIZE, tilt_deg=23.47, tilt_dir_deg=277.61, rotation_deg=239.43, fill=0.61, offset=(0.95, 0.02),
            light=(0.91, 1.04), light_dir_deg=150.89, vignette=0.19, cast=(0.95, 1.0, 1.0), blur=0.18,
            noise=7.68, jpeg=74, hands=1, jitter=0.05, turn_deg=6.0, exposure=0.97, table=2,
            hand_at=(5.96, 9.85), hand_from=(-0.53, 25.43), hand_skin=3,
        ),
        draw=4,
    ),  # once dev seed 1003909
}


def shoot_described(tmp: Path, name: str) -> tuple[Path, Rendered]:
    """Renders scene ``name`` of :data:`SCENES` at 1920 × 1080 to a file."""
    scene = SCENES[name]
    counters = {cell: Counter(side, "X") for cell, side in scene.counters.items()}
    rendered = render(board(), Scene(terrain=dict(scene.terrain), counters=counters), scene.conditions, scene.draw)
    return rendered.save(tmp / name), rendered
