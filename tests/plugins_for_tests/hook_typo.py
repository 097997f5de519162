"""A plugin whose hook name is misspelt: ``tamalou_card_vlaue`` is no hook of tamalou."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_vlaue(variant: Variant, card: Card) -> int | None:
    return 50 if str(card) == "2H" else None
