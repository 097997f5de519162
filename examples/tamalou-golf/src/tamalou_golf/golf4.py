"""golf-4's rules beyond its keys: a 2×2 layout, cards placed face up, columns that cancel.

The bottom row peeked at the deal is a key (``rules.peek``), and so is the knock (tamalou's call,
``rules.call.when = "start_of_turn"``). No flip, no going out.
"""

from __future__ import annotations

import tamalou

from .mechanic import Golf


class Golf4(Golf):
    """Golf on 4 cards: 2 rows of 2."""

    rows = 2
    columns = 2


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Golf4]
