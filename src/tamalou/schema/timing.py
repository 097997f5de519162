"""The ``timing`` section of ``[rules]``: the clock of the rulesets played against time (turns, the opening peek,
the final countdown, the lockouts of matching).
"""

from __future__ import annotations

from pydantic import Field

from .bounds import MAX_LOCKOUTS, MAX_SECONDS, MAX_TURNS
from .key_types import Seconds, Section, Tup

_SECONDS = f"Seconds: a finite number from 0 to {MAX_SECONDS:.0f} (a year)."
_SECONDS_EACH = f"a finite number of seconds from 0 to {MAX_SECONDS:.0f} (a year)"


class Timing(Section):
    """Time, for rulesets played against the clock (tamalou.fun). Time is an input: actions carry ``at``
    (seconds) and a ``tick`` action advances it; the machine's clock is never read.
    ``turn_seconds = 0`` means an untimed game: nothing below then applies.
    Every time is a finite number of seconds from 0 to 31536000 (``MAX_SECONDS``, a year), so that a
    round's clock stays within what a snapshot restores."""

    turn_seconds: Seconds = Field(
        0, description=f"Length of a turn; 0: untimed. At its end the turn is auto-played. {_SECONDS}"
    )
    absent_turn_seconds: Seconds = Field(
        15,
        description=f"Length of the turns of a player who let a whole turn time out, until they play. {_SECONDS}",
    )
    absent_turns_to_leave: int = Field(
        3,
        ge=0,
        le=MAX_TURNS,
        description="Whole turns timed out in a row after which a player leaves the round (0: never; at most "
        f"{MAX_TURNS}).",
    )
    peek_seconds: Seconds = Field(
        0, description=f"The opening peek: no play and no matching before it ends. {_SECONDS}"
    )
    swap_show_seconds: Seconds = Field(0, description=f"No matching while a blind swap is shown. {_SECONDS}")
    countdown_seconds: Seconds = Field(
        0, description=f"After the last turn of a called round, time left for matching before the end. {_SECONDS}"
    )
    lockouts: Tup[Seconds] = Field(
        (),
        max_length=MAX_LOCKOUTS,
        description="Seconds matching is locked after the 1st, 2nd... miss in a row; past the list, for the rest "
        "of the round. A successful match clears the count; each start of one's turn while unlocked clears one. "
        f"At most {MAX_LOCKOUTS} times, each {_SECONDS_EACH}.",
    )
