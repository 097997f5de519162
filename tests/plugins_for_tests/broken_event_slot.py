"""Broken on purpose: a power whose event names a slot its owner does not have.

"draw_blind" gives its user the stock's top card, unseen, into a new slot of their layout. The bug is off by
one: the event says the card went into slot ``len(layout)`` (counted after the card was added), a slot past the
end; a client that draws the table from the events puts the card nowhere (``tamalou verify`` reports
``event_schema``).
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class DrawBlind(tamalou.CardPower):
    """Take the stock's top card, unseen, into a new slot of your layout."""

    name = "draw_blind"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p)] if g.stock else []

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        card = g.stock.pop()
        g.knowers[card] = 0
        g.hands[a.player].append(card)
        events.append(Event("given", {"by": a.player, "player": a.player, "slot": len(g.hands[a.player])}))  # BUG


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [DrawBlind]
