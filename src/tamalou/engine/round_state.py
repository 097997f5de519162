"""All the saved state of a round, in one place: ``State``.

``State`` holds what the core knows of a round: where every card is, who knows it, whose turn it is,
the phase, the turn's own progress. A mechanic (``tamalou.mechanics``) keeps its own state on its own
object and lists it in its ``STATE``; a snapshot saves both. Cards are ints (indexes into the game's
universe ``cards``); ``NO_CARD`` marks an emptied slot or an empty hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from .._compiling import mypyc_attr
from ..cards import Card
from ..rng import Rng
from .state import Judged

if TYPE_CHECKING:
    from ..actions import Action
    from ..schema import Variant
    from ..views import Result
    from .phases import PhaseTable
    from .rules_face import RulebookFace


# Compiled by mypyc, the core's classes stay open to subclasses in Python (the mechanics, a user's Round).
@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """The core's saved state (``STATE`` lists what a snapshot keeps) and the round's fixed facts."""

    #: Saved by snapshots, in this order.
    STATE: tuple[str, ...] = (
        "seed",
        "first_player",
        "first_given",
        "hands",
        "stock",
        "discard",
        "knowers",
        "phase",
        "current_player",
        "turn",
        "caller",
        "held",
        "holder",
        "held_from",
        "draws",
        "stock_only",
        "reason",
        "left",
        "locked",
        "now",
        "sealed",
        "last_lap",
        "last_lap_reason",
        "face_up",
        "starter",
    )

    #: Saved fields added after snapshot version 2 began, with the value an older snapshot restores to.
    ADDED: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {"sealed": 0, "last_lap": None, "last_lap_reason": "", "face_up": 0, "starter": None}
    )
    #: Saved fields a snapshot holds only when they differ from their value in ``ADDED`` (a round without a last
    #: lap, or without a face-up card, is saved as before they were added).
    WHEN_SET: ClassVar[frozenset[str]] = frozenset({"last_lap", "last_lap_reason", "face_up", "starter"})

    __slots__ = (
        "_result",
        "_undo",
        "actions",
        "all_mask",
        "caller",
        "cards",
        "current_player",
        "deal_spec",
        "discard",
        "draws",
        "face_up",
        "first_given",
        "first_player",
        "flow",
        "hands",
        "held",
        "held_from",
        "holder",
        "knowers",
        "last_lap",
        "last_lap_reason",
        "left",
        "locked",
        "ms",
        "now",
        "phase",
        "players",
        "power_of",
        "rank",
        "rb",
        "reason",
        "rng",
        "sealed",
        "seed",
        "starter",
        "stock",
        "stock_only",
        "text",
        "turn",
        "value",
        "variant",
    )

    # fixed for the round
    variant: Variant
    rb: RulebookFace  #: the variant's rulebook, as the round reads it
    players: int
    all_mask: int  #: one bit per player
    cards: list[Card]  #: the universe: card id -> face
    text: list[str]  #: card id -> text ("KS")
    rank: list[str]  #: card id -> rank
    value: list[int]  #: card id -> points (hooks applied)
    power_of: list[str]  #: card id -> the name of its power ("none" for none)
    deal_spec: dict[str, Any] | None
    flow: PhaseTable  #: the variant's phase table
    ms: list[Any]  #: each mechanic's state, by its index in the rulebook
    # saved
    seed: int
    rng: Rng
    first_player: int
    first_given: bool  #: whether ``new_game`` was given the first player (else it was drawn)
    #: The seat a mechanic's ``opening_done`` chose to play the first turn, or ``None``: the first player does.
    starter: int | None
    hands: list[list[int]]  #: per player, per slot: a card id or NO_CARD
    stock: list[int]  #: top last
    discard: list[int]  #: top last
    knowers: list[int]  #: card id -> bit mask of the players who know it
    #: Bit mask over card ids: the cards lying face up in a layout (``Table.turn_up``), public, known to every seat.
    #: A card keeps it while it moves between layouts and loses it when it leaves them (thrown, taken, reshuffled).
    face_up: int
    phase: str  #: a ``Phase`` for the built-in phases; a plugin's phase is its own name
    current_player: int
    turn: int  #: turns played
    caller: int | None
    #: The seat whose move began the round's last lap without a call (``Flow.begin_last_lap``), or ``None``.
    last_lap: int | None
    #: The reason the round ends with when the last lap is over ("" without one).
    last_lap_reason: str
    held: int  #: the card the player to move holds, or NO_CARD
    holder: int  #: who holds it (the turn's player, even while another acts out of turn), or -1
    held_from: str  #: "stock" or "discard" while a card is held
    draws: int  #: draws taken this turn
    stock_only: bool  #: this turn's next draw must come from the stock
    reason: str  #: why the round ended ("" while it goes on)
    left: int  #: bit mask of the players out of the round (ranked last, never targeted)
    locked: int  #: bit mask of the layouts nobody may exchange cards with
    sealed: int  #: bit mask of the layouts nobody may aim at at all (no look, exchange, match or give)
    now: float  #: the game's time in seconds (timed rulesets; time is an input)
    actions: list[Action]
    _result: Result | Judged | None  #: ``judged()``'s lists, then the ``Result`` made of them once asked for
    _undo: list[Any]  #: ``Round.push``'s saved states, newest last (not saved: a copy starts with none)
