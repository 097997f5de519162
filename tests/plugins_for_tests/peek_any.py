"""A new power, "peek_any": look at any one card on the table, one's own included."""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class PeekAny(tamalou.CardPower):
    name = "peek_any"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, target=q, target_slot=s) for q in [p, *g.targets(p)] for s in g.occupied(q)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        g.look(a.player, a.target, a.target_slot, events)


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [PeekAny]
