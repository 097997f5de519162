"""A round scores twice each player's card total (the caller's rule of scoring ignored)."""

from __future__ import annotations

from tamalou import Tally, Variant, hookimpl


@hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    return [2 * total for total in tally.totals]
