"""The time limits of ``verify``'s games: ``Limits`` (``--timeout`` per game, ``--hook-budget`` per hook call)
and ``check_game_within``, which checks one game as ``check_game`` does, within them.

**A game that runs too long** is stopped and reported as a failure of the ``termination`` invariant (*a
round ends*): a round that does not end in its time has not ended, whether a hook never returns or is
only very slow. So is a game at the first call of a plugin's hook that returns after more than ``hook_budget``
(``hook_timing.HookOverBudget``): at thousands of calls a run, a hook of a second would take the run an hour.
The message says where it was stopped: the hook and its plugin when a timed hook was
running (``hook_timing``), else the function of the plugin's code on the stack (a mechanic's method, a
power), with its file and line, and the action being played. The run goes on with the next game.

**How a game is stopped: an alarm in the process that plays it.** Before each game, ``signal.setitimer``
arms ``SIGALRM`` for ``timeout`` seconds; its handler raises ``GameTimeout`` in the game's own thread,
from whatever Python code is running — a hook stuck in ``while True: pass`` included: the interpreter runs
signal handlers between bytecodes. The handler also reads the stack there and then, so the failure says
what the game was doing. It works in the worker processes (each plays its games in its main thread) and in
the main process when verify plays the games itself (``workers=1``), and it costs nothing while the game
runs (the kernel keeps the timer). The other way, killing the worker from the parent and starting
another, would lose exactly what is worth reporting (where it was stuck; the actions played), needs a
process per game to tell which game was stuck, and does nothing for ``workers=1``.

``GameTimeout`` is a ``BaseException``: the engine turns a hook's ``Exception`` into a ``PluginError``,
and ``check_game`` reports any ``Exception`` as a failure of its own, so an ``Exception`` would be mistaken
for a crash of the rule; and a plugin's ``except Exception`` does not swallow it either.

Its limits: the alarm needs ``signal.setitimer`` (not on Windows) and the main thread (``verify`` called from
another thread); without them the games run without a time limit and the report's notes say so (``available``).
Code that never returns to the interpreter (a C extension stuck in a loop) is not stopped by the alarm; Ctrl-C
(which kills the workers) still stops the run.

The failure's actions are those played before the game was stopped: the action that never returned is named
in the message, not recorded, so that replaying the counterexample does not hang in it. A counterexample of a
game stopped by its time limit is therefore not shrunk (each try could take the whole limit): ``tamalou verify``
writes it as found.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from ..actions import action_to_dict
from ..engine import Round
from ..schema import Variant
from .chooser import style_of
from .game_check import Failure, GameReport, check_game
from .hook_timing import HookOverBudget, HookTimer, SlowHook

#: The invariant a game stopped by its time limit fails: a round ends.
TIMEOUT_INVARIANT = "termination"
#: The words every such failure's message starts with (``timed_out`` reads them).
TIMEOUT_WORDS = "the game was stopped by its time limit"


@dataclass(frozen=True)
class Limits:
    """How long a game may take: ``timeout`` seconds (``None``: no limit), and ``hook_budget`` seconds per
    call of a plugin's hook before the report names it (``None``: hooks are not timed)."""

    timeout: float | None = None
    hook_budget: float | None = None

    def __post_init__(self) -> None:
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, got {self.timeout}")
        if self.hook_budget is not None and not self.hook_budget >= 0:
            raise ValueError(f"hook_budget must be at least 0 seconds, got {self.hook_budget}")


@dataclass
class LimitedGame:
    """One game checked within its ``Limits``: its ``report`` (a ``termination`` failure if it was stopped) and
    the ``slow`` hooks it called."""

    report: GameReport
    slow: list[SlowHook] = field(default_factory=list)


class GameTimeout(BaseException):
    """Raised in a game's thread when its time is up; ``where``: what it was doing, as the report says it."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where
        self.actions: list[dict[str, Any]] = []


def available() -> bool:
    """Whether a game can be stopped by its time limit here: ``signal.setitimer`` exists and this is the main
    thread (signal handlers run only there)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def timed_out(failure: Failure) -> bool:
    """Whether ``failure`` is a game stopped by its time limit (not to be shrunk: each try could take as long)."""
    return failure.invariant == TIMEOUT_INVARIANT and failure.message.startswith(TIMEOUT_WORDS)


@contextmanager
def alarm(seconds: float, plugins: tuple[str, ...], timer: HookTimer | None) -> Iterator[None]:
    """Raise ``GameTimeout`` in this thread if the block runs longer than ``seconds`` (see the module's
    documentation). ``plugins`` (module names) and ``timer`` tell where it was stuck."""
    started = time.perf_counter()

    def ring(signum: int, frame: FrameType | None) -> None:
        spent = time.perf_counter() - started
        try:
            stop = _stopped_at(frame, plugins, timer, spent)
        except Exception as exc:  # reading the stack must not turn the stop into a crash of the rule
            stop = GameTimeout(f"stopped after {spent:.1f} s (where: unknown, {type(exc).__name__}: {exc})")
        raise stop

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)


def check_game_within(
    variant: Variant,
    players: int,
    seed: int,
    limits: Limits,
    timer: HookTimer | None,
    *,
    samples: int,
    check_every: int | None,
    index: int,
) -> LimitedGame:
    """``check_game(variant, players, seed, ...)`` within ``limits``: stopped after ``limits.timeout`` seconds (if
    ``available()``), its ``termination`` failure then saying where; the hooks ``timer`` found slower than its budget
    (``timer`` installed on the variant's rulebook by the caller, or ``None``)."""

    def play() -> GameReport:
        return check_game(variant, players, seed, samples=samples, check_every=check_every, index=index)

    if timer is not None:
        timer.armed = True
    try:
        if limits.timeout is None or not available():
            report = play()
        else:
            try:
                with alarm(limits.timeout, tuple(variant.plugins), timer):
                    report = play()
            except GameTimeout as stop:
                report = _stopped_game(variant, players, seed, index, f"{limits.timeout:g} s, --timeout", stop)
    except HookOverBudget as slow:
        report = _stopped_game(variant, players, seed, index, "a hook over its budget, --hook-budget", _over(slow))
    finally:
        if timer is not None:
            timer.armed = False
    slow_hooks = timer.take(seed) if timer is not None else []
    return LimitedGame(report, slow_hooks)


def _over(slow: HookOverBudget) -> GameTimeout:
    """The stop of a game at a hook over its budget, as a ``GameTimeout`` says it: the hook, the line of the plugin's
    code it returned from, the action being played and the actions played before it."""
    tb = slow.__traceback__
    frames: list[FrameType] = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    frames.reverse()  # the innermost first, as ``_stack`` gives them
    code = _plugin_code(frames, (slow.plugin,))
    line = f" (returning from {code[2]})" if code is not None else ""
    return _stop([f"{slow}{line}"], frames)


def _stopped_game(v: Variant, players: int, seed: int, index: int, limit: str, stop: GameTimeout) -> GameReport:
    """The report of a game stopped by its time limit (``limit`` says which): one ``termination`` check, failed."""
    message = f"{TIMEOUT_WORDS} ({limit}): {stop.where}"
    report = GameReport(index, seed, players, actions=len(stop.actions), checks={TIMEOUT_INVARIANT: 1})
    report.failure = Failure(seed, players, TIMEOUT_INVARIANT, message, stop.actions, style_of(seed), index)
    return report


# ----------------------------------------------------------------------------- where a game was stopped


def _stopped_at(
    frame: FrameType | None, plugins: tuple[str, ...], timer: HookTimer | None, spent: float
) -> GameTimeout:
    """The ``GameTimeout`` to raise from ``frame``: the hook running (``timer``), the plugin's code on the stack,
    the action being played and the actions played before it."""
    frames = _stack(frame)
    hook = timer.stuck_in() if timer is not None else None
    code = _plugin_code(frames, plugins)
    if hook is not None:  # a hook of a plugin, timed: its name, its plugin, how long it ran, the line
        plugin, name, running = hook
        line = f", at {code[2]}" if code is not None else ""
        where = f"in {name} of plugin {plugin} (running for {running:.1f} s{line})"
    elif code is not None:  # other code of a plugin (a mechanic's method, a power): the function and the line
        where = f"in {code[0]} of plugin {code[1]} ({code[2]})"
    else:
        where = "in no plugin's code (tamalou's own, or a check of verify: the game itself is long)"
    parts = [f"stopped after {spent:.1f} s {where}"]
    slowest = timer.slowest() if timer is not None and hook is None else None
    if slowest is not None:  # stopped elsewhere, but a hook was slow before: it may be why the game is late
        parts.append(
            f"the slowest hook of the game: {slowest.hook} of plugin {slowest.plugin}, {slowest.seconds:.2f} s"
        )
    return _stop(parts, frames)


def _stop(parts: list[str], frames: list[FrameType]) -> GameTimeout:
    """The ``GameTimeout`` that says ``parts``, then the action being played and the actions played before it (the
    round read from ``frames``)."""
    game, action = _the_round(frames)
    actions: list[dict[str, Any]] = []
    if game is not None:
        actions = [action_to_dict(a) for a in game.actions]
        doing = f"while playing {json.dumps(action)}" if action is not None else "between actions"
        phase = getattr(game.phase, "value", game.phase)
        parts.append(f"{doing}, after {len(actions)} actions [turn {game.turn}, phase {phase!r}]")
    stop = GameTimeout(", ".join(parts))
    stop.actions = actions
    return stop


def _stack(frame: FrameType | None) -> list[FrameType]:
    """The frames from ``frame`` outwards (the innermost first)."""
    frames = []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def _of_plugins(module: str, plugins: tuple[str, ...]) -> bool:
    """Whether ``module`` is one of ``plugins`` or in the package of one (tamalou's own left out)."""
    if module == "tamalou" or module.startswith("tamalou."):
        return False
    top = module.split(".")[0]
    return any(module == p or top == p.split(".")[0] for p in plugins)


def _plugin_code(frames: list[FrameType], plugins: tuple[str, ...]) -> tuple[str, str, str] | None:
    """The innermost function of a plugin's code on the stack: its name, its module and ``FILE:LINE``."""
    for f in frames:
        module = f.f_globals.get("__name__", "")
        if isinstance(module, str) and _of_plugins(module, plugins):
            file = f.f_code.co_filename.replace("\\", "/").rsplit("/", 1)[-1]
            return f.f_code.co_qualname, module, f"{file}:{f.f_lineno}"
    return None


def _the_round(frames: list[FrameType]) -> tuple[Round | None, dict[str, Any] | None]:
    """The round being played (the outermost method of a ``Round`` on the stack: the game itself, not a copy a
    check made) and the action it was applying, if any."""
    game: Round | None = None
    action: dict[str, Any] | None = None
    for f in frames:
        owner = f.f_locals.get("self")
        if isinstance(owner, Round):  # outwards: the last one found is the outermost
            game = owner
            action = _as_dict(f.f_locals.get("action")) if f.f_code.co_name == "apply" else None
    return game, action


def _as_dict(action: object) -> dict[str, Any] | None:
    """An action's JSON form, whether it is one already or an ``Action`` (``None`` if it is neither)."""
    if isinstance(action, dict):
        return action
    to_dict = getattr(action, "to_dict", None)
    return to_dict() if callable(to_dict) else None
