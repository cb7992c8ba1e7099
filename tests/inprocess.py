"""``referee ...`` run in this process, through the console script's own ``main()``, for tests where
process behaviour does not matter (a tour, a walk of commands): as a real process would see it, the
command gets its own working folder, environment, ``sys.argv``, stdin and stdout/stderr (pipes, not
a terminal), and its exit code is what ``main()`` exits with. It saves the interpreter's start and
the imports (about 0.4 s of CPU a command). What it does not test (start-up, signals, locks, exit
codes of the installed script) stays with the tests that run a real process.

Run as a script, it plays several command lines in one process (one fresh interpreter for a whole
walk): ``python tests/inprocess.py STEPS.json`` reads ``[{"args": [...], "stdin": "..."}, ...]``
and prints ``[{"code": 0, "out": "...", "err": "..."}, ...]`` as JSON.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Ran:
    """What a command line did: its exit code and what it printed."""

    code: int
    out: str
    err: str

    @property
    def returncode(self) -> int:  # read like subprocess.CompletedProcess
        return self.code

    @property
    def stdout(self) -> str:
        return self.out

    @property
    def stderr(self) -> str:
        return self.err


def _stream(data: bytes = b"") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="backslashreplace", newline=None,
                            write_through=True)


@contextmanager
def _isolated(args: list[str], cwd: Path, env: Mapping[str, str],
              stdin: str | None) -> Iterator[list[io.TextIOWrapper]]:
    saved = (sys.argv, sys.stdin, sys.stdout, sys.stderr, dict(os.environ), Path.cwd())
    streams = [_stream((stdin or "").encode()), _stream(), _stream()]
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        sys.argv = ["referee", *args]
        sys.stdin, sys.stdout, sys.stderr = streams
        yield streams
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved[:4]
        os.environ.clear()
        os.environ.update(saved[4])
        os.chdir(saved[5])


def run_main(args: list[str], cwd: Path, env: Mapping[str, str], stdin: str | None = None) -> Ran:
    """Runs ``referee ARGS`` in this process: ``main()`` with its own folder, environment and streams."""
    from referee.cli import main
    from referee.cli.common import reset_consoles
    from referee.i18n import use

    code: int = 0
    with _isolated(args, cwd, env, stdin) as (_, out, err):
        reset_consoles()
        try:
            main()
        except SystemExit as done:
            if isinstance(done.code, str):
                print(done.code, file=sys.stderr)
            code = 1 if isinstance(done.code, str) else int(done.code or 0)
        finally:
            reset_consoles()
            use("en")
        out.flush()
        err.flush()
        texts = [stream.buffer.getvalue().decode("utf-8", "backslashreplace")  # type: ignore[attr-defined]
                 for stream in (out, err)]
    return Ran(code, texts[0].replace("\r\n", "\n"), texts[1].replace("\r\n", "\n"))


ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def run_line(line: str, cwd: Path, env: Mapping[str, str], timeout: float = 300) -> Ran:
    """Runs one shell line: in this process when it is a plain ``[NAME=value ...] referee ...``
    (``$NAME`` taken from ``env``; fed by ``echo 'TEXT' |`` or ``< FILE``), otherwise through a real
    ``bash -c`` (other pipes and redirections, here-documents, substitutions, other programs)."""
    line, stdin = _fed(line, cwd)
    plain = _expand(line, env)
    words = None if plain is None or _needs_shell(plain) else _split(plain)
    if words is not None:
        extra = {}
        while words and ASSIGNMENT.match(words[0]):
            name, _, value = words.pop(0).partition("=")
            extra[name] = value
        if words and words[0] == "referee":
            return run_main(words[1:], cwd, {**env, **extra}, stdin)
    done = subprocess.run(["bash", "-c", line], cwd=cwd, env=dict(env), capture_output=True, text=True,
                          timeout=timeout)
    return Ran(done.returncode, done.stdout, done.stderr)


ECHOED = re.compile(r"echo '([^']*)' \| (referee .*)")
REDIRECTED = re.compile(r"(referee [^<>|&;]*?) < ([\w./-]+)")


def _fed(line: str, cwd: Path) -> tuple[str, str | None]:
    """The command and what it reads on stdin, for the two ways the docs feed one:
    ``echo 'TEXT' | referee ...`` and ``referee ... < FILE``; the line as it is otherwise."""
    echoed = ECHOED.fullmatch(line)
    if echoed:
        return echoed.group(2), echoed.group(1) + "\n"
    redirected = REDIRECTED.fullmatch(line)
    if redirected and (cwd / redirected.group(2)).is_file():
        return redirected.group(1), (cwd / redirected.group(2)).read_text(encoding="utf-8")
    return line, None


def _expand(line: str, env: Mapping[str, str]) -> str | None:
    """The line with its ``$NAME`` and ``${NAME}`` replaced, as bash would outside quotes; None when
    it holds single quotes or another expansion (left to bash)."""
    if "$" not in line:
        return line
    if "'" in line or "$(" in line:
        return None
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: env.get(m.group(1), ""), line)


def sourced(lines: str, cwd: Path, env: Mapping[str, str]) -> dict[str, str]:
    """The environment after a real bash runs ``lines`` (assignments and ``export`` lines), every
    variable they set exported for the commands that follow."""
    done = subprocess.run(["bash", "-c", f"set -a\n{lines}\nenv -0"], cwd=cwd, env=dict(env), capture_output=True,
                          check=True, timeout=60)
    after = dict(item.split("=", 1) for item in done.stdout.decode().split("\0") if "=" in item)
    return {**env, **{k: v for k, v in after.items() if k not in ("PWD", "OLDPWD", "SHLVL", "_")}}


def _split(line: str) -> list[str] | None:
    try:
        return shlex.split(line)
    except ValueError:
        return None


def _needs_shell(line: str) -> bool:
    """Whether a line uses the shell beyond quoting: an operator or an expansion outside quotes."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return True
    quoted_free = re.sub(r"'[^']*'", "", line)
    return any(t and set(t) <= set("|&;<>()") for t in tokens) or bool(re.search(r"[$`*?~]|\\", quoted_free))


def run_batch(steps: list[dict[str, object]], cwd: Path, env: Mapping[str, str]) -> list[Ran]:
    """Runs command lines (``{"args": [...], "stdin": ...}``) in one fresh interpreter started with
    ``env`` in ``cwd``, each through ``main()`` in turn; returns what each did."""
    (cwd / "steps.json").write_text(json.dumps(steps), encoding="utf-8")
    done = subprocess.run([sys.executable, __file__, "steps.json"], cwd=cwd, capture_output=True, text=True,
                          env=dict(env), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return [Ran(**result) for result in json.loads(done.stdout)]


def main() -> None:
    steps = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    env, cwd = dict(os.environ), Path.cwd()
    results = [asdict(run_main(step["args"], cwd, env, step.get("stdin"))) for step in steps]
    sys.__stdout__.write(json.dumps(results))  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
