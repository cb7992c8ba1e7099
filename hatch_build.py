"""Build hook: compiles the message catalogs for the wheel and for an editable install.

Each language's PO files (``referee/locale/<lang>/LC_MESSAGES/<area>.po``) become one
``referee.mo`` beside them (:func:`referee.i18n.write_catalogs`, loaded from its file so that the
build needs Babel but none of the referee's other dependencies). The MO files are build
products: ignored by git, shipped in the wheel as artifacts, and present in the source tree an
editable install runs from.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogsHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        spec = importlib.util.spec_from_file_location("_referee_i18n", root / "referee" / "i18n.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        written = module.write_catalogs(root / "referee" / "locale")
        build_data["artifacts"].extend(f"/{path.relative_to(root).as_posix()}" for path in written)
        self.app.display_info(f"compiled {len(written)} message catalogs")
