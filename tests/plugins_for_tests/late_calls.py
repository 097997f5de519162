"""Nobody may call before four turns have been played."""

from __future__ import annotations

from tamalou import Game, hookimpl

FIRST_CALL_TURN = 4


@hookimpl
def tamalou_call_allowed(game: Game, player: int) -> bool | None:
    return None if game.turn >= FIRST_CALL_TURN else False
