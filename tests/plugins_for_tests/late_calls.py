"""Nobody may call before four turns have been played."""

from __future__ import annotations

from tamalou import PlayerView, Variant, hookimpl

FIRST_CALL_TURN = 4


@hookimpl
def tamalou_call_allowed(variant: Variant, view: PlayerView) -> bool | None:
    return None if view.turn >= FIRST_CALL_TURN else False
