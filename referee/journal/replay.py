"""Replay: the state a journal's actions lead to, each checked against the state hash it recorded.

An entry is replayed from its stored action (the ``action`` column, validated as the game's
action type it names) rather than by parsing its text again; an entry written by an older
referee, whose action names no type, is parsed from its text as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from referee.dice import ReplayDice
from referee.errors import GameFileError, RefereeError
from referee.game import Action, AnyEngine, Engine, GameState
from referee.i18n import _
from referee.journal.model import Entry, row_name

TYPE_KEY = "action_type"
"""The key naming an action's type in the journal's ``action`` column."""


def action_json(action: Action) -> str:
    """Returns the ``action`` column of an action: its fields, and the name of its type."""
    return json.dumps({TYPE_KEY: type(action).__name__, **action.model_dump(mode="json")}, ensure_ascii=False)


@cache
def _action_types(engine_type: type) -> dict[str, type[BaseModel]]:
    """Returns the action models of an engine class by name (from ``Engine[State, Action]``)."""
    for klass in engine_type.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            if get_origin(base) is Engine:
                declared = get_args(base)[1]
                members = get_args(declared) if get_origin(declared) in (Union, type(int | str)) else (declared,)
                return {m.__name__: m for m in members if isinstance(m, type) and issubclass(m, BaseModel)}
    return {}


def stored_action(game: AnyEngine, entry: Entry) -> Action | None:
    """Returns the action an entry stored, or None when it names no type of this game (an
    entry of an older referee) or does not validate as one."""
    if entry.action is None or TYPE_KEY not in entry.action:
        return None
    try:
        data = json.loads(entry.action)
        model = _action_types(type(game)).get(str(data.get(TYPE_KEY))) if isinstance(data, dict) else None
        action = model.model_validate_json(entry.action) if model is not None else None
    except (ValueError, RecursionError, ValidationError):
        return None
    return action if isinstance(action, Action) else None


def play_entry(game: AnyEngine, state: GameState, entry: Entry, label: str) -> GameState:
    """Returns the state after replaying one action or override, checked against its state hash.

    Raises:
        GameFileError: it no longer replays, or replays to another state (row named).
    """
    try:
        action = stored_action(game, entry)
        if action is None or action.text() != entry.text:
            parse = game.parse_adjust if entry.kind == "adjust" else game.parse
            action = parse(state, entry.text)
        state = game.apply(state, action, ReplayDice(entry.rolls)).state
        replayed = game.state_hash(state)
    except RefereeError as exc:
        problem = _("{text} no longer replays ({problem})").format(text=repr(entry.text), problem=exc)
        raise GameFileError(f"{label}: {row_name(entry.seq)}: {problem}") from None
    except Exception as exc:  # the file is data: whatever it makes the engine do is its fault
        problem = _("{text} does not replay ({problem})").format(text=repr(entry.text), problem=type(exc).__name__)
        raise GameFileError(f"{label}: {row_name(entry.seq)}: {problem}") from None
    if replayed != entry.state_hash:
        raise GameFileError(f"{label}: {row_name(entry.seq)}: " + _(
            "{text} replays to a different state (the file or the engine changed)").format(text=repr(entry.text)))
    return state


def replay(game: AnyEngine, state: GameState, entries: Iterable[Entry], label: str,
           until: Callable[[GameState], bool] | None = None) -> GameState:
    """Returns the state after ``entries`` played in order from ``state`` (or the first state
    ``until`` accepts)."""
    for entry in entries:
        if until is not None and until(state):
            return state
        state = play_entry(game, state, entry, label)
    return state
