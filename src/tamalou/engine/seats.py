"""The plain action objects of each seat, made once per process and handed out again by every game
(actions are immutable values): listing actions allocates nothing per step."""

from __future__ import annotations

from ..actions import Call, Discard, Draw, Pass, Replace


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

    def replace_at(self, s: int) -> Replace:
        replace = self.replace
        while len(replace) <= s:
            replace.append(Replace(self.pass_.player, len(replace)))
        return replace[s]


#: Per seat, its plain action objects; a game makes sure its seats are here (``seat_actions``).
SEATS: list[SeatActions] = []


def seat_actions(p: int) -> SeatActions:
    while len(SEATS) <= p:
        SEATS.append(SeatActions(len(SEATS)))
    return SEATS[p]
