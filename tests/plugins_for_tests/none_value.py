"""Broken on purpose: a card value hook that forgets its ``return``.

The house rule: "faces are worth 12". The bug: the value is computed and never returned, so the hook
answers ``None`` for every card, and the ruleset's own values (10 for a face) apply: the rule silently never
does anything. ``lint_variant`` says so.
"""

from __future__ import annotations

import tamalou
from tamalou import Card, Variant


@tamalou.hookimpl
def tamalou_card_value(variant: Variant, card: Card) -> int | None:
    """Faces (J, Q, K) are worth 12; the other cards as the ruleset says."""
    if card.rank in ("J", "Q", "K"):
        value = 12  # noqa: F841 - BUG: 'return value' was forgotten: the hook answers None for every card
