"""Recorded actions played again: ``reproduce`` deals a game again (a seed or a stacked deal), applies the
actions one by one and checks an invariant (or every one) on the way, and says what it found in a
``Reproduction``. A counterexample's ``check`` (``tamalou replay``) and the shrinker play their actions so."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, action_to_dict
from ..engine import Round
from ..errors import IllegalAction, SetupError
from ..events import Event
from ..schema import Variant
from .bounds import TurnWatch, stalled, step_bound, turn_bound
from .checks_cards import check_conservation
from .checks_events import check_event_schema, check_moves_known, places
from .checks_knowledge import check_step_knowledge
from .registry import INVARIANTS
from .violation import InvariantViolation

#: The invariants checked step by step as the actions are applied.
STEP = ("conservation", "knowledge_events", "event_schema", "knowledge_follows_moves")


@dataclass
class Reproduction:
    """What playing recorded actions again found: the ``game`` reached (``None`` if it could not be
    dealt), the ``violation`` of the invariant (``None``: it holds), how many actions were
    ``applied``, the first recorded action that was ``refused`` (its index and the reason: the rules
    changed since), and whether the invariant could be ``checked`` at all (an ``"end"`` invariant
    needs a finished round)."""

    game: Round | None
    violation: InvariantViolation | None
    applied: int
    refused: tuple[int, str] | None = None
    checked: bool = True

    @property
    def fails(self) -> bool:
        return self.violation is not None


StepCallback = Callable[[Round, Action | None, list[Event]], None]


def reproduce(
    variant: Variant,
    players: int,
    actions: Sequence[Action | dict[str, Any]],
    invariant: str | None,
    *,
    seed: int | None,
    deal: dict[str, Any] | None = None,
    first_player: int | None = None,
    thorough: bool = True,
    on_step: StepCallback | None = None,
) -> Reproduction:
    """Deal the game again (``seed``, or a stacked ``deal``), apply ``actions`` one by one and check
    ``invariant`` (a name of ``INVARIANTS``; ``None``: every one but those checked once per run and ``match``): a
    step invariant after every action, the others on the state reached (an ``"end"`` one only if the round is over;
    ``termination``: the recorded actions themselves, past a bound or in a cycle). Any exception but
    ``IllegalAction`` from the deal or an action is a ``no_crash`` violation, one that escapes a
    check a violation of that check; a refused action stops the replay there (``refused``).
    ``on_step(game, action, events)`` is called after the deal (``action`` ``None``) and after each
    action."""
    every = [n for n, inv in INVARIANTS.items() if inv.when not in ("run", "match")]
    names = every if invariant is None else [invariant]
    if invariant is not None and invariant not in INVARIANTS:
        raise ValueError(f"unknown invariant {invariant!r} (invariants: {', '.join(INVARIANTS)})")
    steps = [n for n in names if n in STEP]

    def crash(game: Round | None, what: str, exc: Exception) -> InvariantViolation:
        where = f" [after {len(game.actions)} actions]" if game is not None else ""
        return InvariantViolation(f"{what} raised {type(exc).__name__}: {exc}{where}", invariant="no_crash")

    try:
        game = Round(variant, players, seed=seed, deal=deal, first_player=first_player)
        events = game.start()
    except SetupError:
        raise
    except Exception as exc:
        return Reproduction(None, crash(None, "new_game", exc), 0)
    before = [0] * len(game.knowers)
    where = places(game)
    refused: tuple[int, str] | None = None
    turn, since = game.turn, 0
    watch, cycle = TurnWatch(game), None
    for i in range(len(actions) + 1):
        if on_step is not None:
            on_step(game, game.actions[-1] if i else None, events)
        try:
            if "conservation" in steps:
                check_conservation(game)
            if "knowledge_events" in steps:
                check_step_knowledge(game, before, events)
            if "event_schema" in steps:
                check_event_schema(game, events)
            if "knowledge_follows_moves" in steps:
                check_moves_known(game, where, before, events)
        except InvariantViolation as exc:
            return Reproduction(game, exc, i)
        if i == len(actions):
            break
        a = actions[i]
        before, where = list(game.knowers), places(game)
        try:
            events = game.apply(a)
        except IllegalAction as exc:
            refused = (i, str(exc))
            break
        except Exception as exc:
            shown = json.dumps(a if isinstance(a, dict) else action_to_dict(a))
            return Reproduction(game, crash(game, f"action {i} {shown}", exc), i)
        turn, since = game.turn, 0 if game.turn != turn else since + 1
        cycle = cycle or watch.step(game)
    applied = i  # the recorded actions applied (not len(game.actions): a quiet tick takes the last tick's place)
    checked = True
    for name in names:
        inv = INVARIANTS[name]
        if name in STEP:
            continue
        if inv.when == "end" and not game.is_over:
            checked = invariant is None
            continue
        try:
            if name == "termination":  # the recorded actions themselves: no random play on
                problem = cycle or (None if game.is_over else stalled(game, since, step_bound(game), turn_bound(game)))
                if problem is not None:
                    raise InvariantViolation(f"{problem} [after {len(game.actions)} actions]", invariant="termination")
            else:
                inv(game, thorough=thorough)
        except InvariantViolation as exc:
            return Reproduction(game, exc, applied, refused)
        except Exception as exc:
            raised = f"checking {name} raised {type(exc).__name__}: {exc} [after {applied} actions]"
            return Reproduction(game, InvariantViolation(raised, invariant=name), applied, refused)
    return Reproduction(game, None, applied, refused, checked)
