"""Broken on purpose: a scoring hook that depends on the order of the cards in a layout.

The house rule: "your highest card scores double" (it is added once more to your total). The bug: it
takes the first card of ``tally.hands[p]`` as the highest, but a layout is in slot order, not sorted, so
the score depends on where the cards lie (``tamalou verify`` reports a result that changes when the
slots of a layout are reordered). The fix: ``max(card_value(variant, c) for c in cards)``.
"""

from __future__ import annotations

import tamalou
from tamalou import Tally, Variant


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """Each player's card total, their highest card counted twice."""
    scores = []
    for p, total in enumerate(tally.totals):
        cards = tally.hands[p]
        highest = tamalou.card_value(variant, cards[0]) if cards else 0  # BUG: cards[0] is not the highest
        scores.append(total + highest)
    return scores
