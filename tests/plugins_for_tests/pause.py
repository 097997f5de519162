"""A mechanic with a phase of its own: after a thrown 6 the thrower must say "pass" (phase "pause")."""

from __future__ import annotations

import tamalou
from tamalou import Action, Event, Pass, Round


class Pause(tamalou.Mechanic):
    name = "pause"

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        return {"pause": tamalou.PhaseSpec(self.list_pass, {Pass: self.do_pass}, open=True)}

    def thrown(self, g: Round, card: int, how: str, events: list[Event]) -> bool:
        if g.rank[card] != "6":
            return False
        g.phase = "pause"
        return True

    def list_pass(self, g: Round, p: int, out: list[Action]) -> None:
        if p == g.current_player:
            out.append(Pass(p))

    def do_pass(self, g: Round, a: Pass) -> list[Event]:
        g.turn_check(a)
        events: list[Event] = [Event("paused", {"player": a.player})]
        g.end_play(events)
        return events


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Pause]
