"""Opponent matching (Le Tamalou, Variantes 2; ``rules.matching.opponents``): a player may also throw an
opponent's card of the thrown card's rank; for each one taken they then give one of their own cards,
chosen without looking, into the opponent's emptied slot (phase ``give``: nobody else acts until it is
done; ``current_player`` is the giver meanwhile). A miss: the card returns to its place, everyone saw
it, the thrower takes the penalty (Élodie). A player with no card to give cannot match an opponent's
card. In a timed game a give owed runs on the turn's clock: when it runs out the engine gives the
lowest-numbered occupied slot.

With ``give = "may"`` (kaboo) the give is optional: the giver is offered each ``give`` and ``pass``,
which declines (the slot stays empty; the event ``passed`` names it); a player with no card may then
take an opponent's card too, and time running out declines. The window's keys (``race``,
``penalty_cap``, ``window``) are ``Matching``'s. A locked or sealed layout is never matched from (nor
given into): the owners are ``g.targets(p, True)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._compiling import mypyc_attr
from ..actions import Action, Give, MatchAction, Pass
from ..engine.seats import SEATS
from ..engine.state import GIVE, NO_CARD
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import PhaseSpec
from ._match_actions import THEIRS, own_matches, their_matches
from .matching import WINDOWS, Matching, MatchingState

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class OpponentMatchingState(MatchingState):
    """Besides the window: ``gives`` owed (``[owner, slot]`` each), the ``giver``, and the phase and
    player to go back to."""

    __slots__ = ("giver", "gives", "resume", "resume_player")

    def __init__(self, g: RoundTable, first: int) -> None:
        super().__init__(g, first)
        self.gives: list[list[int]] = []
        self.giver = -1
        self.resume = ""
        self.resume_player = -1


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class OpponentWindowState(OpponentMatchingState):
    """With a window after the power: ``turn_player`` as in ``matching.WindowState``."""

    __slots__ = ("turn_player",)

    def __init__(self, g: RoundTable, first: int) -> None:
        super().__init__(g, first)
        self.turn_player = -1


@mypyc_attr(allow_interpreted_subclasses=True)
class OpponentMatching(Matching):
    name = "matching"
    order = 10

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        m = variant.rules.matching
        return m.enabled and m.opponents

    def new_state(self, g: RoundTable) -> OpponentMatchingState:
        own_matches(g.players - 1, 16)
        first = g.discard[-1] if g.discard and self.first_matchable else NO_CARD
        return (OpponentWindowState if self.after_power else OpponentMatchingState)(g, first)

    # (``st`` is Any: a restored OpponentMatchingState may hold anything)
    def check_state(self, g: RoundTable, st: Any) -> str | None:
        problem = super().check_state(g, st)
        if problem is not None:
            return problem
        if g.phase != GIVE:
            return "a give owed outside its phase" if st.gives or st.giver != -1 else None
        if not (0 <= st.giver < g.players and g.current_player == st.giver and 0 <= st.resume_player < g.players):
            return "the give names a player who is not there"
        if not st.gives or st.resume not in g.flow.rows or st.resume == GIVE:
            return "the give has nothing to give or nowhere to go back to"
        for pair in st.gives:
            if len(pair) != 2 or not 0 <= pair[0] < g.players or not 0 <= pair[1] < len(g.hands[pair[0]]):
                return "a give names a place that is not there"
            if g.hands[pair[0]][pair[1]] != NO_CARD:
                return "a give goes into a place that holds a card"
        return None

    def resumes(self, g: RoundTable, st: OpponentMatchingState) -> tuple[str, int] | None:
        return (g.phase_named(st.resume), st.resume_player) if g.phase == GIVE and st.resume else None

    def phases(self) -> dict[str, PhaseSpec]:
        table = super().phases()
        handlers: dict[type, Any] = {Give: self.do_give}
        if self.bare:
            handlers[Pass] = self.do_decline
        table[GIVE] = PhaseSpec(self.list_gives, handlers, open=False, waiting=self.giver, auto=self.auto_give)
        return table

    def list_more(self, g: RoundTable, p: int, out: list[Action]) -> None:
        """Matches of every card of ``g.targets(p, True)`` (an empty layout lists nothing by itself)."""
        hands = g.hands
        blocked = g.unaimable(True) | 1 << p
        for q in range(g.players):
            if blocked >> q & 1:
                continue
            hand = hands[q]
            n = len(hand)
            theirs = THEIRS.get((p, q))
            if theirs is None or len(theirs) < n:
                theirs = their_matches(p, q, n)
            if NO_CARD in hand:
                out.extend([theirs[s] for s, c in enumerate(hand) if c != NO_CARD])
            else:  # no emptied slot: every slot, at C speed
                out.extend(theirs[:n])

    def check_owner(self, g: RoundTable, a: MatchAction, owner: int) -> None:
        p = a.player
        if owner == p:
            return
        if not g.player_ok(owner) or not g.targetable(p, owner, True):
            raise IllegalAction(f"player {owner}'s cards cannot be matched now", a)
        if not self.bare and g.card_count(p) < len(a.slots):
            raise IllegalAction("you need a card of your own to give for each card you take", a)

    def took(self, g: RoundTable, a: MatchAction, owner: int, events: list[Event]) -> bool:
        p = a.player
        if owner == p:
            return False
        st: OpponentMatchingState = g.ms[self.index]
        hand = g.hands[owner]
        st.gives = [[owner, s] for s in a.slots if hand[s] == NO_CARD]
        if not st.gives:
            return False
        st.giver = p
        st.resume = str(g.phase)
        st.resume_player = g.current_player
        g.phase = GIVE
        g.current_player = p
        events.append(Event("give_owed", {"player": p, "owner": owner, "count": len(st.gives)}))
        return True

    def giver(self, g: RoundTable) -> list[int]:
        return [g.ms[self.index].giver]

    def list_gives(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p == g.ms[self.index].giver:
            out.extend(Give(p, s) for s in g.occupied(p))
            if self.bare:
                out.append(SEATS[p].pass_)

    def do_give(self, g: RoundTable, a: Give) -> list[Event]:
        p = a.player
        st: OpponentMatchingState = g.ms[self.index]
        if p != st.giver:
            raise IllegalAction("nothing to give now", a)
        if not g.slot_ok(p, a.slot):
            raise IllegalAction(f"slot {a.slot} of player {p} holds no card", a)
        q, t = st.gives.pop(0)
        g.move((p, a.slot), (q, t))  # unseen: only who already knew the card knows it now
        events = [Event("gave", {"player": p, "slot": a.slot, "target": q, "target_slot": t})]
        if not st.gives:
            self._given(g, st, events)
        return events

    def do_decline(self, g: RoundTable, a: Pass) -> list[Event]:
        """``give = "may"``: the giver keeps their cards; the emptied slot stays empty."""
        p = a.player
        st: OpponentMatchingState = g.ms[self.index]
        if p != st.giver:
            raise IllegalAction("nothing to give now", a)
        q, t = st.gives.pop(0)
        events = [Event("passed", {"player": p, "phase": "give", "target": q, "target_slot": t})]
        if not st.gives:
            self._given(g, st, events)
        return events

    def _given(self, g: RoundTable, st: OpponentMatchingState, events: list[Event]) -> None:
        """Every give owed is done: back to the phase and player the match came in."""
        g.phase = g.phase_named(st.resume)
        g.current_player = st.resume_player
        st.giver = -1
        st.resume = ""
        st.resume_player = -1
        g.after_out_of_turn(events)
        if g.phase in WINDOWS:
            self.closing_moves_on(g, events)

    def auto_give(self, g: RoundTable, events: list[Event]) -> None:
        """Time ran out while a card is owed: give the lowest-numbered occupied slot (an optional give,
        or a giver with no card left, declines)."""
        p = g.ms[self.index].giver
        if self.bare or g.empty(p):
            events.extend(self.do_decline(g, SEATS[p].pass_))
        else:
            events.extend(self.do_give(g, Give(p, g.occupied(p)[0])))

    def view(self, g: RoundTable, p: int) -> dict[str, Any]:
        giver = g.ms[self.index].giver
        return {"giver": None if giver < 0 else giver}
