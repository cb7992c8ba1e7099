"""Every example of the README and of docs/ runs as written.

``sh`` blocks are command lists (the README's tour and test command have their own tests); the
``console`` transcripts of docs/ are replayed in order, one folder per document, and each
``✓``/``✗`` line they show must be printed again. A transcript marked
``<!-- excerpt: samples/... -->`` is a shortened copy of a script the suite replays elsewhere: its
commands must be lines of that script. Install commands (``python3 -m venv``, ``pip install``)
are run as written in a copy of the repository by the ``docs`` tests (``pytest -m docs``, run by
``.ci/run``), and a default test checks that every fenced block of commands is one of these.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.inprocess import Ran, run_line, sourced

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])
SKIP_MARKERS = (
    "<!-- test-command -->", "<!-- tour -->", "<!-- vision-tour -->", "<!-- zargo-tour -->", "<!-- giro -->",
    "<!-- serve -->",
)
"""Blocks with their own tests (the README tour, the guides' tours, the server's examples:
tests/serve/test_docs.py)."""


def _env(tmp: Path) -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "HOME": str(tmp),
           "COLUMNS": "100", "REFEREE_LANG": "en"}
    for key in ("REFEREE_FILE", "REFEREE_TABLES"):
        env.pop(key, None)
    return env


def _sh_blocks(doc: Path) -> list[list[str]]:
    """The ``sh`` blocks not tested elsewhere (tours, install commands)."""
    text = doc.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"```sh\n(.*?)\n```", text, re.S):
        before = text[: match.start()].rstrip().splitlines()[-1:] or [""]
        lines = [ln for ln in match.group(1).splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if before[0] in SKIP_MARKERS or any(ln.startswith(("python3 -m venv", "pip ")) for ln in lines):
            continue
        if all(ln.startswith("referee") or ln.startswith("export ") for ln in lines):
            found.append(lines)
    return found


def _transcript(doc: Path) -> list[tuple[str, list[str], str | None]]:
    """(command, lines shown after it, excerpt source) for each ``$`` line of the console blocks."""
    text = doc.read_text(encoding="utf-8")
    steps: list[tuple[str, list[str], str | None]] = []
    for match in re.finditer(r"```console\n(.*?)\n```", text, re.S):
        before = text[: match.start()].rstrip().splitlines()[-1:] or [""]
        excerpt = re.fullmatch(r"<!-- excerpt: (\S+) -->", before[0])
        lines = match.group(1).splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            command = lines[i][2:]
            i += 1
            here = re.search(r"<<'?(\w+)'?", command)
            if here:  # a here-document: its lines belong to the command
                body = []
                while i < len(lines) and lines[i] != here.group(1):
                    body.append(lines[i])
                    i += 1
                command += "\n" + "\n".join(body) + "\n" + here.group(1)
                i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            steps.append((command, shown, excerpt.group(1) if excerpt else None))
    return steps


def _flat(text: str) -> str:
    return " ".join(text.split())


def _run(command: str, cwd: Path, env: dict[str, str]) -> Ran:
    """A line as bash runs it; a plain ``referee ...`` line through the console script's ``main()``
    in this process (tests/inprocess.py: the same output and exit code, without a new interpreter)."""
    return run_line(command, cwd, env, timeout=120)


SH = [(doc, i) for doc in DOCS for i, _ in enumerate(_sh_blocks(doc))]
CONSOLE = [doc for doc in DOCS if _transcript(doc)]


@pytest.mark.parametrize(("doc", "index"), SH, ids=[f"{d.name}#{i}" for d, i in SH])
def test_sh_examples_run_as_written(doc: Path, index: int, tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    (tmp_path / "tables").symlink_to(ROOT / "tables")
    env = _env(tmp_path)
    # the README's later blocks continue the tour's game: they start from its sample set-up
    assert _run("referee new cyrus-pyxis --setup samples/cyrus-pyxis/setup.yaml", tmp_path, env).returncode == 0
    for line in _sh_blocks(doc)[index]:
        command, _, comment = line.partition("  #")
        if command.startswith("export "):
            env = sourced(command, tmp_path, env)
            continue
        if "edit " in comment:
            continue
        if "--tables my-tables" in command and not (tmp_path / "my-tables").exists():
            continue
        result = _run(command, tmp_path, env)
        expected = 1 if "refused" in comment else 0
        assert result.returncode == expected, (line, result.stdout[-400:], result.stderr[-400:])


@pytest.mark.parametrize("doc", CONSOLE, ids=[d.name for d in CONSOLE])
def test_console_transcripts_replay(doc: Path, tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    env = _env(tmp_path)
    for command, shown, excerpt in _transcript(doc):
        if excerpt is not None:
            script = (ROOT / excerpt).read_text(encoding="utf-8")
            assert any(re.split(r"\s+#", ln)[0].strip() == command.strip() for ln in script.splitlines()), (
                f"{command!r} is not a line of {excerpt}")
            continue
        result = _run(command, tmp_path, env)
        if re.match(r"(export |[A-Z_]+=)", command):  # it holds for the commands that follow
            env = sourced(command, tmp_path, env)
        refused = any(ln.startswith(("error:", "✗")) for ln in shown) and not command.startswith("referee judge")
        assert result.returncode == (1 if refused else 0), (command, result.stdout[-400:], result.stderr[-400:])
        printed = _flat(result.stdout + result.stderr)
        for line in shown:
            # verdicts, and the rows of a table the command printed (a city table, a log): as shown
            if (line.lstrip().startswith(("✓", "✗")) or "│" in line) and "…" not in line:
                assert _flat(line) in printed, (command, line, printed[-600:])


FENCE = re.compile(r"```(\w*)\n(.*?)\n```", re.S)
MARKED_ELSEWHERE = {
    "<!-- tour -->": ("tests/test_readme.py", "tests/test_tour_fr.py"),
    "<!-- vision-tour -->": ("tests/vision/test_docs.py",),
    "<!-- zargo-tour -->": ("tests/games/zargo/test_docs.py",),
    "<!-- giro -->": ("tests/test_tour_it.py",),
    "<!-- test-command -->": ("tests/test_readme.py",),
    "<!-- serve -->": ("tests/serve/test_docs.py",),
}
"""Blocks replayed by their own test, and where (the test must name the marker)."""


def _install_blocks(doc: Path) -> list[list[str]]:
    """The ``sh`` blocks that install ``referee`` (run as written by the ``docs`` tests)."""
    text = doc.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"```sh\n(.*?)\n```", text, re.S):
        before = text[: match.start()].rstrip().splitlines()[-1:] or [""]
        lines = [ln for ln in match.group(1).splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        if before[0] not in SKIP_MARKERS and any(ln.startswith(("python3 -m venv", "pip ")) for ln in lines):
            found.append(lines)
    return found


def test_every_fenced_command_is_replayed() -> None:
    """Each fenced block that holds commands is replayed: an sh block here, a console transcript
    here, an install block by the docs tests, or a marked block by the test that names its marker."""
    sh = {tuple(block) for doc in DOCS for block in _sh_blocks(doc)}
    installs = {tuple(block) for doc in DOCS for block in _install_blocks(doc)}
    unreplayed = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            lang, body = match.group(1), match.group(2)
            lines = [ln for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            if lang == "console" or not lines or lang not in ("sh", "bash", "shell", ""):
                continue  # transcripts are replayed by test_console_transcripts_replay; data is not run
            if lang == "" and not any(ln.startswith(("referee", "$ ", "python")) for ln in lines):
                continue
            before = text[: match.start()].rstrip().splitlines()[-1:] or [""]
            if before[0] in MARKED_ELSEWHERE:
                tests = [(ROOT / name).read_text(encoding="utf-8") for name in MARKED_ELSEWHERE[before[0]]]
                if any(before[0] in source for source in tests):
                    continue
            if tuple(lines) in sh or tuple(lines) in installs:
                continue
            unreplayed.append(f"{doc.name}: {lines[0]}")
    assert not unreplayed, unreplayed


def _repository_copy(target: Path) -> Path:
    """Copies the files git knows (tracked or not ignored) into ``target``, as a fresh clone holds them."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


INSTALLS = [(doc, i) for doc in DOCS for i, _ in enumerate(_install_blocks(doc))]


@pytest.mark.docs
@pytest.mark.parametrize(("doc", "index"), INSTALLS, ids=[f"{d.name}#{i}" for d, i in INSTALLS])
def test_install_commands_run_as_written(doc: Path, index: int, tmp_path: Path) -> None:
    """The install block, in a copy of the repository, as a new user types it (one to two minutes)."""
    clone = _repository_copy(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "REFEREE_FILE", "REFEREE_TABLES")}
    env.update(HOME=str(tmp_path), COLUMNS="100")
    for line in _install_blocks(doc)[index]:
        result = subprocess.run(["bash", "-c", line], cwd=clone, env=env, capture_output=True, text=True,
                                timeout=900)
        assert result.returncode == 0, (line, result.stdout[-600:], result.stderr[-600:])
    check = subprocess.run([str(clone / ".venv" / "bin" / "referee"), "--version"], cwd=clone, env=env,
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr


OUTSIDE = re.compile(r"\.\./shared|DESIGN\.md|HOUSE_STYLE")


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_no_link_leads_outside_the_repository(doc: Path) -> None:
    """Every relative link resolves to a file or folder of the repository; nothing points to the
    files the project was built beside (a design, a style guide, the rulebooks' folder)."""
    text = doc.read_text(encoding="utf-8")
    assert not OUTSIDE.search(text), OUTSIDE.search(text)
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address, not a file
        path = (doc.parent / target).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), f"{doc.name}: {target}"
