"""An invalid plugin: its hook asks for an argument the hook specification does not have."""

from __future__ import annotations

from tamalou import Card, Variant, hookimpl


@hookimpl
def tamalou_card_value(variant: Variant, card: Card, colour: str) -> int | None:
    return None
