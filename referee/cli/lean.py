"""What typer loads at start-up that help, ``--version`` and completion do not need (issue 33).

**Validators on first value.** Typer (0.2x) converts each command-line value with a pydantic
``TypeAdapter`` it builds the first time it processes the parameter, even one not given (the
root's ``--lang`` on ``referee judge --help``, each option of a command a shell completes).
Building one imports pydantic's model machinery (about a third of the CPU time of the baseline
``import typer, rich, pydantic`` on the shared 2-core machine). None of these needs it: typer
returns ``None`` or ``()`` for a parameter without a value before using its validator, its
validator of a plain ``str`` returns the text as typed, and completion (click's resilient
parsing) runs no command and we declare no completion callback to read a value. So
:func:`defer_coercion` puts a stand-in in each validator's place that builds typer's own on the
first other value and hands over to it: a command that runs behaves exactly as before.

**Completion help as written.** For zsh, fish and PowerShell, typer passes each completion's help
through rich to strip markup tags, loading ``rich.console``. Our help is never markup (the app's
``rich_markup_mode`` is None: a ``[`` in it is a bracket), so :func:`plain_completion_help` has
typer show it as written.

**No search for pydantic plugins.** The first pydantic validator a process builds imports
pydantic's plugin loader, which imports ``importlib.metadata`` (and through it ``email``,
``zipfile``, ``socket``...) and reads the entry points of every installed distribution: about
15 ms of CPU on the shared 2-core machine, for plugins (monitoring hooks such as logfire) that a
referee's models never use. :func:`no_pydantic_plugins` registers a loader that finds none in
its place before anything is validated (docs/decisions/lean-start.md).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import typer._completion_classes
from typer._click import Context, Parameter
from typer._coercion import RuntimeParam, build_runtime_param
from typer.core import _TyperParameter


@dataclass(frozen=True)
class _Deferred(RuntimeParam):
    """Stands in for a parameter's validator until the parameter has a value."""

    def _coerce_value(self, value: Any, param: _TyperParameter, ctx: Context) -> Any:
        if isinstance(value, str) and self.annotation is str and self.parameter_info.parser is None:
            return value  # what typer's validator of a plain str returns for a str (``--lang fr``)
        if ctx.resilient_parsing:
            return value  # completing words: nothing runs, and no value reaches a callback of ours
        real = build_runtime_param(param.type_descriptor)
        param._runtime_param = real  # later values go straight to typer's own validator
        return real.coerce(value, param=param, ctx=ctx)


def defer_coercion(params: Iterable[Parameter]) -> None:
    """Makes each typer parameter among these build its validator on its first value."""
    for param in params:
        if isinstance(param, _TyperParameter) and param._runtime_param is None:
            descriptor = param.type_descriptor
            param._runtime_param = _Deferred(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)


def _as_written(text: str) -> str:
    return text


def plain_completion_help() -> None:
    """Makes typer's shell completion show each help text as written, without rich."""
    typer._completion_classes._sanitize_help_text = _as_written


PLUGIN_LOADER = "pydantic.plugin._loader"
"""The module pydantic asks for its plugins (``from ._loader import get_plugins``, its only use)."""


def _no_plugins() -> tuple[()]:
    return ()


def no_pydantic_plugins() -> None:
    """Makes pydantic find no plugins without reading the installed distributions' entry points.

    Does nothing once pydantic's own loader is loaded (a validator was built before).
    """
    if PLUGIN_LOADER not in sys.modules:
        loader = ModuleType(PLUGIN_LOADER, "Stands in for pydantic's plugin loader: referee uses no pydantic plugins.")
        loader.get_plugins = _no_plugins  # type: ignore[attr-defined]
        sys.modules[PLUGIN_LOADER] = loader
