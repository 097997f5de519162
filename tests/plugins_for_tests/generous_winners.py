"""Everybody at or under 12 points wins the round, whatever the ranking."""

from __future__ import annotations

from tamalou import Tally, Variant, hookimpl

LIMIT = 12


@hookimpl
def tamalou_winners(variant: Variant, tally: Tally, ranking: list[list[int]]) -> list[int] | None:
    return [p for p, total in enumerate(tally.totals) if total <= LIMIT]
