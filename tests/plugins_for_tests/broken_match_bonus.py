"""Broken on purpose: a match hook that changes the result it is handed.

"The winner of a round takes 5 points off": the author writes ``tamalou_match_adjust`` and, instead of returning the
adjustment, takes the points off the round's ``Result`` in place (and returns ``None``: no adjustment). The match
recorded the round's scores before asking the hook, so the result it keeps and the scores it adds up no longer agree:
the match's totals do not add up to its rounds (``tamalou verify`` reports ``match``). The rule is one line of a
correct hook: return ``[-5 if p in result.winners else 0 for p in range(match.players)]``.
"""

from __future__ import annotations

from typing import Any

import tamalou


@tamalou.hookimpl
def tamalou_match_adjust(variant: Any, match: tamalou.MatchTally, result: Any) -> list[int] | None:
    for p in result.winners:
        result.scores[p] -= 5  # BUG: changes the result the match keeps, instead of returning an adjustment
    return None
