"""Tamalou for machine learning (the ``ai`` extra: ``pip install "tamalou[ai]"``).

- ``tamalou.ai.encoding``: ``ActionSpace.of(variant, players)``, a fixed, documented numbering of every
  action a ruleset's players may take (plugin powers and moves included), with legal-action masks.
- ``tamalou.ai.observation``: ``observation(view, variant)``, a fixed-size float32 tensor of what one
  seat sees, and ``observation_string(view)``.
- ``tamalou.ai.pettingzoo``: ``env(variant=..., players=..., reward=...)``, a PettingZoo AEC environment.
- ``tamalou.ai.gym``: ``TamalouGymEnv(variant, players, opponents=...)``, one seat against bots as a Gymnasium
  environment (``gymnasium.make("tamalou/Tamalou-v0", ...)`` once imported).
- ``tamalou.ai.openspiel``: the OpenSpiel game ``python_tamalou`` (registered on import).
- ``tamalou.ai.conformance``: ``check_adapters(variant)``, the adapters' conformance checks (the action
  numbering, PettingZoo's ``api_test`` and ``seed_test``, OpenSpiel's ``random_sim_test``) on any ruleset, for a
  package's own tests (``pytest --tamalou-adapters`` runs them on each ``--tamalou-variant``).
- ``tamalou.ai.turns``: the reaction turns and the time steps they share, for a framework where one agent moves
  at a time.

``import tamalou`` imports none of this (nor numpy). A game's ids: ``action_id(game, a)``,
``action_from_id(game, i, player)`` and ``legal_mask(game, p)`` (they were methods of ``Game``, which made the
engine import this extra: the engine now imports nothing above it).
"""

from __future__ import annotations

from .conformance import check_action_encoding, check_adapters, check_openspiel, check_pettingzoo
from .encoding import (
    ActionEncodingError,
    ActionSpace,
    action_from_id,
    action_id,
    default_max_group,
    default_max_slots,
    legal_mask,
)
from .observation import Observer, observation, observation_size, observation_string

__all__ = [
    "ActionEncodingError",
    "ActionSpace",
    "Observer",
    "action_from_id",
    "action_id",
    "check_action_encoding",
    "check_adapters",
    "check_openspiel",
    "check_pettingzoo",
    "default_max_group",
    "default_max_slots",
    "legal_mask",
    "observation",
    "observation_size",
    "observation_string",
]
