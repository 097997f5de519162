"""Broken on purpose: a power that accepts a slot its listing never offers.

The house rule: 9s and 10s look at one card of an opponent ("peek_opponent", written again). The bug: an
off-by-one. The refusal lets ``target_slot`` go up to the length of the layout (``<=`` for ``<``), and
the resolution clamps it to the last card, so the slot one past the end is accepted — and looks at the
last card — though ``legal_actions`` never lists it. Only the near neighbourhood tries the slot one past
the end of every opponent's layout in a power's phase: three random actions per sampled state do not.
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class PeekOpponentLoose(tamalou.CardPower):
    name = "peek_opponent_loose"

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, target=q, target_slot=s) for q in g.targets(p) for s in g.occupied(q)]

    def refusal(self, g: Round, a: Power) -> str | None:
        q, s = a.target, a.target_slot
        if a.slot is not None or a.owner is not None or q not in g.targets(a.player):
            return "peek_opponent_loose takes an opponent: 'target' and 'target_slot'"
        assert q is not None
        if type(s) is not int or not 0 <= s <= len(g.hands[q]):  # BUG: <= for <
            return f"player {q} has no slot {s}"
        if s < len(g.hands[q]) and not g.slot_ok(q, s):
            return f"slot {s} of player {q} holds no card"
        return None

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        slots = g.occupied(a.target)
        g.look(a.player, a.target, min(a.target_slot, slots[-1]), events)  # the slot past the end: the last card


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [PeekOpponentLoose]
