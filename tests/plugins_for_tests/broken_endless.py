"""Broken on purpose: a rule that never lets the round end.

"Encore": a player who throws a card of the rank of the card under it on the discard plays again. The
bug: it compares the discard's top with itself (``discard[-1]`` twice, instead of ``discard[-2]``), so
every player plays again forever: the turn never passes, the turn limit is never reached, nobody can
call (``tamalou verify`` reports a round that does not end).
"""

from __future__ import annotations

import tamalou
from tamalou import Event, Round


class Encore(tamalou.Mechanic):
    name = "encore"

    def play_resolved(self, g: Round, events: list[Event]) -> bool:
        pile = g.discard
        top, under = pile[-1], pile[-1]  # BUG: the card under the top is pile[-2] (when there is one)
        if g.rank[top] == g.rank[under]:
            p = g.current_player
            events.append(Event("play_again", {"player": p}))
            g.again(p, events)
            return True
        return False


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Encore]
