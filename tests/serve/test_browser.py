"""The table display in a real browser: Debian's headless Chromium driven by Playwright.

Run with ``python -m pytest -m browser`` (``.ci/run`` does, after installing
``chromium-headless-shell``); the browser is launched from its Debian path, never downloaded.
Every page loaded is on 127.0.0.1. Screenshots of each game's table page are kept in
``build/browser/`` (or ``$REFEREE_ARTIFACTS``).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.serve.conftest import ROOT, Server, new_game, referee, served

pytestmark = pytest.mark.browser

ARTIFACTS = Path(os.environ.get("REFEREE_ARTIFACTS", ROOT / "build" / "browser"))
SHELL = ("chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright  # the browser tests' own dependency

    executable = next((found for name in SHELL if (found := shutil.which(name) or
                                                   (name if Path(name).is_file() else None))), None)
    if executable is None:
        pytest.fail("chromium-headless-shell is not installed: apt-get install -y --no-install-recommends "
                    "chromium-headless-shell")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
        yield launched
        launched.close()


def _page(browser: object, url: str, locale: str = "en-GB", width: int = 1280, height: int = 900) -> object:
    assert url.startswith("http://127.0.0.1:")  # loopback only
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#board > svg")
    return page


def _game(tmp_path: Path, slug: str) -> Path:
    return new_game(tmp_path / f"{slug}.referee", slug, "solo-setup.yaml" if slug == "300-solo" else "setup.yaml")


@pytest.mark.parametrize("slug", ["cyrus-pyxis", "iliad", "zargo", "300-solo"])
def test_each_games_table_page_draws_its_board_and_is_kept_as_a_screenshot(browser: object, tmp_path: Path,
                                                                         slug: str) -> None:
    game = _game(tmp_path, slug)
    if slug == "300-solo":  # PERS.IA's first procedure, so its steps show
        from referee.games import find_game
        from referee.journal import GameFile

        with GameFile.open(game, find_game) as gf:
            gf.do("persia prepare")
    with served(game) as server:
        page = _page(browser, server.table)
        if slug == "300-solo":
            expect(page.locator("#bot .steps li").first).to_be_visible()  # type: ignore[attr-defined]
        svg = page.locator("#board > svg")  # type: ignore[attr-defined]
        expect(svg).to_be_visible()
        assert svg.bounding_box()["width"] > 500
        assert page.locator("#turn .waiting").inner_text()  # type: ignore[attr-defined]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"table-{slug}.png"), full_page=True)  # type: ignore[attr-defined]


def test_a_move_typed_in_the_cli_appears_on_an_open_page(browser: object, cyrus: Path) -> None:
    with served(cyrus) as server:
        page = _page(browser, server.table)
        assert "Pergame L7" not in page.locator("#rulings").inner_text()  # type: ignore[attr-defined]
        done = referee("do", "Pergame L7", "--file", str(cyrus), cwd=cyrus.parent)
        assert done.returncode == 0, done.stderr
        expect(page.locator("#rulings")).to_contain_text("Pergame L7", timeout=3000)  # type: ignore[attr-defined]


def test_a_tapped_move_is_played_and_a_refused_one_shows_its_reason(browser: object, cyrus: Path) -> None:
    with served(cyrus) as server:
        page = _page(browser, server.player("greek"), width=420, height=900)
        page.locator("[data-cell='L2']").last.click()  # type: ignore[attr-defined]
        move = page.locator("#moves button[data-action='Pergame L7']")  # type: ignore[attr-defined]
        move.wait_for(timeout=3000)
        move.click()
        expect(page.locator("#result")).to_have_text(re.compile("^✓"), timeout=3000)  # type: ignore[attr-defined]
        expect(page.locator("#rulings")).to_contain_text("Pergame L7", timeout=3000)  # type: ignore[attr-defined]
        page.fill("#type-form input[name=action]", "Centaure B6")  # type: ignore[attr-defined]
        page.click("#type-form button")  # type: ignore[attr-defined]
        expect(page.locator("#result")).to_have_text(re.compile("^✗"), timeout=3000)  # type: ignore[attr-defined]
        reason = page.locator("#result").inner_text()  # type: ignore[attr-defined]
        assert "[too-far]" in reason and "(V" in reason
    log = referee("log", "--file", str(cyrus), cwd=cyrus.parent).stdout
    assert "Pergame L7" in log and "Centaure B6" not in log


def test_a_player_page_never_shows_another_players_secret(browser: object, tmp_path: Path) -> None:
    from referee.games import find_game
    from referee.journal import GameFile

    game = _game(tmp_path, "zargo")
    with GameFile.open(game, find_game) as gf:
        gf.seal("moines", "garrison-0113", ["FMo", "MCh"])
    with served(game) as server:
        monks = _page(browser, server.player("moines"))
        assert '["FMo","MCh"]' in monks.locator("#secrets").inner_text()  # type: ignore[attr-defined]
        for viewer in ("chevaliers", "dragons", "ailes"):
            page = _page(browser, server.player(viewer))
            html = page.content()  # type: ignore[attr-defined]
            assert '"FMo","MCh"' not in html and "FMo&quot;,&quot;MCh" not in html
            assert "garrison-0113" not in page.locator("#secrets").inner_text()  # type: ignore[attr-defined]


def test_the_page_reads_in_french_and_in_italian(browser: object, shared: Server) -> None:
    french = _page(browser, shared.player("greek"), locale="fr-FR")
    assert french.locator("html").get_attribute("lang") == "fr"  # type: ignore[attr-defined]
    text = french.locator("main").inner_text()  # type: ignore[attr-defined]
    assert "À vous de jouer" in text and "Dernières décisions" in text and "au camp grec" in text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    french.screenshot(path=str(ARTIFACTS / "player-cyrus-pyxis-fr.png"), full_page=True)  # type: ignore[attr-defined]
    italian = _page(browser, shared.player("greek") + "?lang=it", locale="fr-FR")
    text = italian.locator("main").inner_text()  # type: ignore[attr-defined]
    assert "Tocca a te" in text and "Ultime decisioni" in text
    italian.click("nav a[data-lang=fr]")  # type: ignore[attr-defined]
    italian.wait_for_selector("html[lang=fr]")  # type: ignore[attr-defined]


def test_a_page_that_loses_its_stream_says_reconnecting_and_resyncs(browser: object, cyrus: Path) -> None:
    with served(cyrus) as server:
        port = server.table.split("/")[2].split(":")[1]
        page = _page(browser, server.table)
        server.stop()
        expect(page.locator("#banner")).to_be_visible(timeout=5000)  # type: ignore[attr-defined]
        expect(page.locator("#banner")).to_contain_text("Reconnecting")  # type: ignore[attr-defined]
        done = referee("do", "Pergame L7", "--file", str(cyrus), cwd=cyrus.parent)
        assert done.returncode == 0, done.stderr
    with served(cyrus, "--port", port) as again:
        assert again.table == server.table  # the same link after a restart
        expect(page.locator("#rulings")).to_contain_text("Pergame L7", timeout=10000)  # type: ignore[attr-defined]
        expect(page.locator("#banner")).to_be_hidden()  # type: ignore[attr-defined]
