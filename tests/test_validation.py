"""Validation problems in our own words and the asked language, from pydantic's error codes."""

from __future__ import annotations

import doctest
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

import referee.validation
from referee.i18n import _, language
from referee.validation import describe, field


class City(BaseModel):
    model_config = ConfigDict(extra="forbid")
    owner: Literal["chevaliers", "dragons"]
    counters: list[str] = Field(default_factory=list, max_length=4)
    strength: int = Field(default=1, ge=1)

    @field_validator("counters")
    @classmethod
    def _no_blank(cls, value: list[str]) -> list[str]:
        if any(not v.strip() for v in value):
            raise ValueError(_("a label is empty"))
        return value


class Position(BaseModel):
    model_config = ConfigDict(extra="forbid")
    month: int
    cities: dict[str, City] = Field(default_factory=dict)


def said(data: object, lang: str = "en") -> str:
    with pytest.raises(ValidationError) as info:
        Position.model_validate(data)
    with language(lang):
        return describe(info.value)


def test_each_kind_of_problem_in_our_words() -> None:
    assert said({"month": "two"}) == "month: should be a whole number, not 'two'"
    assert said({}) == "month: is missing"
    assert said({"month": 1, "turn": 2}) == "turn: is not a field this file may hold"
    assert said({"month": 1, "cities": {"0807": {"owner": "moines"}}}) == (
        "cities.0807.owner: should be one of 'chevaliers' or 'dragons', not 'moines'")
    assert said({"month": 1, "cities": {"0807": {"owner": "dragons", "strength": 0}}}) == (
        "cities.0807.strength: should be at least 1, not 0")
    assert said({"month": 1, "cities": {"0807": {"owner": "dragons", "counters": list("abcde")}}}) == (
        "cities.0807.counters: should hold at most 4 items")
    assert said({"month": 1, "cities": {"0807": {"owner": "dragons", "counters": [" "]}}}) == (
        "cities.0807.counters: a label is empty")
    assert said({"month": "x", "turn": 1}) == "month: should be a whole number, not 'x' (and 1 more problem)"


def test_problems_follow_the_language() -> None:
    assert said({"month": "two"}, "fr") == "month : doit être un nombre entier, pas 'two'"
    assert said({"month": "two"}, "it") == "month: deve essere un numero intero, non 'two'"
    assert said({"month": 1, "cities": {"0807": {"owner": "moines"}}}, "fr") == (
        "cities.0807.owner : doit valoir 'chevaliers' ou 'dragons', pas 'moines'")
    assert said({"month": "x", "turn": 1}, "it").endswith("(e 1 altro problema)")


def test_field_leaves_out_pydantic_steps() -> None:
    assert field(("supports", "function-after[_check(), list[str]]", "Messène")) == "supports.Messène"
    assert field(()) == ""


def test_module_examples() -> None:
    assert doctest.testmod(referee.validation).failed == 0
