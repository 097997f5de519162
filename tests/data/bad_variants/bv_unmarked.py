"""A plugin whose hook is not marked ``@tamalou.hookimpl``."""

from __future__ import annotations

import tamalou


def tamalou_card_value(variant: tamalou.Variant, card: tamalou.Card) -> int | None:
    return 50 if str(card) == "2H" else None
