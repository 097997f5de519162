"""A house rule on top of French's scores: a winner scores 5 points less (a wrapper: French's rule, the
caller's 0 or +10 included, is kept and adjusted)."""

from __future__ import annotations

from collections.abc import Generator

from tamalou import Tally, Variant, hookimpl


@hookimpl(wrapper=True)
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> Generator[None, list[int], list[int]]:
    scores = yield
    return [s - 5 if p in winners else s for p, s in enumerate(scores)]
