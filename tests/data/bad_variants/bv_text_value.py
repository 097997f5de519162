"""A plugin whose hook answers something else than a number."""

from __future__ import annotations

import tamalou


@tamalou.hookimpl
def tamalou_card_value(variant: tamalou.Variant, card: tamalou.Card) -> object:
    return "lots" if str(card) == "4S" else None
