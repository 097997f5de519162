"""Broken on purpose: a ranking that leaves a player out.

The house rule: "a caller over the threshold is ranked last". The bug: the caller is taken out of their
place but never put back at the end, so every round with a caller over the threshold is ranked without
them (the engine refuses the answer: a ``PluginError``, which ``tamalou verify`` reports).
"""

from __future__ import annotations

from collections.abc import Sequence

import tamalou
from tamalou import Tally, TieBreak, Variant


@tamalou.hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    """Lowest total first; a caller over the threshold last."""
    places = tamalou.rank_by_total(tally, tiebreaks)
    caller = tally.caller
    if caller is None or tally.totals[caller] <= tally.threshold:
        return places
    places = [[p for p in place if p != caller] for place in places]
    return [place for place in places if place]  # BUG: [..., [caller]] was forgotten
