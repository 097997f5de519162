"""The draws of the power ``draw_up_to`` (Rat-a-Tat Cat's "Draw 2"): a turn that used it draws from the stock again,
up to the power's ``draws`` (``[options.draw_up_to]``, 2 by default); each card drawn is kept (it replaces one of
the player's cards: the draws stop) or thrown (the next is drawn, while one is left). Played when a card of the
ruleset has that power (``rules.powers.ranks`` / ``cards``).

The power (``tamalou.plugins.draw_powers.DrawUpTo``) starts the draws; this mechanic counts them. It hears every
card thrown before the other mechanics (``order`` 5: a matching window or a power of the card thrown comes after),
and when the play of the card is resolved (``play_resolved``) it gives the player their next draw. The draws left
are public (``PlayerView.extra["extra_draws"]``): everybody saw the power used and each card kept or thrown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from .._compiling import mypyc_attr
from ..events import Event
from ..mechanic import Mechanic

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant
    from ..views import SeatInfo

#: The power whose draws this mechanic counts.
DRAW_UP_TO = "draw_up_to"
#: The most draws a ``draw_up_to`` may give (``[options.draw_up_to] draws``).
MOST_DRAWS = 10


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class ExtraDrawsState:
    """``left``: the draws still to come after the card in play (-1: no ``draw_up_to`` in this turn); ``again``:
    the card in play was thrown, so the next draw is due once its play is resolved."""

    __slots__ = ("again", "left")

    def __init__(self) -> None:
        self.left = -1
        self.again = False


class ExtraDrawsView(BaseModel):
    """What every seat is shown: how many more cards the player to move may still draw by ``draw_up_to``."""

    draws_left: int = Field(ge=0, le=MOST_DRAWS)


@mypyc_attr(allow_interpreted_subclasses=True)
class ExtraDraws(Mechanic):
    name = "extra_draws"
    order = 5  # hears a card thrown before the matching window (10) and the powers (20) take the turn
    view_model = ExtraDrawsView

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        p = variant.rules.powers
        return DRAW_UP_TO in p.ranks.values() or DRAW_UP_TO in p.cards.values()

    def new_state(self, g: RoundTable) -> ExtraDrawsState:
        return ExtraDrawsState()

    def check_state(self, g: RoundTable, st: Any) -> str | None:
        if type(st.left) is not int or not -1 <= st.left <= MOST_DRAWS or type(st.again) is not bool:
            return "the draws left are out of range"
        if st.again and st.left < 1:
            return "a draw is due with none left"
        return None

    def thrown(self, g: RoundTable, card: int, how: str, events: list[Event]) -> bool:
        st: ExtraDrawsState = g.ms[self.index]
        if st.left >= 0:
            st.again = how == "discarded" and st.left > 0
            if not st.again:  # kept (a card replaced), or the last draw thrown: the draws are over
                st.left = -1
        return False

    def play_resolved(self, g: RoundTable, events: list[Event]) -> bool:
        st: ExtraDrawsState = g.ms[self.index]
        if not st.again:
            return False
        st.again = False
        if not g.can_draw_stock():
            st.left = -1
            return False
        st.left -= 1
        p = g.current_player
        events.append(Event("draw_again", {"player": p, "left": st.left}))
        g.again(p, events, stock_only=True)
        return True

    def prepare_turn(self, g: RoundTable, p: int) -> None:
        st: ExtraDrawsState = g.ms[self.index]
        st.left = -1
        st.again = False

    def view_extra(self, g: RoundTable, p: int) -> dict[str, Any]:
        st: ExtraDrawsState = g.ms[self.index]
        return {"draws_left": max(st.left, 0)}

    def resample(self, g: RoundTable, info: SeatInfo) -> None:
        """(search) The draws left as every seat is shown them; none is due (the card in play is not thrown yet)."""
        st: ExtraDrawsState = g.ms[self.index]
        left = info.view.extra.get(self.name, {}).get("draws_left", 0)
        st.left = left if left > 0 else -1
        st.again = False
