"""Broken on purpose: a scoring hook that raises on some rounds.

The house rule: "a caller who is not the lowest scores twice their total". The bug: it reads
``tally.totals[tally.caller]`` before checking that somebody called, so every round that ends without a
call (the turn limit) raises ``TypeError`` (``tamalou verify`` reports the plugin's failure).
"""

from __future__ import annotations

import tamalou
from tamalou import Tally, Variant


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """Each player's card total; a caller who is not the lowest scores twice theirs."""
    caller_total = tally.totals[tally.caller]  # type: ignore[index]  # BUG: the caller may be None
    scores = list(tally.totals)
    if caller_total > min(tally.totals):
        scores[tally.caller] = 2 * caller_total  # type: ignore[index]
    return scores
