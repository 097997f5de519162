"""A new turn move, "exchange" (Cabo's exchange of claimed-equal cards).

In phase "hold" the player to move may exchange the held card for two of their own cards they claim
are equal. The claimed cards are turned face up for all. If they are of one rank, both go to the
discard and the held card takes the first slot; if not, they stay (face up), the held card goes to a
new slot and the player takes a penalty card.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import ClassVar

from pydantic import ConfigDict

import tamalou
from tamalou import Action, Event, IllegalAction, Round


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Exchange the held card for own ``slots``, claimed equal."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "exchange"
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid", strict=False)


class ExchangeMechanic(tamalou.Mechanic):
    name = "exchange"
    actions = (Exchange,)

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        return {tamalou.Phase.HOLD: tamalou.PhaseSpec(self.list_exchanges, {Exchange: self.do_exchange})}

    def list_exchanges(self, g: Round, p: int, out: list[Action]) -> None:
        # Ordered pairs: the held card takes the first slot named.
        if p == g.current_player:
            out.extend(Exchange(p, pair) for pair in permutations(g.occupied(p), 2))

    def do_exchange(self, g: Round, a: Exchange) -> list[Event]:
        p = g.turn_check(a)
        slots = a.slots
        if len(slots) != 2 or slots[0] == slots[1] or not all(g.slot_ok(p, s) for s in slots):
            raise IllegalAction("an exchange names two different occupied slots of yours", a)
        cards = [g.card_at(p, s) for s in slots]
        for c in cards:
            g.show(c)
        right = g.rank[cards[0]] == g.rank[cards[1]]
        events = [
            Event("exchanged", {"player": p, "slots": list(slots), "cards": [g.text[c] for c in cards], "right": right})
        ]
        if right:
            for s in slots:
                g.throw_from(p, s)
            g.place_held(slots[0])
            g.thrown(cards[-1], "replaced", events)
        else:
            g.place_held()  # into a new slot
            g.penalty(p, 1, events)
            g.end_play(events)
        return events


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [ExchangeMechanic]
