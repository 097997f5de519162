"""Moved to ``tamalou.bots.ismcts`` (``ISMCTSBot``, ``Determinizer``, ``RolloutPolicy``, ``SEARCHED``,
``Unbuildable``); this module keeps the old imports working this release."""

from __future__ import annotations

from .bots.ismcts import SEARCHED as SEARCHED
from .bots.ismcts import Determinizer, ISMCTSBot, RolloutPolicy
from .bots.ismcts import Unbuildable as Unbuildable

__all__ = ["Determinizer", "ISMCTSBot", "RolloutPolicy"]
