"""The README's "Use it in your own game" loop, run verbatim on every built-in ruleset and on
compositions: ``legal_actions(current_player)`` is never empty while the round is not over, so
``actions[0]`` always exists, and the loop reaches the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tamalou

README = Path(__file__).resolve().parents[2] / "README.md"
COMPOSITIONS = [
    ["cartalogue", "jokers"],
    ["cartalogue-rapide", "opponent-matching"],
    ["tamalou-fun", "opponent-matching"],
    ["tamalou-fun", "jokers", "gabo"],
    ["french", "opponent-matching", "multi-round"],
    ["cambia", "multi-round"],
    ["dutch", "jokers"],
    ["kaboo", "gabo"],
]


def readme_loop() -> str:
    """The first python block of the README's "Use it in your own game" section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use it in your own game", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None, "the README has no python block under 'Use it in your own game'"
    return block.group(1)


def run_readme_loop(spec: str | list[str]) -> dict[str, object]:
    code = readme_loop()
    assert 'tamalou.load_variant("french")' in code
    code = code.replace('tamalou.load_variant("french")', f"tamalou.load_variant({spec!r})")
    sent: list[tuple[int, dict[str, object]]] = []
    namespace: dict[str, object] = {"send": lambda p, msg: sent.append((p, msg))}
    exec(compile(code, str(README), "exec"), namespace)
    namespace["sent"] = sent
    return namespace


@pytest.mark.parametrize("spec", [*tamalou.variant_names(), *COMPOSITIONS], ids=str)
def test_the_readme_loop_runs_to_the_end(spec: str | list[str]) -> None:
    ns = run_readme_loop(spec)
    game = ns["game"]
    assert isinstance(game, tamalou.Game) and game.is_over
    result = ns["result"]
    assert isinstance(result, tamalou.Result) and result == game.result()
    assert tamalou.Game.from_json(str(ns["snapshot"])).to_json() == game.to_json()
    sent = ns["sent"]
    assert isinstance(sent, list) and sent[-1][1]["type"] == "round_over"


@pytest.mark.parametrize("spec", [*tamalou.variant_names(), *COMPOSITIONS], ids=str)
def test_the_current_player_always_has_an_action_and_to_act_says_who(spec: str | list[str]) -> None:
    for seed in range(3):
        game = tamalou.new_game(spec, players=3, seed=seed)
        steps = 0
        while not game.is_over:
            seat = game.current_player
            assert seat in game.to_act, f"{game.phase}: {seat} not in {game.to_act}"
            for p in game.to_act:
                assert game.legal_actions(p), f"phase {game.phase}: seat {p} is waited for but has no action"
            actions = game.legal_actions(seat)
            game.apply(actions[(steps * 7 + seed) % len(actions)])
            steps += 1
        assert game.to_act == []


def test_the_deal_and_opening_events_are_in_events_so_far() -> None:
    game = tamalou.new_game("cartalogue", players=3, seed=4)
    first = game.events_so_far(1)
    assert [e.type for e in first][:1] == ["dealt"]
    assert game.phase == "peek" and game.to_act == [0, 1, 2]
    events = game.apply(game.legal_actions(game.current_player)[0])
    assert game.events_so_far(1)[-len(events) :] == [e.for_player(1) for e in events]
    fixed = tamalou.new_game("french", players=2, seed=4)
    kinds = [e.type for e in fixed.events_so_far(0)]
    assert kinds == ["dealt", "peeked", "peeked", "turn"]
    mine = [e for e in fixed.events_so_far(0) if e.type == "peeked"]
    assert mine[0]["cards"] is not None and mine[1]["cards"] is None  # seat 0 sees only its own peek
    restored = tamalou.Game.from_json(fixed.to_json())
    assert restored.events_so_far(0) == fixed.events_so_far(0)
