"""Slow and broken on purpose: a scoring hook that takes ``SECONDS`` at every call and reads the first slot.

"Your highest card scores double", with the bug of ``docs/verify.md``: it counts the card in the first slot
twice, not the highest (``tamalou verify`` reports ``slot_order``). It sleeps first, so that a run of a few
dozen games finds failures and can still be interrupted while its workers play:
``tests/properties/test_verify_limits.py`` checks that the counterexample is written then.
"""

from __future__ import annotations

import time

import tamalou
from tamalou import Tally, Variant

#: How long each call takes.
SECONDS = 0.15


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """Each player's total, their first card counted twice, after ``SECONDS``."""
    time.sleep(SECONDS)  # SLOW
    firsts = [tamalou.card_value(variant, hand[0]) if hand else 0 for hand in tally.hands]  # BUG: not the highest
    return [total + first for total, first in zip(tally.totals, firsts, strict=True)]
