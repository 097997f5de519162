"""The round's words: its phases (``Phase`` and their constants), why a round ends (``Reason``), ``NO_CARD``,
and ``Judged`` (a round's end as the hooks judged it).

The saved state itself is ``tamalou.engine.round_state.State``. Cards are ints (indexes into the game's universe
``cards``); ``NO_CARD`` marks an emptied slot or an empty hand. This module imports nothing of the engine: every
module of it may use these names.
"""

from __future__ import annotations

from enum import StrEnum

#: The end of a round as the ranking hooks judged it (``Round.judged``): totals, winners, ranking, card counts,
#: scores.
Judged = tuple[list[int], list[int], list[list[int]], list[int], list[int]]

NO_CARD = -1


class Phase(StrEnum):
    """What the round waits for. The view and the result show the value (a string)."""

    PEEK = "peek"  #: opening peek, each player choosing their slots
    OPENING = "opening"  #: a timed opening peek: only time passes
    DRAW = "draw"  #: the player to move draws (or calls, or uses a passed-on power)
    HOLD = "hold"  #: they hold a drawn card: replace a slot with it, or throw it
    POWER = "power"  #: a power is on offer
    SWAP = "swap"  #: the second step of a two-step power
    CALL = "call"  #: the end of the turn, where the call is made
    GIVE = "give"  #: a matcher owes an opponent a card
    COUNTDOWN = "countdown"  #: timed: the last moment for matching after a called round's last turn
    CLOSING = "closing"  #: untimed: each player's last chance to match the round's last thrown card
    OVER = "over"  #: the round has ended


# The members as plain module constants: an enum member looked up on its class costs a descriptor
# call, too slow for the per-action paths.
PEEK, OPENING, DRAW, HOLD, POWER, SWAP = Phase.PEEK, Phase.OPENING, Phase.DRAW, Phase.HOLD, Phase.POWER, Phase.SWAP
CALL, GIVE, COUNTDOWN, CLOSING, OVER = Phase.CALL, Phase.GIVE, Phase.COUNTDOWN, Phase.CLOSING, Phase.OVER


class Reason(StrEnum):
    """Why a round ended (``Result.reason``)."""

    CALLED = "called"
    TURN_LIMIT = "turn_limit"
    NO_CARD_TO_DRAW = "no_card_to_draw"
    EMPTIED = "emptied"
    LAST_PLAYER = "last_player"
    NO_PLAYER_LEFT = "no_player_left"


#: The longest reason a round's last lap may end with (``Flow.begin_last_lap``; snapshots check it too).
MAX_REASON = 64
