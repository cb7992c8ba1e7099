"""The message catalogs as a gettext project: GNU msgfmt's checks, compiled catalogs in the wheel
and in an editable install, a stale compiled catalog never served, no compile at run time."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from referee import i18n

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = sorted((ROOT / "referee" / "locale").glob("*/LC_MESSAGES/*.po"))


def test_every_area_has_a_catalog_per_language() -> None:
    assert {p.parent.parent.name for p in CATALOGS} == {"fr", "it"}
    assert len(CATALOGS) >= 12


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_msgfmt_check_passes(po: Path, tmp_path: Path) -> None:
    # GNU msgfmt -c: format strings, plural forms, header; .ci/run installs gettext, so CI runs it
    msgfmt = shutil.which("msgfmt")
    if msgfmt is not None:
        done = subprocess.run([msgfmt, "-c", "-o", str(tmp_path / "x.mo"), str(po)], capture_output=True, text=True)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return
    # without gettext (a developer's machine), Babel's own checkers
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    assert [(m.id, errors) for m, errors in catalog.check()] == []
    assert "YEAR" not in str(catalog.revision_date) and "FULL NAME" not in (catalog.last_translator or "")


def test_no_message_is_flagged_as_a_percent_format() -> None:
    # every message is a str.format template; a "%" in one ("100 % scale") is text
    for po in CATALOGS:
        assert "python-format" not in po.read_text(encoding="utf-8").replace("python-brace-format", ""), po


def _copy_locale(tmp_path: Path) -> Path:
    target = tmp_path / "locale"
    shutil.copytree(ROOT / "referee" / "locale", target, ignore=shutil.ignore_patterns("*.mo", "*.part"))
    return target


def test_compiled_catalog_is_read_without_babel(tmp_path: Path) -> None:
    locale = _copy_locale(tmp_path)
    written = i18n.write_catalogs(locale)
    assert sorted(p.relative_to(locale).as_posix() for p in written) == [
        "fr/LC_MESSAGES/referee.mo", "it/LC_MESSAGES/referee.mo"]
    probe = (
        "import sys; from pathlib import Path; from referee import i18n\n"
        f"t = i18n.load('it', Path({str(locale)!r}))\n"
        "print(type(t).__name__, t.gettext('the sea is crossed only over a cloud bridge'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'babel'))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["GNUTranslations il mare si attraversa solo su un ponte di nuvole", "[]"]


def test_compiled_catalog_merges_every_area(tmp_path: Path) -> None:
    locale = _copy_locale(tmp_path)
    i18n.write_catalogs(locale)
    compiled = i18n.load("fr", locale)
    assert compiled.info()["x-referee-sources"] == i18n.digest(sorted((locale / "fr" / "LC_MESSAGES").glob("*.po")))
    from babel.messages.pofile import read_po

    checked = 0
    for po in sorted((locale / "fr" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as handle:
            for message in read_po(handle):
                if message.id and isinstance(message.id, str) and message.string and not message.fuzzy:
                    assert compiled.gettext(message.id) == message.string, message.id
                    checked += 1
                elif isinstance(message.id, tuple) and all(message.string):
                    assert compiled.ngettext(message.id[0], message.id[1], 1) == message.string[0]
                    assert compiled.ngettext(message.id[0], message.id[1], 5) == message.string[1]
                    checked += 1
    assert checked > 1000


def test_a_stale_compiled_catalog_is_not_served(tmp_path: Path) -> None:
    locale = _copy_locale(tmp_path)
    i18n.write_catalogs(locale)
    po = locale / "fr" / "LC_MESSAGES" / "zargo.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "la mer ne se traverse que par un pont de nuages"' in text
    po.write_text(text.replace('msgstr "la mer ne se traverse que par un pont de nuages"',
                               'msgstr "la mer se franchit sur un pont de nuages"'), encoding="utf-8")
    # the catalog was edited after the build: the sources are compiled again, not the old binary read
    edited = i18n.load("fr", locale).gettext("the sea is crossed only over a cloud bridge")
    assert edited == "la mer se franchit sur un pont de nuages"
    (locale / "fr" / "LC_MESSAGES" / "referee.mo").unlink()  # never built: the same
    assert i18n.load("fr", locale).gettext("the sea is crossed only over a cloud bridge") == edited
    for damaged in (b"not a catalog", b"", i18n.compile_language("fr", locale)[:100]):  # damaged: the same
        (locale / "fr" / "LC_MESSAGES" / "referee.mo").write_bytes(damaged)
        assert i18n.load("fr", locale).gettext("the sea is crossed only over a cloud bridge") == edited


def test_an_editable_install_has_compiled_catalogs() -> None:
    # the README installs with pip install -e .: the build hook compiled every language in place
    for lang in ("fr", "it"):
        compiled = ROOT / "referee" / "locale" / lang / "LC_MESSAGES" / "referee.mo"
        assert compiled.is_file(), f"{compiled} missing: run pip install -e . (or python tools/i18n.py compile)"
        assert i18n.load(lang).info()["language"] == lang


@pytest.mark.slow
def test_the_wheel_ships_compiled_catalogs(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "*.mo", "*.part", "__pycache__", ".*_cache", "build", "dist", "*.egg-info"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"),
                           str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("referee-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for lang in ("fr", "it"):
            data = archive.read(f"referee/locale/{lang}/LC_MESSAGES/referee.mo")
            assert data == i18n.compile_language(lang)
    assert not any(n.endswith(".part") for n in names)
