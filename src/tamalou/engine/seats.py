"""The plain action objects of each seat, made once per process and handed out again by every game
(actions are immutable values): listing actions allocates nothing per step.

The lists only grow, one lock serialising the growth, so games on several threads share them safely
(readers see only items already in place: an item is appended whole, at its own index).
"""

from __future__ import annotations

import threading

from ..actions import Call, Discard, Draw, Pass, Replace

#: Serialises the growth of the process-wide action lists (seats, their replace and match lists).
GROWTH = threading.Lock()


class SeatActions:
    """The plain action objects of one seat, made once per process and handed out again by every
    game (actions are immutable values)."""

    __slots__ = ("call", "discard", "draw_discard", "draw_stock", "pass_", "replace")

    def __init__(self, p: int) -> None:
        self.draw_stock = Draw(p, "stock")
        self.draw_discard = Draw(p, "discard")
        self.discard = Discard(p)
        self.pass_ = Pass(p)
        self.call = Call(p)
        self.replace: list[Replace] = []

    def replaces(self, slots: int) -> list[Replace]:
        """The replace actions of slots ``0..slots-1`` (and maybe more)."""
        replace = self.replace
        if len(replace) < slots:
            with GROWTH:
                while len(replace) < slots:
                    replace.append(Replace(self.pass_.player, len(replace)))
        return replace


#: Per seat, its plain action objects; a game makes sure its seats are here (``seat_actions``).
SEATS: list[SeatActions] = []


def seat_actions(p: int) -> SeatActions:
    """Seat ``p``'s actions (the seats before it made too)."""
    if len(SEATS) <= p:
        with GROWTH:
            while len(SEATS) <= p:
                SEATS.append(SeatActions(len(SEATS)))
    return SEATS[p]


seat_actions(11)  # every seat a variant may have (12 players at most)
