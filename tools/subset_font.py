#!/usr/bin/env python3
"""Writes the board pictures' font: DejaVu Sans (regular and bold) cut down to the letters the
referee draws (Latin with every French and Italian accent, punctuation, arrows, a few symbols).

    pip install fonttools   # a tool of this script only, not a dependency of the referee
    python tools/subset_font.py /usr/share/fonts/truetype/dejavu

The source folder is Debian's ``fonts-dejavu-core`` (DejaVu 2.37). The fonts keep their names
(DejaVu's licence forbids only the words "Bitstream" and "Vera" in a changed font's name); the
licence is ``referee/fonts/LICENSE``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

OUT = Path(__file__).resolve().parents[1] / "referee" / "fonts"
RANGES = (
    (0x20, 0x7E), (0xA0, 0xFF), (0x100, 0x17F), (0x2010, 0x203A), (0x2190, 0x2195), (0x2212, 0x2212),
    (0x25A0, 0x25CF), (0x2694, 0x2694), (0x26A0, 0x26A0), (0x2713, 0x2717),
)


def main(source: Path) -> None:
    unicodes = [c for low, high in RANGES for c in range(low, high + 1)]
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        options = subset.Options()
        options.layout_features = ["kern", "liga"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        font = subset.load_font(str(source / name), options)
        cutter = subset.Subsetter(options)
        cutter.populate(unicodes=unicodes)
        cutter.subset(font)
        subset.save_font(font, str(OUT / name), options)
        print(f"{OUT / name}: {(OUT / name).stat().st_size:,} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/usr/share/fonts/truetype/dejavu"))
