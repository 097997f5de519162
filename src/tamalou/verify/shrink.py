"""Shrinking a failure of ``tamalou verify`` to a small ``Counterexample``: ``shrink``, bounded by a
``ShrinkBudget``.

**How a failure is shrunk** (``shrink``), each step keeping only changes after which the same
invariant still fails (checked with ``thorough=True``: more pairs, random actions and orders):

1. fewer players, if the ruleset allows: games of each smaller count (a few seeds from the failing
   one, in the same style) are checked, and at the first count where some fail the same way, the
   shortest of them replaces the failure (players and actions shrink together);
2. the shortest prefix: the failing step itself for a step invariant; for the others, a bisection
   on the number of actions, then a scan of the states before the prefix found (the invariant
   checked after each action) for an earlier one that fails;
3. removing actions: blocks of 32, 16, 8, 4, 2 and 1 actions, from the first on;
4. simpler actions: each action replaced by a simpler legal action of the same player (a pass before
   a draw, a draw before a discard...), the rest unchanged.

It is bounded: at most ``ShrinkBudget.evaluations`` candidate games and ``ShrinkBudget.actions``
actions replayed (deterministic: the same failure shrinks to the same counterexample), and
``ShrinkBudget.seconds`` seconds as a safety net. A ``termination`` failure keeps its actions (the
round has to run to its bound); it is only tried with fewer players. So does a failure in the last turn
the round may play (``rules.end.max_turns``): fewer actions would leave the round short of that turn, so
removing them cannot keep it failing, and each try would replay the whole long round for nothing (a scoring
hook that raises on rounds that end by the turn limit spent 30 s of shrinking to no avail).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import action_to_dict
from ..engine import Round
from ..errors import TamalouError
from ..resolver import resolve
from ..schema import Variant
from ..version import __version__
from .counterexample import Counterexample, EmbeddedVariant, code_fingerprints
from .game_check import Failure, check_game
from .registry import INVARIANTS
from .reproduction import STEP, Reproduction, reproduce
from .violation import InvariantViolation


@dataclass
class ShrinkBudget:
    """How much shrinking may cost: candidate games checked, actions replayed, and seconds (a safety
    net: the first two make the result deterministic)."""

    evaluations: int = 400
    actions: int = 400_000
    seconds: float = 60.0
    _evaluations: int = 0
    _actions: int = 0
    _start: float = field(default_factory=time.monotonic)

    def left(self) -> bool:
        return (
            self._evaluations < self.evaluations
            and self._actions < self.actions
            and time.monotonic() - self._start < self.seconds
        )

    def spend(self, actions: int) -> None:
        self._evaluations += 1
        self._actions += actions


_SIMPLE = ("pass", "draw", "discard", "replace", "call", "peek", "match", "power", "swap", "give", "tick")


def _simplicity(action: dict[str, Any]) -> tuple[int, str]:
    t = str(action.get("type"))
    return (_SIMPLE.index(t) if t in _SIMPLE else len(_SIMPLE), json.dumps(action, sort_keys=True))


class _Shrinker:
    def __init__(self, v: Variant, players: int, seed: int, invariant: str, budget: ShrinkBudget) -> None:
        self.v, self.players, self.seed, self.invariant, self.budget = v, players, seed, invariant, budget

    def run(self, actions: list[dict[str, Any]]) -> Reproduction | None:
        """The replay of a candidate if it fails the same invariant (and replays whole), else None."""
        if not self.budget.left():
            return None
        try:
            r = reproduce(self.v, self.players, actions, self.invariant, seed=self.seed)
        except TamalouError:
            return None
        self.budget.spend(r.applied + 1)
        ok = r.violation is not None and r.violation.invariant == self.invariant and r.refused is None
        return r if ok else None

    def prefix(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        first = self.run(actions)
        if first is None:
            return actions
        if self.invariant in STEP:
            return actions[: first.applied]
        if self.invariant == "no_crash":
            return actions[: first.applied + 1]
        if INVARIANTS[self.invariant].when in ("end", "game"):
            return actions
        lo, hi = 0, len(actions)
        while lo < hi and self.budget.left():
            mid = (lo + hi) // 2
            if self.run(actions[:mid]) is not None:
                hi = mid
            else:
                lo = mid + 1
        return actions[: self.first_failing(actions[:hi])]

    def first_failing(self, actions: list[dict[str, Any]]) -> int:
        """The fewest of ``actions`` after which the invariant fails (the bisection finds a prefix that
        fails right after one that holds; an earlier state may fail too): one replay, the invariant
        checked after each action, within the budget."""
        inv = INVARIANTS[self.invariant]
        try:
            game = Round(self.v, self.players, seed=self.seed)
            game.start()
            for k, a in enumerate(actions):
                if not self.budget.left():
                    break
                self.budget.spend(1)
                try:
                    inv(game, thorough=True)
                except InvariantViolation as exc:
                    if exc.invariant == self.invariant:
                        return k
                game.apply(a)
        except Exception:
            pass  # the full prefix fails: keep it
        return len(actions)

    def remove(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for size in (32, 16, 8, 4, 2, 1):
            i = 0
            while i < len(actions) and self.budget.left():
                candidate = actions[:i] + actions[i + size :]
                if candidate != actions and self.run(candidate) is not None:
                    actions = candidate
                else:
                    i += size
        return actions

    def simplify(self, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        try:
            game = Round(self.v, self.players, seed=self.seed)
            game.start()
        except Exception:
            return actions  # the deal itself fails: nothing to simplify
        for i in range(len(actions)):
            if not self.budget.left():
                break
            a = actions[i]
            player = a.get("player")
            if isinstance(player, int) and 0 <= player < game.players:
                try:
                    listed = [action_to_dict(x) for x in game.legal_actions(player)]
                except Exception:
                    break  # a listing that crashes: what there is to see is in the actions already
                simpler = sorted((x for x in listed if _simplicity(x) < _simplicity(a)), key=_simplicity)[:2]
                for x in simpler:
                    candidate = [*actions[:i], x, *actions[i + 1 :]]
                    if self.run(candidate) is not None:
                        actions = candidate
                        break
            try:
                game.apply(actions[i])
            except Exception:
                break
        return actions


def shortest(failures: Sequence[Failure]) -> Failure:
    """The failure of a run to shrink (``tamalou verify`` writes its counterexample): among the games with the
    fewest players, the shortest, then the earliest. Shrinking starts from it: a run whose first failing game
    broke after 98 actions and another one of as many players after 9 gives a counterexample of the 9 (or
    fewer), where the first would often stay long (the actions of a round's last turn cannot be taken out).
    Fewer players come first because shrinking looks for them first: a short game of more players would be
    traded for another game, of fewer players, that may be longer. ``ValueError`` if there is none."""
    if not failures:
        raise ValueError("no failure to choose from")
    return min(failures, key=lambda f: (f.players, len(f.actions), f.index))


def shrink(
    variant: Variant | str | Sequence[str],
    failure: Failure,
    *,
    budget: ShrinkBudget | None = None,
    players: bool = True,
) -> Counterexample:
    """A small counterexample for ``failure`` (from ``verify``'s ``report.details``): see the module's
    documentation for the method. With ``players=False`` the player count is kept. The counterexample
    is the failure itself if it does not shrink (or does not reproduce: its message says so)."""
    v = resolve(variant)
    budget = budget if budget is not None else ShrinkBudget()
    invariant, n, seed, actions = failure.invariant, failure.players, failure.seed, list(failure.actions)
    if invariant not in INVARIANTS:
        invariant = "no_crash"
    message = failure.message
    if players and n > v.rules.players.min:
        found = _fewer_players(v, failure, invariant, budget)
        if found is not None:
            n, seed, actions, message = found.players, found.seed, list(found.actions), found.message
    s = _Shrinker(v, n, seed, invariant, budget)
    if INVARIANTS[invariant].when in ("run", "match"):  # kept as it failed
        why = "a whole match is played from the seed" if invariant == "match" else "checking it starts fresh processes"
        note = f" (not shrunk: {why})"
        return _counterexample(v, n, seed, actions, invariant, message + note, failure, __version__)
    if not budget.left():
        return _counterexample(v, n, seed, actions, invariant, message, failure, __version__)
    first = s.run(actions)
    if first is None:
        note = " (it does not fail again when replayed alone: the actions are the game as verify played it)"
        return _counterexample(v, n, seed, actions, invariant, message + note, failure, __version__)
    if invariant != "termination" and not _in_the_last_turn(v, first):
        actions = s.prefix(actions)
        shorter = s.remove(actions)
        if shorter != actions:
            actions = s.prefix(shorter)
        actions = s.simplify(actions)
    last = s.run(actions)
    if last is not None and last.violation is not None:
        message = str(last.violation)
    return _counterexample(v, n, seed, actions, invariant, message, failure, __version__)


def _in_the_last_turn(v: Variant, failing: Reproduction) -> bool:
    """Whether ``failing`` fails in the last turn its round may play (``rules.end.max_turns``)."""
    return failing.game is not None and failing.game.turn + 1 >= v.rules.end.max_turns


def _fewer_players(v: Variant, failure: Failure, invariant: str, budget: ShrinkBudget) -> Failure | None:
    """The shortest game of the fewest players that fails the same invariant: for each count from the
    smallest, a few seeds from the failing one, in the same style; the first count at which one fails gives
    the shortest of its failing games (players and actions shrink together: a game of fewer players that
    breaks sooner is traded for a longer one only if none breaks sooner)."""
    for n in range(v.rules.players.min, failure.players):
        found: list[Failure] = []
        for s in range(failure.seed, failure.seed + 4):
            if not budget.left():
                break
            r = check_game(v, n, s, style=failure.style)
            budget.spend(r.actions * 2)
            if r.failure is not None and r.failure.invariant == invariant:
                found.append(r.failure)
        if found:
            return min(found, key=lambda f: (len(f.actions), f.seed))
        if not budget.left():
            return None
    return None


def _counterexample(
    v: Variant,
    players: int,
    seed: int,
    actions: list[dict[str, Any]],
    invariant: str,
    message: str,
    failure: Failure,
    version: str,
) -> Counterexample:
    return Counterexample(
        tamalou=version,
        variant=EmbeddedVariant.of(v),
        players=players,
        seed=seed,
        actions=actions,
        invariant=invariant,
        message=message,
        description=INVARIANTS[invariant].description,
        code=code_fingerprints(v),
        found={
            "seed": failure.seed,
            "players": failure.players,
            "actions": len(failure.actions),
            "style": failure.style.to_dict(),
        },
    )
