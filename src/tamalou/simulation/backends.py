"""Where a run's games are played: here, on a pool of worker processes or as Ray tasks (the ``ray`` extra,
imported only when used); how the ruleset and the bots travel to the workers (by name, or the ruleset's
stand-alone TOML text), and the chunks of consecutive games they are given."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Literal, TypeVar

from .._processes import quiet_worker, signals_held, stop_workers
from ..bots import is_bot_file
from ..errors import SimulationError
from ..play import BotLike
from ..rulesets import is_registered, load_variant
from ..schema import Variant
from .games import run_chunk
from .tally import Tally

R = TypeVar("R")

#: The places a run can be played: here, in worker processes, or as Ray tasks.
BACKENDS = ("inline", "process", "ray")
Backend = Literal["inline", "process", "ray"]


# ----------------------------------------------------------------------------- bots and rulesets by name


def factory(name: str) -> Callable[[int], BotLike]:
    """What ``make_bot(name, seed)`` calls, found once for a run (``ValueError`` for an unknown name)."""
    from ..bots import bot_factory

    return bot_factory(name)


def bot_names(bots: str | Sequence[str]) -> list[str]:
    names = [bots] if isinstance(bots, str) else list(bots)
    if not names:
        raise ValueError("no bot: name at least one (tamalou.bots.bot_names() lists them)")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a bot is given by its name (tamalou.bots.bot_names()), got {name!r}")
        factory(name)  # an unknown name: the error lists the bots
    return [name.strip() if is_bot_file(name) else name.strip().lower() for name in names]


VariantRef = str | list[str] | dict[str, Any]


def variant_ref(v: Variant) -> VariantRef:
    """How the ruleset travels to a worker: its registered name(s), or its stand-alone TOML text."""
    from ..verify import EmbeddedVariant

    spec = v.spec
    if isinstance(spec, str) and is_registered(spec):
        return spec
    if isinstance(spec, list | tuple) and spec and all(isinstance(s, str) and is_registered(s) for s in spec):
        return [str(s) for s in spec]
    return EmbeddedVariant.of(v).model_dump(mode="json")


_LOADED: dict[str, Variant] = {}


def variant_of(ref: VariantRef) -> Variant:
    """The ruleset a worker was sent (loaded once per process)."""
    key = json.dumps(ref, sort_keys=True)
    v = _LOADED.get(key)
    if v is None:
        if isinstance(ref, dict):
            from ..verify import EmbeddedVariant

            v = EmbeddedVariant.model_validate(ref).load()
        else:
            v = load_variant(ref)
        _LOADED[key] = v
    return v


# ----------------------------------------------------------------------------- the backends


def chunk_ranges(games: int, workers: int, most: int = 500) -> list[tuple[int, int]]:
    """Consecutive ranges of game indices: about eight per worker, at most ``most`` games each."""
    size = max(1, min(most, math.ceil(games / (8 * max(1, workers)))))
    return [(a, min(games, a + size)) for a in range(0, games, size)]


_POOL: tuple[Variant, list[Callable[[int], BotLike]]] | None = None


def _init_pool(ref: VariantRef, names: list[str]) -> None:
    """A worker process's start: the ruleset and the bots, once (a ruleset that does not load here
    breaks the pool, and the games are played in the main process instead)."""
    global _POOL
    from ..engine.rulebook import rulebook

    quiet_worker()  # Ctrl-C reaches the whole process group: the parent alone stops the run, and its workers
    v = variant_of(ref)
    rulebook(v)
    _POOL = (v, [factory(n) for n in names])


def _pool_chunk(players: int, seed: int, start: int, stop: int) -> tuple[int, Tally]:
    assert _POOL is not None
    return start, run_chunk(_POOL[0], _POOL[1], players, seed, start, stop)


def _ray_chunk(ref: VariantRef, names: list[str], players: int, seed: int, start: int, stop: int) -> Tally:
    return run_chunk(variant_of(ref), [factory(n) for n in names], players, seed, start, stop)


def run_inline(
    v: Variant, names: list[str], players: int, seed: int, chunks: list[tuple[int, int]], done: Callable[[int], None]
) -> list[Tally]:
    factories = [factory(n) for n in names]
    out = []
    for a, b in chunks:
        out.append(run_chunk(v, factories, players, seed, a, b))
        done(b - a)
    return out


def pooled(
    calls: Sequence[tuple[Callable[..., R], tuple[Any, ...]]],
    workers: int,
    initializer: Callable[..., None] = quiet_worker,
    initargs: tuple[Any, ...] = (),
) -> Iterator[tuple[int, R]]:
    """Each ``(function, args)`` of ``calls`` on a pool of ``workers`` processes (``spawn``), a few ahead of the
    results: ``(index, result)`` as each finishes. Interrupted (Ctrl-C, or ``SIGTERM`` made a ``KeyboardInterrupt``
    by the command line), failing, or closed by its caller before the end, it stops every worker at once before it
    raises: none outlives the run (``tamalou._processes``, as ``verify`` does). ``initializer`` starts each
    worker (it calls ``quiet_worker`` first)."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=initializer, initargs=initargs)
    queue = list(reversed(range(len(calls))))
    running: dict[Future[R], int] = {}
    try:
        while queue or running:
            while queue and len(running) < 2 * workers:
                i = queue.pop()
                function, args = calls[i]
                with signals_held():  # a worker started now inherits the blocked signals (quiet_worker)
                    running[pool.submit(function, *args)] = i
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield running.pop(future), future.result()
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def run_process(
    v: Variant,
    names: list[str],
    players: int,
    seed: int,
    chunks: list[tuple[int, int]],
    workers: int,
    done: Callable[[int], None],
) -> list[Tally]:
    """The chunks on a pool of ``workers`` processes (``pooled``), in chunk order."""
    found: dict[int, Tally] = {}
    calls = [(_pool_chunk, (players, seed, a, b)) for a, b in chunks]
    for _, (start, tally) in pooled(calls, workers, _init_pool, (variant_ref(v), names)):
        found[start] = tally
        done(tally.games)
    return [found[a] for a, _ in chunks]


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'tamalou[ray]'") from None
    return ray


def ray_start(ray: Any) -> None:
    """Use the Ray instance of this process, or ``ray.init()``: the cluster at ``RAY_ADDRESS`` if set,
    else a local one (left running for the next run; ``ray.shutdown()`` ends it)."""
    if ray.is_initialized():
        return
    import logging

    if os.environ.get("RAY_ADDRESS"):
        ray.init(logging_level=logging.WARNING)
    else:
        ray.init(include_dashboard=False, logging_level=logging.WARNING)


def ray_workers(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_ray(
    v: Variant,
    names: list[str],
    players: int,
    seed: int,
    chunks: list[tuple[int, int]],
    done: Callable[[int], None],
) -> list[Tally]:
    ray = import_ray()
    task = ray.remote(_ray_chunk)
    ref = variant_ref(v)
    pending = {task.remote(ref, names, players, seed, a, b): a for a, b in chunks}
    found: dict[int, Tally] = {}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for r in ready:
                start = pending.pop(r)
                tally = ray.get(r)
                found[start] = tally
                done(tally.games)
    except ray.exceptions.RayTaskError as exc:
        for r in pending:
            ray.cancel(r)
        cause = getattr(exc, "cause", None)
        if isinstance(cause, SimulationError):
            raise SimulationError(str(cause)) from None
        raise SimulationError(f"a Ray task failed: {cause if cause is not None else exc}") from None
    return [found[a] for a, _ in chunks]
