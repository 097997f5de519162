"""Tamalou for machine learning (the ``ai`` extra: ``pip install "tamalou[ai]"``).

- ``tamalou.ai.encoding``: ``ActionSpace.of(variant, players)``, a fixed, documented numbering of every
  action a ruleset's players may take (plugin powers and moves included), with legal-action masks.
- ``tamalou.ai.observation``: ``observation(view, variant)``, a fixed-size float32 tensor of what one
  seat sees, and ``observation_string(view)``.
- ``tamalou.ai.pettingzoo``: ``env(variant=..., players=..., reward=...)``, a PettingZoo AEC environment.
- ``tamalou.ai.openspiel``: the OpenSpiel game ``python_tamalou`` (registered on import).
- ``tamalou.ai.turns``: the reaction turns both share, for a framework where one agent moves at a time.

``import tamalou`` imports none of this (nor numpy): the game's thin methods ``game.action_id(a)``,
``game.action_from_id(i, player)`` and ``game.legal_mask(p)`` import it when first called.
"""

from __future__ import annotations

from .encoding import ActionEncodingError, ActionSpace, default_max_group, default_max_slots
from .observation import Observer, observation, observation_size, observation_string

__all__ = [
    "ActionEncodingError",
    "ActionSpace",
    "Observer",
    "default_max_group",
    "default_max_slots",
    "observation",
    "observation_size",
    "observation_string",
]
