"""The random policy of ``benchmarks/random_playout.py`` is the one its docstring states.

At each step: if a call is offered alongside other actions, the call with probability ``CALL_P`` and
otherwise a uniform pick among the other actions; the call when it is all there is; a uniform pick when no
call is offered. The benchmark draws that distribution in an order that costs less per step (a uniform pick
first, then the call's chance, a pick again when it fell on a call): this plays its ``play`` on a scripted
game whose legal actions are fixed and counts what it chose.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scenario import load_script
from tamalou import Call, Discard, Draw, Pass

pytestmark = pytest.mark.deep  # the benchmark tooling runs in the deep tier (tests/tiers.py)

BENCH: Any = load_script(Path(__file__).resolve().parents[2] / "benchmarks" / "random_playout.py")


class Scripted:
    """A game that lists the same actions for ``steps`` steps, then is over; it records what it is given."""

    def __init__(self, actions: list[Any], steps: int) -> None:
        self.actions = actions
        self.left = steps
        self.phase = "play"
        self.current_player = 0
        self.chosen: Counter[Any] = Counter()

    def legal_actions(self, player: int) -> list[Any]:
        return self.actions

    def apply(self, action: Any) -> None:
        self.chosen[action] += 1
        self.left -= 1
        if not self.left:
            self.phase = "over"


def choices(actions: list[Any], steps: int, monkeypatch: pytest.MonkeyPatch) -> Counter[Any]:
    game = Scripted(actions, steps)
    monkeypatch.setattr(BENCH, "tamalou", SimpleNamespace(new_game=lambda *args, **kwargs: game))
    assert BENCH.play(None, 4, 0, random.Random(7)) == steps
    return game.chosen


STEPS = 200_000


def within(count: int, p: float) -> bool:
    """``count`` of ``STEPS`` draws is within 5 standard deviations of ``STEPS * p``."""
    sd = (STEPS * p * (1 - p)) ** 0.5
    return abs(count - STEPS * p) <= 5 * sd


def test_an_offered_call_is_taken_with_its_probability_and_the_rest_uniformly(monkeypatch: pytest.MonkeyPatch) -> None:
    call, stock, discard, pass_ = Call(0), Draw(0, "stock"), Draw(0, "discard"), Pass(0)
    chosen = choices([stock, call, discard, pass_], STEPS, monkeypatch)
    assert within(chosen[call], BENCH.CALL_P)
    for other in (stock, discard, pass_):
        assert within(chosen[other], (1 - BENCH.CALL_P) / 3)


def test_a_call_that_is_all_there_is_is_always_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    call = Call(0)
    assert choices([call], 1000, monkeypatch) == Counter({call: 1000})


def test_without_a_call_the_pick_is_uniform(monkeypatch: pytest.MonkeyPatch) -> None:
    actions = [Draw(0, "stock"), Draw(0, "discard"), Discard(0), Pass(0)]
    chosen = choices(actions, STEPS, monkeypatch)
    assert all(within(chosen[a], 1 / 4) for a in actions)
