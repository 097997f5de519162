"""A two-step power no built-in bot knows, for the bot tests: "look_then_move" looks at one of your own
cards, then swaps it with another card of yours (``swap`` naming the other slot), or not (``pass``)."""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round, Swap


class LookThenMove(tamalou.CardPower):
    """Look at one of your own cards, then move it to another of your slots, or not."""

    name = "look_then_move"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, s) for s in g.occupied(p)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)
        return [a.slot]

    def next_uses(self, g: Round, p: int, memo: Any) -> list[Action]:
        if not g.slot_ok(p, memo[0]):
            return []
        return [Swap(p, s) for s in g.occupied(p) if s != memo[0]]

    def resolve_next(self, g: Round, a: Action, memo: Any, events: list[Event]) -> Any:
        assert isinstance(a, Swap)
        g.swap(a.player, (a.player, memo[0]), (a.player, a.slot), events)


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [LookThenMove]
