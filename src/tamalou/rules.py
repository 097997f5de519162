"""Moved to ``tamalou.engine.rulebook`` (the rulebook is the engine's: a variant's plugins asked once); this module
keeps the old imports working this release."""

from __future__ import annotations

from .engine.rulebook import Rulebook, card_power, card_value, first_result, ranking_rule, rulebook

__all__ = ["Rulebook", "card_power", "card_value", "first_result", "ranking_rule", "rulebook"]
