"""Moved to ``tamalou.verify`` (the games: ``tamalou.verify.game_check`` and ``tamalou.verify.runner``;
replaying: ``tamalou.verify.reproduction``; counterexample files: ``tamalou.verify.counterexample``;
shrinking: ``tamalou.verify.shrink``); this path keeps working for this release.

Import from ``tamalou.verify`` instead::

    from tamalou.verify import Counterexample, shrink, verify
"""

from __future__ import annotations

from .verify import (
    SAMPLES,
    STYLES,
    Counterexample,
    EmbeddedVariant,
    GameReport,
    Reproduction,
    ShrinkBudget,
    check_game,
    counterexample_name,
    default_workers,
    reproduce,
    shrink,
    style_of,
    verify,
)

__all__ = [
    "SAMPLES",
    "STYLES",
    "Counterexample",
    "EmbeddedVariant",
    "GameReport",
    "Reproduction",
    "ShrinkBudget",
    "check_game",
    "counterexample_name",
    "default_workers",
    "reproduce",
    "shrink",
    "style_of",
    "verify",
]
