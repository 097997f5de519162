"""A plugin whose hook is not marked ``@tamalou.hookimpl`` (pluggy would silently skip it)."""

from __future__ import annotations

from tamalou import Card, Variant


def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    return 50 if str(card) == "2H" else None
