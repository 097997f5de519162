"""The stock running out ends the round (``rules.draw.stock_empty = "end_round"``; Cabo).

Without it the discard is reshuffled into a new stock. With it, the round ends at the end of the turn
that left the stock empty, although the discard's top could still be taken (``Result.reason`` is
``"stock_out"``); it is asked before an end-of-turn call, so no call is offered on a finished round.
A stock emptied out of turn (a penalty card) ends the round when the turn in play ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._compiling import mypyc_attr
from ..events import Event
from ..mechanic import Mechanic

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant

#: ``Result.reason`` of a round the empty stock ended.
STOCK_OUT = "stock_out"


@mypyc_attr(allow_interpreted_subclasses=True)
class StockOut(Mechanic):
    name = "stock_out"
    order = 35  # before an end-of-turn call (40) is offered: the round is over first

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return variant.rules.draw.stock_empty == "end_round"

    def turn_ending(self, g: RoundTable, events: list[Event]) -> bool:
        if g.stock:
            return False
        g.finish(STOCK_OUT, events)
        return True
