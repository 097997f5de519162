"""Broken on purpose: a scoring rule that depends on the process it runs in.

"The player the dealer's luck favours scores one point less": the author picks that player with ``hash()`` of a
string, which Python salts differently in every process (``PYTHONHASHSEED``). The same game scores one way in
one process and another way in the next, so a counterexample would not replay and a server restarted mid-game
would score it differently (``tamalou verify`` reports ``determinism``: the games played again in a fresh
process are not the same). A rule that needs chance draws it from the game (``g.rng``), or from its seed.
"""

from __future__ import annotations

from typing import Any

import tamalou


@tamalou.hookimpl
def tamalou_round_scores(variant: Any, tally: tamalou.Tally, winners: list[int]) -> list[int]:
    favoured = hash(f"{variant.name}/{len(tally.totals)}") % len(tally.totals)  # BUG: salted per process
    return [total - 1 if player == favoured else total for player, total in enumerate(tally.totals)]
