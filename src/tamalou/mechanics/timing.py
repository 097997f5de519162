"""Time, for rulesets played against the clock (tamalou.fun; ``rules.timing``).

Time is an input: an action may carry ``at`` (seconds since the deal) and ``Tick(at)`` lets time pass.
Before an action is applied, the game is brought to its time: every deadline that falls before it
fires in order (a turn that runs out is auto-played, the opening peek ends, the final countdown ends).
The machine's clock is never read, so the same actions at the same times replay to the same game.

Auto-play when a turn runs out (Decided): nothing drawn yet: draw from the stock and throw it; holding:
throw the held card; choosing a power target or the look-and-swap: pass; a card owed to an opponent:
the lowest-numbered occupied slot is given. A player who let a whole turn run out without playing is
*absent*: their next turns last ``absent_turn_seconds`` until they play; after ``absent_turns_to_leave``
such turns in a row they leave the round (ranked last), and when one player is left the round ends.
Misses lock matching (``lockouts``); a shown swap and the opening block matching for a while.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._compiling import mypyc_attr
from ..actions import MAX_TIME, Action, Give, MatchAction, PeekAction, Tick
from ..engine.state import CALL, COUNTDOWN, DRAW, GIVE, HOLD, OPENING, OVER, POWER, SWAP, Reason
from ..events import Event
from ..mechanic import Mechanic, PhaseSpec
from .matching import WINDOW

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..schema import Variant

FOREVER = 1e300  # "locked for the rest of the round" (a finite number keeps snapshots plain JSON)
TURN_PHASES = frozenset({DRAW, HOLD, POWER, SWAP, CALL})
_CLOCKED = TURN_PHASES | {GIVE, OPENING, COUNTDOWN, WINDOW}  # (WINDOW: a window after a power)
_OUT_OF_TURN = frozenset({MatchAction, Give, Tick, PeekAction})


@mypyc_attr(native_class=False)  # snapshots and undo read and set its __slots__
class ClockState:
    __slots__ = ("absent", "absent_turns", "acted", "deadline", "locked_until", "misses", "quiet_until")

    def __init__(self, players: int) -> None:
        self.deadline = 0.0
        self.quiet_until = 0.0
        self.locked_until = [0.0] * players
        self.misses = [0] * players
        self.absent = [False] * players
        self.absent_turns = [0] * players
        self.acted = False


@mypyc_attr(allow_interpreted_subclasses=True)
class Timing(Mechanic):
    name = "timing"
    order = 50

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        t = variant.rules.timing
        self.turn_seconds = t.turn_seconds
        self.absent_seconds = t.absent_turn_seconds
        self.to_leave = t.absent_turns_to_leave
        self.peek_seconds = t.peek_seconds
        self.swap_show = t.swap_show_seconds
        self.countdown = t.countdown_seconds
        self.lockouts = t.lockouts

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return variant.rules.timing.turn_seconds > 0

    def new_state(self, g: RoundTable) -> ClockState:
        return ClockState(g.players)

    def check_state(self, g: RoundTable, st: Any) -> str | None:  # (Any: a restored ClockState may hold anything)
        if not 0 <= st.deadline < MAX_TIME or not 0 <= st.quiet_until < MAX_TIME or any(m < 0 for m in st.misses):
            return "the clock is out of bounds"
        if any(t < 0 for t in st.absent_turns):
            return "the clock is out of bounds"
        return None

    def phases(self) -> dict[str, PhaseSpec]:
        return {
            OPENING: PhaseSpec(self.list_tick, open=False, waiting=self.everyone),
            COUNTDOWN: PhaseSpec(self.list_tick, open=True, waiting=self.everyone),
        }

    def everyone(self, g: RoundTable) -> list[int]:
        return [p for p in range(g.players) if not g.left >> p & 1]

    def list_tick(self, g: RoundTable, p: int, out: list[Action]) -> None:
        """In a time-only phase, time passing is the move: a ``Tick`` to the deadline."""
        out.append(Tick(at=g.ms[self.index].deadline))

    # ---------------------------------------------------------------- the flow

    def begin(self, g: RoundTable, events: list[Event]) -> bool:
        if self.peek_seconds <= 0:
            return False
        st: ClockState = g.ms[self.index]
        g.phase = OPENING
        st.deadline = st.quiet_until = self.peek_seconds
        events.append(Event("opening", {"until": st.deadline}))
        return True

    def round_ending(self, g: RoundTable, events: list[Event]) -> bool:
        if self.countdown <= 0:
            return False
        st: ClockState = g.ms[self.index]
        g.phase = COUNTDOWN
        st.deadline = g.now + self.countdown
        events.append(Event("countdown", {"until": st.deadline}))
        return True

    def turn_began(self, g: RoundTable, p: int, events: list[Event]) -> None:
        """A turn of ``p`` starts now: its deadline, and one miss forgiven if ``p`` is not locked."""
        st: ClockState = g.ms[self.index]
        st.acted = False
        st.deadline = g.now + (self.absent_seconds if st.absent[p] else self.turn_seconds)
        if st.misses[p] and g.now >= st.locked_until[p]:
            st.misses[p] -= 1

    def swapped(self, g: RoundTable, by: int) -> None:
        if self.swap_show:
            st: ClockState = g.ms[self.index]
            st.quiet_until = max(st.quiet_until, g.now + self.swap_show)

    def match_blocked(self, g: RoundTable, p: int) -> str | None:
        """A ``MatchBlocker`` (the matching contract): no matching while a peek or a swap is shown, nor while
        ``p``'s misses lock it."""
        st: ClockState = g.ms[self.index]
        if g.now < st.quiet_until:
            return "no matching now (the opening peek or a swap is being shown)"
        if g.now < st.locked_until[p]:
            return "your matching is locked after your misses"
        return None

    def match_result(self, g: RoundTable, p: int, right: bool) -> None:
        """A ``MatchListener`` (the matching contract): misses add up and lock matching as ``timing.lockouts``
        says; a right match clears them."""
        if not self.lockouts:
            return
        st: ClockState = g.ms[self.index]
        if right:
            st.misses[p] = 0
            return
        st.misses[p] += 1
        k = st.misses[p] - 1
        st.locked_until[p] = g.now + self.lockouts[k] if k < len(self.lockouts) else FOREVER

    # ---------------------------------------------------------------- deadlines

    def next_deadline(self, g: RoundTable) -> float | None:
        return g.ms[self.index].deadline if g.phase in _CLOCKED else None

    def fire(self, g: RoundTable, events: list[Event]) -> None:
        phase = g.phase
        if phase == OPENING:
            events.append(Event("opening_over", {"at": g.now}))
            g.phase = DRAW
            g.opening_done(events)
        elif phase == COUNTDOWN:
            g.finish_last_turns(events)
        elif g.flow.rows[phase].waiting is not None:
            # A phase waiting on somebody besides the player to move (a give owed): play it for them;
            # the turn's own deadline then fires too.
            for p in g.to_act:
                events.append(Event("timeout", {"player": p, "at": g.now, "phase": str(phase)}))
            g.auto_play(events)
        else:
            self.timeout(g, events)

    def timeout(self, g: RoundTable, events: list[Event]) -> None:
        """The player to move ran out of time: their turn is played for them."""
        st: ClockState = g.ms[self.index]
        p = g.current_player
        whole = not st.acted
        events.append(Event("timeout", {"player": p, "at": g.now, "phase": str(g.phase)}))
        turn = g.turn
        # Auto-play until the turn passes (each step is one the player could have taken).
        for _ in range(8):
            if g.phase == OVER or g.turn != turn or g.current_player != p:
                break
            g.auto_play(events)
        if whole and g.phase != OVER:
            st.absent_turns[p] += 1
            st.absent[p] = True
            if self.to_leave and st.absent_turns[p] >= self.to_leave:
                self.leave(g, p, events)

    def leave(self, g: RoundTable, p: int, events: list[Event]) -> None:
        """``p`` ran out of clock: out of the round, ranked last; the round ends when one is left."""
        g.left |= 1 << p
        events.append(Event("left", {"player": p}))
        if bin(g.left).count("1") >= g.players - 1:
            g.finish(Reason.LAST_PLAYER, events)

    # ---------------------------------------------------------------- presence

    def before_action(self, g: RoundTable, action: Action) -> object:
        """The player to move playing in their turn is present (not absent any more): set before the
        action (its turn may end in it), undone if the action is refused."""
        if type(action) in _OUT_OF_TURN or action.player != g.current_player or g.phase not in TURN_PHASES:
            return None
        st: ClockState = g.ms[self.index]
        p = g.current_player
        saved = (p, st.acted, st.absent[p], st.absent_turns[p])
        st.acted, st.absent[p], st.absent_turns[p] = True, False, 0
        return saved

    def undo(self, g: RoundTable, token: object) -> None:
        if token is None:
            return
        st: ClockState = g.ms[self.index]
        saved: tuple[int, bool, bool, int] = token  # type: ignore[assignment]
        p, st.acted, st.absent[p], st.absent_turns[p] = saved

    def view(self, g: RoundTable, p: int) -> dict[str, Any]:
        st: ClockState = g.ms[self.index]
        return {
            "locked_until": [t if t > g.now else None for t in st.locked_until],
            "absent": list(st.absent),
        }
