"""A plugin that answers a card value that is not an integer."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    return "lots" if card.rank == "4" else None  # type: ignore[return-value]
