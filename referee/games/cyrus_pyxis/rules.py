"""Citations of the Cyrus & Pyxis rulebook, resolved once at import (a typo fails the tests)."""

from __future__ import annotations

from referee.rulings import load_rules

RULES = load_rules("cyrus-pyxis")

BOARD = RULES.ref("Matériel II.1")
TERRAIN_TOKENS = RULES.ref("Matériel II.2")
LEGION_COUNTERS = RULES.ref("Matériel II.3")
GOAL = RULES.ref("I")
SETUP = RULES.ref("II")
SETUP_FORESTS = RULES.ref("II.1")
SETUP_HILLS = RULES.ref("II.2")
SETUP_GREEK = RULES.ref("II.3")
SETUP_PERSIAN = RULES.ref("II.4")
FIRST_PLAYER = RULES.ref("II.5")
TURN = RULES.ref("III")
MOVE_STEP = RULES.ref("III.1")
SUPPORT_STEP = RULES.ref("III.2")
COMBAT_STEP = RULES.ref("III.3")
OTHER_SIDE = RULES.ref("III.4")
GAME_END = RULES.ref("III.5")
VALUE_TABLES = RULES.ref("IV.1")
ARCHERS = RULES.ref("IV.2")
ARCHER_SUPPORT = RULES.ref("IV.2-1")
SUPPORT_EFFECT = RULES.ref("IV.2-2")
PHALANX = RULES.ref("IV.3")
MOVEMENT = RULES.ref("V")
COMBAT = RULES.ref("VI")
SUPPORT_DECLARATION = RULES.ref("VI.1")
COMBAT_VALUES = RULES.ref("VI.2")
COMBAT_RESULT = RULES.ref("VI.3")
