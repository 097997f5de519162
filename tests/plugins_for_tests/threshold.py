"""A call is right at 20 points or less."""

from __future__ import annotations

from tamalou import Variant, hookimpl

THRESHOLD = 20


@hookimpl
def tamalou_call_threshold(variant: Variant) -> int | None:
    return THRESHOLD
