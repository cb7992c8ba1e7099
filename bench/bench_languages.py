"""CPU of a cold command in English against the same command in French and Italian.

Each command runs once per language per round, the languages interleaved (en, fr, it, en, fr,
it, ...) after one warm-up run each, so the file cache, the bytecode and the machine's drift are
shared. The figure is CPU time (user + system, the operating system's own accounting of the
finished child), not wall time: on a shared machine the wall clock also counts other jobs. For
each round the ratio fr/en (and it/en) is taken pair by pair, and the median of those ratios is
printed with the medians of each language.

The languages differ only in reading a compiled catalog (``referee/locale/<lang>/LC_MESSAGES/
referee.mo``) and the translated text; ``--stale`` also times French with the compiled catalog
ignored (the sources compiled in memory, as every French process did before the build compiled
them), for comparison.

Run: ``python bench/bench_languages.py [--runs N] [--stale]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_cyrus import machine  # the same machine line as every bench

POSITION = {"game": "cyrus-pyxis", "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},
            "persian": {"Cyrus": "L6", "Amatonte": "B6"}}
ROOT = Path(__file__).resolve().parents[1]


def cpu_of(cmd: list[str], env: dict[str, str], cwd: str) -> float:
    """Returns the CPU seconds (user + system) of one run of ``cmd``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, capture_output=True, check=True, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def commands(exe: str, tmp: Path) -> dict[str, list[str]]:
    """Returns the commands timed, by name: an umpire's judge, a game file's status, a help page."""
    pos = tmp / "pos.json"
    pos.write_text(json.dumps(POSITION), encoding="utf-8")
    return {
        "judge": [exe, "judge", "--position", str(pos), "Pyxis C6"],
        "status": [exe, "status", "--file", str(tmp / "game.referee")],
        "do --help": [exe, "do", "--help"],
    }


def measure(runs: int, stale: bool) -> dict[str, dict[str, list[float]]]:
    """Returns CPU seconds per command and language over ``runs`` interleaved rounds."""
    exe = shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "LANG", "LC_ALL")}
    langs = {"en": "en", "fr": "fr", "it": "it"}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        cmds = commands(exe, tmp)
        subprocess.run([exe, "new", "cyrus-pyxis", "--file", str(tmp / "game.referee"), "--setup",
                        str(ROOT / "samples" / "cyrus-pyxis" / "setup.yaml")], capture_output=True, check=True,
                       env=base, cwd=tmp)
        variants = {name: {**base, "REFEREE_LANG": lang} for name, lang in langs.items()}
        stale_mo = ROOT / "referee" / "locale" / "fr" / "LC_MESSAGES" / "referee.mo"
        times: dict[str, dict[str, list[float]]] = {c: {v: [] for v in variants} for c in cmds}
        if stale:
            for c in cmds:
                times[c]["fr (stale)"] = []
        for name, cmd in cmds.items():
            for env in variants.values():  # warm-up
                cpu_of(cmd, env, tmp_name)
            for _ in range(runs):
                for variant, env in variants.items():
                    times[name][variant].append(cpu_of(cmd, env, tmp_name))
                if stale:
                    kept = stale_mo.read_bytes()
                    try:
                        stale_mo.write_bytes(b"")  # unreadable: the sources are compiled in memory
                        times[name]["fr (stale)"].append(cpu_of(cmd, variants["fr"], tmp_name))
                    finally:
                        stale_mo.write_bytes(kept)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--stale", action="store_true", help="also time French with its compiled catalog ignored")
    args = parser.parse_args()
    times = measure(args.runs, args.stale)
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}; {args.runs} interleaved rounds; CPU time")
    for name, by_lang in times.items():
        en = by_lang["en"]
        cells = [f"en {statistics.median(en) * 1000:.0f} ms"]
        for variant, values in by_lang.items():
            if variant == "en":
                continue
            ratios = [v / e for v, e in zip(values, en, strict=True)]
            cells.append(f"{variant} {statistics.median(values) * 1000:.0f} ms "
                         f"({(statistics.median(ratios) - 1) * 100:+.1f} % against en, pair by pair)")
        print(f"{name:>10}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
