"""Broken on purpose: a power whose event names the card it looked at by its id.

"mark" lets its user look at one card of an opponent (``g.look``, right) and adds an event so that a client can
highlight the card: the bug is that it names the card by its id. Ids follow the deck's order, the same in every
game, so the id tells every seat which card it is (``tamalou verify`` reports ``opaque_ids``: the events a seat
receives change when two cards it does not know exchange their ids). The slot is what names a place.
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class Mark(tamalou.CardPower):
    """Look at one card of an opponent; everybody sees which one was looked at."""

    name = "mark"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, None, q, s) for q in g.targets(p) for s in g.occupied(q)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        card = g.look(a.player, a.target, a.target_slot, events)
        events.append(Event("marked", {"player": a.player, "card_id": card}))  # BUG: an id; name the slot instead


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [Mark]
