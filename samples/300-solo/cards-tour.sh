#!/usr/bin/env bash
# Campaign 3 again, this time with cards: the Greek hand is named as it is drawn, and card events
# are played and applied by the referee (Wrath of Poseidon, Triremes, Miltiades). Dice are typed
# as if rolled on the table. Run it in an empty folder: it writes ./game.referee.
# docs/300-solo.md (Cards) walks through it; tests/games/earth_water/test_samples.py replays it.
set -euo pipefail

referee new 300-solo
referee persia prepare
referee do "buy 4 cards"
referee do "draw Wrath of Poseidon"
referee do "piocher Trières"                 # card names (and verbs) in French or Italian work too
referee do "draw Miltiades"                  # the fourth card stays unnamed
referee do "buy 2 armies Athenai"
referee do done
referee persia operate --dice 2
referee do "event Wrath of Poseidon Ephesos" # one Persian fleet fewer in Ephesos
referee persia operate --dice 3
referee do "event Triremes"                  # two naval moves without armies, no card each
referee do "sail 1 Athenai Eretria"
referee do "sail 1 Sparta Naxos"
referee persia operate --dice 2
referee do "move 2 Athenai Thebai"           # paid with the unnamed card: a land battle
referee do "event Miltiades"                 # before the first round: Greece rolls 3 dice
referee do fight --dice 6,5,4,2,1            # 3 Greek dice first, then 2 Persian
referee do fight --dice 5,4,3,1
referee show
referee log
