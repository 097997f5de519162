"""A round's last lap without a call (``Flow.begin_last_lap``): a player whose cards come to 3 points or less at
the end of their turn begins it ("low"); every other player plays once more, then the round ends with the reason
"low". ``tests/api/test_last_lap.py`` uses it."""

from __future__ import annotations

import tamalou
from tamalou import Event, Round


class LowLap(tamalou.Mechanic):
    name = "low_lap"
    order = 30  # before the call (40): a player who begins the last lap is not asked to call

    def turn_ending(self, g: Round, events: list[Event]) -> bool:
        p = g.current_player
        if g.total(p) <= 3:
            g.begin_last_lap(p, "low", events)
        return False


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [LowLap]
