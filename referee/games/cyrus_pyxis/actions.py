"""Cyrus & Pyxis actions and their notation.

Notation (names are matched case- and accent-insensitively; cells like ``H7``):

- ``forest C5`` / ``hill F6`` — lay a terrain token (set-up, II.1–II.2);
- ``Pyxis A6`` — in set-up, deploy a legion; in play, move it (ending on an enemy attacks it);
- ``Pyxis off`` — take a king off the board by its winning edge (I);
- ``support Messène Athéna`` — an archer supports a legion in combat (IV.2);
- ``done`` — end the current movement or support step; ``resolve`` — resolve the combats.

Overrides (``referee adjust``): ``Athéna C5``, ``Athéna off`` (remove), ``terrain C5 forest``
(or ``plain`` to clear), ``active persian`` (hand the move to a side, start of its turn).

Every keyword is also accepted in French and Italian (:data:`GRAMMAR`): ``forêt C5``/``foresta
C5``, ``soutien Messène Athéna``/``supporto Messène Athéna``, ``fin``/``fine``, ``résoudre``/
``risolvi``, ``Pyxis sort``/``Pyxis esce``, ``terrain C5 plaine``/``terreno C5 pianura``, ``actif
perse``/``attivo persiano``. :meth:`Action.text` stays English: the journal is language-neutral.
"""

from __future__ import annotations

import re
from typing import Literal

from referee.errors import NotationError, UnknownNameError
from referee.game import Action
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Phase, Side, Terrain
from referee.i18n import N_, _
from referee.notation import Form, Grammar, Keyword

OFF = "off"
_ARROWS = re.compile(r"\s*(?:->|→|=>|\b(?:to|vers|à|verso)\b)\s*", re.IGNORECASE)

GRAMMAR = Grammar(
    words=(
        Keyword("forest", fr=("forêt", "forêts", "bois"), it=("foresta", "bosco")),
        Keyword("hill", fr=("colline", "collines"), it=("collina", "colle")),
        Keyword("plain", fr=("plaine",), it=("pianura",)),
        Keyword("place", en=("deploy",), fr=("déployer", "déploie", "placer", "place"),
                it=("schiera", "schierare", "piazza", "posiziona")),
        Keyword("move", fr=("déplacer", "déplace", "bouger"), it=("muovi", "muovere", "sposta")),
        Keyword("off", en=("exit", "out"), fr=("sort", "sortie", "sortir", "dehors"),
                it=("esce", "uscita", "esci", "fuori")),
        Keyword("support", fr=("soutien", "soutient", "soutenir", "appui"),
                it=("supporto", "sostegno", "sostiene", "supporta")),
        Keyword("done", en=("end", "pass"), fr=("fin", "fini", "terminé", "passe"),
                it=("fine", "fatto", "finito", "passo")),
        Keyword("resolve", fr=("résoudre", "résous", "résolution"), it=("risolvi", "risolvere", "risoluzione")),
        Keyword("remove", en=("dead", "eliminated"), fr=("retirer", "retiré", "éliminé", "mort"),
                it=("rimuovi", "rimosso", "eliminato", "morto")),
        Keyword("terrain", fr=("terrain",), it=("terreno",)),
        Keyword("active", fr=("actif", "trait", "main"), it=("attivo", "mano", "tocca")),
        Keyword("greek", fr=("grec", "grecs", "grecque"), it=("greco", "greci")),
        Keyword("persian", fr=("perse", "perses"), it=("persiano", "persiani")),
    ),
    forms=(
        Form("{forest} CELL", "{forest} C5", N_("lay a forest token (set-up)"), ("II.1",)),
        Form("{hill} CELL", "{hill} F6", N_("lay a hill token (set-up)"), ("II.2",)),
        Form("LEGION CELL", "Pyxis A6", N_("set-up: deploy a legion; in play: move it (ending on an enemy attacks)"),
             ("II.3", "V")),
        Form("{place} LEGION CELL", "{place} Pyxis A6", N_("deploy a legion (set-up), the verb is optional"),
             ("II.3", "II.4")),
        Form("{move} LEGION CELL", "{move} Pyxis C6", N_("move a legion, the verb is optional"), ("V",)),
        Form("LEGION {off}", "Pyxis {off}", N_("take a king off the board by its winning edge"), ("I",)),
        Form("{support} ARCHER LEGION", "{support} Messène Athéna", N_("an archer supports a legion in combat"),
             ("IV.2",)),
        Form("{done}", "{done}", N_("end the movement step or your support declarations"), ("III",)),
        Form("{resolve}", "{resolve}", N_("resolve the combats"), ("III.3",)),
        Form("LEGION CELL", "Athéna C5", N_("put a legion on a cell"), adjust=True),
        Form("LEGION {remove}", "Athéna {remove}", N_("take a legion off the board"), adjust=True),
        Form("{terrain} CELL {forest}|{hill}|{plain}", "{terrain} C5 {forest}", N_("set a cell's terrain"),
             adjust=True),
        Form("{active} {greek}|{persian}", "{active} {persian}", N_("start the turn of a side"), adjust=True),
    ),
)
"""The notation in English, French and Italian (``forêt C5``, ``soutien Messène Athéna``, ``fine``)."""


class PlaceTerrain(Action):
    """II.1–II.2: lay a forest or hill token."""

    terrain: Literal["forest", "hill"]
    cell: str

    def text(self) -> str:
        return f"{self.terrain} {self.cell}"


class Deploy(Action):
    """II.3–II.4: put a legion on its starting cell."""

    legion: str
    cell: str

    def text(self) -> str:
        return f"{self.legion} {self.cell}"


class Move(Action):
    """V: move a legion to a cell (``off`` for a king leaving the board)."""

    legion: str
    cell: str

    def text(self) -> str:
        return f"{self.legion} {self.cell}"


class Support(Action):
    """IV.2: an archer supports a friendly legion engaged in a combat."""

    archer: str
    legion: str

    def text(self) -> str:
        return f"support {self.archer} {self.legion}"


class Done(Action):
    """III: end the current movement or support step."""

    def text(self) -> str:
        return "done"


class Resolve(Action):
    """III.3: resolve the pending combats."""

    def text(self) -> str:
        return "resolve"


class AdjustLegion(Action):
    """Override: put a legion on a cell, or remove it (``off``)."""

    legion: str
    cell: str

    def text(self) -> str:
        return f"{self.legion} {self.cell}"

    def is_adjust(self) -> bool:
        return True


class AdjustTerrain(Action):
    """Override: set a cell's terrain."""

    cell: str
    terrain: Terrain

    def text(self) -> str:
        return f"terrain {self.cell} {self.terrain}"

    def is_adjust(self) -> bool:
        return True


class AdjustActive(Action):
    """Override: start the turn of a side (movement step, nothing moved yet)."""

    side: Side

    def text(self) -> str:
        return f"active {self.side}"

    def is_adjust(self) -> bool:
        return True


CyrusAction = PlaceTerrain | Deploy | Move | Support | Done | Resolve | AdjustLegion | AdjustTerrain | AdjustActive


def _words(text: str) -> list[str]:
    cleaned = _ARROWS.sub(" ", text.strip())
    return [w for w in cleaned.replace(",", " ").split() if w]


def _cell(state: CyrusState, word: str) -> str:
    return state.tables.grid.name(state.tables.grid.parse(word))


def _legion(state: CyrusState, word: str) -> str:
    try:
        return state.tables.legion(word).name
    except UnknownNameError as exc:
        close = GRAMMAR.close(word)
        if close or not exc.suggestions:
            raise UnknownNameError(_("legion or action"), word, [*exc.suggestions, *close][:4]) from None
        raise


def _say(example: str) -> str:
    """An example of the notation in the active language (``{support}`` → ``soutien``)."""
    return GRAMMAR.spell(example)


def parse_action(state: CyrusState, text: str) -> CyrusAction:
    """Returns the action a text names in this state (keywords in English, French or Italian).

    Raises:
        NotationError: not an action of Cyrus & Pyxis.
        UnknownNameError: an unknown legion or cell, with suggestions.
    """
    words = _words(text)
    examples = {"move": "Pyxis C5", "support": _say("{support} Messène Athéna"), "done": _say("{done}"),
                "resolve": _say("{resolve}")}
    if not words:
        raise NotationError(_("empty action; try '{move}', '{support}', '{done}' or '{resolve}'").format(**examples))
    head = GRAMMAR.keyword(words[0])
    if head == "done" and len(words) == 1:
        return Done()
    if head == "resolve" and len(words) == 1:
        return Resolve()
    if head == "support":
        if len(words) != 3:
            raise NotationError(_("{text!r}: write '{syntax}', e.g. '{example}'").format(
                text=text, syntax=_say("{support} ARCHER LEGION"), example=examples["support"]))
        return Support(archer=_legion(state, words[1]), legion=_legion(state, words[2]))
    if head in ("forest", "hill"):
        if len(words) != 2:
            word = GRAMMAR.word(head)
            raise NotationError(_("{text!r}: write '{syntax}', e.g. '{example}'").format(
                text=text, syntax=f"{word} CELL", example=f"{word} C5"))
        return PlaceTerrain(terrain="forest" if head == "forest" else "hill", cell=_cell(state, words[1]))
    if head in ("place", "move"):
        words = words[1:]
    elif head is None and len(words) != 2:
        _legion(state, words[0])  # an unknown first word: "did you mean" a legion or a keyword
    if len(words) != 2:
        raise NotationError(
            _("{text!r}: write 'LEGION CELL' (e.g. '{move}'), '{support}', '{done}' or '{resolve}'").format(
                text=text, **examples)
        )
    legion = _legion(state, words[0])
    cell = OFF if GRAMMAR.is_(words[1], "off") else _cell(state, words[1])
    if state.phase is Phase.SETUP:
        if cell == OFF:
            raise NotationError(
                _("{text!r}: during set-up a legion goes on a cell, not off the board").format(text=text))
        return Deploy(legion=legion, cell=cell)
    return Move(legion=legion, cell=cell)


def parse_adjust(state: CyrusState, text: str) -> CyrusAction:
    """Returns the override a text names (keywords in English, French or Italian).

    Raises:
        NotationError: not an override of Cyrus & Pyxis.
        UnknownNameError: an unknown legion, cell or side.
    """
    words = _words(text)
    usage = _("write '{legion}', '{off}', '{terrain}' or '{active}'").format(
        legion=_("LEGION CELL"), off=_say("LEGION {off}"), terrain=_say("{terrain} CELL {forest}|{hill}|{plain}"),
        active=_say("{active} {greek}|{persian}"))
    if not words:
        raise NotationError(_("empty override; {usage}").format(usage=usage))
    head = GRAMMAR.keyword(words[0])
    if head == "terrain" and len(words) == 3:
        key = GRAMMAR.keyword(words[2])
        if key not in [t.value for t in Terrain]:
            raise UnknownNameError(_("terrain"), words[2], [GRAMMAR.word(t.value) for t in Terrain]) from None
        return AdjustTerrain(cell=_cell(state, words[1]), terrain=Terrain(key))
    if head == "active" and len(words) == 2:
        key = GRAMMAR.keyword(words[1])
        if key not in [s.value for s in Side]:
            raise UnknownNameError(_("side"), words[1], [GRAMMAR.word(s.value) for s in Side]) from None
        return AdjustActive(side=Side(key))
    if head in ("terrain", "active") or len(words) != 2:
        raise NotationError(_("{text!r}: {usage}").format(text=text, usage=usage))
    legion = _legion(state, words[0])
    cell = OFF if GRAMMAR.is_(words[1], "off", "remove") else _cell(state, words[1])
    return AdjustLegion(legion=legion, cell=cell)
