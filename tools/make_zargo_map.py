#!/usr/bin/env python3
"""Writes the reconstructed Zargo world (``tables/zargo/map.yaml``) from a fixed seed.

The printed 96 × 66 cm map is not available to us, so the shipped world is a stand-in with what
the rulebook describes: four continents separated by seas, crossed on cloud bridges; mountains,
woods and magic chasms; continents that run off one side edge and on at the other (lettered
hexes). 36 × 21 flat-topped hexes of about 2.6 cm fit the printed size. Re-running this script
gives the same file; `referee map check tables/zargo/map.yaml` validates it.

    python tools/make_zargo_map.py > tables/zargo/map.yaml
"""

from __future__ import annotations

import math
import random
import sys

from referee.geometry import HexGrid

COLS, ROWS = 36, 21
SEED = 1979
WIDTH = 1.5 * COLS
# (key, name, centre x, centre y, radius x, radius y) in hex-centre units (HexGrid.centre)
CONTINENTS = (
    ("1", "Nordouest", 15.0, 10.5, 11.0, 7.5),
    ("2", "Nordest", 41.0, 9.5, 10.5, 7.0),
    ("3", "Sud", 27.0, 27.5, 12.0, 7.0),
    ("4", "Bord", 53.0, 27.0, 10.0, 7.5),  # straddles the side edges
)


def main() -> None:
    rng = random.Random(SEED)
    grid = HexGrid(COLS, ROWS)
    wobble = {key: [(rng.uniform(0.05, 0.15), rng.randrange(2, 6), rng.uniform(0, 6.3)) for _ in range(3)]
              for key, *_ in CONTINENTS}
    owner: list[str | None] = []
    for cell in grid.cells():
        x, y = grid.centre(cell)
        best: tuple[float, str] | None = None
        for key, _name, cx, cy, rx, ry in CONTINENTS:
            dx = min(abs(x - cx), WIDTH - abs(x - cx))
            angle = math.atan2(y - cy, dx)
            edge = 1 + sum(a * math.sin(k * angle + p) for a, k, p in wobble[key])
            d = math.hypot(dx / rx, (y - cy) / ry) / edge
            if d < 1 and (best is None or d < best[0]):
                best = (d, key)
        owner.append(best[1] if best else None)
    # a strait of sea between any two continents
    for cell in grid.cells():
        if owner[cell] and any(owner[n] and owner[n] != owner[cell] for n in grid.neighbours(cell)):
            owner[cell] = None
    # no spits: a land hex needs two neighbours of its own continent; then keep each continent's
    # largest piece (the side edges count as joined, since letters carry moves across them)
    for _ in range(3):
        for cell in grid.cells():
            if owner[cell] and sum(owner[n] == owner[cell] for n in grid.neighbours(cell)) < 2:
                owner[cell] = None
    across = HexGrid(COLS, ROWS, links=tuple((grid.name(grid.cell(0, r)), grid.name(grid.cell(COLS - 1, r)))
                                            for r in range(ROWS)))
    for key, *_ in CONTINENTS:
        pieces: list[set[int]] = []
        seen: set[int] = set()
        for cell in grid.cells():
            if owner[cell] == key and cell not in seen:
                piece = set(across.search(cell, COLS * ROWS, lambda c, k=key: owner[c] == k, lambda c: True).distance)
                seen |= piece
                pieces.append(piece)
        keep = max(pieces, key=len)
        for piece in pieces:
            if piece is not keep:
                for c in piece:
                    owner[c] = None
    terrain = ["." if o else "~" for o in owner]

    def coastal(cell: int) -> bool:
        return owner[cell] is not None and any(owner[n] is None for n in grid.neighbours(cell))

    for key, *_ in CONTINENTS:
        land = [c for c in grid.cells() if owner[c] == key]
        inland = [c for c in land if not coastal(c)]
        for _ in range(2):  # two mountain ranges, straight-ish
            start = rng.choice(inland)
            direction = rng.randrange(6)
            here: int | None = start
            for _ in range(rng.randrange(3, 6)):
                if here is None or owner[here] != key:
                    break
                terrain[here] = "m"
                here = grid.step(here, direction if rng.random() < 0.7 else (direction + 1) % 6)
        for _ in range(4):  # woods in clumps
            centre = rng.choice(land)
            for c in grid.within(centre, 1):
                if owner[c] == key and terrain[c] == "." and rng.random() < 0.7:
                    terrain[c] = "w"
        for c in rng.sample([c for c in inland if terrain[c] == "."], 2):  # two magic chasms
            terrain[c] = "g"
    bridges = []
    pairs = (("1", "2"), ("1", "3"), ("2", "3"), ("3", "4"), ("2", "4"), ("1", "4"))
    for a, b in pairs:
        best_pair: tuple[int, int, int] | None = None
        for p in grid.cells():
            if owner[p] != a or not coastal(p):
                continue
            for q in grid.within(p, 6):
                if owner[q] == b and coastal(q) and q not in grid.neighbours(p):
                    line = grid.line(p, q)
                    if all(owner[c] is None for c in line[1:-1]):
                        d = grid.distance(p, q)
                        if best_pair is None or (d, p, q) < best_pair:
                            best_pair = (d, p, q)
        if best_pair:
            bridges.append((grid.name(best_pair[1]), grid.name(best_pair[2])))
    wrap = {}
    letter = ord("A")
    for row in range(ROWS):
        left, right = grid.cell(0, row), grid.cell(COLS - 1, row)
        if owner[left] and owner[right]:
            wrap[chr(letter)] = (grid.name(left), grid.name(right))
            letter += 1
    out = sys.stdout
    out.write("# Source: our reconstruction (provisional), after the rulebook's description (LA CARTE).\n")
    out.write("# Zargo's world: the printed map is not available to us;\n")
    out.write("# this stand-in follows the rulebook's description (four continents, seas crossed on cloud\n")
    out.write("# bridges, mountains, woods, magic chasms, lettered hexes wrapping the side edges).\n")
    out.write("# Made by tools/make_zargo_map.py; transcribe your own printed map in the same format\n")
    out.write("# (referee/games/zargo/world.py documents it) and check it with `referee map check FILE`.\n")
    out.write("# Cells: terrain (~ sea, . plain, w woods, m mountains, g magic chasm) then continent key.\n")
    out.write("name: Zargo (reconstructed world)\nprovenance: provisional\n")
    out.write(f"layout: {{cols: {COLS}, rows: {ROWS}, down: even}}\n")
    out.write("continents: {" + ", ".join(f'"{k}": {n}' for k, n, *_ in CONTINENTS) + "}\n")
    out.write("grid: |\n")
    for row in range(ROWS):
        cells = []
        for col in range(COLS):
            c = grid.cell(col, row)
            cells.append(terrain[c] + (owner[c] or "~"))
        out.write("  " + " ".join(cells) + "\n")
    out.write("bridges:\n")
    for a, b in bridges:
        out.write(f'  - ["{a}", "{b}"]\n')
    out.write("wrap:\n")
    for k, (a, b) in wrap.items():
        out.write(f'  {k}: ["{a}", "{b}"]\n')


if __name__ == "__main__":
    main()
