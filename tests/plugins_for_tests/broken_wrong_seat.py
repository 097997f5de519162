"""Broken on purpose: a power that shows a card to the wrong player.

"spy" should let its user look at one card of an opponent. The bug: it marks the card as known by its
*owner* (``1 << a.target``) instead of the power's user, while the event's secret goes to the user. The
owner's view now shows a card nobody showed them, and the user is told a card their view does not show.
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class Spy(tamalou.CardPower):
    """Look at one card of an opponent."""

    name = "spy"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, None, q, s) for q in g.targets(p) for s in g.occupied(q)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        card = g.card_at(a.target, a.target_slot)
        g.knowers[card] |= 1 << a.target  # BUG: the wrong seat; g.look(a.player, ...) does it right
        data = {"player": a.player, "owner": a.target, "slot": a.target_slot}
        events.append(Event("looked", data, {"card": g.text[card]}, 1 << a.player))


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [Spy]
