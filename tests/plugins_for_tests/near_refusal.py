"""Broken on purpose: a power whose refusal changes the table, for one rare slot.

The house rule: 9s and 10s look at one card of an opponent ("peek_opponent", written again). The bug:
the refusal looks at the card to word its reason, with ``g.hands[q][s]`` — and for ``target_slot = -1``
Python's negative index finds the last card of the layout, which it marks as seen by the player before
refusing. A client that sends slot -1 learns a card it was never shown. Only the near neighbourhood tries
slot -1 of every opponent in a power's phase: three random actions per sampled state do not.
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class PeekOpponentTold(tamalou.CardPower):
    name = "peek_opponent_told"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, target=q, target_slot=s) for q in g.targets(p) for s in g.occupied(q)]

    def refusal(self, g: Round, a: Power) -> str | None:
        q, s = a.target, a.target_slot
        if g.player_ok(q) and q != a.player and type(s) is int and s == -1 and g.occupied(q):
            card = g.hands[q][s]  # BUG: -1 is the last card, and looking at it marks it seen
            g.knowers[card] |= 1 << a.player
            return f"slot {s} of player {q} is no slot (the card there is {g.text[card]})"
        return super().refusal(g, a)

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        g.look(a.player, a.target, a.target_slot, events)


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [PeekOpponentTold]
