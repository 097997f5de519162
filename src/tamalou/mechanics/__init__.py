"""The built-in mechanics: each optional part of the rules, one module each.

| module | mechanic | chosen when |
|---|---|---|
| ``opening.py`` | ``ChosenPeek``: each player picks their opening peek | ``peek.mode = "choose"`` |
| ``matching.py`` | ``Matching``: matching, late throws, the closing window | ``matching.enabled`` |
| ``opponents.py`` | ``OpponentMatching``: matching opponents' cards, the give | ``matching.opponents`` |
| ``powers.py`` | ``Powers``: offering, resolving and passing on card powers | always |
| ``second_draw.py`` | ``SecondDraw``: a second draw in a turn | ``draw.per_turn = 2`` |
| ``flip.py`` | ``FlipOnDiscard``: a stock card thrown away turns a face-down card up | ``draw.discard_turns_up`` |
| ``calling.py`` | ``Calling``: the call, verified calls, the empty layout (``SealedCalling``: sealed) | always |
| ``timing.py`` | ``Timing``: the clock, auto-play, absence, lockouts, countdown | ``timing.turn_seconds > 0`` |
| ``extra_draws.py`` | ``ExtraDraws``: the draws of the power ``draw_up_to`` | a card has that power |
| ``stock_out.py`` | ``StockOut``: the round ends when the stock runs out | ``draw.stock_empty = "end_round"`` |

They are registered by the built-in plugin ``tamalou.plugins.mechanics`` through the hook
``tamalou_mechanics()``, as a third party's are. The base class is ``tamalou.Mechanic``
(``tamalou.mechanic``).
"""

from __future__ import annotations

from ..mechanic import Mechanic, PhaseSpec
from .calling import Calling, SealedCalling
from .extra_draws import ExtraDraws
from .flip import FlipOnDiscard
from .matching import Matching
from .opening import ChosenPeek
from .opponents import OpponentMatching
from .powers import Powers
from .second_draw import SecondDraw
from .stock_out import StockOut
from .timing import Timing

BUILTIN_MECHANICS: tuple[type[Mechanic], ...] = (
    ChosenPeek,
    ExtraDraws,
    Matching,
    OpponentMatching,
    Powers,
    SecondDraw,
    FlipOnDiscard,
    Calling,
    SealedCalling,
    StockOut,
    Timing,
)

__all__ = [
    "BUILTIN_MECHANICS",
    "Calling",
    "ChosenPeek",
    "ExtraDraws",
    "FlipOnDiscard",
    "Matching",
    "Mechanic",
    "OpponentMatching",
    "PhaseSpec",
    "Powers",
    "SealedCalling",
    "SecondDraw",
    "StockOut",
    "Timing",
]
