"""Determinization for ``ISMCTSBot``: ``Determinizer``, the full games consistent with one seat's view. The engine
rebuilds them (``tamalou.engine.seat_deal.SeatDeal``: a template from the view, checked as a snapshot, then samples
of it with the unknown cards dealt at random); ``Unbuildable`` is raised when the view does not fit a game it can
rebuild."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...actions import Action
from ...engine.round import Round
from ...engine.seat_deal import SeatDeal
from ...errors import Unbuildable
from ...schema import Variant
from ...views import SeatInfo, SeatView

__all__ = ["Determinizer", "Unbuildable"]


class Determinizer:
    """Full games consistent with one seat's view: ``template`` (built once, checked as a snapshot) and
    ``sample(rng)``, a copy of it with the cards the seat does not know dealt at random into the places
    it cannot see. Raises ``Unbuildable`` when the view's cards do not fit the variant's deck or the
    rebuilt game is not a consistent one."""

    def __init__(self, view: SeatView, legal: Sequence[Action], variant: Variant, rng: random.Random) -> None:
        self.seat_deal = SeatDeal(SeatInfo(view, legal), variant, rng)

    @property
    def template(self) -> Round:
        """The round rebuilt from the view, its unknown cards in a first order (the engine's ``SeatDeal``)."""
        return self.seat_deal.template

    @property
    def player(self) -> int:
        """The seat whose view it was."""
        return self.seat_deal.player

    def sample(self, rng: random.Random) -> Round:
        """A copy of the template with the unknown cards dealt at random into the unknown places."""
        return self.seat_deal.deal(rng)
