"""Whose turn it is in a sequential framework: the reaction turns that ``tamalou.ai.pettingzoo`` and
``tamalou.ai.openspiel`` share.

A round of tamalou waits for the seats of ``game.to_act``, and any other seat may match out of turn.
Frameworks where one agent moves at a time ask the others explicitly: after each move, every seat that
the round does not wait for and that has matches listed gets a *reaction* turn, in seat order after the
one who moved (ending with that seat itself): a match, or ``NOOP``. A reaction that matches is a move
too, and queues the reactions after it again. When no reaction is pending, the first seat of
``game.to_act`` moves. A seat that must move with no action that has an id (its layout grew past the
space's ``max_slots``) plays its first listed action, and the reactions after it are queued.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..errors import GameStateError

if TYPE_CHECKING:
    from ..engine.round import Round
    from .encoding import ActionSpace

__all__ = ["Turn", "next_turn", "reactions_after"]


class Turn(NamedTuple):
    """Who moves next: ``seat``, the ids it may choose from, and whether it is a reaction (``NOOP``
    allowed besides ``ids``)."""

    seat: int
    ids: list[int]
    react: bool


def reactions_after(seat: int, players: int) -> list[int]:
    """The reaction turns after ``seat`` moved: every seat after it in order, then ``seat`` itself."""
    return [(seat + k) % players for k in range(1, players + 1)]


def next_turn(game: Round, space: ActionSpace, queue: list[int]) -> tuple[Turn | None, int]:
    """The next turn (``None`` once the round is over) and how many moves were played for seats that had
    none with an id. ``queue`` holds the reaction turns pending: taken from it, and refilled after a
    move played so."""
    auto = 0
    while not game.is_over:
        waiting = game.to_act
        while queue:
            q = queue.pop(0)
            if q in waiting:
                continue
            ids = space.legal_ids(game, q)
            if ids:
                return Turn(q, ids, True), auto
        if not waiting:
            raise GameStateError(f"nobody to act in phase {str(game.phase)!r} of an untimed round")
        q = waiting[0]
        ids = space.legal_ids(game, q)
        if ids:
            return Turn(q, ids, False), auto
        game.apply(game.legal_actions(q)[0])  # nothing with an id: its first listed action
        auto += 1
        queue[:] = reactions_after(q, game.players)
    return None, auto
