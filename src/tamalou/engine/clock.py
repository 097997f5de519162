"""Time, as the core knows it: deadlines that mechanics keep (``next_deadline``) fire in order
before an action carrying a later ``at`` is applied, all or nothing. The machine's clock is never read."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..actions import CLOCK_REACH, Action, Tick
from ..errors import IllegalAction
from ..events import Event
from .copying import copy_into
from .state import OVER

if TYPE_CHECKING:
    from ..mechanic import Mechanic
    from .flow import Flow


def deadline(g: Flow) -> float | None:
    """When the next timed thing happens, if anything is pending."""
    timers = g.flow.timers
    if len(timers) == 1:  # the usual case (a timed ruleset's clock): no loop
        return timers[0].next_deadline(g)
    due: float | None = None
    for m in timers:
        d = m.next_deadline(g)
        if d is not None and (due is None or d < due):
            due = d
    return due


def apply_at(g: Flow, action: Action, at: float, dispatch: Callable[[Action], list[Event]]) -> list[Event]:
    """Bring the game to the action's time, then apply it; all or nothing."""
    if (type(at) is not float and not isinstance(at, int | float)) or not math.isfinite(at):
        raise IllegalAction(f"'at' is a time in seconds, got {at!r}", action)
    if at < g.now:
        raise IllegalAction(f"time goes forward: it is {g.now:g} s, the action says {at:g} s", action)
    due = deadline(g)
    if due is None or due > at:
        # Nothing fires before ``at``: only the time moves, and the handlers are atomic.
        _within_reach(g, at, action)
        before = g.now
        g.now = float(at)
        try:
            return dispatch(action)
        except IllegalAction:
            g.now = before
            raise
    backup = g.copy()  # deadlines fire first: undo them too if the action is then refused
    events: list[Event] = []
    fired = False
    try:
        advance(g, at, events, action)
        if g.phase == OVER and type(action) is not Tick:
            raise IllegalAction("the round ended before this action's time", action)
        fired = True
        events.extend(dispatch(action))
    except IllegalAction as exc:
        copy_into(g, backup)
        if not fired or type(action) is Tick:
            raise
        # The refusal is of the game as it was at ``at``, once the deadline had passed: say so, or a player still
        # to move now reads "it is another player's turn".
        raise IllegalAction(
            f"too late: time ran out at {due:g} s, before this action's {at:g} s (the clock played on: "
            f"{', '.join(dict.fromkeys(e.type for e in events)) or 'nothing'}), and then: {exc.reason}",
            action,
        ) from None
    return events


def _within_reach(g: Flow, at: float, action: Action | None) -> None:
    """``IllegalAction`` if ``at`` would move past ``CLOCK_REACH`` the clock of a round in play that keeps
    deadlines, other than onto a deadline (the deadlines that follow must stay restorable)."""
    if at > CLOCK_REACH and at > g.now and g.flow.timers and g.phase != OVER:
        raise IllegalAction(
            f"the clock moves past {CLOCK_REACH:.0e} s only to a deadline: it is {g.now:g} s, the action says {at:g} s",
            action,
        )


def advance(g: Flow, t: float, events: list[Event], action: Action | None = None) -> None:
    """Bring the game to time ``t``: fire, in order, every deadline due before it (``IllegalAction``, the game
    then half-moved, if ``t`` is past ``CLOCK_REACH`` and no deadline: the caller puts it back)."""
    while g.phase != OVER:
        due: float | None = None
        timer: Mechanic | None = None
        for m in g.flow.timers:
            d = m.next_deadline(g)
            if d is not None and (due is None or d < due):
                due, timer = d, m
        if timer is None or due is None or due > t:
            break
        g.now = due
        timer.fire(g, events)
    _within_reach(g, t, action)
    g.now = float(max(g.now, t))
