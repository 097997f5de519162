"""Broken on purpose: a power whose event tells everybody the card its user looked at.

"glimpse" should let its user look at one card of an opponent, as the built-in look does. The bug: the event
carries the card in its public facts, which every seat receives, where it belongs in the secret part shown to
the user alone (``tamalou verify`` reports ``event_leak``: the events a seat receives change when two cards it
does not know exchange faces). The knowledge marks are right, so only the events show it.
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class Glimpse(tamalou.CardPower):
    """Look at one card of an opponent."""

    name = "glimpse"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, None, q, s) for q in g.targets(p) for s in g.occupied(q)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        card = g.card_at(a.target, a.target_slot)
        g.knowers[card] |= 1 << a.player
        data = {"player": a.player, "owner": a.target, "slot": a.target_slot, "card": g.text[card]}
        events.append(Event("looked", data))  # BUG: the card in the public facts; it belongs in the secret part


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [Glimpse]
