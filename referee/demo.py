"""The demo script format played by ``referee demo`` (samples/<game>/demo.yaml)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class DemoStep(BaseModel):
    """One step of a demo script."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    say: str | None = Field(default=None, max_length=2_000, description="Narration printed before the step.")
    do: str | None = Field(default=None, max_length=1_000, description="Action text played with 'referee do'.")
    expect: Literal["legal", "illegal"] = "legal"
    codes: list[str] = Field(default_factory=list, max_length=50,
                             description="Violation codes an illegal step must give.")
    board: bool = Field(default=False, description="Show the board after the step.")


class DemoScript(BaseModel):
    """A demo: a set-up file and the steps played after it."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    game: str = Field(max_length=100)
    title: str = Field(max_length=200)
    setup: str = Field(max_length=1_000, description="Set-up file, relative to the script.")
    steps: list[DemoStep] = Field(max_length=1_000)
