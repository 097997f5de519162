"""``tamalou show --toml`` (``tamalou.rulesets.effective.variant_to_toml``): a stand-alone file that loads back to the
same ruleset and plays the same games, for every built-in ruleset and every composition the tests play."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tamalou
from tamalou.cli import app
from tamalou.rulesets.effective import STANDALONE_LEFT_OUT, effective_rules, variant_to_toml

TESTS = Path(__file__).resolve().parents[1]


def _compositions(module: str) -> list[tuple[str, ...]]:
    """The ``COMPOSITIONS`` list of a test module, read without importing it."""
    tree = ast.parse((TESTS / module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPOSITIONS" for t in node.targets):
            return [tuple(c) for c in ast.literal_eval(node.value)]
    raise AssertionError(f"no COMPOSITIONS in {module}")


COMPOSITIONS = list(
    dict.fromkeys(
        [*_compositions("properties/test_properties.py"), *_compositions("api/test_readme_loop.py"), ("french", "gabo")]
    )
)
SPECS: list[str | tuple[str, ...]] = [*tamalou.variant_names(), *COMPOSITIONS]


def _load(spec: str | tuple[str, ...]) -> tamalou.Variant:
    return tamalou.load_variant(spec if isinstance(spec, str) else list(spec))


def _ident(spec: str | tuple[str, ...]) -> str:
    return spec if isinstance(spec, str) else "+".join(spec)


def _export(spec: str | tuple[str, ...], folder: Path) -> tamalou.Variant:
    path = folder / f"{_ident(spec)}.toml"
    path.write_text(variant_to_toml(_load(spec)), encoding="utf-8")
    return tamalou.load_variant(str(path))


def _dump(v: tamalou.Variant) -> dict[str, Any]:
    data = v.model_dump()
    for key in STANDALONE_LEFT_OUT:
        data.pop(key)
    return data


def test_the_compositions_are_found() -> None:
    assert ("french", "gabo", "jokers", "multi-round") in COMPOSITIONS
    assert ("kaboo", "gabo") in COMPOSITIONS


@pytest.mark.parametrize("spec", SPECS, ids=_ident)
def test_the_stand_alone_file_loads_back_to_an_equal_variant(spec: str | tuple[str, ...], tmp_path: Path) -> None:
    original = _load(spec)
    text = variant_to_toml(original)
    data = tomllib.loads(text)
    assert "extends" not in data and "base" not in data  # nothing to merge in again
    again = _export(spec, tmp_path)
    assert _dump(again) == _dump(original)
    assert again.base is None and again.aliases == ()
    assert effective_rules(again) == effective_rules(original)


def _play(variant: tamalou.Variant, players: int, seed: int) -> list[dict[str, Any]]:
    """A whole round, each step a legal action picked by the step number, as its events."""
    game = tamalou.new_game(variant, players=players, seed=seed)
    steps = 0
    while not game.is_over:
        actions = game.legal_actions(game.current_player)
        game.apply(actions[(steps * 7 + seed) % len(actions)])
        steps += 1
    return [e.to_dict() for e in game.events_so_far()]


@pytest.mark.parametrize("spec", SPECS, ids=_ident)
def test_the_stand_alone_file_plays_the_same_game(spec: str | tuple[str, ...], tmp_path: Path) -> None:
    original = _load(spec)
    again = _export(spec, tmp_path)
    players = max(original.rules.players.min, min(3, original.rules.players.max))
    for seed in (1, 2):
        events = _play(original, players, seed)
        assert events[-1]["type"] == "round_over"
        assert _play(again, players, seed) == events


def test_show_toml_writes_the_stand_alone_file(tmp_path: Path) -> None:
    """The composition's file holds French's rules once: gabo's threshold, French's plugin once."""
    result = CliRunner().invoke(app, ["show", "french+gabo", "--toml"])
    assert result.exit_code == 0, result.output
    assert result.output == variant_to_toml(["french", "gabo"])
    path = tmp_path / "house.toml"
    path.write_text(result.output, encoding="utf-8")
    again = tamalou.load_variant(str(path))
    assert again.rules.call.threshold == 7
    assert again.plugins == ("tamalou.plugins.french",)
    assert again.name == "french+gabo"


def test_a_modifiers_base_is_not_merged_in_again(tmp_path: Path) -> None:
    """cartalogue+jokers: the jokers modifier says base = "french"; the file of the composition must not bring
    French's rules back over cartalogue's."""
    original = _load(("cartalogue", "jokers"))
    assert original.base == "french"
    again = _export(("cartalogue", "jokers"), tmp_path)
    assert again.rules == original.rules
    assert again.plugins == original.plugins
