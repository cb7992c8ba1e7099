"""Zargo's Lords on the table display: a garrison sealed by one people never reaches another.

Two games differ only in the garrisons the Monks and the Dragons sealed; every response the
server gives the Knights, the Winged and the table — pages, streams, JSON, legal moves, errors —
must be the same bytes in both, once tokens and commitments (salted hashes, so different by
construction) are set aside. And a people seals and reveals from its own page.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.serve.conftest import Http, Server, first_events, new_game, referee, served

HEX = re.compile(rb"[0-9a-f]{64}|[0-9a-f]{32}|[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}")
"""Commitments and state hashes, tokens, and the short fingerprints of commitments."""
GARRISONS = (
    {("moines", "garrison-0113"): ["FMo", "MCh"], ("dragons", "garrison-2503"): ["FDr"]},
    {("moines", "garrison-0113"): ["MCh", "MCh", "FMo"], ("dragons", "garrison-2503"): ["FDr", "FDr", "LFl"]},
)


def _zargo(path: Path, garrisons: dict[tuple[str, str], list[str]]) -> Path:
    from referee.games import find_game
    from referee.journal import GameFile

    new_game(path, "zargo")
    with GameFile.open(path, find_game) as gf:
        for (owner, label), secret in garrisons.items():
            gf.seal(owner, label, secret)
    return path


def _aside(body: bytes) -> bytes:
    return HEX.sub(b"#", body)


def _responses(server: Server, viewer: str | None) -> list[tuple[str, bytes]]:
    """Every kind of answer a viewer's device can get: page, JSON, stream, legal moves, refusals."""
    url = server.table if viewer is None else server.player(viewer)
    out = [(path, Http.get(url + path).body) for path in ("", "?lang=fr", "state", "state?lang=it",
                                                          "legal?cell=0113", "legal?cell=2503", "app.js", "nothing")]
    out.append(("events", str(first_events(url + "events")[0]).encode()))
    out.append(("reveal", Http.post(url + "reveal", {"label": "garrison-0113"}).body))
    out.append(("move", Http.post(url + "move", {"action": "attack 0114 0113", "hash": "0" * 64}).body))
    out.append(("seal", Http.post(url + "seal", {"label": "garrison-0113", "secret": "[]"}).body))
    return out


def test_LA_CONQUETE_another_players_responses_are_the_same_bytes_whatever_the_garrisons(tmp_path: Path) -> None:
    games = [_zargo(tmp_path / f"z{i}.referee", g) for i, g in enumerate(GARRISONS)]
    with served(games[0]) as one, served(games[1]) as two:
        for viewer in (None, "chevaliers", "ailes"):
            first, second = _responses(one, viewer), _responses(two, viewer)
            for (path, a), (_same, b) in zip(first, second, strict=True):
                assert _aside(a) == _aside(b), f"{viewer or 'table'} {path}"
                for secret in (b'[&quot;MCh&quot;,&quot;MCh&quot;,&quot;FMo&quot;]', b'["MCh","MCh","FMo"]',
                               b'[&quot;FDr&quot;,&quot;FDr&quot;,&quot;LFl&quot;]', b'["FDr","FDr","LFl"]'):
                    assert secret not in a and secret not in b, f"{viewer or 'table'} {path}"
        mine = Http.get(one.player("moines") + "state").body.decode()
        assert "garrison-0113" in mine and "[&quot;FMo&quot;,&quot;MCh&quot;]" in mine
        assert "FDr" not in Http.get(one.player("moines") + "state").json()["html"]["secrets"]  # type: ignore[index]


def test_LA_CONQUETE_a_people_seals_and_reveals_its_garrison_from_its_own_page(tmp_path: Path) -> None:
    game = new_game(tmp_path / "z.referee", "zargo")
    with served(game) as server:
        monks = server.player("moines")
        too_many = Http.post(monks + "seal", {"label": "garrison-3214", "secret": '["FMo","FMo","FMo","FMo","FMo"]'})
        assert too_many.status == 422 and too_many.json()["ok"] is False
        sealed = Http.post(monks + "seal", {"label": "garrison-3612", "secret": '["FMo","MCh"]'})
        assert sealed.status == 200 and sealed.json()["ok"] is True, sealed.body
        assert "garrison-3612" in str(Http.get(monks + "state").json()["html"]["secrets"])  # type: ignore[index]
        table = Http.get(server.table + "state").body
        assert b"FMo&quot;,&quot;MCh" not in table and b'"FMo","MCh"' not in table
        early = Http.post(monks + "reveal", {"label": "garrison-3612"})
        assert early.status == 422 and "[no-reveal]" in str(early.json()["line"])  # not attacked yet
        from referee.games import find_game
        from referee.journal import GameFile

        with GameFile.open(game, find_game) as gf:  # another writer: the Winged attack the Monks' city
            for text in ("start", "0506 0507", "resolve", "resolve", "2417 3613", "attack 3613 3612", "resolve"):
                gf.do(text)
        knights = Http.post(server.player("chevaliers") + "reveal", {"label": "garrison-3612"})
        assert knights.status == 422  # not theirs to reveal
        revealed = Http.post(monks + "reveal", {"label": "garrison-3612"})
        assert revealed.status == 200 and "FMo" in str(revealed.json()["line"]), revealed.body
        assert "FMo" in str(Http.get(server.table + "state").json()["html"]["rulings"])  # type: ignore[index]
    log = referee("log", "--file", str(game), cwd=tmp_path).stdout
    assert "seal" in log and "reveal" in log
