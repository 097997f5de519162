"""The two spy powers, written against tamalou's public power API (``tamalou.CardPower``).

- ``spy_peek_any`` ("a 5 looks at any one card on the table"): the player looks at one card, their own
  or an opponent's; they alone see it.
- ``spy_swap_look`` ("a Queen swaps one of your cards with an opponent's, then you look at the card you
  received"): the built-in ``blind_swap``, then a look at the card that came in.

A power lists every complete use (``uses``), says why an action is not one (``refusal``) and does it
with the table's primitives only (``resolve``): ``g.look`` shows one card to one player, ``g.swap``
exchanges two placed cards in everyone's sight of the places (each card keeps its knowers). So what
each player knows stays exact without the power keeping track of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import tamalou
from tamalou import Action, Event, Power
from tamalou.plugins.powers import BlindSwap

if TYPE_CHECKING:
    from tamalou import Round


class SpyPeekAny(tamalou.CardPower):
    """Look at any one card on the table, one's own included.

    A use is ``Power(player, target=q, target_slot=s)``: ``q`` is the player themselves or an opponent
    that may be aimed at (``g.targets``: still in the round, with a card)."""

    name = "spy_peek_any"
    title = "Look at any one card on the table, your own included"  # the words logs and `tamalou show` use

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p, target=q, target_slot=s) for q in [p, *g.targets(p)] for s in g.occupied(q)]

    def usable(self, g: Round, p: int) -> bool:
        # Cheaper than listing every use: is there a card to look at?
        return not g.empty(p) or bool(g.targets(p))

    def refusal(self, g: Round, a: Power) -> str | None:
        # Clearer reasons than the default ("not one of the uses"); it accepts exactly what ``uses`` lists.
        if a.slot is not None or a.owner is not None:
            return f"{self.name} takes 'target' (any player, yourself included) and 'target_slot', not 'slot'"
        p, q, s = a.player, a.target, a.target_slot
        if not g.player_ok(q):
            return f"{self.name} needs 'target': a player (yourself included)"
        assert q is not None
        if q != p and q not in g.targets(p):
            return f"player {q} cannot be targeted now"
        if not g.slot_ok(q, s):
            return f"slot {s} of player {q} holds no card"
        return None

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        g.look(a.player, a.target, a.target_slot, events)  # the player alone learns the card


class SpySwapLook(BlindSwap):
    """Swap one of your cards with one of an opponent's, then look at the card you received.

    The uses are ``blind_swap``'s (inherited): ``Power(player, slot=m, target=q, target_slot=s)``, every
    own occupied slot ``m`` with every occupied slot ``s`` of an opponent ``q`` that may be exchanged
    with (``exchanges = True``: ``g.targets(p, True)`` leaves out a locked layout)."""

    name = "spy_swap_look"
    title = "Swap one of your cards with one of an opponent's, then look at the card you received"

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        super().resolve(g, a, events)  # the blind swap: everyone sees which two places changed
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)  # then the player alone sees what came in


POWERS: list[type[tamalou.CardPower]] = [SpyPeekAny, SpySwapLook]
