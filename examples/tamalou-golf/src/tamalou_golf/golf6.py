"""golf-6's rules beyond its keys: 2 rows of 3, two cards turned up, the flip, going out. (No knock is a key:
``rules.call.enabled = false``; golf-6-knock turns it on from one's second turn, ``rules.call.from_turn``.)"""

from __future__ import annotations

import tamalou

from .mechanic import Golf


class Golf6(Golf):
    """Golf on 6 cards: 2 rows of 3."""

    rows = 2
    columns = 3
    turn_up = 2
    flip = True
    go_out = True


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Golf6]
