"""A pytest plugin for bench/bench_suite.py: the CPU time each test costs, subprocesses included.

Loaded with ``-p suite_cpu`` (bench/ on the path) and ``SUITE_CPU_DIR`` naming a directory: each
process running tests (every xdist worker) appends one JSON line per test to a file of its own
there, with the test's node id, its wall time, its own CPU time (user + system, threads
included) and the CPU time of the subprocesses it waited for (``RUSAGE_CHILDREN``), and how many
of those it spawned. Set-up and teardown count with the test that ran them, so a module fixture
counts with the module's first test.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

_spawned = 0
_original_init = subprocess.Popen.__init__


def _counting_init(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
    global _spawned
    _spawned += 1
    _original_init(self, *args, **kwargs)


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    folder = os.environ.get("SUITE_CPU_DIR")
    if not folder:
        yield
        return
    subprocess.Popen.__init__ = _counting_init  # type: ignore[method-assign]
    spawned = _spawned
    wall, own, children = time.perf_counter(), _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    yield
    record = {"test": item.nodeid, "wall": time.perf_counter() - wall,
              "own": _cpu(resource.RUSAGE_SELF) - own, "children": _cpu(resource.RUSAGE_CHILDREN) - children,
              "spawned": _spawned - spawned}
    name = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}.jsonl"
    with (Path(folder) / name).open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
