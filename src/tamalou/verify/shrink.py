"""Shrinking a failure of ``tamalou verify`` to a small ``Counterexample``: ``shrink``, bounded by a
``ShrinkBudget``.

**How a failure is shrunk** (``shrink``): to the fewest actions first, then the fewest players, never to a game
longer than the one found. Each step keeps only changes after which the same invariant still fails (checked with
``thorough=True``: more pairs, random actions and orders):

1. the game found, with its players: its shortest prefix (the failing step itself for a step invariant; for the
   others, a bisection on the number of actions, then a scan of the states before the prefix found, the invariant
   checked after each action, for an earlier one that fails); then removing actions, in blocks of 32, 16, 8, 4, 2
   and 1 from the first on; then simpler actions, each replaced by a simpler legal action of the same player (a pass
   before a draw, a draw before a discard...), the rest unchanged;
2. fewer players, if the ruleset allows, with what the budget leaves: for each smaller count, from the fewest, games
   of a few seeds from the failing one (in the same style) are checked, and the shortest that fails the same way is
   shrunk as in 1. The counterexample is the shortest of those shrunk games, the fewer players on a tie: a game of
   fewer players is taken only if it is as short as the other, or shorter.

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
    """The failure of a run to shrink (``tamalou verify`` writes its counterexample): the shortest, then the one of the
    fewest players, then the earliest. Shrinking starts from it: a run whose first failing game broke after 98 actions
    and another one after 9 gives a counterexample of the 9 (or fewer), where the first would often stay long (the
    actions of a round's last turn cannot be taken out). ``ValueError`` if there is none."""
    if not failures:
        raise ValueError("no failure to choose from")
    return min(failures, key=lambda f: (len(f.actions), f.players, f.index))


@dataclass
class _Shrunk:
    """A game shrunk: its players, seed and actions, and what its failure says."""

    players: int
    seed: int
    actions: list[dict[str, Any]]
    message: str

    def beats(self, other: _Shrunk) -> bool:
        """Whether it is the smaller counterexample: fewer actions, then fewer players."""
        return (len(self.actions), self.players) < (len(other.actions), other.players)


def shrink(
    variant: Variant | str | Sequence[str],
    failure: Failure,
    *,
    budget: ShrinkBudget | None = None,
    players: bool = True,
) -> Counterexample:
    """A small counterexample for ``failure`` (from ``verify``'s ``report.details``): see the module's
    documentation for the method. With ``players=False`` the player count is kept. The counterexample
    is the failure itself if it does not shrink (or does not reproduce: its message says so); it is never
    longer than the failure."""
    v = resolve(variant)
    budget = budget if budget is not None else ShrinkBudget()
    invariant = failure.invariant if failure.invariant in INVARIANTS else "no_crash"
    found = _Shrunk(failure.players, failure.seed, list(failure.actions), failure.message)
    fewer = players and failure.players > v.rules.players.min
    if INVARIANTS[invariant].when in ("run", "match"):  # kept as it failed
        few = _fewer_players(v, failure, invariant, budget) if fewer else None
        if few is not None and len(few.actions) <= len(found.actions):
            found = _Shrunk(few.players, few.seed, list(few.actions), few.message)
        why = "a whole match is played from the seed" if invariant == "match" else "checking it starts fresh processes"
        found.message += f" (not shrunk: {why})"
        return _counterexample(v, found, invariant, failure)
    best = _shrunk(v, found, invariant, budget)
    if fewer:
        for n in range(v.rules.players.min, failure.players):
            if not budget.left():
                break
            games = _failing(v, failure, n, invariant, budget)
            if games:
                start = min(games, key=lambda f: (len(f.actions), f.seed))
                shrunk = _shrunk(v, _Shrunk(n, start.seed, list(start.actions), start.message), invariant, budget)
                if shrunk.beats(best):
                    best = shrunk
    return _counterexample(v, best, invariant, failure)


def _shrunk(v: Variant, game: _Shrunk, invariant: str, budget: ShrinkBudget) -> _Shrunk:
    """``game`` shrunk with its players (step 1 of the module's documentation); itself if it does not fail again
    (its message then says so) or the budget is spent."""
    if not budget.left():
        return game
    s = _Shrinker(v, game.players, game.seed, invariant, budget)
    actions = game.actions
    first = s.run(actions)
    if first is None:
        note = " (it does not fail again when replayed alone: the actions are the game as verify played it)"
        return _Shrunk(game.players, game.seed, actions, game.message + note)
    if invariant != "termination" and not _in_the_last_turn(v, first):
        actions = s.prefix(actions)
        shorter = s.remove(actions)
        if shorter != actions:
            actions = s.prefix(shorter)
        actions = s.simplify(actions)
    last = s.run(actions)
    message = str(last.violation) if last is not None and last.violation is not None else game.message
    return _Shrunk(game.players, game.seed, actions, message)


def _in_the_last_turn(v: Variant, failing: Reproduction) -> bool:
    """Whether ``failing`` fails in the last turn its round may play (``rules.end.max_turns``)."""
    return failing.game is not None and failing.game.turn + 1 >= v.rules.end.max_turns


def _failing(v: Variant, failure: Failure, players: int, invariant: str, budget: ShrinkBudget) -> list[Failure]:
    """The games of ``players`` players, of a few seeds from the failing one and in its style, that fail the same
    invariant."""
    found: list[Failure] = []
    for s in range(failure.seed, failure.seed + 4):
        if not budget.left():
            break
        r = check_game(v, players, s, style=failure.style)
        budget.spend(r.actions * 2)
        if r.failure is not None and r.failure.invariant == invariant:
            found.append(r.failure)
    return found


def _fewer_players(v: Variant, failure: Failure, invariant: str, budget: ShrinkBudget) -> Failure | None:
    """The shortest game of the fewest players that fails the same invariant (for the failures that are not shrunk:
    the first count, from the fewest, at which one fails)."""
    for n in range(v.rules.players.min, failure.players):
        found = _failing(v, failure, n, invariant, budget)
        if found:
            return min(found, key=lambda f: (len(f.actions), f.seed))
        if not budget.left():
            return None
    return None


def _counterexample(v: Variant, game: _Shrunk, invariant: str, failure: Failure) -> Counterexample:
    return Counterexample(
        tamalou=__version__,
        variant=EmbeddedVariant.of(v),
        players=game.players,
        seed=game.seed,
        actions=game.actions,
        invariant=invariant,
        message=game.message,
        description=INVARIANTS[invariant].description,
        code=code_fingerprints(v),
        found={
            "seed": failure.seed,
            "players": failure.players,
            "actions": len(failure.actions),
            "style": failure.style.to_dict(),
        },
    )
