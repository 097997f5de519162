"""Whose turn it is in a sequential framework: the reaction turns that ``tamalou.ai.pettingzoo`` and
``tamalou.ai.openspiel`` share.

A round of tamalou waits for the seats of ``game.to_act``, and any other seat may match out of turn.
Frameworks where one agent moves at a time ask the others explicitly: after each move, every seat that
the round does not wait for and that has matches listed gets a *reaction* turn, in seat order after the
one who moved (ending with that seat itself): a match, or ``NOOP``. A reaction that matches is a move
too, and queues the reactions after it again. When no reaction is pending, the first seat of
``game.to_act`` moves. A seat that must move with no action that has an id (its layout grew past the
space's ``max_slots``) plays its first listed action, and the reactions after it are queued.

**Time** (timed rulesets, ``rules.timing.turn_seconds > 0``) is an explicit step. A seat's move is stamped
``seconds`` after the clock (``play``: the framework's think time, 1 s by default, and never at or past the next
deadline, so that a move chosen is a move played). On its turn a seat may also *wait* (``Turn.wait``: ``NOOP``
is legal then too): time passes to the next deadline (``wait``), where the round's clock plays for it, as a
turn that ran out at a real table. When the round waits for nobody (the opening's seconds, the final
countdown), ``next_turn`` lets time pass to the next deadline itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..actions import Action, Tick, timed
from ..errors import GameStateError

if TYPE_CHECKING:
    from ..engine.round import Round
    from ..events import Event
    from .encoding import ActionSpace

__all__ = ["SECONDS_PER_MOVE", "Turn", "is_timed", "next_turn", "play", "reactions_after", "wait"]

#: How long a move takes in a timed ruleset, by default: the seconds between the clock and a move's ``at``.
SECONDS_PER_MOVE = 1.0


class Turn(NamedTuple):
    """Who moves next: ``seat``, the ids it may choose from, whether it is a reaction (``NOOP`` lets the
    match go) and whether it may wait (a turn of a timed round: ``NOOP`` lets its time run out)."""

    seat: int
    ids: list[int]
    react: bool
    wait: bool = False

    @property
    def noop(self) -> bool:
        """Whether ``NOOP`` is legal: a reaction, or a turn that may wait."""
        return self.react or self.wait


def is_timed(game: Round) -> bool:
    """Whether ``game``'s ruleset keeps time (``rules.timing.turn_seconds > 0``)."""
    return game.variant.rules.timing.turn_seconds > 0


def play(game: Round, action: Action, seconds: float = SECONDS_PER_MOVE) -> list[Event]:
    """Apply a seat's move: in a timed round stamped ``seconds`` after the clock, or halfway to the next deadline
    when that comes sooner (a move chosen before a deadline is played before it); as it is otherwise."""
    if is_timed(game):
        now, deadline = game.now, game.deadline
        at = now + seconds if deadline is None or now + seconds < deadline else now + (deadline - now) / 2
        action = timed(action, at)
    return game.apply(action)


def wait(game: Round) -> list[Event]:
    """Let time pass to the next deadline (a turn's end, the opening's, the countdown's): what fires there
    fires (a turn that ran out is played by the clock)."""
    deadline = game.deadline
    if deadline is None:
        raise GameStateError(f"nothing to wait for in phase {str(game.phase)!r}: no deadline")
    return game.apply(Tick(at=deadline))


def reactions_after(seat: int, players: int) -> list[int]:
    """The reaction turns after ``seat`` moved: every seat after it in order, then ``seat`` itself."""
    return [(seat + k) % players for k in range(1, players + 1)]


def next_turn(game: Round, space: ActionSpace, queue: list[int]) -> tuple[Turn | None, int]:
    """The next turn (``None`` once the round is over) and how many moves were played for seats that had
    none with an id. ``queue`` holds the reaction turns pending: taken from it, and refilled after a
    move played so."""
    auto = 0
    clocked = is_timed(game)
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
            if clocked and game.deadline is not None:
                wait(game)  # nobody to act: time passes to what comes next
                continue
            raise GameStateError(f"nobody to act in phase {str(game.phase)!r} of an untimed round")
        q = waiting[0]
        ids = space.legal_ids(game, q)
        if ids or (clocked and game.deadline is not None):
            return Turn(q, ids, False, clocked and game.deadline is not None), auto
        play(game, game.legal_actions(q)[0])  # nothing with an id: its first listed action
        auto += 1
        queue[:] = reactions_after(q, game.players)
    return None, auto
