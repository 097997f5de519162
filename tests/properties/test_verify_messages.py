"""What ``tamalou verify`` says names the cause: state kept outside the round is not called a leak, and a failing
tie-break is blamed on the plugin that gave it, not on the ranking hook that sorted by it."""

from __future__ import annotations

from pathlib import Path

import pytest

import tamalou
from tamalou.verify import InvariantViolation, check_event_leaks, check_no_leak

COUNTER = '''
"""Shows every seat how often views were built: a class-level counter, state kept outside the round."""
from pydantic import BaseModel

import tamalou


class Shown(BaseModel):
    views: int


class ViewCounter(tamalou.Mechanic):
    name = "view_counter"
    view_model = Shown
    built = 0  # BUG: on the class, shared by every game, never saved

    def view_extra(self, g, p):
        ViewCounter.built += 1
        return {"views": ViewCounter.built}


@tamalou.hookimpl
def tamalou_mechanics():
    return [ViewCounter]
'''

LUCKY = '''
"""A coin flip among tied players, drawn from module random: state kept outside the round."""
import random

import tamalou


class Lucky(tamalou.Mechanic):
    name = "lucky"

    def turn_began(self, g, p, events):
        events.append(tamalou.Event("coin", {"player": p, "heads": random.random() < 0.5}))  # BUG


@tamalou.hookimpl
def tamalou_mechanics():
    return [Lucky]
'''

NONE_KEY = '''
"""A tie-break whose key answers None for seat 0 (a forgotten case)."""
import tamalou

LUCKY_SEAT = tamalou.TieBreak("lucky_seat", "the luckier seat", lambda tally, p: None if p == 0 else p)


@tamalou.hookimpl
def tamalou_tiebreaks(variant):
    return [LUCKY_SEAT]
'''


def house(folder: Path, module: str, source: str) -> tamalou.Variant:
    (folder / f"{module}.py").write_text(source, encoding="utf-8")
    (folder / f"{module}.toml").write_text(f'extends = "french"\nplugins = ["{module}"]\n', encoding="utf-8")
    return tamalou.load_variant(folder / f"{module}.toml")


def test_a_class_level_counter_in_a_view_is_state_kept_outside_the_round_not_a_leak(tmp_path: Path) -> None:
    variant = house(tmp_path, "view_counter", COUNTER)
    game = tamalou.new_game(variant, players=2, seed=1)
    with pytest.raises(InvariantViolation, match=r"state kept outside the round .* view differs when asked") as e:
        check_no_leak(game, 0)
    assert "leak:" not in str(e.value) and e.value.invariant == "no_leak"


def test_module_random_in_an_event_is_state_kept_outside_the_round_not_a_leak(tmp_path: Path) -> None:
    variant = house(tmp_path, "lucky_coin", LUCKY)
    game = tamalou.new_game(variant, players=2, seed=3)
    p = game.current_player
    game.apply(tamalou.Draw(p))
    game.apply(tamalou.Replace(p, 0))  # the call or the pass next: the next turn begins, a coin is flipped
    with pytest.raises(InvariantViolation, match=r"state kept outside the round .* receives of .* differs when asked"):
        for _ in range(20):  # (a coin: the same twice in a row now and then)
            check_event_leaks(game, actions=4, pairs=4)


def test_a_tie_break_answering_none_is_blamed_on_its_plugin(tmp_path: Path) -> None:
    variant = house(tmp_path, "none_key_tiebreak", NONE_KEY)
    game = tamalou.new_game(variant, players=2, seed=1)
    with pytest.raises(tamalou.PluginError, match=r"plugin 'none_key_tiebreak'.*tie-break 'lucky_seat' answered None"):
        tamalou.round_of(game).standing()
