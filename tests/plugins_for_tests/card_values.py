"""The two of hearts is worth 50 points (every other card: no opinion)."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    return 50 if str(card) == "2H" else None
