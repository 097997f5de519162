"""Card powers as a mechanic: offering the power of a thrown card, resolving it, passing it on.

Which card has which power is ``tamalou_card_power`` (``rules.powers.ranks`` / ``cards``); what a power
does is its ``CardPower`` class (``tamalou.powers``). This mechanic decides when one is offered
(``rules.powers.trigger``: "drawn_thrown", a card drawn from the stock and thrown at once (Le Tamalou);
"landing", any card landing on the discard in your turn (tamalou.fun)), whether it may be declined
(``optional``) and whether the next player may use it once instead of drawing (``passed_on``, tamalou.fun).
With ``replaced`` (a cambia house rule), after a stock draw the card replaced out of the layout gives
its power too, as part of the replace: that power cannot be declined (``pass`` is listed only when it
has no use; a timed turn that runs out uses its first use).

Phases: ``power`` (the power's uses, and ``pass``), ``swap`` (a two-step power's second step, and
``pass``), and, in ``draw``, a power passed on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._compiling import mypyc_attr
from ..actions import Action, Pass, Power, Swap
from ..engine.seats import SEATS
from ..engine.state import DRAW, POWER, SWAP
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Mechanic, PhaseSpec
from ..powers import TURN_TAKEN, CardPower

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant
    from ..views import SeatInfo


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class PowersState:
    """``power``: the power on offer (or passed on); ``step``: ``[name, memo, instead_of_draw]`` of a
    power waiting for its second step; ``passing``: the power the next player may use."""

    __slots__ = ("passing", "power", "step")

    def __init__(self) -> None:
        self.power: str | None = None
        self.step: list[Any] | None = None
        self.passing: str | None = None


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class ReplacedPowersState(PowersState):
    """With ``replaced``: besides, ``forced``: the power on offer came with a replace (no ``pass``)."""

    __slots__ = ("forced",)

    def __init__(self) -> None:
        super().__init__()
        self.forced = False


@mypyc_attr(allow_interpreted_subclasses=True)
class Powers(Mechanic):
    name = "powers"
    order = 20

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        p = variant.rules.powers
        self.landing = p.trigger == "landing"
        self.optional = p.optional
        self.passed_on = p.passed_on
        self.replaced = p.replaced
        self.declinable = self.optional and not self.replaced  # every power on offer may be declined
        if not self.passed_on:  # nothing is ever passed on: the turn's start has nothing to do here
            self.idle.update(("prepare_turn", "can_open_turn", "turn_began"))

    def new_state(self, g: RoundTable) -> PowersState:
        return ReplacedPowersState() if self.replaced else PowersState()

    def resample(self, g: RoundTable, info: SeatInfo) -> None:
        """(search) The power on offer as the view shows it; no second step pending, nothing passed on; with
        ``replaced``, forced when the seat's turn offers it without a ``pass``."""
        st = g.ms[self.index]
        phase = g.phase
        st.power = info.view.power if phase in (POWER, DRAW) else None
        st.step = None
        st.passing = None
        if self.replaced:
            mine = info.turn_actions
            st.forced = phase == POWER and bool(mine) and not any(type(a) is Pass for a in mine)

    def forced(self, g: RoundTable) -> bool:
        """Whether the power on offer may not be declined."""
        if not self.optional:
            return True
        return self.replaced and bool(g.ms[self.index].forced)

    def check_state(self, g: RoundTable, st: Any) -> str | None:  # (Any: a restored PowersState may hold anything)
        powers = g.rb.powers
        for name in (st.power, st.passing):
            if name is not None and (not isinstance(name, str) or name not in powers):
                return "it names a power that is not registered"
        phase, player = g.phase_beneath()  # a give owed out of turn may interrupt a power
        if phase == POWER and st.power is None:
            return "the power phase has no power on offer"
        if self.replaced and phase != POWER and getattr(st, "forced", False):
            return "a power that must be used outside its phase"
        if phase == SWAP:
            step = st.step
            if not (
                isinstance(step, list)
                and len(step) == 3
                and isinstance(step[0], str)
                and step[0] in powers
                and isinstance(step[2], bool)
            ):
                return "the second step of a power is missing"
        elif st.step is not None:
            return "a power's second step outside its phase"
        try:  # what the power would list must make sense on this table
            if phase == POWER and st.power is not None:
                self.kind(g, st.power).uses(g, player)
            if phase == SWAP and st.step is not None:
                self.kind(g, st.step[0]).next_uses(g, player, st.step[1])
        except (LookupError, TypeError, ValueError):
            return "the power on offer does not fit the table"
        return None

    def kind(self, g: RoundTable, name: str) -> CardPower:
        power: CardPower = g.rb.powers[name]
        return power

    def phases(self) -> dict[str, PhaseSpec]:
        table: dict[str, PhaseSpec] = {
            POWER: PhaseSpec(
                self.list_power, {Power: self.do_power, Pass: self.do_pass}, open=True, auto=self.auto_pass
            ),
            SWAP: PhaseSpec(
                self.list_step,
                {Swap: self.do_step, Power: self.do_step, Pass: self.do_pass},
                open=True,
                auto=self.auto_pass,
            ),
        }
        if self.passed_on:  # a power passed on is used instead of drawing
            table[DRAW] = PhaseSpec(self.list_passed, {Power: self.do_power})
        return table

    # ---------------------------------------------------------------- listing

    def list_passed(self, g: RoundTable, p: int, out: list[Action]) -> None:
        st: PowersState = g.ms[self.index]
        if st.power is not None and p == g.current_player and g.draws == 0:
            out.extend(self.kind(g, st.power).uses(g, p))

    def list_power(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p != g.current_player:
            return
        st: PowersState = g.ms[self.index]
        assert st.power is not None
        uses = self.kind(g, st.power).uses(g, p)
        out.extend(uses)
        if self.declinable or not uses or not self.forced(g):
            out.append(SEATS[p].pass_)

    def list_step(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p != g.current_player:
            return
        st: PowersState = g.ms[self.index]
        assert st.step is not None
        name, memo, _ = st.step
        out.extend(self.kind(g, name).next_uses(g, p, memo))
        out.append(SEATS[p].pass_)

    # ---------------------------------------------------------------- applying

    def do_power(self, g: RoundTable, a: Power) -> list[Event]:
        g.turn_check(a)
        st: PowersState = g.ms[self.index]
        instead = g.phase == DRAW
        if instead and (st.power is None or g.draws > 0):
            raise IllegalAction("no power is passed on to you: a turn starts with a draw", a)
        name = st.power
        assert name is not None
        kind = self.kind(g, name)
        why = kind.refusal(g, a)
        if why is not None:
            raise IllegalAction(why, a)
        events: list[Event] = []
        st.power = None
        if self.replaced:
            g.ms[self.index].forced = False
        memo = kind.resolve(g, a, events)
        if memo == TURN_TAKEN:
            return events
        if self.passed_on and kind.passable and not instead:
            st.passing = name
        if memo is not None:
            st.step = [name, memo, instead]
            g.phase = SWAP
            return events
        self._done(g, instead, events)
        return events

    def do_step(self, g: RoundTable, a: Action) -> list[Event]:
        g.turn_check(a)
        st: PowersState = g.ms[self.index]
        assert st.step is not None
        name, memo, instead = st.step
        kind = self.kind(g, name)
        why = kind.next_refusal(g, a, memo)
        if why is not None:
            raise IllegalAction(why, a)
        events: list[Event] = []
        more = kind.resolve_next(g, a, memo, events)
        if more is not None:
            st.step = [name, more, instead]
            return events
        st.step = None
        self._done(g, instead, events)
        return events

    def do_pass(self, g: RoundTable, a: Pass) -> list[Event]:
        p = g.turn_check(a)
        st: PowersState = g.ms[self.index]
        phase = g.phase
        if phase == POWER and self.forced(g):
            assert st.power is not None
            if self.kind(g, st.power).usable(g, p):
                raise IllegalAction("this power must be used", a)
        events = [Event("passed", {"player": p, "phase": str(phase)})]
        instead = bool(st.step[2]) if st.step is not None else False
        st.power = None
        st.step = None
        if self.replaced:
            g.ms[self.index].forced = False
        self._done(g, instead, events)
        return events

    def auto_pass(self, g: RoundTable, events: list[Event]) -> None:
        p = g.current_player
        st: PowersState = g.ms[self.index]
        if g.phase == POWER and st.power is not None and self.forced(g):  # no pass: its first use
            uses = self.kind(g, st.power).uses(g, p)
            if uses:
                assert isinstance(uses[0], Power)
                events.extend(self.do_power(g, uses[0]))
                return
        events.extend(self.do_pass(g, SEATS[p].pass_))

    @staticmethod
    def _done(g: RoundTable, instead_of_draw: bool, events: list[Event]) -> None:
        if instead_of_draw:  # the power was the turn: no second draw
            g.turn_over(events)
        else:
            g.end_play(events)

    # ---------------------------------------------------------------- the flow

    def thrown(self, g: RoundTable, card: int, how: str, events: list[Event]) -> bool:
        st: PowersState = g.ms[self.index]
        st.power = None
        replace = self.replaced and how == "replaced" and g.held_from == "stock" and not self.landing
        if not (self.landing or replace or (how == "discarded" and g.held_from == "stock")):
            return False
        name = g.power_of[card]
        if name == "none":
            return False
        p = g.current_player
        if not self.kind(g, name).usable(g, p):
            return False
        st.power = name
        g.phase = POWER
        if replace:
            g.ms[self.index].forced = True
            events.append(Event("power_offered", {"player": p, "power": name, "must": True}))
        else:
            events.append(Event("power_offered", {"player": p, "power": name}))
        return True

    def prepare_turn(self, g: RoundTable, p: int) -> None:
        st: PowersState = g.ms[self.index]
        st.power = st.passing
        st.passing = None
        st.step = None

    def can_open_turn(self, g: RoundTable, p: int) -> bool:
        st: PowersState = g.ms[self.index]
        return st.power is not None and self.kind(g, st.power).usable(g, p)

    def turn_began(self, g: RoundTable, p: int, events: list[Event]) -> None:
        st: PowersState = g.ms[self.index]
        if st.power is not None:
            events.append(Event("power_passed", {"player": p, "power": st.power}))

    def finished(self, g: RoundTable, events: list[Event]) -> None:
        st: PowersState = g.ms[self.index]
        st.power = None
        st.step = None
        if self.replaced:
            g.ms[self.index].forced = False

    def view(self, g: RoundTable, p: int) -> dict[str, Any]:
        st: PowersState = g.ms[self.index]
        shown = g.phase == POWER or (g.phase == DRAW and g.draws == 0)
        return {"power": st.power if shown else None}
