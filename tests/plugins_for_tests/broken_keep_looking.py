"""Broken on purpose: a power that goes on for as long as its user wants.

"keep_looking" lets its user look at their own cards one after the other, as long as some are unknown to
them: a second step after each look, until they pass. The bug: it offers another look even when the user knows
every card, so a player who always looks again never ends the turn (random players pass sooner or later;
``tamalou verify``'s players who always use their power do not, and it reports ``termination``: the turn comes
back to the same state). ``resolve_next`` should return ``None`` once every card is known.
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round, Swap


class KeepLooking(tamalou.CardPower):
    """Look at your own cards one after the other (pass to stop)."""

    name = "keep_looking"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, s) for s in g.occupied(p)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)
        return "looking"

    def next_uses(self, g: Round, p: int, memo: Any) -> list[Action]:
        return [Swap(p, s) for s in g.occupied(p)]

    def resolve_next(self, g: Round, a: Action, memo: Any, events: list[Event]) -> Any:
        assert isinstance(a, Swap)
        g.look(a.player, a.player, a.slot, events)
        return "looking"  # BUG: one more look even when every card is known


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [KeepLooking]
