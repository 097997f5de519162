"""Broken on purpose: a tie-break that raises on an emptied layout, only in a tie.

The house rule: "among tied players, the one holding the lowest card is placed first". The bug: the
lowest card is ``sorted(values)[0]``, and a player whose layout was emptied by matches has no card:
``IndexError``. Only a tie reads it, and a tie with an emptied layout (at 0 points, against another
emptied layout or a layout of 0-point cards) is rare in random games; ``check_end_hooks`` makes it.
"""

from __future__ import annotations

from collections.abc import Sequence

import tamalou
from tamalou import Tally, TieBreak, Variant


@tamalou.hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    """Lowest total first, the tie-breaks in order; players still tied, the one with the lowest card first."""
    places: list[list[int]] = []
    for place in tamalou.rank_by_total(tally, tiebreaks):
        if len(place) == 1:
            places.append(place)
            continue

        def lowest(p: int) -> int:
            values = sorted(tamalou.card_value(variant, card) for card in tally.hands[p])
            return values[0]  # BUG: an emptied layout has no card

        places += [[p] for p in sorted(place, key=lowest)]
    return places
