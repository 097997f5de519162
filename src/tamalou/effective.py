"""Moved to ``tamalou.rulesets.effective``; this module keeps the old imports working this release."""

from __future__ import annotations

from .rulesets.effective import (
    STANDALONE_LEFT_OUT,
    CardLine,
    EffectiveRules,
    PluginLine,
    effective_rules,
    match_words,
    power_title,
    variant_to_toml,
)

__all__ = [
    "STANDALONE_LEFT_OUT",
    "CardLine",
    "EffectiveRules",
    "PluginLine",
    "effective_rules",
    "match_words",
    "power_title",
    "variant_to_toml",
]
