"""Worker processes that stop as one with their parent (package-internal to ``tamalou``: ``verify`` and ``simulate``
play in them). Ctrl-C and ``kill`` while games play in worker processes: the parent alone decides, and no worker
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

A script that calls ``verify`` or ``simulate`` at its top level, outside ``if __name__ == "__main__":``, would have
every worker run the script again and fail with a long traceback: ``unguarded_script`` tells such a call, which then
plays its games in its own process and says so.
"""

from __future__ import annotations

import contextlib
import linecache
import multiprocessing
import signal
import sys
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


def unguarded_note(what: str) -> str | None:
    """The note of a run (``what``: ``"simulate"``, ``"verify"``) that plays in its own process because it was
    called at the top level of a script outside ``if __name__ == "__main__":`` (``unguarded_script``), else
    ``None``."""
    where = unguarded_script()
    if where is None:
        return None
    return (
        f"played in this process: {what} was called at the top level of a script ({where}), outside "
        'if __name__ == "__main__":, where worker processes would run the script again; put the call under that '
        "guard to play on every core"
    )


def unguarded_script() -> str | None:
    """Where this call comes from the top level of a script outside ``if __name__ == "__main__":`` (the file and
    line of the script's statement that led to it), or ``None``. A worker process started with ``spawn`` runs the
    script's top level again: there, the call would start workers of its own, which Python refuses with a long
    traceback in every worker, so such a call plays its games in its own process. A statement indented (under the
    guard, in a function) or an ``if`` line is guarded; an interactive session or ``python -c`` has no script."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path is None or getattr(multiprocessing.current_process(), "_inheriting", False):
        return None
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__":
            line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
            if line[:1] not in (" ", "\t") and not line.lstrip().startswith("if "):
                return f"{frame.f_code.co_filename}, line {frame.f_lineno}"
            return None
        frame = frame.f_back  # type: ignore[assignment]
    return None
