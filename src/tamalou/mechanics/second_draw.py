"""A second draw in a turn (``rules.draw.per_turn = 2``; cartalogue-rapide, Cartalogue's "Variations"): once
the first drawn card is resolved, the player may draw and resolve one more, or ``pass``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._compiling import mypyc_attr
from ..actions import Action, Pass
from ..engine.seats import SEATS
from ..engine.state import DRAW
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Mechanic, PhaseSpec

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant


@mypyc_attr(allow_interpreted_subclasses=True)
class SecondDraw(Mechanic):
    name = "second_draw"
    order = 30

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.per_turn = variant.rules.draw.per_turn

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return variant.rules.draw.per_turn > 1

    def phases(self) -> dict[str, PhaseSpec]:
        return {DRAW: PhaseSpec(self.list_pass, {Pass: self.do_pass})}

    def list_pass(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p == g.current_player and g.draws > 0:
            out.append(SEATS[p].pass_)

    def do_pass(self, g: RoundTable, a: Pass) -> list[Event]:
        p = g.turn_check(a)
        if g.draws == 0:
            raise IllegalAction("a turn starts with a draw", a)
        events = [Event("passed", {"player": p, "phase": "draw"})]
        g.turn_over(events)
        return events

    def play_resolved(self, g: RoundTable, events: list[Event]) -> bool:
        if (
            g.draws < self.per_turn
            and not g.stock_only
            and (g.can_draw_stock() or g.can_draw_discard(g.current_player))
        ):
            g.phase = DRAW
            events.append(Event("draw_offered", {"player": g.current_player}))
            return True
        return False
