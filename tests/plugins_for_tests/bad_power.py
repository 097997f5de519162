"""A plugin that answers a power no engine knows."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_power(variant: Variant, card: Card) -> str | None:
    return "fly" if card.rank == "4" else None
