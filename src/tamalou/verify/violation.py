"""What every check shares to word a violation (``InvariantViolation`` itself is in ``tamalou.errors``): where the
game is (turn, phase, player to play), where a card lies, the first difference between two states (a snapshot
without its action log, cheap to compare on a long game), how an action is shown, and the default generator of a
sampling check (seeded from the game, so the same state is checked the same way every time), and the round dealt again
to play its actions anew (``dealt_again``)."""

from __future__ import annotations

import json
import random
from typing import Any

from ..actions import ACTION_TYPES, Action, action_to_dict
from ..engine import Round
from ..errors import InvariantViolation

__all__ = ["InvariantViolation"]


# ----------------------------------------------------------------------------- small helpers


def dealt_again(game: Round) -> Round:
    """``game``'s round dealt again, not started: its variant, players, seed, deal and first player (a check that
    plays its actions anew, from the deal: the events of each step, the cards once public...)."""
    first = game.first_player if game.first_given else None
    return Round(game.variant, game.players, seed=game.seed, deal=game.deal_spec, first_player=first)


def _where(game: Round) -> str:
    phase = getattr(game.phase, "value", game.phase)
    return (
        f"[turn {game.turn}, phase {phase!r}, player {game.current_player} to play, after {len(game.actions)} actions]"
    )


def violation_of(game: Round, message: str, invariant: str = "") -> InvariantViolation:
    return InvariantViolation(f"{message} {_where(game)}", invariant=invariant)


#: What a failure says when a hook answers twice differently of the same state: the cause is not a leak.
OUTSIDE_STATE = (
    "state kept outside the round (a class or module variable, module random, the order of a set: keep the state "
    "in the mechanic's new_state and draw chance from g.rng)"
)


#: How often a check asks again, nothing exchanged, what changed under an exchange before it calls the change a leak:
#: a hook drawing from module random answers the same now and then (a coin, half the time).
ASK_AGAIN = 4


def outside_state(game: Round, what: str, diff: str, invariant: str) -> InvariantViolation:
    """The violation of ``invariant`` for ``what`` (a seat's view, its listing, the events of a step) that differs when
    asked twice of the same state, with no card exchanged: ``OUTSIDE_STATE``, not a leak."""
    return violation_of(game, f"{OUTSIDE_STATE}: {what} differs when asked twice of the same state: {diff}", invariant)


def check_rng(game: Round, name: str) -> random.Random:
    """The default generator of a sampling check: seeded from the game (its seed and how many actions
    it has seen) and the check's name, so the same state is always checked the same way."""
    return random.Random(f"{name}/{game.seed}/{len(game.actions)}")


def _place(game: Round, card: int) -> str:
    """Where card id ``card`` lies, for messages."""
    for p, hand in enumerate(game.hands):
        for s, c in enumerate(hand):
            if c == card:
                return f"player {p} slot {s}"
    if card in game.stock:
        return f"stock (position {len(game.stock) - 1 - game.stock.index(card)} from the top)"
    if card in game.discard:
        return f"discard (position {game.discard.index(card)} from the bottom)"
    if card == game.held:
        return "held"
    return "nowhere"


def card_text(game: Round, card: int) -> str:
    text = game.text[card] if 0 <= card < len(game.text) else "?"
    return f"card {card} ({text}, {_place(game, card)})"


def value_diff(before: Any, after: Any, path: str = "") -> str:
    """The first difference between two JSON-like values, as ``path: before -> after``."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before) + [k for k in after if k not in before]:
            if key not in after or key not in before or before[key] != after[key]:
                return value_diff(before.get(key, "<missing>"), after.get(key, "<missing>"), f"{path}.{key}")
    elif isinstance(before, list) and isinstance(after, list):
        for i, (x, y) in enumerate(zip(before, after, strict=False)):
            if x != y:
                return value_diff(x, y, f"{path}[{i}]")
        if len(before) != len(after):
            return f"{path or '<root>'}: length {len(before)} -> {len(after)}"
    return f"{path or '<root>'}: {before!r} -> {after!r}"


def json_diff(before: str, after: str) -> str:
    try:
        return value_diff(json.loads(before), json.loads(after))
    except ValueError:
        return f"{before[:80]!r} -> {after[:80]!r}"


StateKey = tuple[str, list[Action]]


def state_of(game: Round) -> StateKey:
    """The game's snapshot without its action log, and the log: what a refusal, or trying actions on
    copies, must leave as it was (on a long game, much cheaper than a whole ``to_json``)."""
    g = game.copy()
    g.actions = []
    return g.to_json(), list(game.actions)


def state_diff(before: StateKey, after: StateKey) -> str | None:
    """How two ``state_of`` differ, or ``None``."""
    if before[0] != after[0]:
        return json_diff(before[0], after[0])
    if before[1] != after[1]:
        return f".actions: {len(before[1])} actions -> {len(after[1])}"
    return None


def describe_action(action: object) -> str:
    if isinstance(action, tuple(ACTION_TYPES.values())):
        return json.dumps(action_to_dict(action))  # type: ignore[arg-type]
    return repr(action)
