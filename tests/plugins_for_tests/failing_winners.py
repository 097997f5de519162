"""A winners hook that raises (a bug in a plugin)."""

from __future__ import annotations

from tamalou import Tally, Variant, hookimpl


@hookimpl
def tamalou_winners(variant: Variant, tally: Tally, ranking: list[list[int]]) -> list[int] | None:
    return [len(tally.totals) // 0]
