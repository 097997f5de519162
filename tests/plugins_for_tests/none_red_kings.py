"""A card value hook that answers for two cards only, on purpose: "the red kings are worth -1".

It answers ``None`` ("no opinion") for every other card, which is how a first-result hook leaves them to
the ruleset: not a lint.
"""

from __future__ import annotations

import tamalou
from tamalou import Card, Variant


@tamalou.hookimpl
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    """The red kings are worth -1; the other cards as the ruleset says."""
    if card.rank == "K" and card.suit in ("H", "D"):
        return -1
    return None
