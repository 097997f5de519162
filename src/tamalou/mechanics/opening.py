"""The chosen opening peek (``rules.peek.mode = "choose"``; cartalogue, Cartalogue: "look at any 2 of your
4 cards"): before the first turn, each player picks ``peek.count`` of their own slots to look at, in
any order; the first turn starts when everyone has. (A fixed peek, ``mode = "fixed"``, is dealt.)"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from .._compiling import mypyc_attr
from ..actions import Action, PeekAction
from ..engine.state import PEEK
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Mechanic, PhaseSpec

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant
    from ..views import SeatInfo


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class OpeningState:
    __slots__ = ("peeked",)

    def __init__(self) -> None:
        self.peeked = 0  # bit p: player p has peeked


@mypyc_attr(allow_interpreted_subclasses=True)
class ChosenPeek(Mechanic):
    name = "opening"
    order = 5

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.count = variant.rules.peek.count

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        peek = variant.rules.peek
        return peek.mode == "choose" and peek.count > 0

    def new_state(self, g: RoundTable) -> OpeningState:
        return OpeningState()

    def phases(self) -> dict[str, PhaseSpec]:
        return {PEEK: PhaseSpec(self.list_peeks, {PeekAction: self.do_peek}, open=False, waiting=self.waiting)}

    def check_state(self, g: RoundTable, st: Any) -> str | None:  # (Any: a restored OpeningState may hold anything)
        if not 0 <= st.peeked <= g.all_mask or (g.phase == PEEK and st.peeked >> g.current_player & 1):
            return "the opening peek names players who are not there"
        return None

    def resample(self, g: RoundTable, info: SeatInfo) -> None:
        """(search) Those the opening peek no longer waits for have peeked (everyone, once it is over)."""
        g.ms[self.index].peeked = g.all_mask & ~info.waiting if g.phase == PEEK else g.all_mask

    def waiting(self, g: RoundTable) -> list[int]:
        peeked = g.ms[self.index].peeked
        return [p for p in range(g.players) if not peeked >> p & 1]

    def begin(self, g: RoundTable, events: list[Event]) -> bool:
        g.phase = PEEK
        self._next(g)
        return True

    def _next(self, g: RoundTable) -> None:
        """The player to move during the peek: the first (from the first player on) yet to peek."""
        peeked = g.ms[self.index].peeked
        for i in range(g.players):
            p = (g.first_player + i) % g.players
            if not peeked >> p & 1:
                g.current_player = p
                return

    def list_peeks(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if g.ms[self.index].peeked >> p & 1:
            return
        occ = g.occupied(p)
        out.extend(PeekAction(p, combo) for combo in combinations(occ, min(self.count, len(occ))))

    def do_peek(self, g: RoundTable, a: PeekAction) -> list[Event]:
        p = a.player
        st: OpeningState = g.ms[self.index]
        if not g.player_ok(p) or st.peeked >> p & 1:
            raise IllegalAction(f"player {p} has already peeked", a)
        slots = tuple(a.slots)
        count = min(self.count, g.card_count(p))
        if len(slots) != count or len(set(slots)) != count or not all(g.slot_ok(p, s) for s in slots):
            raise IllegalAction(f"choose {count} different slots of your own to peek at", a)
        events: list[Event] = []
        g.peek(p, slots, events)
        st.peeked |= 1 << p
        if st.peeked == g.all_mask:
            g.opening_done(events)
        else:
            self._next(g)
        return events
