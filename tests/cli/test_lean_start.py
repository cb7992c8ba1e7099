"""A lean start (issue 33): help, ``--version`` and completion load neither pydantic nor rich's console.

Each case runs the real entry point in a subprocess and reads ``sys.modules`` as the process
exits; the registry of games is plain data, checked here against each engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pydantic.plugin
import pytest

from referee.cli.lean import PLUGIN_LOADER
from referee.games import REGISTRY, find_game, game_slug

HEAVY = ("pydantic", "rich.console", "cv2", "numpy", "yaml")
"""Modules none of these command lines may load (pydantic's models, rich's console, vision, tables)."""

PROBE = (
    "import atexit, sys\n"
    "heavy = sys.argv[1].split(',')\n"
    "atexit.register(lambda: print('LOADED:', *[m for m in heavy if m in sys.modules], file=sys.__stderr__))\n"
    "sys.argv = ['referee', *sys.argv[2:]]\n"
    "from referee.cli import main\n"
    "main()\n"
)


def probe(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Runs ``referee ARGS`` in a fresh interpreter; returns the process and the heavy modules it loaded."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "_REFEREE_", "COMP_"))}
    result = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *args], capture_output=True, text=True,
                            env={**base, "COLUMNS": "100", **(env or {})}, timeout=120)
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("LOADED:"), result.stderr
    return result, last.split()[1:]


@pytest.mark.parametrize("args", [
    ["--help"], ["-h"], ["--version"], ["judge", "--help"], ["do", "--help"], ["new", "--help"],
    ["dice", "verify", "--help"], ["persia", "--help"], ["persia", "operate", "--help"], ["night", "--help"],
    ["map", "check", "--help"], ["judge", "cyrus-pyxis", "--help"], ["tables", "zargo", "--help"],
])
def test_help_and_version_load_no_pydantic_nor_rich_console(args: list[str]) -> None:
    result, loaded = probe(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert loaded == []


def test_help_in_another_language_loads_no_pydantic_either() -> None:
    result, loaded = probe("--lang", "fr", "judge", "--help")
    assert result.returncode == 0, result.stderr
    assert "Affiche ce message" in result.stdout  # the help in French
    assert loaded == []


@pytest.mark.parametrize("shell", ["complete_bash", "complete_zsh", "complete_fish", "complete_powershell"])
def test_completion_loads_no_pydantic_nor_rich_console(shell: str) -> None:
    words = "referee judge --po"
    result, loaded = probe(env={"_REFEREE_COMPLETE": shell, "_TYPER_COMPLETE_ARGS": words, "COMP_WORDS": words,
                                "COMP_CWORD": "2", "_TYPER_COMPLETE_FISH_ACTION": "get-args",
                                "_TYPER_COMPLETE_WORD_TO_COMPLETE": "--po"})
    assert result.returncode == 0, result.stderr
    assert "--position" in result.stdout
    if shell != "complete_bash":  # the others show each option's help too, as written
        assert "position file" in result.stdout.lower()
    assert loaded == []


def test_a_command_still_validates_its_values(tmp_path: Path) -> None:
    """The validators deferred for help are typer's own once a value comes: a bad number is refused."""
    result, loaded = probe("new", "cyrus-pyxis", "--file", str(tmp_path / "g.referee"), "--players", "two")
    assert result.returncode == 2 and "--players" in result.stderr
    assert "pydantic" in loaded
    assert not (tmp_path / "g.referee").exists()


def test_a_plain_text_option_is_taken_as_typed_like_typer_does() -> None:
    from typer._coercion import build_runtime_param

    from referee.cli import command, parameters

    root = command()
    lang = next(p for p in parameters(root) if p.name == "lang")
    ctx = root.make_context("referee", ["--help"], resilient_parsing=True)
    typer_own = build_runtime_param(lang.type_descriptor)  # type: ignore[attr-defined]
    for text in ("fr", "", " it ", "Français", "x" * 300):
        assert lang.get_runtime_param().coerce(text, param=lang, ctx=ctx) == typer_own.coerce(  # type: ignore[attr-defined]
            text, param=lang, ctx=ctx)


def test_the_registry_says_what_each_engine_says() -> None:
    for entry in REGISTRY:
        info = find_game(entry.slug).info
        assert (entry.slug, entry.package, entry.title) == (info.slug, info.package, info.title)
        assert entry.module == f"referee.games.{info.package}"
        for name in (entry.slug, entry.package, *entry.aliases, entry.slug.upper()):
            assert game_slug(name) == entry.slug
            assert find_game(name) is find_game(entry.slug)


def test_the_version_printed_is_the_installed_package_s() -> None:
    from importlib.metadata import version

    result, loaded = probe("--version")
    assert result.stdout == f"referee {version('referee')}\n"
    assert loaded == []


def test_judge_looks_for_no_pydantic_plugins() -> None:
    """main() registers a plugin loader that finds none before anything is validated, so a cold
    judge neither imports ``importlib.metadata`` nor reads every distribution's entry points; its
    models still validate (the verdict is the engine's)."""
    sample = Path(__file__).resolve().parents[2] / "samples" / "cyrus-pyxis" / "umpire.yaml"
    args = ["judge", "cyrus-pyxis", "--position", str(sample), "Pyxis C6", "--json"]
    result = subprocess.run([sys.executable, "-c", PROBE, "importlib.metadata,pydantic.main", *args],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1].split()[1:] == ["pydantic.main"]
    assert json.loads(result.stdout)["violations"] == []


def test_pydantic_asks_its_plugin_loader_for_get_plugins_only() -> None:
    """What the stand-in loader provides is all pydantic imports from its own (a new name after an
    upgrade fails here, not in a user's command)."""
    package = Path(pydantic.plugin.__file__).parent
    names = {name.strip() for path in package.rglob("*.py") if path.stem != "_loader"
             for line in path.read_text(encoding="utf-8").splitlines() if "from ._loader import" in line
             for name in line.split("import", 1)[1].split(",")}
    assert names == {"get_plugins"}
    assert f"{pydantic.plugin.__name__}._loader" == PLUGIN_LOADER
