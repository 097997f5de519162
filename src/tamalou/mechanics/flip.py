"""The flip (``rules.draw.discard_turns_up``): a player who throws away the card they drew from the stock turns one
of their face-down cards face up. The turn goes on in the phase ``flip``, where the player's only moves are
``flip`` on each of their face-down cards (``Table.turn_up``: face up for everyone, where it lies); the turn then
ends as after any throw. A player with no face-down card left has nothing to turn: the turn ends at once.

A card taken from the discard and thrown back (where ``rules.draw.discard_must_replace`` allows it) turns nothing:
only a stock card does. The mechanic comes before matching and powers (``order``): a ruleset with the flip and card
powers offers no power for the card thrown (the flip takes the turn's end)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._compiling import mypyc_attr
from ..actions import Action, Flip
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Mechanic, PhaseSpec

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant

#: The phase of the flip.
FLIP = "flip"


@mypyc_attr(allow_interpreted_subclasses=True)
class FlipOnDiscard(Mechanic):
    name = "flip"
    order = 6  # before matching (10) and powers (20): the flip takes the turn after the throw
    actions = (Flip,)
    title = (
        "throwing away the card drawn from the stock turns one of one's face-down cards face up, in place of the "
        "card's power: a power card thrown away gives no power while the thrower has a face-down card"
    )

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return variant.rules.draw.discard_turns_up

    def phases(self) -> dict[str, PhaseSpec]:
        return {FLIP: PhaseSpec(self.list_flips, {Flip: self.do_flip}, open=False, auto=self.auto_flip)}

    def thrown(self, g: RoundTable, card: int, how: str, events: list[Event]) -> bool:
        if how == "discarded" and g.held_from == "stock" and g.face_down(g.current_player):
            g.phase = FLIP  # the turn goes on with the flip (end_play once it is done)
            return True
        return False

    def list_flips(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p == g.current_player:
            out.extend(Flip(p, s) for s in g.face_down(p))

    def do_flip(self, g: RoundTable, a: Flip) -> list[Event]:
        p = a.player
        if p != g.current_player:
            raise IllegalAction(f"it is player {g.current_player}'s turn, not player {p}'s", a)
        s = a.slot
        if not g.slot_ok(p, s):
            raise IllegalAction(f"slot {s} of player {p} holds no card", a)
        if g.is_up(p, s):
            raise IllegalAction(f"slot {s} is face up already: flip one of your face-down cards", a)
        events: list[Event] = []
        g.turn_up(p, s, events)
        g.end_play(events)
        return events

    def auto_flip(self, g: RoundTable, events: list[Event]) -> None:
        """The clock ran out (timed rulesets): the player turns up their first face-down card."""
        p = g.current_player
        events.extend(self.do_flip(g, Flip(p, g.face_down(p)[0])))
