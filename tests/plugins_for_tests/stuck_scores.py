"""Stuck on purpose: a scoring hook that never returns on some rounds.

When player 0's total is even, it loops forever (``while True: pass``): pure Python that never returns,
the case ``tamalou verify --timeout`` must stop. Other rounds score as French Tamalou does (it answers
``None``: no opinion), so a run has games that pass besides the games stuck.
``tests/properties/test_verify_limits.py`` uses it.
"""

from __future__ import annotations

import tamalou
from tamalou import Tally, Variant


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """No opinion, except when player 0's total is even: then it never returns."""
    if tally.totals[0] % 2 == 0:
        while True:  # STUCK: never returns
            pass
    return None
