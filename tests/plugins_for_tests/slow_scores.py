"""Slow on purpose: a scoring hook that takes ``SECONDS`` at one call in ``EVERY``.

It answers ``None`` (no opinion: the round scores as French Tamalou's), sleeping ``SECONDS`` first at the
first call of the process and then at one call in ``EVERY`` (a rule that now and then rebuilds a table):
slower than ``tamalou verify``'s default hook budget (100 ms), so the report names it, yet a game costs a
fraction of a second more, not ``SECONDS`` at each of the many calls that verify's checks make.
``tests/properties/test_verify_limits.py`` uses it.
"""

from __future__ import annotations

import itertools
import time

import tamalou
from tamalou import Tally, Variant

#: How long a slow call takes.
SECONDS = 0.15
#: One call in this many is slow (the first included; ``tests/properties/test_verify_limits.py`` counts the calls
#: from each of its tests).
EVERY = 100

_calls = itertools.count()


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """No opinion, after ``SECONDS`` at one call in ``EVERY``."""
    if next(_calls) % EVERY == 0:
        time.sleep(SECONDS)  # SLOW: over the default budget of 100 ms
    return None
