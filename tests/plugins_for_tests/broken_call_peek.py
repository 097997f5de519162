"""Broken on purpose: a call rule that decides on the caller's hidden total.

The house rule meant "nobody may call Tamalou at a hopeless total" and could not say it with
``tamalou_call_allowed`` (which sees only the caller's own view), so it reads the game through a guard
of the phase ``call``: over the threshold, only ``pass`` is allowed. The call is offered exactly when the
caller's *true* total is low, which tells them their hidden cards (``tamalou verify`` reports a leak).
"""

from __future__ import annotations

import tamalou
from tamalou import Action, Pass, Round


class LowCallsOnly(tamalou.Mechanic):
    name = "low_calls_only"

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        return {tamalou.Phase.CALL: tamalou.PhaseSpec(guard=self.only_low)}

    def only_low(self, g: Round, p: int) -> tuple[list[Action], str] | None:
        if g.total(p) > g.rb.threshold:  # BUG: the hidden total, which the player does not know
            return [Pass(p)], "you may call only at a total of the threshold or under"
        return None


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [LowCallsOnly]
