#!/usr/bin/env bash
# The first hour of an Iliad game on the sample map, and the Greek and Trojan moves of the second
# hour, with the dice typed in as if rolled on the table (--dice), so every run gives the same
# result. Drop --dice to let the referee roll verifiable digital dice instead. Run it in an empty
# folder: it writes ./troy.referee and ./troy.png. the README (Iliad section) walks through it;
# tests/games/iliad/test_cli.py replays it.
set -euo pipefail
SAMPLES=$(python -c "from referee.tables import data_root; print(data_root('samples'))")
export REFEREE_FILE=troy.referee

referee new iliad --setup "$SAMPLES/iliad/setup.yaml"    # Preparazione del gioco
# Day 1, hour 1 opens with the calendar's duel: Menelao against Paride.
referee odds "Menelao x Paride"                          # exact odds before the dice
referee resolve --dice 4,2,5,5,6,3                       # three throws: Menelao's die, then Paride's
# The Trojans reply: out of the citadel and onto the Simois (a river square ends the move).
referee do "Asteropeo N20"
referee do "Asio O19"
referee do "Ettore Q20"
referee do "Agenore O17"
referee resolve                                          # no combat: the hour is over
# Hour 2: the Greeks leave the shore.
referee judge "Agamennone P14"                           # too far: 12 squares for a 10-square move
referee do "Aiace d'Oileo J19"
referee do "Macaone I19"
referee do "Diomede J14"
referee do "Teucro H22"
referee resolve
# The Trojans strike: a hero against a value-1 counter is an open battle.
referee legal Asteropeo
referee odds "Asteropeo x Macaone"
referee do "Asteropeo I20"                               # entering Macaone's zone attacks him
referee resolve --dice 3,5                               # Asteropeo's die, then Macaone's
referee log
referee show --png troy.png
