"""``simulate``: a run's arguments checked, its games played on the backend chosen, their tallies added up
into the report."""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool

from .._processes import unguarded_note
from ..errors import SetupError
from ..rulesets import load_variant
from ..schema import Variant
from .backends import (
    BACKENDS,
    Backend,
    bot_names,
    chunk_ranges,
    import_ray,
    ray_start,
    ray_workers,
    run_inline,
    run_process,
    run_ray,
)
from .report import RunInfo, SimulationReport
from .tally import Tally, tally_report

ProgressCallback = Callable[[int, int], None]


def player_count(v: Variant, players: int | None) -> int:
    lo, hi = v.rules.players.min, v.rules.players.max
    if players is None:
        return min(max(4, lo), hi)
    if type(players) is not int or not lo <= players <= hi:
        raise SetupError(f"{v.name} is played by {lo} to {hi} players, got {players!r}")
    return players


def simulate(
    variant: Variant | str | Sequence[str],
    bots: str | Sequence[str] = "random",
    games: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    backend: Backend = "process",
    players: int | None = None,
    progress: ProgressCallback | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games of ``variant`` between ``bots`` and return their statistics.

    ``bots`` is a bot's name or a list of names (``tamalou.bots.bot_names()``): seat ``i`` gets
    ``bots[i % len(bots)]``. ``players`` defaults to 4 (or the nearest count the ruleset allows). A
    ruleset of several rounds plays whole matches. ``backend``: ``"inline"`` (here), ``"process"``
    (``workers`` processes, default one per core; a single worker plays here) or ``"ray"`` (tasks on
    the Ray cluster, ``workers`` sizing the chunks; default its CPUs). ``progress(done, games)`` is
    called as games finish. The statistics do not depend on the backend or the workers (see the
    documentation of ``tamalou.simulation`` for the seeds).

    Raises ``VariantError`` for a ruleset that does not load, ``SetupError`` for a player count it does
    not allow, ``ValueError`` for an unknown bot or backend, ``ImportError`` for the Ray backend
    without Ray, and ``SimulationError`` when a game fails (a plugin's hook raised, a bot crashed).

    With the process backend a script calls it under ``if __name__ == "__main__":`` (the worker processes
    are started with ``spawn``, which runs the script's top level again); called at the top level of a script
    outside that guard, it plays the games in this process and says so in ``report.run.notes``. Interrupted
    (Ctrl-C), it stops its worker processes before it raises.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be at least 1, got {games!r}")
    if type(seed) is not int:
        raise TypeError(f"a seed is an integer, got {seed!r}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be at least 1, got {workers!r}")
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n = player_count(v, players)
    names = bot_names(bots)
    seats = [names[p % len(names)] for p in range(n)]
    finished = 0

    def done(count: int) -> None:
        nonlocal finished
        finished += count
        if progress is not None:
            progress(finished, games)

    notes: list[str] = []
    if backend == "ray":
        ray = import_ray()
        ray_start(ray)  # not timed: a cluster is usually up already
        used = workers if workers is not None else ray_workers(ray)
        start = time.perf_counter()
        tallies = run_ray(v, names, n, seed, chunk_ranges(games, used), done)
    else:
        from ..verify import default_workers

        used = 1 if backend == "inline" else min(games, workers if workers is not None else default_workers(games))
        unguarded = unguarded_note("simulate") if used > 1 else None
        if unguarded is not None:
            notes.append(unguarded)
            used = 1
        chunks = chunk_ranges(games, used)
        start = time.perf_counter()
        tallies = []
        if used > 1:
            try:
                tallies = run_process(v, names, n, seed, chunks, used, done)
            except (BrokenProcessPool, pickle.PicklingError, OSError) as exc:
                notes.append(f"the worker processes failed ({type(exc).__name__}: {exc}); the games were played here")
                used, finished = 1, 0
        if not tallies:
            tallies = run_inline(v, names, n, seed, chunks, done)
    seconds = time.perf_counter() - start
    total = Tally(n)
    for t in tallies:
        total.add(t)
    run = RunInfo(
        backend=backend,
        workers=used,
        seconds=seconds,
        games_per_second=games / seconds if seconds > 0 else None,
        notes=notes,
    )
    return tally_report(v, seats, seed, total, run)
