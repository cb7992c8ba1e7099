"""Lists every number of the photo reader (``vision/``) someone could tune, and what it is.

Run from the repository root:

    python tools/vision_tunables.py [--json] [--part register|per-cell]

Three sources are read:

- the settings of :class:`vision.config.VisionConfig` (every section, the per-cell reading's
  :class:`vision.classify_config.ClassifyConfig` included), with their file and line;
- module-level numeric constants of the reader's modules (the two renderers, ``vision.render``
  and ``vision.tabletop``, make test photos and are not the reader);
- magic numbers (numeric literals inside functions, their default arguments included) of every
  reader module, other than the structural ones of ``STRUCTURAL`` (0, 1, 2, 3, 4, -1, ±0.5,
  255: counts, indices, halves either way, the byte range, the four corners of a quadrilateral).

Each number is a *tunable* (fitted on photos or set by hand: it changes what is read), a *cap*
(a limit on work or input: file size, pixel count, scan count, candidates; a limit, not a
reading setting), *geometry* (a fact of the box, the printed sheet or the image format, in cells
or levels), a *switch* (a boolean setting, or a choice between named methods), a *format* or
*drawing* number (a file format's byte layout; the printed sheet's and the debug pictures'
drawing) or a *guard* (a tiny constant against a division by zero or an overflow), *math* (a
mathematical constant or a unit: the median distance of a 2-D Gaussian from its centre in its σ,
degrees to radians) or an *index* (a position counted from the end of a sorted row). Only
tunables are counted against the target; numbers not named in ``CAPS``, ``GEOMETRY`` or
``MAGIC_KINDS`` count as tunables. The part of a number is ``register`` (finding the board, the
grid, the photo file, the label windows) or ``per-cell`` (the per-cell reading).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.config import VisionConfig  # noqa: E402

VISION = ROOT / "vision"
RENDERERS = ("render.py", "render_scene.py", "tabletop")
OWN_MODULES = ("register.py", "outline.py", "load.py", "grid_overlay.py", "markers.py", "board.py", "labels.py")
"""The registration part's modules (the others are the per-cell reading's)."""
REGISTER_SECTIONS = ("load", "registration", "grid", "identity")
STRUCTURAL = frozenset({0, 1, 2, 3, 4, -1, 0.5, -0.5, 255})

CAPS = frozenset({
    "load.max_bytes", "load.max_pixels", "load.max_decoded_pixels", "load.max_scans", "load.min_side",
    "load.work_pixels", "registration.max_candidates", "registration.detect_max_side",
    "config.MAX_SETTINGS_BYTES", "calibration.MAX_FILE_BYTES",
    "examples.MAX_EXAMPLES", "examples.MAX_IMAGE_BYTES", "examples.MAX_JSON_BYTES", "markers.MIN_MARKER_PX",
    "classify.pixel_step", "classify.occluder_step", "grid.px_per_cell", "identity.px_per_cell",
    "classify.adapt_max_pixels", "shade.CANDIDATES",
    "trees.MAX_FILE_BYTES", "trees.MAX_TREES", "trees.MAX_NODES", "trees.MAX_DEPTH", "trees.MAX_NAMES",
    "trees.MAX_MEMBERS",
})
"""Limits on input or work: sizes of files, images and working copies (the warp's pixels per
cell are a working size, as ``load.work_pixels`` is; so is the warp shrunk ``occluder_step`` times
for the occluder search, whose kernels and edge are counted in its own shrunk pixels), counts of
scans and candidates (the shadow edges' Hough lines tried, ``shade.CANDIDATES``, among them;
and of the pixels sampled to adapt the colour classes,
``classify.adapt_max_pixels``, as ``classify.pixel_step`` samples the cells: halved or doubled, it
moved the dev photos' cells asked by at most one and their ECE by 0.0007,
`bench/reports/sweep-evidence-dev.json`). ``shade.Q``, the shrunk board's pixels per cell, is a
working size too, derived from the warp's (half of ``grid.px_per_cell``, w56b): not listed. The
trees' file caps its members as it caps its trees and nodes (``trees.MAX_MEMBERS``, w59a); the
bag's number of members and its partition are the fit's hyper-parameters, in the file's
``fitted`` record, not numbers of ``vision/``."""
GEOMETRY = frozenset({
    "markers.TAB_MARGIN", "markers.GUIDE_LENGTH", "markers.GUIDE_COLOUR", "grid_overlay.WASHED",
    "shade.WASHED", "grid_overlay.PAPER_WHITE",
    "calibration.FORMAT", "examples.FORMAT", "colours.PAPER", "colours.NEUTRAL",
    "registration.outline_margin", "identity.window", "markers._A4_MM",
    "colours.COUNTER_SIDE", "colours.TOKEN_SIDE", "labels.INK_LEVELS",
})
"""Facts: of the printed sheet (tab margin, guide, the A4 page), of the board art (its printed margin around
the grid, the counters' label window, the smallest counter's and token's sides: the project's,
provisional until measured on a box), of
8-bit images (the washed-out level, and ``shade.WASHED``, its log), of colour (neutral
chromaticity, paper white), and file formats (names; ``labels.INK_LEVELS``, the calibration file's
8-bit grey per unit of template ink, the literal 200 its encoder and decoder used before)."""


@dataclass(frozen=True)
class Number:
    """One number of the reader."""

    name: str
    file: str
    line: int
    value: str
    kind: str
    part: str


def _kind(name: str, value: object) -> str:
    if isinstance(value, (bool, str)):
        return "switch"  # a boolean, or a choice between named methods
    if name in CAPS:
        return "cap"
    if name in GEOMETRY:
        return "geometry"
    return "tunable"


def settings() -> list[Number]:
    """Every field of every section of the settings, with the line that defines it."""
    out: list[Number] = []
    cfg = VisionConfig()
    for section, sub in VisionConfig.model_fields.items():
        model = type(getattr(cfg, section))
        path = Path(inspect.getfile(model))
        lines, start = inspect.getsourcelines(model)
        for field in model.model_fields:
            line = next((start + k for k, text in enumerate(lines) if text.strip().startswith(f"{field}:")), start)
            name = f"{section}.{field}"
            value = getattr(getattr(cfg, section), field)
            part = "register" if section in REGISTER_SECTIONS else "per-cell"
            out.append(Number(name, str(path.relative_to(ROOT)), line, repr(value), _kind(name, value), part))
        del sub
    return out


def _numeric(node: ast.expr) -> bool:
    """Whether an expression is made of numbers only (a literal, a tuple of them, arithmetic)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.Tuple):
        return all(_numeric(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand)
    if isinstance(node, ast.BinOp):
        return _numeric(node.left) and _numeric(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "log":
        return all(_numeric(a) or isinstance(a, ast.Name) for a in node.args)
    return False


def _modules() -> list[Path]:
    return sorted(p for p in VISION.rglob("*.py")
                  if not any(part in RENDERERS for part in p.relative_to(VISION).parts))


def constants() -> list[Number]:
    """Module-level numeric constants of the reader's modules."""
    out: list[Number] = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            if target is None or value is None or not _numeric(value):
                continue
            names = [t.id for t in (target.elts if isinstance(target, ast.Tuple) else [target])
                     if isinstance(t, ast.Name)]
            values = value.elts if isinstance(value, ast.Tuple) and len(names) > 1 else [value]
            for ident, val in zip(names, values, strict=False):
                name = f"{path.stem}.{ident}"
                part = "register" if path.name in OWN_MODULES else "per-cell"
                out.append(Number(name, str(path.relative_to(ROOT)), node.lineno, ast.unparse(val),
                                  _kind(name, None), part))
    return out


class _Literals(ast.NodeVisitor):
    """Numeric literals inside functions, with the function they are in (outermost)."""

    def __init__(self) -> None:
        self.found: list[tuple[int, float, str]] = []
        self.function = ""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self.function
        self.function = outer or node.name
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.visit(default)
        for stmt in node.body:
            self.visit(stmt)
        self.function = outer

    def _keep(self, line: int, value: object) -> None:
        if (self.function and isinstance(value, (int, float)) and not isinstance(value, bool)
                and value not in STRUCTURAL):
            self.found.append((line, float(value), self.function))

    def visit_Constant(self, node: ast.Constant) -> None:
        self._keep(node.lineno, node.value)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            value = node.operand.value
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self._keep(node.lineno, -value)
            return
        self.generic_visit(node)


MAGIC_KINDS = {
    "load": "format",
    "board": "cap",
    "markers": "drawing",
    "register._draw_markers": "drawing",
    "grid_overlay.draw_grid": "drawing",
    "labels.encode_template": "format",
    "labels.decode_template": "format",
    "pipeline._draw_labels": "drawing",
    "errors.__init__": "format",
}
"""Magic numbers that are not reading settings: the photo formats' byte layout (``load``: JPEG
segment codes, header offsets, units), the checks on ``board.yaml`` (``board``: at most 26 rows
lettered A-Z), the printed sheet (``markers``: inches, DPI, A4, the caption) and the debug
pictures (line widths, colours), the calibration file's template encoding (``labels``: ink
scaled to 0-200 in a PNG), the debug picture's labels (``pipeline._draw_labels``: colours,
offsets, text scale) and the cells named in an error's message (``errors``: the first 12)."""
WORK_SIZES = frozenset({("register.edge_blur", 1000), ("outline.find_outline", 900),
                        ("outline.side_measures", 16), ("labels.decode_template", 512)})
"""Magic numbers that are working sizes (a copy shrunk to this many pixels, or pixels per cell) or
input limits (a template side read from a calibration file): caps on work, not reading settings."""
FITTED = {
    "registration.max_blur_px": "bench/bench_vision.py --classic (refuse set: σ 5-9 px)",
    "registration.outline_label_ratio": "bench/outline_orientation.py (outline ladder, both renderers)",
    "outline.INK": "bench/registration_set.py (outline ladder, both renderers)",
    "register._S_FINE": "bench/fit_edge_blur.py (photos of known blur, both renderers)",
    "register._EDGE_SHARE": "bench/fit_edge_blur.py (photos of known blur, both renderers)",
    "registration.max_candidates": "bench/bench_hostile_images.py",
    "register.REACH": "tests/vision/test_register_real.py (dev renders)",
    "grid.refine_min_points": "bench/registration_numbers.py --fit (registration set, both renderers)",
    "outline._SMOOTH": "bench/registration_numbers.py --fit (registration set, both renderers)",
    "grid.refine_line_px": "tests/vision/test_register_real.py (dev renders)",
    "grid.refine_drift_per_error": "tests/vision/test_register_real.py (dev renders)",
    "prior.OFF_RULES": "set by hand, measured by bench/fit_off_rules.py (game positions' dev photos: not placed)",
    "shade.SHADOW_AGREE": "bench/fit_shadow_edges.py (dev photos)",
    "shade.HARD": "bench/fit_shadow_edges.py (dev photos)",
    "trees.LIKELIHOOD_TEMPERATURE": "bench/fit_trees_photo.py (training photos, each read by trees fitted without it)",
    "trees.REFUSE_WEIGHTS": "bench/fit_trees_photo.py (training photos and glared ones the trees never saw)",
    "trees.REFUSE_AT": "bench/fit_trees_photo.py (training photos and glared ones the trees never saw)",
}
"""How a tunable was set, where a script or test measured it; every other one is
provisional, set by hand (its description says on what)."""
LITERAL_KINDS: dict[tuple[str, float], str] = {
    # the cells named in a message: the first 5 missing, the first 8 misread
    ("calibrate.calibrate", 5): "format",
    ("calibrate._check_reads_back", 8): "format",
    # a saved example's file name: the microseconds of its stamp, six digits
    ("examples.keep", 10): "format",
    ("examples.keep", 6): "format",
    # a warped 0/255 mask of the photo's inside read at half the byte range, as 0.5 is half of one
    ("calibrate.measure_classes", 127): "math",
    ("evidence._samples", 127): "math",
    # the median distance of a 2-D Gaussian from its centre is sqrt(2 ln 2) = 1.177 of its σ
    ("colours.adapt", 1.177): "math",
    ("colours.learn", 1.177): "math",
    ("occluders.occluder", 1.177): "math",
    # a row and a column packed into one key for a set: any factor above the board's columns
    ("occluders._cell_shaped", 10000): "format",
    # the second largest of a sorted row
    ("cell_features._lead", -2): "index",
    # degrees to radians: the Hough transform's angle bins are one degree (math.pi / 180)
    ("shade.shadow_edges", 180): "math",
    # a segment's parameter from -0.5 to 1.5: half a segment either way, as -0.5 is structural
    ("occluders._soft_edge", 1.5): "math",
    # a percentile (board.PAPER_PERCENTILE) as the quantile numpy takes
    ("shade._region_offsets", 100): "math",
}
"""Single magic numbers of the per-cell modules that are not reading settings, each with why (the
key is the function and the value). 8-connectivity of OpenCV's connected components is counted as a
tunable (4 is the other choice, and it changes what is joined)."""
GUARD = 1e-3
"""A literal this small or smaller guards a division or a log (``max(x, 1e-6)``): not a setting."""


def magic() -> list[Number]:
    """Numeric literals inside the functions of every reader module."""
    out: list[Number] = []
    for path in _modules():
        part = "register" if path.name in OWN_MODULES else "per-cell"
        visitor = _Literals()
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        for line, value, function in visitor.found:
            kind = MAGIC_KINDS.get(f"{path.stem}.{function}", MAGIC_KINDS.get(path.stem, "tunable"))
            if 0 < abs(value) <= GUARD:
                kind = "guard"
            elif (f"{path.stem}.{function}", value) in WORK_SIZES:
                kind = "cap"
            kind = LITERAL_KINDS.get((f"{path.stem}.{function}", value), kind)
            shown = repr(int(value)) if value == int(value) else repr(value)
            out.append(Number(f"{path.stem}.{function}", str(path.relative_to(ROOT)), line, shown, kind, part))
    return out


def inventory() -> list[Number]:
    """Every number listed, settings first."""
    return settings() + constants() + magic()


def counts(numbers: list[Number]) -> dict[str, dict[str, int]]:
    """Per part, how many numbers of each kind."""
    out: dict[str, dict[str, int]] = {}
    for n in numbers:
        part = out.setdefault(n.part, {})
        part[n.kind] = part.get(n.kind, 0) + 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="Print the list as JSON.")
    parser.add_argument("--part", choices=("register", "per-cell"), default=None)
    args = parser.parse_args()
    numbers = [n for n in inventory() if args.part is None or n.part == args.part]
    if args.json:
        print(json.dumps({"numbers": [asdict(n) for n in numbers], "counts": counts(numbers)}, indent=1))
        return
    for n in numbers:
        how = f"  [{FITTED.get(n.name, 'provisional, set by hand')}]" if n.kind == "tunable" else ""
        print(f"{n.kind:9} {n.part:9} {n.file}:{n.line}  {n.name} = {n.value}{how}")
    for part, kinds in sorted(counts(numbers).items()):
        print(f"{part}: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


if __name__ == "__main__":
    main()
