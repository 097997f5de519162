"""``tamalou verify`` as a library: random games checked against every invariant, in worker processes,
with a report by invariant and, for a failure, a shrunk counterexample that replays anywhere.

The invariants themselves are in ``tamalou.invariants`` (``INVARIANTS``: a stable name, a one-line
description and a check each). This module plays the games and keeps what they found::

    from tamalou.verification import Counterexample, shrink, verify

    report = verify("my_rules.toml", games=200, workers=2)
    for name, count in report.checks.items():
        print(name, count, report.failed.get(name, 0))
    if not report.ok:
        example = shrink("my_rules.toml", report.details[0])   # a Counterexample (pydantic)
        example.write("counterexample.json")

and, later or elsewhere (the ruleset travels inside the file: its stand-alone TOML text, its name and
its plugin modules' names, with the folders of the modules found beside its file)::

    example = Counterexample.read("counterexample.json")
    outcome = example.check()            # plays the actions again, checks the invariant that broke
    print(outcome.violation or "fixed")  # what ``tamalou replay counterexample.json`` says

**How a game is checked** (``check_game``). The game of seed ``s`` is played as
``random_playout(variant, players, s, **style)`` would (the style: one game in ten matches a lot,
one in ten never calls, two in ten play for a low total, the others call at random), with
conservation, ``knowledge_events`` and ``no_crash`` checked after every action and ``termination``
over the whole game. Then it is played
again from its seed, the actions in their JSON form (the ``replay`` check compares the two), and the
``"sample"`` invariants are checked at ``samples`` states drawn at random (and at the start and the
end): the cost of a game is linear in its actions, however long it runs. The ``"end"`` invariants
check the finished round. A game stops at its first failure.

**How a failure is shrunk** (``shrink``), each step keeping only changes after which the same
invariant still fails (checked with ``thorough=True``: more pairs, random actions and orders):

1. fewer players, if the ruleset allows: games of each smaller count (a few seeds from the failing
   one, in the same style) are checked, and the first that fails the same way replaces the failure;
2. the shortest prefix: the failing step itself for a step invariant; for the others, a bisection
   on the number of actions, then a scan of the states before the prefix found (the invariant
   checked after each action) for an earlier one that fails;
3. removing actions: blocks of 32, 16, 8, 4, 2 and 1 actions, from the first on;
4. simpler actions: each action replaced by a simpler legal action of the same player (a pass before
   a draw, a draw before a discard...), the rest unchanged.

It is bounded: at most ``ShrinkBudget.evaluations`` candidate games and ``ShrinkBudget.actions``
actions replayed (deterministic: the same failure shrinks to the same counterexample), and
``ShrinkBudget.seconds`` seconds as a safety net. A ``termination`` failure keeps its actions (the
round has to run to its bound); it is only tried with fewer players.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action, action_to_dict
from .engine import Game
from .errors import IllegalAction, SetupError, TamalouError
from .events import Event
from .invariants import (
    INVARIANTS,
    Failure,
    InvariantViolation,
    RandomChooser,
    VerifyReport,
    _stalled,
    check_conservation,
    check_snapshot_roundtrip,
    check_step_knowledge,
    check_termination,
    choose_action,
    step_bound,
    turn_bound,
)
from .rules import rulebook
from .schema import Variant
from .variant import load_variant

__all__ = [
    "SAMPLES",
    "STYLES",
    "Counterexample",
    "EmbeddedVariant",
    "GameReport",
    "Reproduction",
    "ShrinkBudget",
    "check_game",
    "counterexample_name",
    "default_workers",
    "reproduce",
    "shrink",
    "style_of",
    "verify",
]

#: States of each game at which the ``"sample"`` invariants are checked (besides the start and the end).
SAMPLES = 12

#: The playing styles of the random games: ``random_playout``'s keyword arguments.
STYLES: dict[str, dict[str, Any]] = {
    "random": {},
    "matches": {"out_of_turn": 0.7, "match_probability": 0.6},  # many matches: penalties, an empty stock
    "no_call": {"call_probability": 0.0},  # nobody calls: reshuffles, the turn limit
    "low": {"low_total_probability": 0.8},  # players keep their total low: low hands, right calls
}

#: The invariants checked step by step as the actions are applied.
_STEP = ("conservation", "knowledge_events")


def style_of(seed: int) -> dict[str, Any]:
    """The style of the game of ``seed``: one in ten matches a lot (seeds ending in 4), one in ten never
    calls (seeds ending in 9), two in ten play for a low total (seeds ending in 2 or 7), the others
    call at random. A game is known by its seed alone, so ``tamalou verify --seed S --games 1`` plays
    game ``S`` of any run again."""
    return dict(STYLES[{2: "low", 4: "matches", 7: "low", 9: "no_call"}.get(seed % 10, "random")])


def _as_variant(variant: Variant | str | Sequence[str]) -> Variant:
    return variant if isinstance(variant, Variant) else load_variant(variant)


# ----------------------------------------------------------------------------- one game


@dataclass
class GameReport:
    """What checking one game found: its ``actions``, how the round ended (``reason``; ``None`` if it
    failed first), the checks run by invariant name, and its ``failure`` if any."""

    index: int
    seed: int
    players: int
    actions: int = 0
    reason: str | None = None
    checks: dict[str, int] = field(default_factory=dict)
    failure: Failure | None = None


def _sample_positions(length: int, seed: int, samples: int, check_every: int | None) -> set[int]:
    """The numbers of actions after which the ``"sample"`` invariants are checked."""
    if check_every is not None:
        return set(range(0, length + 1, check_every)) | {length}
    rng = random.Random(f"samples/{seed}")
    return set(rng.sample(range(length + 1), min(samples, length + 1))) | {0, length}


def check_game(
    variant: Variant | str | Sequence[str],
    players: int,
    seed: int,
    *,
    style: dict[str, Any] | None = None,
    samples: int = SAMPLES,
    check_every: int | None = None,
    index: int = 0,
) -> GameReport:
    """Play the game of ``seed`` for ``players`` (in ``style``; default ``style_of(seed)``) and check
    every invariant on it (see the module's documentation). Never raises for a broken rule: the
    failure is in the report, with the actions that lead to it."""
    v = _as_variant(variant)
    style = style_of(seed) if style is None else dict(style)
    report = GameReport(index, seed, players)
    checks: Counter[str] = Counter()

    def failed(invariant: str, message: str, actions: Iterable[Action | dict[str, Any]]) -> GameReport:
        report.checks = dict(checks)
        dicts = [a if isinstance(a, dict) else action_to_dict(a) for a in actions]
        report.actions = len(dicts)
        report.failure = Failure(seed, players, invariant, message, dicts, style, index)
        return report

    # Pass 1: play, checking every step.
    try:
        game = Game(v, players, seed=seed)
        events = game.start()
    except Exception as exc:
        checks["no_crash"] += 1
        return failed("no_crash", f"new_game raised {type(exc).__name__}: {exc}", [])
    chooser = RandomChooser(random.Random(seed))
    bound, per_turn = step_bound(game), turn_bound(game)
    turn, since = game.turn, 0
    before = [0] * len(game.knowers)
    try:
        while True:
            checks["conservation"] += 1
            check_conservation(game)
            checks["knowledge_events"] += 1
            check_step_knowledge(game, before, events)
            if game.is_over:
                break
            if _stalled(game, since, bound, per_turn) is not None:
                checks["termination"] += 1
                check_termination(game, bound=bound, turn_actions=since)  # raises: the round does not end
            checks["no_crash"] += 1
            try:
                action = choose_action(game, chooser, **style)
            except InvariantViolation:
                raise
            except Exception as exc:
                raise InvariantViolation(
                    f"listing the legal actions raised {type(exc).__name__}: {exc}", invariant="no_crash"
                ) from exc
            before = list(game.knowers)
            try:
                events = game.apply(action)
            except IllegalAction as exc:
                checks["listed_accepted"] += 1
                raise InvariantViolation(
                    f"the listed action {json.dumps(action_to_dict(action))} was refused: {exc}",
                    invariant="listed_accepted",
                ) from None
            except Exception as exc:
                raise InvariantViolation(
                    f"the listed action {json.dumps(action_to_dict(action))} crashed: {type(exc).__name__}: {exc}",
                    invariant="no_crash",
                    pending=action,
                ) from exc
            turn, since = game.turn, 0 if game.turn != turn else since + 1
        checks["termination"] += 1
    except InvariantViolation as exc:
        pending = [exc.pending] if exc.pending is not None else []
        return failed(exc.invariant or "no_crash", str(exc), [*game.actions, *pending])
    report.actions = len(game.actions)
    report.reason = game.reason

    # Pass 2: play it again from its seed, the actions in their JSON form, checking sampled states.
    positions = _sample_positions(len(game.actions), seed, samples, check_every)
    sampled = [inv for inv in INVARIANTS.values() if inv.when == "sample"]
    again = Game(v, players, seed=seed)
    again.start()
    played: list[Action | None] = [*game.actions, None]
    for k, step in enumerate(played):
        if k in positions:
            for inv in sampled:
                checks[inv.name] += 1
                try:
                    inv(again)
                except InvariantViolation as exc:
                    return failed(exc.invariant or inv.name, str(exc), again.actions)
                except Exception as exc:
                    return failed(inv.name, f"checking {inv.name} raised {type(exc).__name__}: {exc}", again.actions)
        if step is not None:
            try:
                again.apply(action_to_dict(step))
            except Exception as exc:
                checks["replay"] += 1
                message = f"replaying the game from its seed, action {k} ({action_to_dict(step)}) raised {exc!r}"
                return failed("replay", message, game.actions)
    checks["replay"] += 1
    if again.to_json() != game.to_json():
        return failed("replay", "the game played again from its seed and actions differs", game.actions)

    # The finished round.
    for inv in INVARIANTS.values():
        if inv.when == "end" and inv.name != "replay":
            checks[inv.name] += 1
            try:
                inv(game)
            except InvariantViolation as exc:
                return failed(exc.invariant or inv.name, str(exc), game.actions)
            except Exception as exc:
                return failed(inv.name, f"checking {inv.name} raised {type(exc).__name__}: {exc}", game.actions)
    checks["snapshot"] += 1
    try:
        check_snapshot_roundtrip(game, random.Random(seed))  # the variant loaded again, as a fresh process does
    except InvariantViolation as exc:
        return failed(exc.invariant or "snapshot", str(exc), game.actions)
    except Exception as exc:
        return failed("snapshot", f"restoring the finished game raised {type(exc).__name__}: {exc}", game.actions)
    report.checks = dict(checks)
    return report


# ----------------------------------------------------------------------------- many games


_WORKER_VARIANT: Variant | None = None


def _init_worker(variant: Variant) -> None:
    """A worker's start: the variant, and its rulebook made at once (a plugin module this process cannot
    import breaks the pool here, and the games are played in the main process instead)."""
    global _WORKER_VARIANT
    rulebook(variant)
    _WORKER_VARIANT = variant


def _work(index: int, seed: int, players: int, samples: int, check_every: int | None) -> GameReport:
    assert _WORKER_VARIANT is not None
    return check_game(_WORKER_VARIANT, players, seed, samples=samples, check_every=check_every, index=index)


def _player_counts(v: Variant, players: int | Iterable[int] | None) -> list[int]:
    lo, hi = v.rules.players.min, v.rules.players.max
    counts = list(range(lo, hi + 1)) if players is None else [players] if isinstance(players, int) else list(players)
    if not counts:
        raise ValueError("no player count to verify")
    for n in counts:
        if type(n) is not int or not lo <= n <= hi:
            raise SetupError(f"{v.name} is played by {lo} to {hi} players, got {n!r}")
    return counts


def verify(
    variant: Variant | str | Sequence[str],
    *,
    games: int = 100,
    players: int | Iterable[int] | None = None,
    seed: int = 0,
    check_every: int | None = None,
    samples: int | None = None,
    workers: int = 1,
    max_failures: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> VerifyReport:
    """Check ``games`` random games of ``variant`` (``check_game`` each) and report by invariant.

    Game ``i`` is dealt with seed ``seed + i`` for ``players`` (a count, several counts in turn, or
    ``None``: every count the ruleset allows, in turn), in ``style_of(seed + i)``. ``samples`` states
    of each game (default ``SAMPLES``) are checked by the ``"sample"`` invariants, or every
    ``check_every`` actions if given. ``workers`` processes (started with ``spawn``; the variant is
    sent pickled, its plugin modules found beside its file imported again from their folders) share
    the games: the report is the same whatever their number. If the workers cannot be started or
    cannot load the variant (a plugin module that exists only in this process), the games are played
    here, and ``report.notes`` says so. The run stops after ``max_failures`` failing games (``None``:
    never); the games after the last one counted are left out, so the report still does not depend
    on the workers. ``progress(done, failures)`` is called after each game.

    With ``workers > 1``, a script must call it under ``if __name__ == "__main__":`` (worker processes
    are started with ``spawn``, which imports the script again).
    """
    if games < 0:
        raise ValueError(f"games must be at least 0, got {games}")
    if check_every is not None and check_every < 1:
        raise ValueError(f"check_every must be at least 1, got {check_every}")
    v = _as_variant(variant)
    counts = _player_counts(v, players)
    samples = SAMPLES if samples is None else samples
    jobs = [(i, seed + i, counts[i % len(counts)]) for i in range(games)]
    results: dict[int, GameReport] = {}
    failing: list[int] = []
    notes: list[str] = []

    def done(r: GameReport) -> None:
        results[r.index] = r
        if r.failure is not None:
            failing.append(r.index)
        if progress is not None:
            progress(len(results), len(failing))

    def enough() -> bool:
        return max_failures is not None and len(failing) >= max_failures

    todo = jobs
    if workers > 1 and games > 1:
        try:
            todo = _run_pool(v, jobs, min(workers, games), samples, check_every, done, enough)
        except (BrokenProcessPool, pickle.PicklingError, OSError, AttributeError, TypeError) as exc:
            notes.append(f"the worker processes failed ({type(exc).__name__}: {exc}); the games were played here")
            todo = [j for j in jobs if j[0] not in results]
    for i, s, n in todo:
        if enough():
            break
        done(check_game(v, n, s, samples=samples, check_every=check_every, index=i))
    return _report(v, games, results, max_failures, notes)


def _run_pool(
    v: Variant,
    jobs: list[tuple[int, int, int]],
    workers: int,
    samples: int,
    check_every: int | None,
    done: Callable[[GameReport], None],
    enough: Callable[[], bool],
) -> list[tuple[int, int, int]]:
    """Play ``jobs`` in ``workers`` processes, a few games ahead of the results; returns the jobs left
    (none, unless the run stopped)."""
    context = multiprocessing.get_context("spawn")
    queue = list(reversed(jobs))
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(v,)) as pool:
        running: set[Future[GameReport]] = set()
        while queue or running:
            while queue and len(running) < 2 * workers and not enough():
                i, s, n = queue.pop()
                running.add(pool.submit(_work, i, s, n, samples, check_every))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: f.result().index):
                done(future.result())
    return []


def _report(
    v: Variant, games: int, results: dict[int, GameReport], max_failures: int | None, notes: list[str]
) -> VerifyReport:
    report = VerifyReport(variant=v.name)
    report.notes = notes
    checks: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for i in sorted(results):
        r = results[i]
        report.games += 1
        report.actions += r.actions
        checks.update(r.checks)
        if r.reason is not None:
            reasons[r.reason] += 1
        if r.failure is not None:
            f = r.failure
            failed[f.invariant] += 1
            report.details.append(f)
            report.failures.append((f.seed, f.players, f"{f.invariant}: {f.message}"))
            if max_failures is not None and len(report.details) >= max_failures:
                break
    report.stopped = report.games < games
    report.checks = {name: checks[name] for name in INVARIANTS if checks[name]}
    report.failed = {name: failed[name] for name in INVARIANTS if failed[name]}
    report.reasons = dict(sorted(reasons.items()))
    return report


# ----------------------------------------------------------------------------- playing actions again


@dataclass
class Reproduction:
    """What playing recorded actions again found: the ``game`` reached (``None`` if it could not be
    dealt), the ``violation`` of the invariant (``None``: it holds), how many actions were
    ``applied``, the first recorded action that was ``refused`` (its index and the reason: the rules
    changed since), and whether the invariant could be ``checked`` at all (an ``"end"`` invariant
    needs a finished round)."""

    game: Game | None
    violation: InvariantViolation | None
    applied: int
    refused: tuple[int, str] | None = None
    checked: bool = True

    @property
    def fails(self) -> bool:
        return self.violation is not None


StepCallback = Callable[[Game, Action | None, list[Event]], None]


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
    ``invariant`` (a name of ``INVARIANTS``; ``None``: every one): a step invariant after every
    action, the others on the state reached (an ``"end"`` one only if the round is over;
    ``termination``: the recorded actions themselves, past a bound). Any exception but
    ``IllegalAction`` from the deal or an action is a ``no_crash`` violation, one that escapes a
    check a violation of that check; a refused action stops the replay there (``refused``).
    ``on_step(game, action, events)`` is called after the deal (``action`` ``None``) and after each
    action."""
    names = list(INVARIANTS) if invariant is None else [invariant]
    if invariant is not None and invariant not in INVARIANTS:
        raise ValueError(f"unknown invariant {invariant!r} (invariants: {', '.join(INVARIANTS)})")
    steps = [n for n in names if n in _STEP]

    def crash(game: Game | None, what: str, exc: Exception) -> InvariantViolation:
        where = f" [after {len(game.actions)} actions]" if game is not None else ""
        return InvariantViolation(f"{what} raised {type(exc).__name__}: {exc}{where}", invariant="no_crash")

    try:
        game = Game(variant, players, seed=seed, deal=deal, first_player=first_player)
        events = game.start()
    except SetupError:
        raise
    except Exception as exc:
        return Reproduction(None, crash(None, "new_game", exc), 0)
    before = [0] * len(game.knowers)
    refused: tuple[int, str] | None = None
    turn, since = game.turn, 0
    for i in range(len(actions) + 1):
        if on_step is not None:
            on_step(game, game.actions[-1] if i else None, events)
        try:
            if "conservation" in steps:
                check_conservation(game)
            if "knowledge_events" in steps:
                check_step_knowledge(game, before, events)
        except InvariantViolation as exc:
            return Reproduction(game, exc, i)
        if i == len(actions):
            break
        a = actions[i]
        before = list(game.knowers)
        try:
            events = game.apply(a)
        except IllegalAction as exc:
            refused = (i, str(exc))
            break
        except Exception as exc:
            shown = json.dumps(a if isinstance(a, dict) else action_to_dict(a))
            return Reproduction(game, crash(game, f"action {i} {shown}", exc), i)
        turn, since = game.turn, 0 if game.turn != turn else since + 1
    applied = i  # the recorded actions applied (not len(game.actions): a quiet tick takes the last tick's place)
    checked = True
    for name in names:
        inv = INVARIANTS[name]
        if name in _STEP:
            continue
        if inv.when == "end" and not game.is_over:
            checked = invariant is None
            continue
        try:
            if name == "termination":  # the recorded actions themselves: no random play on
                problem = None if game.is_over else _stalled(game, since, step_bound(game), turn_bound(game))
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


# ----------------------------------------------------------------------------- counterexamples


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EmbeddedVariant(_Model):
    """A ruleset carried whole inside a file: its stand-alone TOML text (``tamalou show --toml``), its
    name, its plugin modules, and the folders of the modules its load found beside its file (imported
    again from there; the others must be importable where it is loaded)."""

    name: str
    toml: str = Field(description="Every key as a stand-alone TOML file (no extends).")
    plugins: list[str] = Field(default_factory=list, description="The plugin modules it names.")
    plugin_dirs: dict[str, str] = Field(
        default_factory=dict, description="Plugin modules found beside its file, and their folders."
    )
    loaded_as: str | list[str] | None = Field(None, description="What it was loaded by, for the record.")

    @classmethod
    def of(cls, variant: Variant) -> EmbeddedVariant:
        from .effective import variant_to_toml

        spec = variant.spec
        loaded_as = [str(s) for s in spec] if isinstance(spec, list | tuple) else None if spec is None else str(spec)
        return cls(
            name=variant.name,
            toml=variant_to_toml(variant),
            plugins=list(variant.plugins),
            plugin_dirs=dict(variant._plugin_dirs),
            loaded_as=loaded_as,
        )

    def load(self, *, allow_plugins: bool = True) -> Variant:
        """The ruleset (``VariantError`` if it does not load here: a plugin module missing...).

        ``allow_plugins=False`` is for a file you did not write: nothing it names is imported but tamalou's own
        plugin modules (``tamalou.plugins.*``). The folders of ``plugin_dirs`` are not looked at, and a ruleset
        that names any other module is refused as ``variant_from_dict(..., allow_plugins=False)`` refuses it (a
        ``VariantError`` at the key ``plugins``). ``True`` (the default) imports the modules found beside the
        ruleset's file again, from the folders the file names: for a file you wrote (``tamalou verify``'s)."""
        from .variant import _import_again, _parse_toml, variant_from_dict

        file = f"{self.name} (embedded)"
        data = _parse_toml(self.toml, file)  # a VariantError if it is not TOML
        if allow_plugins:
            _import_again(self.plugin_dirs)
        v = variant_from_dict(data, file=file, allow_plugins=bool(allow_plugins))
        # (the folders would be imported from where the variant is unpickled: kept only for a trusted file)
        v._plugin_dirs = dict(self.plugin_dirs) if allow_plugins else {}
        return v


class Counterexample(_Model):
    """A game that breaks an invariant, with all it takes to play it again anywhere: the ruleset
    (embedded), the players, the seed (or stacked deal) and first player, the actions in their JSON
    form, and the invariant that broke with its message. ``tamalou verify`` writes one for its first
    failure, shrunk (``shrink``); ``tamalou replay FILE`` plays it step by step and says whether it
    still fails::

        example = Counterexample.read("tamalou-counterexample-french-41.json")
        outcome = example.check()
        assert outcome.violation is None, outcome.violation   # passes once the rule is fixed
    """

    kind: Literal["tamalou-counterexample"] = "tamalou-counterexample"
    version: Literal[1] = 1
    tamalou: str = Field("", description="The version of tamalou that found it.")
    variant: EmbeddedVariant
    players: int
    seed: int | None
    deal: dict[str, Any] | None = None
    first_player: int | None = None
    actions: list[dict[str, Any]]
    invariant: str = Field(description="The name of the invariant that broke (tamalou.invariants.INVARIANTS).")
    message: str
    description: str = Field("", description="What the invariant says.")
    found: dict[str, Any] = Field(
        default_factory=dict, description="The game verify found failing, before shrinking: seed, players, actions."
    )

    def load_variant(self, *, allow_plugins: bool = True) -> Variant:
        """The embedded ruleset (``EmbeddedVariant.load``): ``allow_plugins=False`` for a file you did not
        write, so that no module it names is imported but tamalou's own plugins (``tamalou replay`` without
        ``--allow-plugins``)."""
        return self.variant.load(allow_plugins=allow_plugins)

    def check(
        self, *, thorough: bool = True, on_step: StepCallback | None = None, allow_plugins: bool = True
    ) -> Reproduction:
        """Play the actions again and check the invariant that broke (see ``reproduce``); ``allow_plugins`` is
        ``load_variant``'s."""
        return reproduce(
            self.load_variant(allow_plugins=allow_plugins),
            self.players,
            self.actions,
            self.invariant or None,
            seed=self.seed,
            deal=self.deal,
            first_player=self.first_player,
            thorough=thorough,
            on_step=on_step,
        )

    def write(self, path: str | Path) -> Path:
        out = Path(path)
        out.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")
        return out

    @classmethod
    def read(cls, path: str | Path) -> Counterexample:
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))

    @classmethod
    def from_snapshot(cls, snapshot: str, *, allow_plugins: bool | Iterable[str] = True) -> Counterexample:
        """A game snapshot (``game.to_json()``) as a counterexample of every invariant: replaying it
        checks them all on the way and at the end."""
        game = Game.from_json(snapshot, allow_plugins=allow_plugins)
        return cls(
            variant=EmbeddedVariant.of(game.variant),
            players=game.players,
            seed=game.seed,
            deal=game.deal_spec,
            first_player=game.first_player if game.first_given else None,
            actions=[action_to_dict(a) for a in game.actions],
            invariant="",
            message="a game snapshot",
        )


def counterexample_name(variant: str, seed: int | None) -> str:
    """The default file name of a counterexample: ``tamalou-counterexample-<variant>-<seed>.json``."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in variant) or "variant"
    return f"tamalou-counterexample-{safe}-{seed if seed is not None else 'deal'}.json"


# ----------------------------------------------------------------------------- shrinking


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
        if self.invariant in _STEP:
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
            game = Game(self.v, self.players, seed=self.seed)
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
            game = Game(self.v, self.players, seed=self.seed)
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
    from . import __version__

    v = _as_variant(variant)
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
    if not budget.left():
        return _counterexample(v, n, seed, actions, invariant, message, failure, __version__)
    first = s.run(actions)
    if first is None:
        note = " (it does not fail again when replayed alone: the actions are the game as verify played it)"
        return _counterexample(v, n, seed, actions, invariant, message + note, failure, __version__)
    if invariant != "termination":
        actions = s.prefix(actions)
        shorter = s.remove(actions)
        if shorter != actions:
            actions = s.prefix(shorter)
        actions = s.simplify(actions)
    last = s.run(actions)
    if last is not None and last.violation is not None:
        message = str(last.violation)
    return _counterexample(v, n, seed, actions, invariant, message, failure, __version__)


def _fewer_players(v: Variant, failure: Failure, invariant: str, budget: ShrinkBudget) -> Failure | None:
    """The first game with fewer players that fails the same invariant: for each count from the
    smallest, a few seeds from the failing one, in the same style."""
    for n in range(v.rules.players.min, failure.players):
        for s in range(failure.seed, failure.seed + 4):
            if not budget.left():
                return None
            r = check_game(v, n, s, style=failure.style)
            budget.spend(r.actions * 2)
            if r.failure is not None and r.failure.invariant == invariant:
                return r.failure
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
        found={
            "seed": failure.seed,
            "players": failure.players,
            "actions": len(failure.actions),
            "style": failure.style,
        },
    )


def default_workers(games: int) -> int:
    """The worker processes ``tamalou verify`` uses by default: one per core, at most one per game."""
    return max(1, min(os.cpu_count() or 1, games))
