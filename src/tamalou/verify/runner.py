"""``verify``: many games of a ruleset checked against every invariant (``check_game`` each), in worker
processes, reported by invariant (``VerifyReport``); and ``default_workers``, the worker processes
``tamalou verify`` uses by default.

The workers are started with ``spawn`` and play ``_work`` (``_init_worker`` gives each the ruleset, in
``_WORKER_VARIANT``): the report is the same whatever their number.

Each game is checked within its time limits (``limits``: ``timeout``, a game stopped is a ``termination``
failure; ``hook_budget``, the plugins' hooks slower than it are in ``report.slow_hooks``). A
``KeyboardInterrupt`` (Ctrl-C; ``tamalou verify`` turns ``SIGTERM`` into one too) stops the workers at once
(``interruptions``) and raises ``VerifyInterrupted``, which carries the report of the games finished."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import subprocess
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from .._processes import quiet_worker, signals_held, stop_workers, unguarded_note
from ..engine.rulebook import rulebook
from ..errors import SetupError, VerifyInterrupted
from ..resolver import resolve
from ..schema import Variant
from .chooser import style_of
from .determinism import RunDeterminism
from .game_check import SAMPLES, Failure, GameReport
from .hook_timing import HookOverBudget, HookTimer, SlowHook, merge_slow_hooks
from .limits import (
    TIMEOUT_INVARIANT,
    TIMEOUT_WORDS,
    GameTimeout,
    LimitedGame,
    Limits,
    alarm,
    available,
    check_game_within,
)
from .lints import Lint, lint_variant
from .registry import INVARIANTS
from .tallies import check_end_hooks
from .violation import InvariantViolation

#: ``verify``'s default ``hook_budget``: a hook call of a plugin slower than this (seconds) fails its game.
HOOK_BUDGET = 0.1
#: The time limit of a game (seconds) of ``tamalou verify`` (``--timeout``), the pytest plugin and ``tamalou.testing``.
GAME_TIMEOUT = 60.0


@dataclass
class VerifyReport:
    """What ``verify`` found: games played, actions applied, and each failure as
    ``(seed, players, message)`` (the message starts with the invariant's name); by invariant name,
    ``checks`` run and games ``failed``; ``details``: each failure whole (``Failure``), in the order
    of the games; ``stopped``: the run stopped at ``max_failures`` failing games; ``notes``: what the
    run could not do as asked (e.g. worker processes that could not load the ruleset); ``slow_hooks``: the
    hook implementations of the ruleset's plugins slower than ``hook_budget`` seconds (one each, the
    slowest first); ``interrupted``: the run was interrupted (``VerifyInterrupted``) before all its games;
    ``lints``: what ``lints.lint_variant`` found in the ruleset (a hook that answers ``None`` for every card),
    errors with ``strict``."""

    games: int = 0
    actions: int = 0
    failures: list[tuple[int, int, str]] = field(default_factory=list)
    variant: str = ""
    reasons: dict[str, int] = field(default_factory=dict)  # how the games ended: reason -> count
    #: How often the games played each move (action type -> count) and used each card power (name -> count).
    moves: dict[str, int] = field(default_factory=dict)
    powers: dict[str, int] = field(default_factory=dict)
    #: The powers of the ruleset's cards that no game used (a power its games never reach is a power unverified).
    unused_powers: list[str] = field(default_factory=list)
    checks: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    details: list[Failure] = field(default_factory=list)
    stopped: bool = False
    notes: list[str] = field(default_factory=list)
    slow_hooks: list[SlowHook] = field(default_factory=list)
    hook_budget: float | None = None
    interrupted: bool = False
    lints: list[Lint] = field(default_factory=list)
    strict: bool = False

    @property
    def ok(self) -> bool:
        """No failure (and, with ``strict``, no lint)."""
        return not self.failures and not (self.strict and self.lints)


_WORKER_VARIANT: Variant | None = None
_WORKER_LIMITS = Limits()
_WORKER_TIMER: HookTimer | None = None


def _init_worker(variant: Variant, limits: Limits = _WORKER_LIMITS) -> None:
    """A worker's start: Ctrl-C left to the parent (``quiet_worker``), the variant, and its rulebook made at
    once (a plugin module this process cannot import breaks the pool here, and the games are played in the
    main process instead), its plugins' hooks timed if ``limits.hook_budget`` says so."""
    global _WORKER_VARIANT, _WORKER_LIMITS, _WORKER_TIMER
    quiet_worker()
    _WORKER_TIMER = _timer(variant, limits)
    _WORKER_VARIANT, _WORKER_LIMITS = variant, limits


def _work(index: int, seed: int, players: int, samples: int, check_every: int | None) -> LimitedGame:
    assert _WORKER_VARIANT is not None
    return check_game_within(
        _WORKER_VARIANT,
        players,
        seed,
        _WORKER_LIMITS,
        _WORKER_TIMER,
        samples=samples,
        check_every=check_every,
        index=index,
    )


def _timer(variant: Variant, limits: Limits) -> HookTimer | None:
    """A ``HookTimer`` installed on the rulebook of ``variant`` (made now: it raises if the ruleset does not
    load), or ``None`` if hooks are not timed or no plugin of the ruleset is not tamalou's own."""
    rb = rulebook(variant)
    if limits.hook_budget is None:
        return None
    timer = HookTimer(limits.hook_budget)
    timer.install(rb.pm)
    return timer if timer.installed else None


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
    timeout: float | None = None,
    hook_budget: float | None = HOOK_BUDGET,
    determinism: bool = True,
    strict: bool = False,
) -> VerifyReport:
    """Check ``games`` random games of ``variant`` (``check_game`` each) and report by invariant.

    Round ``i`` is dealt with seed ``seed + i`` for ``players`` (a count, several counts in turn, or
    ``None``: every count the ruleset allows, in turn), in ``style_of(seed + i)``. ``samples`` states
    of each game (default ``SAMPLES``) are checked by the ``"sample"`` invariants, or every
    ``check_every`` actions if given. ``workers`` processes (started with ``spawn``; the variant is
    sent pickled, its plugin modules found beside its file imported again from their folders) share
    the games: the report is the same whatever their number. If the workers cannot be started or
    cannot load the variant (a plugin module that exists only in this process), the games are played
    here, and ``report.notes`` says so. The run stops after ``max_failures`` failing games (``None``:
    never); the games after the last one counted are left out, so the report still does not depend
    on the workers. ``progress(done, failures)`` is called after each game.

    A game that runs longer than ``timeout`` seconds (``None``: no limit) is stopped and reported as a
    ``termination`` failure that says where it was stuck (``tamalou.verify.limits``); a call of a plugin's hook
    slower than ``hook_budget`` seconds (``None``: not timed) is reported in ``report.slow_hooks``. On
    ``KeyboardInterrupt`` the workers are stopped at once and ``VerifyInterrupted`` is raised, with the report
    of the games finished.

    The invariants checked once per run (``when="run"``): with ``determinism``, a fresh process started at once
    plays the run's games again, beside them, under another ``PYTHONHASHSEED``, and each game that did not fail
    must end the same there (``determinism.RunDeterminism``); a game that does not is a ``determinism``
    failure. ``end_hooks`` judges made-up ends of rounds for each player count of the run
    (``tallies.check_end_hooks``); a failure names the end of round and counts as a game of that count with no
    action. The ruleset's lints (``lints.lint_variant``) are in ``report.lints``; with ``strict`` they make
    the report not ``ok``.

    With ``workers > 1``, a script calls it under ``if __name__ == "__main__":`` (worker processes are
    started with ``spawn``, which runs the script's top level again); called at the top level of a script outside
    that guard, it plays the games in this process and says so in ``report.notes``.

    >>> report = verify("french", games=10)
    >>> report.ok, report.games
    (True, 10)
    """
    if games < 0:
        raise ValueError(f"games must be at least 0, got {games}")
    if check_every is not None and check_every < 1:
        raise ValueError(f"check_every must be at least 1, got {check_every}")
    limits = Limits(timeout, hook_budget)
    v = resolve(variant)
    counts = _player_counts(v, players)
    samples = SAMPLES if samples is None else samples
    jobs = [(i, seed + i, counts[i % len(counts)]) for i in range(games)]
    results: dict[int, GameReport] = {}
    slow: list[SlowHook] = []
    failing: list[int] = []
    notes: list[str] = []

    def done(game: LimitedGame) -> None:
        r = game.report
        results[r.index] = r
        slow.extend(game.slow)
        if r.failure is not None:
            failing.append(r.index)
        if progress is not None:
            progress(*_counted(results, failing, max_failures))

    def enough() -> bool:
        return max_failures is not None and len(failing) >= max_failures

    def report() -> VerifyReport:
        return _report(v, games, results, max_failures, notes, merge_slow_hooks(slow), hook_budget)

    fresh = _fresh_process(v, jobs, seed, timeout, notes) if determinism and jobs else None
    todo = jobs
    try:
        unguarded = unguarded_note("verify") if workers > 1 and games > 1 else None
        if unguarded is not None:
            notes.append(unguarded)
        elif workers > 1 and games > 1:
            try:
                todo = _run_pool(v, jobs, min(workers, games), limits, samples, check_every, done, enough)
            except (BrokenProcessPool, pickle.PicklingError, OSError, AttributeError, TypeError) as exc:
                notes.append(f"the worker processes failed ({type(exc).__name__}: {exc}); the games were played here")
                todo = [j for j in jobs if j[0] not in results]
        if todo and not enough():
            _run_here(v, todo, limits, samples, check_every, done, enough, notes)
    except KeyboardInterrupt:
        if fresh is not None:
            fresh.stop()
        partial = report()
        partial.interrupted, partial.stopped = True, enough()
        raise VerifyInterrupted(partial) from None
    found = report()
    found.lints, found.strict = lint_variant(v), strict
    if jobs:
        _check_end_hooks(v, sorted(set(counts)), seed, found, limits)
    if fresh is not None:
        try:
            _check_determinism(fresh, results, jobs, found)
        except KeyboardInterrupt:
            fresh.stop()
            found.interrupted = True
            raise VerifyInterrupted(found) from None
    return found


def _counted(results: dict[int, GameReport], failing: list[int], max_failures: int | None) -> tuple[int, int]:
    """The games and failing games the report counts so far: once ``max_failures`` games failed, those up to the
    last failure counted (a worker's games past it are left out, as the report leaves them), so that the progress
    line ends on the summary's figures."""
    if max_failures is None or len(failing) < max_failures:
        return len(results), len(failing)
    cutoff = sorted(failing)[max_failures - 1]
    return sum(1 for i in results if i <= cutoff), max_failures


def _fresh_process(
    v: Variant, jobs: list[tuple[int, int, int]], seed: int, timeout: float | None, notes: list[str]
) -> RunDeterminism | None:
    """The fresh process of ``determinism``, started now, playing the run's games, each within ``timeout``
    seconds (``None`` if it cannot start: ``notes`` says so)."""
    try:
        return RunDeterminism(v, [(s, n) for _, s, n in jobs], salt=seed, timeout=timeout)
    except (OSError, pickle.PicklingError, AttributeError, TypeError) as exc:
        notes.append(f"determinism was not checked: the fresh process could not start ({type(exc).__name__}: {exc})")
        return None


def _check_end_hooks(v: Variant, counts: list[int], seed: int, report: VerifyReport, limits: Limits) -> None:
    """``end_hooks`` for each player count of the run, each within ``limits.timeout`` (as a game); the first count
    that fails adds its failure to ``report`` (a game of ``seed`` with no action: replayed, it checks the made-up
    ends of rounds again)."""
    checks, failed = Counter(report.checks), Counter(report.failed)
    timer = _timer(v, limits)  # (the hooks are timed here as in the games: a hook over its budget stops the check)
    if timer is not None:
        timer.armed = True
    try:
        for n in counts:
            failure = _end_hooks_of(v, n, seed, limits, timer, checks, failed)
            if failure is not None:
                report.details = [failure, *report.details]
                report.failures = [(f.seed, f.players, f"{f.invariant}: {f.message}") for f in report.details]
                break
    finally:
        if timer is not None:
            timer.uninstall()
    report.checks = {name: checks[name] for name in INVARIANTS if checks[name]}
    report.failed = {name: failed[name] for name in INVARIANTS if failed[name]}


def _end_hooks_of(
    v: Variant, n: int, seed: int, limits: Limits, timer: HookTimer | None, checks: Counter[str], failed: Counter[str]
) -> Failure | None:
    """``end_hooks`` for ``n`` players within ``limits`` (counted in ``checks`` and ``failed``): its failure, if any."""
    try:
        if limits.timeout is not None and available():
            with alarm(limits.timeout, tuple(v.plugins), timer):
                checks["end_hooks"] += check_end_hooks(v, players=[n])
        else:
            checks["end_hooks"] += check_end_hooks(v, players=[n])
    except InvariantViolation as exc:
        checks["end_hooks"] += 1
        failed["end_hooks"] += 1
        return Failure(seed, n, "end_hooks", str(exc), [], style_of(seed), -1)
    except (GameTimeout, HookOverBudget) as stop:  # a hook that never returns, or too slow: as in a game
        checks[TIMEOUT_INVARIANT] += 1
        failed[TIMEOUT_INVARIANT] += 1
        limit = (
            f"{limits.timeout:g} s, --timeout"
            if isinstance(stop, GameTimeout)
            else "a hook over its budget, --hook-budget"
        )
        where = stop.where if isinstance(stop, GameTimeout) else str(stop)
        message = f"{TIMEOUT_WORDS} ({limit}), judging made-up ends of rounds of {n} players (end_hooks): {where}"
        return Failure(seed, n, TIMEOUT_INVARIANT, message, [], style_of(seed), -1)
    return None


def _check_determinism(
    fresh: RunDeterminism, results: dict[int, GameReport], jobs: list[tuple[int, int, int]], report: VerifyReport
) -> None:
    """``determinism`` on the games of the run that did not fail: the fresh process's games compared with
    theirs; a difference is added to ``report`` as the failure of its game."""
    digests = {r.seed: r.digest for r in results.values() if r.failure is None and r.digest}
    try:
        found = fresh.compare(digests)
    except (RuntimeError, subprocess.TimeoutExpired, pickle.UnpicklingError, EOFError) as exc:
        report.notes.append(f"determinism was not checked: {exc}")
        return
    checks, failed = Counter(report.checks), Counter(report.failed)
    checks["determinism"] += len(digests)
    if found is not None:
        seed, players, actions, message = found
        index = next(i for i, s, _ in jobs if s == seed)
        failure = Failure(seed, players, "determinism", message, actions, style_of(seed), index)
        failed["determinism"] += 1
        report.details = sorted([*report.details, failure], key=lambda f: f.index)
        report.failures = [(f.seed, f.players, f"{f.invariant}: {f.message}") for f in report.details]
    report.checks = {name: checks[name] for name in INVARIANTS if checks[name]}
    report.failed = {name: failed[name] for name in INVARIANTS if failed[name]}


def _run_here(
    v: Variant,
    jobs: list[tuple[int, int, int]],
    limits: Limits,
    samples: int,
    check_every: int | None,
    done: Callable[[LimitedGame], None],
    enough: Callable[[], bool],
    notes: list[str],
) -> None:
    """Play ``jobs`` in this process, the plugins' hooks timed for the while (then as they were)."""
    if limits.timeout is not None and not available():
        notes.append(
            "the time limit (timeout) was not applied: it needs signal.setitimer and the main thread, "
            "and the games were played in another thread or on a system without them"
        )
    try:
        timer = _timer(v, limits)
    except Exception:  # a ruleset that does not load: each game says so (no_crash), untimed
        timer = None
    try:
        for i, s, n in jobs:
            if enough():
                break
            done(check_game_within(v, n, s, limits, timer, samples=samples, check_every=check_every, index=i))
    finally:
        if timer is not None:
            timer.uninstall()


def _run_pool(
    v: Variant,
    jobs: list[tuple[int, int, int]],
    workers: int,
    limits: Limits,
    samples: int,
    check_every: int | None,
    done: Callable[[LimitedGame], None],
    enough: Callable[[], bool],
) -> list[tuple[int, int, int]]:
    """Play ``jobs`` in ``workers`` processes, a few games ahead of the results; returns the jobs left
    (none, unless the run stopped). Interrupted, it stops the workers at once (``stop_workers``)."""
    context = multiprocessing.get_context("spawn")
    queue = list(reversed(jobs))
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker, initargs=(v, limits))
    try:
        running: set[Future[LimitedGame]] = set()
        while queue or running:
            while queue and len(running) < 2 * workers and not enough():
                i, s, n = queue.pop()
                with signals_held():  # a worker started now ignores Ctrl-C from its first instruction
                    running.add(pool.submit(_work, i, s, n, samples, check_every))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: f.result().report.index):
                done(future.result())
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown(wait=True)
    return []


def _report(
    v: Variant,
    games: int,
    results: dict[int, GameReport],
    max_failures: int | None,
    notes: list[str],
    slow_hooks: list[SlowHook],
    hook_budget: float | None,
) -> VerifyReport:
    report = VerifyReport(variant=v.name, slow_hooks=slow_hooks, hook_budget=hook_budget)
    report.notes = notes
    checks: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    powers: Counter[str] = Counter()
    for i in sorted(results):
        r = results[i]
        report.games += 1
        report.actions += r.actions
        checks.update(r.checks)
        moves.update(r.moves)
        powers.update(r.powers)
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
    report.moves = dict(moves.most_common())
    report.powers = dict(powers.most_common())
    if report.games:
        report.unused_powers = [name for name in _deck_powers(v) if not powers[name]]
    return report


def _deck_powers(v: Variant) -> list[str]:
    """The powers the ruleset's cards have (with the hooks applied), in the order of the deck's ranks."""
    rb = rulebook(v)
    names: list[str] = []
    for card in dict.fromkeys(rb.one_deck):
        name = rb.power_name(card)
        if name and name != "none" and name not in names:
            names.append(name)
    return names


def default_workers(games: int) -> int:
    """The worker processes ``tamalou verify`` uses by default: one per core, at most one per game."""
    return max(1, min(os.cpu_count() or 1, games))
