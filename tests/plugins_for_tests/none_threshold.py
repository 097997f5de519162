"""Broken on purpose: a call threshold hook that forgets its ``return``.

The house rule: "a call is right at 7 points or less". The bug: the threshold is computed and never
returned, so the hook answers ``None`` and the ruleset's own threshold (5) applies. ``lint_variant`` says so.
"""

from __future__ import annotations

import tamalou
from tamalou import Variant


@tamalou.hookimpl
def tamalou_call_threshold(variant: Variant) -> int | None:
    """7 points."""
    threshold = 7  # noqa: F841 - BUG: 'return threshold' was forgotten
