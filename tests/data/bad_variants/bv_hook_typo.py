"""A plugin with a misspelled hook: ``tamalou_card_valu`` is no hook of tamalou."""

from __future__ import annotations

import tamalou


@tamalou.hookimpl
def tamalou_card_valu(variant: tamalou.Variant, card: tamalou.Card) -> int | None:
    return 50 if str(card) == "2H" else None
