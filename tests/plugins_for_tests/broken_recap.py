"""Broken on purpose: an event that keeps changing after it was sent.

At the end of each turn a "recap" event lists the throws of the round so far (who threw, in which turn). The bug:
the event carries the mechanic's own list (the one it appends to at every throw) instead of a copy, so every recap
already sent grows with the round; a client that keeps the events, or a log replayed later, reads another list than
the one sent (``tamalou verify`` reports ``events_kept``).
"""

from __future__ import annotations

import tamalou
from tamalou import Event, Round


class Throws:
    __slots__ = ("throws",)

    def __init__(self) -> None:
        self.throws: list[list[int]] = []  # [player, turn] per throw


class Recap(tamalou.Mechanic):
    name = "recap"

    def new_state(self, g: Round) -> Throws:
        return Throws()

    def thrown(self, g: Round, card: int, how: str, events: list[Event]) -> bool:
        g.state_of(self.name).throws.append([g.current_player, g.turn])
        return False

    def turn_ending(self, g: Round, events: list[Event]) -> bool:
        events.append(Event("recap", {"throws": g.state_of(self.name).throws}))  # BUG: the mechanic's own list
        return False


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Recap]
