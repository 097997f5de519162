"""Lints at load (``tamalou.verify.lints``): a card or threshold hook of a plugin that answers ``None`` to
every card of the deck (a forgotten ``return``: the rule silently never applies) is linted; one that
answers for some cards only (a rule about them) is not; no built-in
ruleset has a lint; ``check_lints(strict=True)`` makes a lint an error.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

import tamalou
from tamalou import InvariantViolation
from tamalou.verify.lints import Lint, check_lints, lint_variant

BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"


@pytest.mark.parametrize("variant", tamalou.variant_names())
def test_builtin_rulesets_have_no_lint(variant: str) -> None:
    assert lint_variant(variant) == []
    assert check_lints(variant, strict=True) == []


def test_a_value_hook_without_return_is_linted() -> None:
    lints = lint_variant(str(BROKEN / "none_value.toml"))
    assert lints == [
        Lint(
            "warning",
            "tamalou_card_value",
            "plugins_for_tests.none_value",
            "tamalou_card_value answers None for each of the 52 cards of the deck: the card's value it sets never "
            "applies (the next plugin answers every time). A forgotten 'return'?",
        )
    ]
    assert str(lints[0]).startswith("warning: tamalou_card_value of plugins_for_tests.none_value: ")


def test_a_threshold_hook_without_return_is_linted() -> None:
    [lint] = lint_variant(str(BROKEN / "none_threshold.toml"))
    assert (lint.hook, lint.plugin) == ("tamalou_call_threshold", "plugins_for_tests.none_threshold")
    assert "answers None for the ruleset" in lint.message


def test_a_value_hook_for_some_cards_only_is_not_linted() -> None:
    v = tamalou.load_variant(str(BROKEN / "none_red_kings.toml"))
    assert tamalou.card_value(v, "KH") == -1  # the rule applies
    assert lint_variant(v) == []


def plugin(monkeypatch: pytest.MonkeyPatch, name: str, **hooks: Any) -> tamalou.Variant:
    """French with a plugin module ``name`` made of ``hooks`` (functions named after hooks)."""
    module = types.ModuleType(name)
    for hook, function in hooks.items():
        function.__name__ = hook
        setattr(module, hook, tamalou.hookimpl(function))
    monkeypatch.setitem(sys.modules, name, module)
    return tamalou.variant_from_toml(f'extends = "french"\nname = "{name}"\nplugins = ["{name}"]\n')


def test_a_power_hook_answering_none_is_linted(monkeypatch: pytest.MonkeyPatch) -> None:
    def tamalou_card_power(variant: tamalou.Variant, card: tamalou.Card) -> str | None:
        "peek_own" if card.rank == "5" else None  # noqa: B018 - the bug: no 'return'
        return None

    [lint] = lint_variant(plugin(monkeypatch, "lint_power_plugin", tamalou_card_power=tamalou_card_power))
    assert lint.hook == "tamalou_card_power" and lint.plugin == "lint_power_plugin"


def test_strict_makes_a_lint_an_error() -> None:
    path = str(BROKEN / "none_value.toml")
    assert len(check_lints(path)) == 1
    with pytest.raises(InvariantViolation) as caught:
        check_lints(path, strict=True)
    assert caught.value.invariant == "lints"
    assert "plugins_for_tests.none_value" in str(caught.value)
