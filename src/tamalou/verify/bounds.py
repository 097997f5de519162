"""How long a round may run: ``turn_bound`` (the actions one turn may take) and ``step_bound`` (the
actions a round may take), both from the ruleset's rules, why a round in play is not ending
(``stalled``), and ``TurnWatch``, which finds a turn that comes back to a table it was at (a cycle): the
``termination`` invariant, random playouts, ``tamalou verify``'s games and the replay of a counterexample
all stop a round at these bounds."""

from __future__ import annotations

from ..actions import Tick
from ..engine import Round
from ..engine.game import Game, round_of
from .violation import state_of

#: How many actions into one turn ``TurnWatch`` starts remembering the tables the turn is at: an ordinary
#: turn (a draw, a placement, a power's steps) never pays for it.
CYCLE_FROM = 4


def turn_bound(game: Game | Round) -> int:
    """How many actions one turn may take at most (the opening's peeks included in the first): a few
    draws with their placement, power steps and call, every player's match attempts on each thrown
    card, and one action per player; four times that for slack. ``tamalou verify`` reports a turn
    that takes more as a round that does not end (long before ``step_bound``)."""
    game = round_of(game)
    r = game.variant.rules
    per_turn = r.draw.per_turn
    matches = game.players * r.matching.max_cards * (per_turn + 1)
    return 4 * (6 * per_turn + 4 + matches + game.players)


def step_bound(game: Game | Round) -> int:
    """How many actions a round may take at most, from ``rules.end.max_turns``: per turn, a few
    draws with their placement, power steps and call, plus every player's match attempts on each
    thrown card; four times that for slack (a play-again power adds draws to a turn)."""
    game = round_of(game)
    r = game.variant.rules
    per_turn = r.draw.per_turn
    matches = game.players * r.matching.max_cards * (per_turn + 1)
    return 4 * ((r.end.max_turns + 1) * (6 * per_turn + 4 + matches) + game.players)


def stalled(game: Round, since: int, bound: int | None, per_turn: int | None) -> str | None:
    """Why the round in play is not ending (``since``: actions of the turn in play), or ``None``."""
    if bound is not None and len(game.actions) >= bound:
        return not_ended(game, bound)
    max_turns = game.variant.rules.end.max_turns
    if per_turn is not None and since >= per_turn:
        return (
            f"the turn in play (game.turn = {game.turn}) has not ended after {since} actions (the bound: "
            f"turn_bound = {per_turn} actions in one turn, from rules.draw.per_turn and rules.matching)"
        )
    if game.turn > max_turns:
        return f"{game.turn} turns are played and the round goes on, past rules.end.max_turns = {max_turns}"
    return None


def not_ended(game: Round, bound: int) -> str:
    return (
        f"the round has not ended after {len(game.actions)} actions (the bound: step_bound = {bound} actions, "
        f"from rules.end.max_turns = {game.variant.rules.end.max_turns})"
    )


class TurnWatch:
    """Watches the turn in play for a cycle: from ``CYCLE_FROM`` actions into a turn, the whole state after each
    action (the snapshot without its action log: cards, knowledge, phase, clock, generator and every
    mechanic's state) is remembered, and coming back to one is a cycle: whoever chose so once can choose so
    forever, and the turn never ends (a "play again" power whose use changes nothing, two swaps that undo
    each other). Call ``step(game)`` after each action."""

    __slots__ = ("since", "tables", "turn")

    def __init__(self, game: Round) -> None:
        self.turn = game.turn
        self.since = 0
        self.tables: dict[str, int] = {}

    def step(self, game: Round) -> str | None:
        """After an action: why the turn in play is a cycle, or ``None``."""
        if game.turn != self.turn:
            self.turn, self.since, self.tables = game.turn, 0, {}
            return None
        self.since += 1
        if self.since < CYCLE_FROM or game.is_over or (game.actions and isinstance(game.actions[-1], Tick)):
            return None  # time passing that changes nothing is not a player's choice
        first = self.tables.setdefault(state_of(game)[0], self.since)
        if first == self.since:
            return None
        return (
            f"a cycle: the turn in play (game.turn = {game.turn}) came back after its action {self.since} to the very "
            f"state it was in after its action {first} (the same cards, knowledge, phase and mechanics' state): a "
            f"player who keeps choosing the same way plays this turn forever"
        )
