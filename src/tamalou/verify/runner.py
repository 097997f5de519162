"""``verify``: many games of a ruleset checked against every invariant (``check_game`` each), in worker
processes, reported by invariant (``VerifyReport``); and ``default_workers``, the worker processes
``tamalou verify`` uses by default.

The workers are started with ``spawn`` and play ``_work`` (``_init_worker`` gives each the ruleset, in
``_WORKER_VARIANT``): the report is the same whatever their number."""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from ..engine.rulebook import rulebook
from ..errors import SetupError
from ..resolver import resolve
from ..schema import Variant
from .game_check import SAMPLES, Failure, GameReport, check_game
from .registry import INVARIANTS


@dataclass
class VerifyReport:
    """What ``verify`` found: games played, actions applied, and each failure as
    ``(seed, players, message)`` (the message starts with the invariant's name); by invariant name,
    ``checks`` run and games ``failed``; ``details``: each failure whole (``Failure``), in the order
    of the games; ``stopped``: the run stopped at ``max_failures`` failing games; ``notes``: what the
    run could not do as asked (e.g. worker processes that could not load the ruleset)."""

    games: int = 0
    actions: int = 0
    failures: list[tuple[int, int, str]] = field(default_factory=list)
    variant: str = ""
    reasons: dict[str, int] = field(default_factory=dict)  # how the games ended: reason -> count
    checks: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    details: list[Failure] = field(default_factory=list)
    stopped: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


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

    With ``workers > 1``, a script must call it under ``if __name__ == "__main__":`` (worker processes
    are started with ``spawn``, which imports the script again).

    >>> report = verify("french", games=10)
    >>> report.ok, report.games
    (True, 10)
    """
    if games < 0:
        raise ValueError(f"games must be at least 0, got {games}")
    if check_every is not None and check_every < 1:
        raise ValueError(f"check_every must be at least 1, got {check_every}")
    v = resolve(variant)
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


def default_workers(games: int) -> int:
    """The worker processes ``tamalou verify`` uses by default: one per core, at most one per game."""
    return max(1, min(os.cpu_count() or 1, games))
