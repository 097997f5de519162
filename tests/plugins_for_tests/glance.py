"""A mechanic with a phase of its own and hints for bots (``Mechanic.hint``): after a thrown 6 the thrower
looks at one of its own cards, of its choice (phase ``glance``, action ``glance``). Its hint: a card the seat
has not seen (1) rather than one it knows (-1), so the bots learn a card each time instead of choosing at
random. ``Unhinted`` is the same mechanic without the hint (the control of ``tests/api/test_bot_hints.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import ConfigDict

import tamalou
from tamalou import Action, CardWorth, Event, Round, SeatView


@dataclass(frozen=True, slots=True)
class Glance(Action):
    """Look at one's own card in ``slot``. JSON: ``{"type": "glance", "player": 0, "slot": 2}``."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "glance"
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")


class Unhinted(tamalou.Mechanic):
    """After a thrown 6, the thrower looks at one of its own cards (no hint for bots)."""

    name = "glance"
    actions = (Glance,)

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        return {"glance": tamalou.PhaseSpec(self.list_glances, {Glance: self.do_glance})}

    def thrown(self, g: Round, card: int, how: str, events: list[Event]) -> bool:
        if g.rank[card] != "6":
            return False
        g.phase = "glance"
        return True

    def list_glances(self, g: Round, p: int, out: list[Action]) -> None:
        if p == g.current_player:
            out.extend(Glance(p, s) for s in range(len(g.hands[p])) if g.slot_ok(p, s))

    def do_glance(self, g: Round, a: Glance) -> list[Event]:
        g.turn_check(a)
        if not g.slot_ok(a.player, a.slot):
            raise tamalou.IllegalAction(f"slot {a.slot} holds no card", a)
        events: list[Event] = []
        g.look(a.player, a.player, a.slot, events)
        g.end_play(events)
        return events


class Hinted(Unhinted):
    """The same, with a hint: look at a card the seat has not seen."""

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None:
        if not isinstance(action, Glance):
            return None
        shown = next(s.card for s in view.hands[view.player] if s.slot == action.slot)
        return 1.0 if shown is None else -1.0


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Hinted]
