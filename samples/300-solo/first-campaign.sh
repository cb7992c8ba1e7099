#!/usr/bin/env bash
# A solo player's first campaign of 300: Earth & Water against PERS.IA (campaign 3 of the solo
# game), with the dice typed in as if rolled on the table (--roll for PERS.IA's die, --dice for
# battles), so every run gives the same result. Drop --roll and --dice to let the referee roll
# verifiable digital dice instead. Run it in an empty folder: it writes ./game.referee.
# the README (300: Earth & Water section) walks through it; tests/games/earth_water/test_samples.py replays it.
set -euo pipefail

referee new 300-solo
referee persia prepare                      # solo 4: situation B (Persia leads by 2)
referee do "buy 2 cards"                    # Greek preparation: 6 talents
referee do "buy 2 armies Athenai"
referee do "buy 1 army Sparta"
referee do "buy 1 fleet Athenai"
referee do done
referee persia operate --roll 2             # solo 5.3: march toward Sparta
referee do "move 2 Athenai -> Thebai"
referee persia operate --roll 3
referee do "move 2 Thebai -> Larissa"       # attack: a land battle
referee do fight --dice 6,5,4,2,1           # Greek dice first, then Persian
referee do fight --dice 6,3,2,1
referee do fight --dice 5,2,3
referee persia operate --roll 5             # solo 5.3.5: a Greek fleet destroyed, naval battle
referee resolve --dice 5,3
referee do pass
referee persia operate --roll 6             # solo 5.3.6: hands are empty, operations end
referee persia supply                       # solo 6
referee do done                             # Greek supply, lines of communication, scoring
referee show
referee log
