"""An informed forger: rewrites a game file or an export and recomputes every hash it can.

Tests alter a record, then call :func:`reforge_file` or :func:`reforge_export` so the state hashes
and the journal chain agree with the alteration again; what is left to catch the forgery is the
sequence checks (roll numbers, epochs, counts, seeds, undo entries), which is what they test.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from referee.dice import ReplayDice
from referee.games import find_game
from referee.journal import Entry, genesis, link
from referee.journal.storage import SELECT, entry_from_row, entry_values
from referee.tables import TableSet


def _rehash(slug: str, tables: dict[str, str], entries: list[Entry]) -> list[Entry]:
    """Returns the entries with state hashes recomputed by replay (where replay still works)."""
    game = find_game(slug)
    state = game.new_state(TableSet.from_texts(slug, tables, "forge"))
    out: list[Entry] = []
    for e in entries:
        if e.active:
            try:
                parse = game.parse_adjust if e.kind == "adjust" else game.parse
                state = game.apply(state, parse(state, e.text), ReplayDice(e.rolls)).state
                e = e.model_copy(update={"state_hash": game.state_hash(state)})
            except Exception:
                pass
        out.append(e)
    return out


def _rechain(start: str, entries: list[Entry]) -> list[Entry]:
    out: list[Entry] = []
    prev = start
    for e in entries:
        e = e.model_copy(update={"chain": link(prev, e)})
        prev = e.chain
        out.append(e)
    return out


def reforge_file(path: Path, rehash: bool = True) -> None:
    """Recomputes the chain values (and, with ``rehash``, the state hashes) of an altered game file."""
    conn = sqlite3.connect(path)
    conn.text_factory = bytes
    meta = {k.decode(): v.decode() for k, v in conn.execute("SELECT key, value FROM meta")}
    first = conn.execute("SELECT commitment FROM seeds ORDER BY epoch LIMIT 1").fetchone()
    entries = [entry_from_row(row) for row in conn.execute(SELECT)]
    if rehash:
        entries = _rehash(meta["slug"], json.loads(meta["tables"]), entries)
    start = genesis(meta["game_id"], meta["slug"], meta["tables_hash"], meta["created"],
                    first[0].decode() if first else "")
    conn.execute("DELETE FROM journal")
    for e in _rechain(start, entries):
        conn.execute(f"INSERT INTO journal VALUES ({', '.join('?' * 16)})", entry_values(e))
    conn.commit()
    conn.close()


def reforge_export(data: dict[str, Any]) -> dict[str, Any]:
    """Returns an export with every state hash, chain value and the final state hash recomputed."""
    entries = [Entry.model_validate(e) for e in data["entries"]]
    entries = _rehash(data["game"], data["tables"], entries)
    first = data["seeds"][0]["commitment"] if data["seeds"] else ""
    start = genesis(data["game_id"], data["game"], data["tables_hash"], data["created"], first)
    entries = _rechain(start, entries)
    active = [e for e in entries if e.active]
    out = dict(data)
    out["entries"] = [e.model_dump(mode="json") for e in entries]
    if active and active[-1].state_hash:
        out["state_hash"] = active[-1].state_hash
    return out
