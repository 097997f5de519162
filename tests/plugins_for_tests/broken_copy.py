"""Broken on purpose: a power that duplicates a card.

"take_card" should take one card of an opponent, unseen, into a new slot of its user. The bug: it appends
the card's id to the user's layout but never takes it out of the opponent's slot, so the card is in two
places at once (``tamalou verify`` reports cards not conserved).
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class TakeCard(tamalou.CardPower):
    """Take one card of an opponent, unseen, into a new slot of yours."""

    name = "take_card"
    exchanges = True

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, None, q, s) for q in g.targets(p, True) for s in g.occupied(q)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        card = g.card_at(a.target, a.target_slot)  # BUG: copied; it should be g.remove(a.target, a.target_slot)
        g.hands[a.player].append(card)
        events.append(Event("took", {"player": a.player, "target": a.target, "target_slot": a.target_slot}))


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [TakeCard]
