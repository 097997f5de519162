"""The call (Tamalou, Cabo, Cambio...): who may call, when, what a call does, and the empty layout.

Keys (``rules.call``): ``when`` — "end_of_turn", after playing, before the next player plays (Le Tamalou:
"pendant le tour, après avoir joué"), or "start_of_turn", instead of drawing (tamalou.fun: "the call takes
your turn"); ``verified`` — a wrong call is found out at once: the caller's cards are shown to all, a
penalty, play goes on (tamalou.fun); ``protect_caller`` — the caller's layout is locked: nobody exchanges
cards with it (tamalou.fun), and with ``protect_from = "everything"`` it is sealed (``g.sealed``: no power
looks at it or swaps with it, nobody matches from it or gives into it, the caller matches no more;
kaboo); ``empty_layout`` — a player with no card at their turn "must_call" without playing (Le Tamalou),
"may_call" (Cartalogue), the round "ends_round" as soon as a layout is emptied (tamalou.fun), or they "auto_call":
the call is made for them at the start of their turn, if nobody called yet (the turn is skipped with
reason "called"; kaboo); ``empty_after_call`` — after a call, a player whose layout is empty is "skipped"
(Le Tamalou) or "plays" their last turn (cambia: an empty layout has no special effect).
``enabled`` — false: nobody calls (the mechanic plays no part: the round ends another way);
``from_turn`` — a player may call from their own n-th turn of the round on (a call they must make, by
``empty_layout``, is made whatever the turn). Whether a call is allowed at all now is also the hook
``tamalou_call_allowed`` (asked when listing and when applying). After a call the others play once more; the
round ends when the turn comes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._compiling import mypyc_attr
from ..actions import Action, Call, Pass
from ..engine.seats import SEATS
from ..engine.state import CALL, DRAW, Reason
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Mechanic, PhaseSpec

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant


@mypyc_attr(allow_interpreted_subclasses=True)
class Calling(Mechanic):
    name = "calling"
    order = 40

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        c = variant.rules.call
        self.at_start = c.when == "start_of_turn"
        self.verified = c.verified
        self.wrong_penalty = c.wrong_penalty_cards
        self.protect = c.protect_caller
        self.seal = c.protect_caller and c.protect_from == "everything"
        self.auto_call = c.empty_layout == "auto_call"
        self.skip_empty = c.empty_after_call == "skipped"
        self.must_call = c.empty_layout == "must_call"
        self.ends_round = c.empty_layout == "ends_round"
        self.from_turn = c.from_turn
        if not self.ends_round:
            self.idle.add("after_out_of_turn")
        if self.at_start:
            self.idle.add("turn_ending")

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return variant.rules.call.enabled and not _sealing(variant)  # a sealing ruleset plays ``SealedCalling``

    def phases(self) -> dict[str, PhaseSpec]:
        draw = PhaseSpec(
            self.list_at_start if self.at_start else None,
            {Call: self.do_call},
            guard=self.forced_call if self.must_call else None,
        )
        return {
            DRAW: draw,
            CALL: PhaseSpec(self.list_call, {Call: self.do_call, Pass: self.do_pass}, open=True, auto=self.auto_pass),
        }

    def may_call(self, g: RoundTable, p: int) -> bool:
        """Whether ``p`` may call now (nobody called, ``from_turn`` reached, ``tamalou_call_allowed``)."""
        return (
            g.caller is None
            and g.last_lap is None
            and (self.from_turn == 1 or self.own_turn(g, p) >= self.from_turn)
            and (g.rb.call_allowed_hook is None or g.rb.call_allowed(g, p))
        )

    @staticmethod
    def own_turn(g: RoundTable, p: int) -> int:
        """Which of ``p``'s own turns of the round this is, or the next one (1 for the first): turns go round from
        the first turn's player, skipped ones counted (``g.turn`` counts every turn played)."""
        n = g.players
        return max(1, (g.turn - (p - g.first_turn_player) % n) // n + 1)

    def forced_call(self, g: RoundTable, p: int) -> tuple[list[Action], str] | None:
        if g.caller is None and g.last_lap is None and g.draws == 0 and g.empty(p):
            return [SEATS[p].call], "your layout is empty: you must call"
        return None

    def list_at_start(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p == g.current_player and g.draws == 0 and self.may_call(g, p):
            out.append(SEATS[p].call)

    def list_call(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p == g.current_player:
            acts = SEATS[p]
            if self.may_call(g, p):
                out.append(acts.call)
            out.append(acts.pass_)

    def do_call(self, g: RoundTable, a: Call) -> list[Event]:
        p = g.turn_check(a)
        forced = g.phase == DRAW and self.must_call and self.forced_call(g, p) is not None
        at_start = g.phase == DRAW and self.at_start and g.draws == 0
        if not (g.phase == CALL or forced or at_start):
            raise IllegalAction(f"a call is not possible in phase {str(g.phase)!r}", a)
        if g.caller is not None:
            raise IllegalAction(f"player {g.caller} has already called", a)
        if g.last_lap is not None:
            raise IllegalAction(f"the round is in its last lap (player {g.last_lap}: {g.last_lap_reason})", a)
        if not forced and self.from_turn > 1 and self.own_turn(g, p) < self.from_turn:
            raise IllegalAction(f"a call is allowed from your turn {self.from_turn} on (rules.call.from_turn)", a)
        if not forced and not g.rb.call_allowed(g, p):
            raise IllegalAction("a call is not allowed now", a)
        events: list[Event] = []
        if self.verified:
            total = g.total(p)
            right = total <= g.rb.threshold
            shown = {"slots": g.occupied(p), "cards": [g.text[g.hands[p][s]] for s in g.occupied(p)]}
            g.show_layout(p)
            events.append(Event("called", {"player": p, "right": right, "total": total, **shown}))
            if right:
                self._caller(g, p)
            else:
                g.penalty(p, self.wrong_penalty, events)
        else:
            self._caller(g, p)
            events.append(Event("called", {"player": p}))
        g.end_turn(events)
        return events

    def _caller(self, g: RoundTable, p: int) -> None:
        g.caller = p
        if self.protect:
            g.locked |= 1 << p
            if self.seal:
                g.sealed |= 1 << p

    @staticmethod
    def sealed_match(g: RoundTable, p: int) -> str | None:
        """A sealed caller matches no more: neither from their own layout (nobody matches from it) nor
        from another's (a give would come out of it, a miss would add a penalty card to it)."""
        return "your cards are sealed: you may not match" if g.sealed >> p & 1 else None

    def do_pass(self, g: RoundTable, a: Pass) -> list[Event]:
        p = g.turn_check(a)
        events = [Event("passed", {"player": p, "phase": "call"})]
        g.end_turn(events)
        return events

    def auto_pass(self, g: RoundTable, events: list[Event]) -> None:
        events.extend(self.do_pass(g, SEATS[g.current_player].pass_))

    def turn_ending(self, g: RoundTable, events: list[Event]) -> bool:
        if self.may_call(g, g.current_player):
            g.phase = CALL
            return True
        return False

    def skip_turn(self, g: RoundTable, p: int) -> str | None:
        # Le Tamalou: "s'il n'a plus de cartes ... il doit annoncer le Tamalou" — unless someone already called.
        if g.caller is not None or g.last_lap is not None:  # the last turns: nobody calls any more
            return "no card" if self.skip_empty and g.empty(p) else None
        if self.auto_call and g.empty(p):
            # kaboo: "A player whose layout is emptied calls automatically at the start of their next
            # turn." The call is their turn; the event ``skipped`` (reason "called") says so.
            self._caller(g, p)
            return "called"
        return None

    def after_out_of_turn(self, g: RoundTable, events: list[Event]) -> None:
        if self.ends_round and any(map(g.empty, range(g.players))):  # a layout emptied
            g.finish(Reason.EMPTIED, events)


def _sealing(variant: Variant) -> bool:
    c = variant.rules.call
    return c.protect_caller and c.protect_from == "everything"


@mypyc_attr(allow_interpreted_subclasses=True)
class SealedCalling(Calling):
    """The call with a sealed caller (``protect_from = "everything"``; kaboo): also a ``MatchBlocker`` (the
    matching contract), so that the rulesets without a seal keep matching's plain path (no blocker to ask)."""

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return variant.rules.call.enabled and _sealing(variant)

    def match_blocked(self, g: RoundTable, p: int) -> str | None:
        return self.sealed_match(g, p)
