"""golf-6-knock's knock: instead of drawing, a player may knock from their second turn on.

The knock is tamalou's call. "From the second turn on": once every player has played a turn. The module is
named after ``tamalou_golf.golf6`` in the ruleset's ``plugins`` (golf-6-knock extends golf-6), so its answer is
asked first and always given: golf-6's "nobody knocks" is never reached.
"""

from __future__ import annotations

import tamalou


@tamalou.hookimpl
def tamalou_call_allowed(view: tamalou.PlayerView) -> bool | None:
    """A player may knock from their second turn on (once every player has played a turn)."""
    return view.turn >= view.players
