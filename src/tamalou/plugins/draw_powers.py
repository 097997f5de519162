"""The built-in power that draws more cards, with its settings: ``draw_up_to`` (Rat-a-Tat Cat's "Draw 2").

The player draws from the stock, up to ``draws`` cards one after the other (``[options.draw_up_to]``, 2 by
default): each card drawn is kept (it replaces one of the player's cards, and the draws stop) or thrown (and the
next is drawn, while one is left; a card thrown may have a power of its own, offered as usual). The draws are
counted by the mechanic ``extra_draws`` (``tamalou.mechanics.extra_draws``), which plays whenever a card of the
ruleset has this power. In a variant file::

    [rules.powers.ranks]
    "D2" = "draw_up_to"

    [options.draw_up_to]
    draws = 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from ..events import Event
from ..mechanics.extra_draws import DRAW_UP_TO, MOST_DRAWS, ExtraDraws, ExtraDrawsState
from ..powers import TURN_TAKEN, CardPower

if TYPE_CHECKING:
    from ..actions import Action, Power
    from ..powers import CardWorth
    from ..round_table import RoundTable
    from ..views import SeatView


class DrawUpToOptions(BaseModel):
    """The settings of ``draw_up_to``: ``[options.draw_up_to]``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    draws: int = Field(
        2, ge=1, le=MOST_DRAWS, description="How many cards the power draws at most, one after the other."
    )


class DrawUpTo(CardPower):
    """Draw up to ``draws`` more cards from the stock: keep one (it replaces one of yours) and stop, or throw it and
    draw the next."""

    name = DRAW_UP_TO
    use_text = "draw more cards"
    title = "Draw more cards from the stock, one at a time: keep one and stop, or throw it and draw the next"
    passable = False
    options_model = DrawUpToOptions

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        return [self.action(p)] if g.can_draw_stock() else []

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        if a.slot is not None or a.target is not None or a.target_slot is not None or a.owner is not None:
            return "draw_up_to takes no target"
        if not g.can_draw_stock():
            return "the stock is empty"
        return None

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        draws: int = self.options.draws
        events.append(Event("draw_up_to", {"player": a.player, "draws": draws}))
        st: ExtraDrawsState = g.state_of(ExtraDraws.name)
        st.left = draws - 1  # the draws after the first, which starts now (from the stock)
        st.again = False
        g.again(a.player, events, stock_only=True)
        return TURN_TAKEN

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        return 1.0  # more cards to choose from: always worth it
