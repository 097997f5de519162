"""The phase table: for each phase, what is listed, which handler takes each action type, whether
out-of-turn actions come in, who the round waits for and what the clock plays. Built once per variant
(by its rulebook) from the core's two rows (``draw`` and ``hold``: ``flow.core_rows``) and every mechanic's
``PhaseSpec``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import Tick, untimed
from ..errors import IllegalAction
from ..events import Event
from ..mechanic import Guard, Handler, Lister, Mechanic, PhaseEntry, PhaseSpec, overrides
from .state import OVER


class PhaseTable:
    """Per variant: every phase's row (its listers, out-of-turn ones included) and, per phase, the
    handler of each action type accepted there."""

    __slots__ = ("dispatch", "extra_viewers", "fast", "open", "rows", "timers", "viewers")

    def __init__(
        self, mechanics: Sequence[Mechanic], core: Mapping[str, PhaseSpec], tick: Handler, *, fast: bool
    ) -> None:
        """The table of ``mechanics`` over the ``core``'s rows, with ``tick`` the handler of ``Tick`` in every phase;
        ``fast``: whether ``apply`` may skip its guards (no time in play, no third-party code to undo)."""
        rows: dict[str, PhaseEntry] = {}
        anytime: list[Lister] = []
        any_handlers: dict[type, Handler] = {Tick: tick}
        for name, spec in core.items():
            rows.setdefault(name, PhaseEntry()).add(spec, "core")
        for m in mechanics:
            for name, spec in m.phases().items():
                rows.setdefault(name, PhaseEntry()).add(spec, m.name)
            lister, handlers = m.anytime()
            if lister is not None:
                anytime.append(lister)
            for cls, handler in handlers.items():
                if cls in any_handlers:
                    raise ValueError(f"{m.name}: {cls.__name__} is already handled in every phase")
                any_handlers[cls] = handler
        rows.setdefault(OVER, PhaseEntry())
        for row in rows.values():
            row.out_of_turn = tuple(anytime) if row.open else ()
            row.everyone = (*row.listers, *row.out_of_turn)
        self.rows = rows
        self.timers = tuple(m for m in mechanics if overrides(m, "next_deadline"))
        self.viewers = tuple(m for m in mechanics if overrides(m, "view"))
        self.extra_viewers = tuple(m for m in mechanics if overrides(m, "view_extra"))
        #: Per phase, the handler of each action type accepted there (the phase's own first; a phase's
        #: own handlers checked against its guards first).
        self.dispatch = {
            name: {**any_handlers, **{cls: _guarded(h, row.guards) for cls, h in row.handlers.items()}}
            for name, row in rows.items()
        }
        #: The phases where out-of-turn actions may come in.
        self.open = frozenset(name for name, row in rows.items() if row.open)
        #: Whether ``apply`` may skip its guards: no time in play, no third-party code to undo.
        self.fast = fast


def _guarded(handler: Handler, guards: list[Guard]) -> Handler:
    """``handler``, refusing what a guard forbids (a player who must call may only call)."""
    if not guards:
        return handler
    if len(guards) == 1:  # the usual case (a player with an empty layout must call): no loop
        guard = guards[0]

        def checked_once(g: Any, a: Any) -> list[Event]:
            p = a.player
            if p == g.current_player:
                forced = guard(g, p)
                if forced is not None and untimed(a) not in forced[0]:
                    raise IllegalAction(forced[1], a)
            return handler(g, a)

        return checked_once

    def checked(g: Any, a: Any) -> list[Event]:
        if a.player == g.current_player:
            for guard in guards:
                forced = guard(g, a.player)
                if forced is not None and untimed(a) not in forced[0]:
                    raise IllegalAction(forced[1], a)
        return handler(g, a)

    return checked
