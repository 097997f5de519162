"""Ctrl-C and ``kill`` while ``verify`` plays in worker processes: the parent alone decides, and no worker
outlives it.

A terminal's Ctrl-C sends ``SIGINT`` to the whole process group: to ``tamalou verify`` and to every worker.
If each worker raised ``KeyboardInterrupt`` on its own, the run would print one traceback per worker and
the parent could not tell a game interrupted from a game that crashed. So the workers ignore ``SIGINT``
(``quiet_worker``) and the parent, interrupted, stops them at once (``stop_workers``): ``SIGTERM``, then
``SIGKILL`` for any that is still there a moment later (one stuck in code that does not return to the
interpreter). A ``SIGINT`` or ``SIGTERM`` sent to the parent alone ends the same way.

A worker starts by importing tamalou, for a second or so, before it can say it ignores ``SIGINT``: a Ctrl-C
then would still make it print a traceback. So the parent blocks ``SIGINT`` and ``SIGTERM`` while it starts
a worker (``signals_held``): the new process inherits the blocked mask, receives them only once it has set
``SIGINT`` aside and unblocked them (``quiet_worker``), and the parent gets any that came meanwhile as soon
as it unblocks them — nothing is lost. (``ProcessPoolExecutor`` starts its workers as games are submitted,
so every ``submit`` is made with the signals held.)

Without ``signal.pthread_sigmask`` (Windows) the signals are not held: only the traceback noise differs.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.process import BaseProcess

#: The signals that stop a run: Ctrl-C and ``kill``'s default.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: How long a worker has to end after ``SIGTERM`` before it is killed.
GRACE_SECONDS = 1.0


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Block ``SIGINT`` and ``SIGTERM`` in this thread for the block (a worker started in it inherits the mask);
    any that arrived is delivered when they are unblocked."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def quiet_worker() -> None:
    """A worker's first step: ignore ``SIGINT`` (the parent stops the workers), keep ``SIGTERM``'s default (it
    ends the process), and unblock both (``signals_held`` blocked them in the parent that started it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def worker_processes(pool: ProcessPoolExecutor) -> list[BaseProcess]:
    """The processes of ``pool`` alive now. (``ProcessPoolExecutor`` keeps them in ``_processes``; Python 3.14's
    ``terminate_workers`` would do without it.)"""
    processes = getattr(pool, "_processes", None) or {}
    return list(processes.values())


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers of ``pool`` now, whatever they are playing, and shut it down without waiting for a
    game: ``SIGTERM`` to each, ``SIGKILL`` to those still alive after ``GRACE_SECONDS``."""
    processes = worker_processes(pool)
    for p in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            p.terminate()
    deadline = time.monotonic() + GRACE_SECONDS
    for p in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(GRACE_SECONDS)
    pool.shutdown(wait=True, cancel_futures=True)
