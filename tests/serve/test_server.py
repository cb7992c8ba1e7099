"""``referee serve`` over HTTP: links, pages, the stream, tokens, safety, moves and refusals."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.serve.conftest import Http, Server, first_events, new_game, referee, served

TOKEN = re.compile(r"/([0-9a-f]{32})/")


def test_json_first_line_names_the_table_and_each_player_and_links_end_with_a_slash(shared: Server) -> None:
    server = shared
    assert set(server.urls) == {"table", "players"}
    players = server.urls["players"]
    assert isinstance(players, dict) and set(players) == {"greek", "persian"}
    for url in [server.table, *players.values()]:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert len(TOKEN.search(url)[1]) * 4 >= 128  # type: ignore[index]
    page = Http.get(server.table)
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert b"<svg" in page.body and b"Cyrus &amp; Pyxis" in page.body


def test_links_survive_a_restart_and_new_links_rotate_them(cyrus: Path) -> None:
    with served(cyrus) as first:
        before = first.urls
    with served(cyrus) as again:
        assert again.urls["players"] == {k: v.replace(_port(v), _port(again.table))
                                          for k, v in before["players"].items()}  # type: ignore[union-attr]
    with served(cyrus, "--new-links") as rotated:
        old = before["table"]
        assert isinstance(old, str)
        assert TOKEN.search(old)[1] not in rotated.table  # type: ignore[index]
        assert Http.get(rotated.table.replace(TOKEN.search(rotated.table)[1], TOKEN.search(old)[1])).status == 404  # type: ignore[index]


def _port(url: str) -> str:
    return url.split("/")[2]


def test_export_never_carries_the_link_secret(cyrus: Path, tmp_path: Path) -> None:
    with served(cyrus) as server:
        token = TOKEN.search(server.table)[1]  # type: ignore[index]
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(cyrus)) as db:
        secret = db.execute("SELECT value FROM meta WHERE key = 'links'").fetchone()[0]
    for viewer in ((), ("--as", "greek")):
        text = referee("export", "--file", str(cyrus), *viewer, cwd=tmp_path).stdout
        assert secret not in text and token not in text and '"links"' not in text


def test_an_unknown_token_answers_404_on_every_path_even_the_stream(shared: Server) -> None:
    server = shared
    base = server.table.rsplit("/", 2)[0]
    wrong = "0" * 32
    bodies = set()
    for path in ("", "events", "state", "legal?cell=A1", "app.js", "nothing"):
        reply = Http.get(f"{base}/{wrong}/{path}")
        assert reply.status == 404
        bodies.add(reply.body)
    assert Http.post(f"{base}/{wrong}/move", {"action": "Pyxis F3"}).status == 404
    assert Http.get(f"{server.table}nothing").status == 404
    assert Http.get(f"{base}/").status == 404
    assert len(bodies) == 1  # an unknown token tells nothing about which paths exist


def test_an_unknown_host_is_refused_and_every_answer_carries_a_strict_policy(shared: Server) -> None:
    server = shared
    assert Http.request(server.table, host="evil.example:80").status == 400
    assert Http.request(server.table, host="localhost" + ":" + _port(server.table).split(":")[1]).status == 200
    reply = Http.get(server.player("greek"))
    policy = reply.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert reply.headers["referrer-policy"] == "no-referrer" and reply.headers["x-frame-options"] == "DENY"
    assert not re.search(rb"https?://(?!www\.w3\.org/2000/svg)", reply.body)  # no external resource
    assert b"<script src=\"app.js\">" in reply.body and b"<script>" not in reply.body


def test_a_move_needs_a_same_origin_json_body_from_a_player(shared: Server) -> None:
    server = shared
    game = server.game
    before = game.read_bytes()  # after the link secret is stored
    greek = server.player("greek")
    move = {"action": "Pergame L7", "hash": Http.get(greek + "state").json()["hash"]}
    assert Http.post(greek + "move", move, origin=False).status == 403
    assert Http.post(greek + "move", move, content_type="text/plain").status == 403
    assert Http.request(greek + "move", "POST", b"[1, 2]", {"Content-Type": "application/json",
                                                           "Origin": "http://" + _port(greek)}).status == 403
    assert Http.post(server.table + "move", move).status == 403
    assert Http.get(greek + "move").status == 404
    assert game.read_bytes() == before


def test_V_a_refused_move_shows_its_reason_with_its_citation_and_changes_nothing(shared: Server) -> None:
    server = shared
    game = server.game
    before = game.read_bytes()
    greek = server.player("greek")
    state = Http.get(greek + "state").json()
    refused = Http.post(greek + "move", {"action": "Centaure B6", "hash": state["hash"]})
    assert refused.status == 422
    answer = refused.json()
    assert answer["ok"] is False and "too-far" in answer["codes"]  # type: ignore[operator]
    assert str(answer["line"]).startswith("✗") and "(V" in str(answer["line"])
    persian = Http.post(server.player("persian") + "move", {"action": "Tyr L8", "hash": state["hash"]})
    assert persian.status == 422 and "not your turn" in str(persian.json()["line"])
    assert game.read_bytes() == before


def test_two_devices_moving_from_one_state_the_second_is_refused_and_shown_the_new_state(cyrus: Path) -> None:
    with served(cyrus) as server:
        greek = server.player("greek")
        seen = Http.get(greek + "state").json()["hash"]
        first = Http.post(greek + "move", {"action": "Pergame L7", "hash": seen})
        second = Http.post(greek + "move", {"action": "Telestas L4", "hash": seen})
        assert first.status == 200 and first.json()["ok"] is True
        assert second.status == 409 and second.json()["stale"] is True
        state = second.json()["state"]
        assert isinstance(state, dict) and state["hash"] != seen
        assert "Pergame L7" in str(state["html"]["rulings"])  # type: ignore[index]
    log = referee("log", "--json", "--file", str(cyrus), cwd=cyrus.parent).stdout
    assert log.count('"text": "Pergame L7"') == 1 and "Telestas L4" not in log


def test_a_player_taps_a_counter_sees_its_moves_and_plays_one_through_the_journal(cyrus: Path) -> None:
    with served(cyrus) as server:
        greek = server.player("greek")
        moves = Http.get(greek + "legal?cell=L2").json()["moves"]
        assert isinstance(moves, list) and {"action": "Pergame L7", "said": "Pergame L7"} in moves
        assert Http.get(server.player("persian") + "legal?cell=L2").json()["moves"] == []
        french = Http.get(greek + "legal?cell=L2&lang=fr").json()["moves"]
        assert french and all(m["action"].startswith("Pergame") for m in french)  # type: ignore[index]
        hash_ = Http.get(greek + "state").json()["hash"]
        assert Http.post(greek + "move", {"action": "Pergame L7", "hash": hash_}).json()["ok"] is True
    log = json.loads(referee("log", "--json", "--file", str(cyrus), cwd=cyrus.parent).stdout)
    assert log[-1]["text"] == "Pergame L7" and log[-1]["side"] == "greek"


def test_a_move_typed_in_the_cli_reaches_an_open_stream_within_a_second(cyrus: Path) -> None:
    with served(cyrus) as server:
        timing: dict[str, float] = {}

        def move() -> None:
            done = referee("do", "Pergame L7", "--file", str(cyrus), cwd=cyrus.parent)
            assert done.returncode == 0, done.stderr
            timing["committed"] = time.monotonic()

        events = first_events(server.table + "events", 2, after=move)
        arrived = time.monotonic()
        assert "Pergame L7" in str(events[1]["html"]["rulings"])  # type: ignore[index]
        assert events[1]["version"] != events[0]["version"]
        assert arrived - timing["committed"] < 1.0


def test_each_page_speaks_its_viewers_language_whatever_the_games(shared: Server) -> None:
    server = shared
    greek = server.player("greek")
    fr = Http.get(greek, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).body.decode()
    it = Http.get(greek + "?lang=it", headers={"Accept-Language": "fr"}).body.decode()
    en = Http.get(greek, headers={"Accept-Language": "de-DE"}).body.decode()
    assert '<html lang="fr">' in fr and "au camp grec" in fr
    for english in ("Tap a counter", "Type a move", ">Key<", "Last rulings", "Your moves", "Read aloud", "the table",
                    "Waiting for", "Your turn", "Play<"):
        assert english not in fr, english
    assert '<html lang="it">' in it and '<html lang="en">' in en
    assert "Turn 1: Greek to play" in en


def test_ctrl_c_stops_the_server_within_two_seconds_with_pages_open(cyrus: Path) -> None:
    import http.client
    from urllib.parse import urlsplit

    with served(cyrus) as server:
        streams = []
        for url in (server.table, server.player("greek"), server.player("persian")):
            parts = urlsplit(url + "events")
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
            conn.request("GET", parts.path, headers={"Host": parts.netloc})
            assert conn.getresponse().status == 200
            streams.append(conn)
        assert server.stop() < 2.0
        assert server.process.returncode is not None
        for conn in streams:
            conn.close()


def test_no_token_ever_appears_in_a_log_line(cyrus: Path) -> None:
    with served(cyrus) as server:
        tokens = [TOKEN.search(u)[1] for u in (server.table, server.player("greek"))]  # type: ignore[index]
        Http.get(server.table)
        Http.get(server.player("greek") + "legal?cell=L2")
        Http.get(server.table.replace(tokens[0], "f" * 32))
        server.stop()
        assert server.process.stderr is not None
        log = server.process.stderr.read()
    assert "GET table /" in log and "GET greek /legal" in log and "GET ? /" in log
    assert not any(t in log for t in tokens)


def test_serve_refuses_a_missing_file_and_a_taken_port_in_one_line(tmp_path: Path, cyrus: Path) -> None:
    missing = referee("serve", "--file", str(tmp_path / "none.referee"), "--json", cwd=tmp_path)
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) <= 2
    other = tmp_path / "other.referee"
    other.write_bytes(cyrus.read_bytes())
    before = other.read_bytes()
    with served(cyrus) as server:
        port = _port(server.table).split(":")[1]
        taken = referee("serve", "--file", str(other), "--port", port, cwd=tmp_path)
        assert taken.returncode == 1 and "port" in taken.stderr
        assert other.read_bytes() == before  # refused: no link secret written


def test_no_other_command_imports_the_web_stack_or_opencv(tmp_path: Path, cyrus: Path) -> None:
    code = ("import sys, runpy; sys.argv = ['referee', 'show', '--file', sys.argv[1], '--png', sys.argv[2]]\n"
            "try:\n    runpy.run_module('referee', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('starlette', 'uvicorn', 'cv2', 'segno') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, str(cyrus), str(tmp_path / "b.png")], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr
    assert (tmp_path / "b.png").stat().st_size > 10_000


CLI_MOVE = {"cyrus-pyxis": "Pergame L7", "iliad": "resolve", "zargo": "start", "300-solo": "persia prepare"}


@pytest.mark.parametrize("slug", list(CLI_MOVE))
def test_every_game_serves_its_pages_and_a_referee_do_reaches_an_open_stream_within_a_second(
        tmp_path: Path, slug: str) -> None:
    game = new_game(tmp_path / "g.referee", slug, "solo-setup.yaml" if slug == "300-solo" else "setup.yaml")
    with served(game) as server:
        players = server.urls["players"]
        assert isinstance(players, dict) and "persia" not in players  # PERS.IA needs no page
        for url in [server.table, *players.values()]:
            page = Http.get(url)
            assert page.status == 200 and b"<svg" in page.body
        timing: dict[str, float] = {}

        def move() -> None:
            done = referee("do", CLI_MOVE[slug], "--file", str(game), cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            timing["exited"] = time.monotonic()

        events = first_events(server.table + "events", 2, after=move)
        assert time.monotonic() - timing["exited"] < 1.0
        assert events[1]["hash"] != events[0]["hash"]
        if slug == "300-solo":
            assert b"Aegean Sea" in page.body and b"Athenai" in page.body
            bot = events[1]["html"]["bot"]  # type: ignore[index]
            assert '<ol class="steps">' in bot and re.search(r'class="cite">\(\d', bot)  # each step cites its rule
            announce = events[1]["announce"]
            assert isinstance(announce, dict) and "Draw" in str(announce["text"])  # read aloud when asked


def test_the_solo_player_starts_persia_from_their_page(tmp_path: Path) -> None:
    game = new_game(tmp_path / "g.referee", "300-solo", "solo-setup.yaml")
    with served(game) as server:
        greece = server.player("greece")
        hash_ = Http.get(greece + "state").json()["hash"]
        listed = Http.get(greece + "state").json()["html"]["actions"]  # type: ignore[index]
        assert 'data-action="persia prepare"' in str(listed)
        played = Http.post(greece + "move", {"action": "persia prepare", "hash": hash_})
        assert played.status == 200, played.body
        assert "Draw" in str(played.json()["line"])
