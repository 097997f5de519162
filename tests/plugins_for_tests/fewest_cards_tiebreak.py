"""A house tie-break: between equal totals, the player with fewer cards in front of them is ahead.

Added to the ruleset's ranking (``tamalou_tiebreaks``), not replacing it: on French the caller still
loses ties, and this one decides between equal non-callers."""

from __future__ import annotations

from tamalou import TieBreak, Variant, hookimpl

FEWEST_CARDS = TieBreak("house_fewest_cards", "fewer cards in front of you wins a tie", lambda t, p: t.card_counts[p])


@hookimpl
def tamalou_tiebreaks(variant: Variant) -> list[TieBreak]:
    return [FEWEST_CARDS]
