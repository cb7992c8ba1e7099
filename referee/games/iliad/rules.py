"""Citations of the Iliad rulebook, resolved once at import (a typo fails the tests).

The rulebook has no numbered sections; sections are its printed (Italian) headings, with the
sub-heading after a colon, as listed in ``tables/iliad/rules.yaml``.
"""

from __future__ import annotations

from referee.rulings import load_rules

RULES = load_rules("iliad")

MAP = RULES.ref("La mappa")
COUNTERS = RULES.ref("I pezzi con cui si gioca")
SETUP = RULES.ref("Preparazione del gioco")
TURN = RULES.ref("Come si gioca")
CALENDAR = RULES.ref("Il calendario")
NIGHT = RULES.ref("La notte tra un giorno e l'altro")
VICTORY = RULES.ref("Scopo del gioco")
ALLOWANCE = RULES.ref("Movimento")
MOVEMENT = RULES.ref("Movimento: regole generali")
TERRAIN = RULES.ref("Movimento: regole particolari")
ZONES = RULES.ref("Combattimento: regole generali")
DUEL = RULES.ref("Combattimento: duello")
BATTLE = RULES.ref("Combattimento: campo aperto")
ARCHERY = RULES.ref("Combattimento: arcieri")
