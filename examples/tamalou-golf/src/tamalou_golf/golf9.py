"""golf-9's rules beyond its keys: 3 rows of 3, three cards turned up, the flip, going out. (No knock is a key:
``rules.call.enabled = false``.)"""

from __future__ import annotations

import tamalou

from .mechanic import Golf


class Golf9(Golf):
    """Golf on 9 cards: 3 rows of 3."""

    rows = 3
    columns = 3
    turn_up = 3
    flip = True
    go_out = True


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Golf9]
