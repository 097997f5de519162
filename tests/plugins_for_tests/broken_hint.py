"""Broken on purpose: a hint for bots that reads the wrong card.

"Keep it low": the mechanic tells the bots how good replacing a slot with the held card is, by the card the seat
sees in that slot. The bug: it reads the slot as a position in ``view.hands[view.player]``, the list of the seat's
occupied slots, instead of by its number (``s.slot``): once a slot is emptied (a match) or a penalty card added, the
position is another slot's or past the end, and the hint raises ``IndexError`` in the middle of a game, crashing
every bot that plays by it (``tamalou verify`` reports ``hints``).
"""

from __future__ import annotations

import tamalou
from tamalou import Action, CardWorth, Replace, SeatView


class KeepItLow(tamalou.Mechanic):
    name = "keep_it_low"

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None:
        if not isinstance(action, Replace) or view.held is None:
            return None
        there = view.hands[view.player][action.slot].card  # BUG: a position in the list, not the slot's number
        return (worth.unseen() if there is None else worth.value(there)) - worth.value(view.held)


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [KeepItLow]
