"""A new mechanic (Kaboo: "a player whose layout is emptied calls automatically at the start of
their next turn"): the docs' example of a mechanic."""

from __future__ import annotations

import tamalou
from tamalou import Round


class AutoCall(tamalou.Mechanic):
    name = "auto_call"

    def skip_turn(self, g: Round, p: int) -> str | None:
        if g.caller is None and g.empty(p):
            g.caller = p  # the call is the turn: the others play once more
            return "called"
        return None


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [AutoCall]
