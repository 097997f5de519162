"""The king of spades is worth 3 (every other card: no opinion)."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    return 3 if str(card) == "KS" else None
