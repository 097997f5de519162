"""The core: a round's state, the table's card moves, the flow of phases, the ``Round`` and the ``Game`` facade.

| module | holds |
|---|---|
| ``state.py`` | the round's words: ``Phase``, ``Reason``, ``NO_CARD`` |
| ``round_state.py`` | ``State``: every saved field; ``rules_face.py``: what it reads of its rulebook |
| ``table.py`` | ``Table``: the only code that moves cards and changes who knows them |
| ``flow.py`` | ``Flow``: the core's rows and the turn's transitions (the only writer of the phase) |
| ``phases.py`` | the phase table, built once per variant |
| ``deal.py``, ``clock.py``, ``view.py``, ``seats.py`` | the deal; time; a seat's view; the seats' actions |
| ``round.py`` | ``Round``: a round in play, as mechanics, powers and hooks are handed it; ``new_round`` |
| ``game.py`` | ``Game``, the facade users hold (the public API only); ``new_game``, ``replay``, ``round_of`` |
| ``snapshot.py`` | snapshots |
| ``copying.py`` | copies of a round, the undo of ``push`` and ``pop`` |
| ``seat_deal.py`` | ``SeatDeal``, ``round_from_seat``: rounds rebuilt from one seat's information, for a search |

Nothing here names a ruleset, a power or an optional mechanic: those are plugins. The mechanics' base class is
``tamalou.mechanic`` (re-exported here). ``Game``, ``Round``, ``new_game``, ``replay``, ``round_of``, ``SeatDeal``
and ``round_from_seat`` are loaded on first use: importing the package for its words (``Phase``, ``NO_CARD``)
does not load the round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..mechanic import Mechanic, PhaseSpec
from .state import NO_CARD, Phase, Reason

if TYPE_CHECKING:
    from .game import Game, game_of, new_game, replay, round_of
    from .round import Round, new_round
    from .seat_deal import SeatDeal, round_from_seat

__all__ = [
    "NO_CARD", "Game", "Mechanic", "Phase", "PhaseSpec", "Reason", "Round", "SeatDeal",
    "compiled", "game_of", "new_game", "new_round", "replay", "round_from_seat", "round_of",
]  # fmt: skip


def compiled() -> bool:
    """Whether the core runs compiled by mypyc (a wheel built with ``TAMALOU_COMPILE=1``) rather than from
    its Python sources. Either way the games are the same, to the last event: the compiled core is only faster."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from . import round

    return (round.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def __getattr__(name: str) -> Any:
    if name in ("Game", "game_of", "new_game", "replay", "round_of"):
        from . import game

        return getattr(game, name)
    if name in ("Round", "new_round"):
        from . import round

        return getattr(round, name)
    if name in ("SeatDeal", "round_from_seat"):
        from . import seat_deal

        return getattr(seat_deal, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
