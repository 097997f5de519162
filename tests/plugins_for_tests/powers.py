"""Fives get the power to peek at one of your own cards."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_power(variant: Variant, card: Card) -> str | None:
    return "peek_own" if card.rank == "5" else None
