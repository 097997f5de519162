"""golf-6's rules beyond its keys: 2 rows of 3, two cards turned up, the flip, going out; no knock.

golf-6-knock adds the knock with its own module (``tamalou_golf.knock``), asked before this one.
"""

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


@tamalou.hookimpl
def tamalou_call_allowed(view: tamalou.PlayerView) -> bool | None:
    """Nobody knocks: the round ends when a player's cards are all face up."""
    return False
