"""The core: a round's state, the table's card moves, the flow of phases, and the ``Game`` facade.

| module | holds |
|---|---|
| ``state.py`` | ``State`` (every saved field), ``Phase``, ``Reason``, ``NO_CARD`` |
| ``table.py`` | ``Table``: the only code that moves cards and changes who knows them |
| ``flow.py`` | ``Flow``: the phase table and the turn's transitions (the only writer of the phase) |
| ``mechanic.py`` | ``Mechanic`` and ``PhaseSpec``: how mechanics plug into the flow |
| ``game.py`` | ``Game``, ``new_game``, ``replay`` |
| ``snapshot.py`` | snapshots and copies |

Nothing here names a ruleset, a power or an optional mechanic: those are plugins.
"""

from __future__ import annotations

from .game import Game, new_game, replay
from .mechanic import Mechanic, PhaseSpec
from .state import NO_CARD, Phase, Reason

__all__ = ["NO_CARD", "Game", "Mechanic", "Phase", "PhaseSpec", "Reason", "new_game", "replay"]
