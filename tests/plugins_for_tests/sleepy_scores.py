"""Slow on purpose: a scoring hook that takes a second at every call (it answers ``None``: French Tamalou's scores).

Ten times ``tamalou verify``'s default hook budget (100 ms): the first call of a game fails the game, so that
verify reports it in seconds, not after the hour that thousands of such calls would take.
``tests/properties/test_verify_limits.py`` uses it.
"""

from __future__ import annotations

import time

import tamalou
from tamalou import Tally, Variant

#: How long every call takes.
SECONDS = 1.0


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """No opinion, after ``SECONDS``."""
    time.sleep(SECONDS)
    return None
