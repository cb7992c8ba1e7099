"""Loads a script of the repository (``tools/``, ``bench/``) as a module, for its tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load(relative: str, name: str) -> ModuleType:
    """Returns the script at ``ROOT / relative`` run as module ``name`` (registered in
    ``sys.modules`` first, so its dataclasses can look their module up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
