"""Broken on purpose, as an outside author wrote it: a rule that loops for ever on some deals.

"A power card left in a layout at the end of the round is replaced from the stock, again and again until a number
card comes." The bug: when the stock and the discard hold power cards only, no number card ever comes; each redraw
throws the power card on the discard, and each time the stock runs out the discard is reshuffled back into it. The
step never ends, its events fill the memory (24 GB and the out-of-memory killer, in a property suite run before the
engine bounded it). ``tests/properties/test_testing_limits.py`` uses it.
"""

from __future__ import annotations

import tamalou
from tamalou import Event, Round


class RedrawPowers(tamalou.Mechanic):
    name = "redraw_powers"

    def before_scoring(self, g: Round, events: list[Event]) -> None:
        for p in range(g.players):
            for s in g.occupied(p):
                while g.power_of[g.card_at(p, s)] != "none":  # BUG: no number card may be left to come
                    if g.replace_from_stock(p, s, events, face_up=True) < 0:
                        break  # no card at all to draw


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [RedrawPowers]
