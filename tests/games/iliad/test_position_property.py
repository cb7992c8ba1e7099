"""Property (issue 9): an Iliad position file is refused in one line, or everything it declares replays.

2,100 seeded random positions: two thirds made up field by field (counters crowded into a
patch of the plain, random attacks, shots, moved lists, phases and winners; many impossible),
one third taken from seeded play and sometimes given one more random declaration. Each goes
through ``from_position``. A refusal must be one :class:`PositionError` line. An accepted
position must replay: on the position without its declarations, every attack is judged legal
as the attack it names, every other moved counter as a move onto its square from some square
(found here by brute force over every square, not by the loader's own choice), every shot as
the shot it names, and applying them gives the loaded state. Then ``resolve`` runs, and the
position it produces loads again.
"""

from __future__ import annotations

import random
from typing import Any

from referee.dice import CommittedDice
from referee.errors import IllegalActionError, PositionError
from referee.games.iliad import actions as act
from referee.games.iliad.bot import RandomPolicy
from referee.games.iliad.roster import CounterId, Side
from referee.games.iliad.state import IliadState, Phase
from referee.tables import packaged_table_set

from .helpers import ENGINE, started

SEED = 9
MADE_UP = 1400
FROM_PLAY = 700
TABLES = packaged_table_set("iliad")
PHASES = (None,) * 30 + ("move", "move", "duel", "night", "over", "setup")


def _load(data: dict[str, Any], label: str) -> IliadState:
    state = ENGINE.from_position(TABLES, data, label)
    assert isinstance(state, IliadState)
    return state


# ---------------------------------------------------------------------------------------------
# Positions


def made_up(rng: random.Random) -> dict[str, Any]:
    """A position drawn field by field: counters crowded into a patch, random declarations."""
    tables = ENGINE.new_state(TABLES).tables
    grid, board = tables.board.grid, tables.board
    top, left = rng.randint(7, 15), rng.randint(0, 24)
    patch = [grid.cell(r, c) for r in range(top, top + 6) for c in range(left, left + 7) if board.land[grid.cell(r, c)]]
    day = rng.choice((1, 1, 2, 2, 3, 4))
    roster = [c for c in tables.roster.counters if day < 3 or not c.thracian or rng.random() < 0.05]
    chosen = rng.sample(roster, rng.randint(3, min(12, len(patch))))
    squares = rng.sample(patch, len(chosen))
    counters = {c.id: grid.name(cell) for c, cell in zip(chosen, squares, strict=True)}
    for c in rng.sample(roster, 2):  # a few elsewhere, so both sides usually stand
        counters.setdefault(c.id, rng.choice(("S19", "S20", "D14", "D16", "J5", "C12")))
    if len(set(counters.values())) != len(counters):
        counters = {k: v for k, v in counters.items() if list(counters.values()).count(v) == 1}
    side = rng.choice((Side.GREEK, Side.TROJAN))
    data: dict[str, Any] = {"game": "iliad", "day": day, "hour": rng.randint(1, 12),
                            "side": side.value, "counters": counters}
    phase = rng.choice(PHASES)
    if phase:
        data["phase"] = phase
    on_map = list(counters)
    if rng.random() < 0.2:
        data["wounded"] = rng.sample(on_map, rng.randint(1, 2))
    if rng.random() < 0.03:
        data["winner"] = rng.choice(("greek", "trojan"))
    mine = [n for n in on_map if tables.counter(n).side is side]
    theirs = [n for n in on_map if tables.counter(n).side is not side]
    near = {n: [e for e in theirs if grid.manhattan(grid.parse(counters[n]), grid.parse(counters[e])) == 1]
            for n in on_map}
    attacks, moved, shots = [], [], []
    for name in mine:
        roll = rng.random()
        foes = near[name] if near[name] and rng.random() < 0.95 else theirs
        if roll < (0.6 if near[name] else 0.05) and foes:
            attacks.append(f"{name} x {', '.join(rng.sample(foes, 1 if rng.random() < 0.85 else min(2, len(foes))))}")
        elif roll < 0.75 and not near[name]:
            moved.append(name)
        if tables.counter(name).archer and theirs and rng.random() < 0.6:
            shots.append(f"{name} shoots {rng.choice(theirs)}")
    if rng.random() < 0.05 and theirs:  # the other side declaring
        foe = rng.choice(theirs)
        (moved.append(foe) if rng.random() < 0.5 else attacks.append(f"{foe} x {rng.choice(mine or theirs)}"))
    rng.shuffle(attacks)
    for key, value in (("attacks", attacks), ("moved", moved), ("shots", shots)):
        if value:
            data[key] = value
    return data


def from_play(rng: random.Random, count: int) -> list[tuple[dict[str, Any], bool]]:
    """Positions met in seeded play (mid-move ones included), a third given one more declaration
    (flagged True)."""
    out: list[tuple[dict[str, Any], bool]] = []
    state = started()
    policy = RandomPolicy(ENGINE, rng)
    dice = CommittedDice(b"iliad-positions", "property")
    while len(out) < count:
        if state.phase is Phase.OVER:
            state, policy = started(), RandomPolicy(ENGINE, rng)
        if rng.random() < 0.5:
            data = ENGINE.to_position(state).model_dump(mode="json", exclude_none=True)
            corrupted = rng.random() < 0.33
            if corrupted:
                _corrupt(rng, data, state)
            out.append((data, corrupted))
        state = ENGINE.apply(state, policy.choose(state), dice).state  # type: ignore[assignment]
    return out


def _corrupt(rng: random.Random, data: dict[str, Any], state: IliadState) -> None:
    names = list(data.get("counters", {})) or [c.id for c in state.tables.roster.counters]
    a, b = rng.choice(names), rng.choice(names)
    kind = rng.choice(("attacks", "moved", "shots", "phase"))
    if kind == "attacks":
        data.setdefault("attacks", []).append(f"{a} x {b}")
    elif kind == "moved":
        data.setdefault("moved", []).append(a)
    elif kind == "shots":
        archers = [c.id for c in state.tables.roster.counters if c.archer]
        data.setdefault("shots", []).append(f"{rng.choice(archers)} shoots {b}")
    else:
        data["phase"] = rng.choice(("move", "duel", "night", "over"))


# ---------------------------------------------------------------------------------------------
# Replay, independent of the loader


def replay(data: dict[str, Any], loaded: IliadState) -> None:
    """Rebuilds the loaded state from the position without its declarations, each declaration
    judged legal by the engine before it is applied."""
    bare = {k: v for k, v in data.items() if k not in ("attacks", "moved", "shots", "phase")}
    bare["phase"] = loaded.phase.value
    if loaded.phase is Phase.DUEL or loaded.phase is Phase.OVER or loaded.phase is Phase.NIGHT:
        assert not loaded.attacks and not loaded.shots
    state = _load(bare, "bare")
    grid = state.tables.board.grid
    for attack in loaded.attacks:
        state = _judged(state, act.Attack(counter=attack.attacker, targets=attack.targets))
    attackers = {a.attacker for a in loaded.attacks}
    archers = {s.archer for s in loaded.shots}
    said = {state.tables.counter(n).id for n in data.get("moved", [])}
    movers = [m for m in loaded.moved if m not in attackers and (m in said or m not in archers)]
    for ident in movers:
        state = _moved_in(state, ident, set(loaded.moved))
    for shot in loaded.shots:
        state = _judged(state, act.Shoot(archer=shot.archer, target=shot.target))
    assert state.where == loaded.where
    assert set(state.moved) == set(loaded.moved)
    assert state.attacks == loaded.attacks and state.shots == loaded.shots
    assert state.achilles_sulks == loaded.achilles_sulks
    assert grid  # the replay used the loaded map


def _judged(state: IliadState, action: act.IliadAction) -> IliadState:
    verdict = ENGINE.judge(state, action)
    assert verdict.legal, (action.text(), verdict.violations)
    after = ENGINE.apply(state, action, CommittedDice(b"x", "x")).state
    assert isinstance(after, IliadState)
    return after


def _moved_in(state: IliadState, ident: CounterId, movers: set[CounterId]) -> IliadState:
    """A move onto the counter's square from any square it could have started on: free, or held
    by another counter that moved this move (set aside while it is judged)."""
    grid = state.tables.board.grid
    end = state.where[ident]
    here = {cell: who for who, cell in state.where.items()}
    origins = sorted((c for c in grid.cells() if c != end and state.tables.board.land[c]
                      and grid.chebyshev(c, end) <= 10),
                     key=lambda c: (grid.chebyshev(c, end), here.get(c) is not None, c))
    action = act.Move(counter=ident, cell=grid.name(end), targets=())
    for origin in origins:
        aside = here.get(origin)
        if aside is not None and (aside not in movers or aside == ident):
            continue
        where = {k: v for k, v in state.where.items() if k != aside}
        where[ident] = origin
        before = state.model_copy(update={"where": where})
        if ENGINE.judge(before, action).legal:
            after = _judged(before, action)
            if aside is not None:
                after = after.model_copy(update={"where": {**after.where, aside: origin}})
            return after
    raise AssertionError(f"no square {ident} could have moved from onto {grid.name(end)}")


# ---------------------------------------------------------------------------------------------
# The property


def _check(data: dict[str, Any], label: str) -> str:
    try:
        loaded = _load(data, label)
    except PositionError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(f"{label}: "), str(exc)
        return "refused"
    replay(data, loaded)
    try:
        new, result = ENGINE.resolve_pending(loaded, CommittedDice(label.encode(), "property"))
    except IllegalActionError:
        assert loaded.phase in (Phase.SETUP, Phase.NIGHT, Phase.OVER)
        return "accepted"
    again = _load(result.position.model_dump(mode="json", exclude_none=True), f"{label}-after")  # type: ignore[attr-defined]
    assert ENGINE.to_position(again) == ENGINE.to_position(new)
    return "accepted"


def test_made_up_positions_are_refused_in_one_line_or_replay() -> None:
    rng = random.Random(SEED)
    seen = {"refused": 0, "accepted": 0}
    declared = 0
    for i in range(MADE_UP):
        data = made_up(rng)
        outcome = _check(data, f"made-up-{i}")
        seen[outcome] += 1
        declared += outcome == "accepted" and bool(data.get("attacks") or data.get("shots") or data.get("moved"))
    assert seen["refused"] > MADE_UP // 5 and seen["accepted"] > MADE_UP // 5, seen
    assert declared > MADE_UP // 10, declared  # many accepted positions do declare something


def test_positions_from_play_load_and_replay() -> None:
    rng = random.Random(SEED)
    positions = from_play(rng, FROM_PLAY)
    outcomes = [_check(data, f"played-{i}") for i, (data, _) in enumerate(positions)]
    # Every position reached by legal play loads; some corrupted ones are refused.
    assert all(o == "accepted" for o, (_, bad) in zip(outcomes, positions, strict=True) if not bad)
    assert any(o == "refused" for o, (_, bad) in zip(outcomes, positions, strict=True) if bad)
    assert sum(bool(d.get("attacks") or d.get("shots") or d.get("moved")) for d, _ in positions) > FROM_PLAY // 10
