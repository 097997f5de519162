"""The sections of ``[rules]`` about a turn's play: drawing (``draw``), matching the discard (``matching``)
and calling (``call``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from .bounds import MAX_POINTS, MAX_TURNS
from .checks import once_each
from .key_types import Points, RankName, Section, Tup


class DrawRules(Section):
    """Where a turn takes its card from."""

    from_discard: bool = Field(True, description="Whether the discard top may be taken.")
    discard_forbidden: Annotated[Tup[RankName], AfterValidator(once_each)] = Field(
        (), description="Ranks that may not be taken from the discard (e.g. J, Q, K)."
    )
    discard_must_replace: bool = Field(
        True, description="A card taken from the discard must replace a slot (it cannot be thrown back)."
    )
    per_turn: int = Field(
        1,
        ge=1,
        le=2,
        description="Draws a turn may hold (1 or 2); the second is offered after the first is resolved.",
    )
    stock_empty: Literal["reshuffle", "end_round"] = Field(
        "reshuffle",
        description="When the stock runs out: reshuffle the discard but its top, or end the round.",
    )
    discard_turns_up: bool = Field(
        False,
        description="Whether throwing away the card drawn from the stock turns one of one's face-down cards face up "
        "(the phase 'flip', action 'flip'; nothing to turn when every card is face up). The flip takes the place of "
        "the thrown card's power: a power card thrown away gives no power while the thrower has a face-down card.",
    )
    placed: Literal["face_down", "face_up"] = Field(
        "face_down",
        description="How a drawn card put into one's layout (replace) lies: 'face_down' (its holder knows it), or "
        "'face_up' (turned up for everyone where it lies).",
    )


class Matching(Section):
    """Throwing cards of the discard top's rank, in turn or out of turn."""

    enabled: bool = Field(True, description="Whether matching is played at all.")
    opponents: bool = Field(False, description="Whether an opponent's card may be thrown (then one is given).")
    max_cards: int = Field(
        3,
        ge=1,
        le=4,
        description="Cards one player may throw on one thrown card, in one match or several: 1 to 4 (Le Tamalou: "
        "1 to 3).",
    )
    by: Literal["rank", "value"] = Field("rank", description="Same rank, or same points.")
    late: Literal["return", "miss"] = Field(
        "return",
        description="A match on a card somebody else already matched: 'return' (taken back, no penalty, Le Tamalou) "
        "or 'miss' (penalised, tamalou.fun).",
    )
    penalty_cards: int = Field(1, ge=0, le=3, description="Penalty cards for each wrong card thrown (0 to 3).")
    caller_may_match: bool = Field(True, description="Whether the caller may still match in the last round.")
    while_playing: bool = Field(
        True,
        description="Whether the player to move may match while holding a drawn card or choosing a power "
        "target (tamalou.fun: no).",
    )
    closing_window: bool = Field(
        True,
        description="Untimed rulesets: when a called round's last turn ends, each player who may match gets one "
        "last chance ('match' or 'pass') on the card that turn threw before the round ends (Le Tamalou: the round ends "
        "'après un échange ou un appariement'). Timed rulesets have their countdown instead.",
    )
    give: Literal["must", "may"] = Field(
        "must",
        description="With opponents: after taking another player's card, the thrower 'must' fill the emptied "
        "slot with one of their own cards, chosen without looking (Le Tamalou), or 'may' do so or decline with 'pass' "
        "(kaboo; then a player with no card may take one too).",
    )
    race: bool = Field(
        True,
        description="Only the first right match of a thrown card counts (a later one is 'late'); false: every "
        "right match of the window counts, several players may each throw (cambia).",
    )
    penalty_cap: int = Field(
        0,
        ge=0,
        le=64,
        description="A matching penalty never takes the layout of the player who missed past this many cards "
        "(a miss one card under the cap costs one card, at the cap none); 0: no cap (cambia: 6); at most 64.",
    )
    window: Literal["at_throw", "after_power"] = Field(
        "at_throw",
        description="'at_throw': a thrown card may be matched as soon as it lands, until the next card is thrown "
        "or it is taken; 'after_power': its window opens only once its power is resolved or declined, as a phase "
        "('window') in which each player who may match does so or passes, and closes before the turn passes "
        "(cambia).",
    )


class Call(Section):
    """Calling Tamalou."""

    enabled: bool = Field(
        True,
        description="False: nobody calls, and the round ends another way (the stock running out, the turn limit, a "
        "plugin's rule). The other keys of rules.call then say what a ruleset extending this one "
        "gets when it turns the call on.",
    )
    from_turn: int = Field(
        1,
        ge=1,
        le=MAX_TURNS,
        description=f"A player may call from their own n-th turn of the round on (1: at once; 2: once they have "
        f"played a turn; up to {MAX_TURNS}). A call a player must make (empty_layout) is made whatever the turn.",
    )
    threshold: Points = Field(5, description=f"A call is right at this total or less (-{MAX_POINTS} to {MAX_POINTS}).")
    when: Literal["end_of_turn", "start_of_turn"] = Field(
        "end_of_turn",
        description="'end_of_turn': after playing, before the next player plays (Le Tamalou); "
        "'start_of_turn': instead of drawing, the call is the turn (tamalou.fun).",
    )
    verified: bool = Field(
        False,
        description="A wrong call is found out at once: cards shown to all, penalty, play goes on (tamalou.fun).",
    )
    wrong_penalty_cards: int = Field(1, ge=0, le=3, description="Penalty cards for a wrong verified call (0 to 3).")
    protect_caller: bool = Field(
        False, description="The caller's cards are face up and cannot be swapped with (tamalou.fun)."
    )
    protect_from: Literal["exchanges", "everything"] = Field(
        "exchanges",
        description="With protect_caller: what the caller's layout is protected from. 'exchanges': nobody "
        "exchanges cards with it (tamalou.fun); 'everything': it is sealed: no power looks at it or swaps with it, "
        "nobody matches from it or gives into it, and the caller matches no more (kaboo).",
    )
    empty_layout: Literal["must_call", "may_call", "ends_round", "auto_call"] = Field(
        "must_call",
        description="A player with no card at their turn: must call without playing (Le Tamalou), may call "
        "(Cartalogue), or the round ends as soon as a layout is emptied (tamalou.fun); 'auto_call': they call "
        "automatically at the start of their turn, if nobody has called yet, with no action of theirs (an event "
        "says so; kaboo).",
    )
    empty_after_call: Literal["skipped", "plays"] = Field(
        "skipped",
        description="After a call, the last turn of a player whose layout is empty: 'skipped' (Le Tamalou: a "
        "player with no card calls at their turn, unless someone already called), or 'plays' (an empty layout "
        "has no special effect: they draw and throw as usual; cambia).",
    )

    @model_validator(mode="after")
    def _protect_from_needs_protect_caller(self) -> Call:
        if self.protect_from != "exchanges" and not self.protect_caller:
            raise PydanticCustomError(
                "cross_field", "protect_from = {value} needs protect_caller = true", {"value": repr(self.protect_from)}
            )
        return self
