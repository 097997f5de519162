"""How long the hooks of a ruleset's plugins take while ``verify`` plays: ``HookTimer`` and ``SlowHook``.

``tamalou verify --hook-budget MS`` fails a game at the first call of a hook implementation that takes longer than
the budget (``HookOverBudget``, reported by ``limits`` as a game stopped by its time limit), and names every such
hook with its plugin and its slowest time: a rule that is slow is worth knowing before it becomes a game that never
ends (``--timeout``, in ``limits``), and a hook that takes a second at each of the thousands of calls a run makes
would otherwise take the run an hour.

**How a hook is timed.** pluggy calls a hook implementation through ``HookImpl.function`` (so does
tamalou's own ``first_result``, for the *first result wins* hooks). ``HookTimer.install`` replaces
that function, on the implementations of the rulebook's plugin manager, with one that reads the clock
before and after the call; ``uninstall`` puts the original back. Only the plugins that are not
tamalou's own (``tamalou.*``) are timed: the built-in rules are not the user's to fix, and a ruleset
without plugins of its own (``tamalou verify french``) runs exactly the code it ran untimed — no
wrapper at all, so no cost. A timed call costs two reads of the clock and a comparison; the slow
calls alone are recorded.

Two kinds of implementation are left untimed: hook wrappers (``wrapper=True``: calling one only makes
a generator; the work happens as it is resumed) and the methods of mechanics and powers (they are
classes that a hook returns, not hook implementations; ``limits`` still names them when a game is
stopped in one, from the stack).

The timer also knows which timed hooks are running right now (``running``), innermost last: when a
game is stopped by its time limit, the hook it was stuck in is named with its plugin.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pluggy


@dataclass
class SlowHook:
    """A hook implementation slower than the budget: ``hook`` of ``plugin`` (its module name) took
    ``seconds`` at its slowest, in the game of ``seed``; ``calls`` of its calls went over the budget."""

    plugin: str
    hook: str
    seconds: float
    calls: int = 1
    seed: int | None = None

    def merged(self, other: SlowHook) -> SlowHook:
        """Both records of one hook as one: the slowest time (and its game), the calls added up."""
        slowest = self if self.seconds >= other.seconds else other
        return SlowHook(self.plugin, self.hook, slowest.seconds, self.calls + other.calls, slowest.seed)

    def describe(self, budget: float) -> str:
        """One line for the report, e.g. ``tamalou_round_scores of plugin our_rules took up to 250 ms
        (budget 100 ms; 3 calls over it, the slowest in the game of seed 7)``."""
        over = f"{self.calls} call{'s' if self.calls != 1 else ''} over it"
        where = f", the slowest in the game of seed {self.seed}" if self.seed is not None else ""
        return (
            f"{self.hook} of plugin {self.plugin} took up to {milliseconds(self.seconds)} "
            f"(budget {milliseconds(budget)}; {over}{where})"
        )


class HookOverBudget(BaseException):
    """Raised when a timed hook's call returns after more than its budget while a game is checked (``HookTimer.armed``):
    the game fails there. A ``BaseException``, as ``limits.GameTimeout``: neither the engine (which makes a hook's
    ``Exception`` a ``PluginError``) nor a plugin's ``except Exception`` takes it for something else."""

    def __init__(self, plugin: str, hook: str, seconds: float, budget: float) -> None:
        super().__init__(
            f"{hook} of plugin {plugin} took {milliseconds(seconds)}, over its budget of {milliseconds(budget)}"
        )
        self.plugin, self.hook, self.seconds, self.budget = plugin, hook, seconds, budget


def milliseconds(seconds: float) -> str:
    """``seconds`` in milliseconds, as the report writes them: ``250 ms``, ``1.5 ms``."""
    ms = seconds * 1000
    return f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"


def merge_slow_hooks(records: Iterable[SlowHook]) -> list[SlowHook]:
    """The records of many games, one per hook implementation, the slowest first."""
    by_hook: dict[tuple[str, str], SlowHook] = {}
    for r in records:
        key = (r.plugin, r.hook)
        by_hook[key] = by_hook[key].merged(r) if key in by_hook else r
    return sorted(by_hook.values(), key=lambda r: (-r.seconds, r.plugin, r.hook))


def _tamalou_s_own(plugin_name: str) -> bool:
    return plugin_name == "tamalou" or plugin_name.startswith("tamalou.")


class HookTimer:
    """Times the hook implementations of a plugin manager's plugins (those that are not tamalou's own)
    against ``budget`` seconds. ``install`` it, play, read ``take()`` (the slow hooks since the last
    ``take``), ``uninstall`` it::

        timer = HookTimer(0.1)
        timer.install(rulebook(variant).pm)
        try:
            report = check_game(variant, 2, seed)
        finally:
            timer.uninstall()
        for slow in timer.take():
            print(slow.describe(timer.budget))
    """

    def __init__(self, budget: float) -> None:
        self.budget = budget
        #: While true (a game of ``verify`` is played: ``limits.check_game_within``), a call over the budget raises
        #: ``HookOverBudget`` once it returns: the game fails at its first slow hook. Else it is only recorded.
        self.armed = False
        #: The timed hooks running now, innermost last: ``(plugin, hook, start)`` (``time.perf_counter``).
        self.running: list[tuple[str, str, float]] = []
        self._slow: dict[tuple[str, str], SlowHook] = {}
        self._installed: list[tuple[Any, Callable[..., Any]]] = []  # (HookImpl, its own function)

    @property
    def installed(self) -> bool:
        """Whether some hook implementation is timed (none: the ruleset has no plugin of its own)."""
        return bool(self._installed)

    def install(self, pm: pluggy.PluginManager) -> None:
        """Time every hook implementation of ``pm`` whose plugin is not tamalou's own (wrappers left out)."""
        for name in dir(pm.hook):
            caller = getattr(pm.hook, name)
            if not isinstance(caller, pluggy.HookCaller):
                continue
            impl: Any  # a pluggy HookImpl, whose ``function`` pluggy types as final: it is replaced on purpose
            for impl in caller.get_hookimpls():
                if _tamalou_s_own(impl.plugin_name) or impl.wrapper or impl.hookwrapper:
                    continue
                self._installed.append((impl, impl.function))
                impl.function = self._timed(impl.function, impl.plugin_name, name)

    def uninstall(self) -> None:
        """Give every timed implementation its own function back."""
        for impl, function in reversed(self._installed):
            impl.function = function
        self._installed.clear()

    def take(self, seed: int | None = None) -> list[SlowHook]:
        """The hooks slower than the budget since the last ``take`` (in the game of ``seed``), and forget them."""
        slow = [SlowHook(r.plugin, r.hook, r.seconds, r.calls, seed) for r in self._slow.values()]
        self._slow.clear()
        return slow

    def slowest(self) -> SlowHook | None:
        """The slowest hook over the budget since the last ``take`` (``None`` if none was)."""
        return max(self._slow.values(), key=lambda r: r.seconds, default=None)

    def stuck_in(self) -> tuple[str, str, float] | None:
        """The timed hook running now (the innermost): its plugin, its name and for how long (seconds)."""
        if not self.running:
            return None
        plugin, hook, start = self.running[-1]
        return plugin, hook, time.perf_counter() - start

    def _timed(self, function: Callable[..., Any], plugin: str, hook: str) -> Callable[..., Any]:
        budget, running, clock = self.budget, self.running, time.perf_counter

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            running.append((plugin, hook, start))
            try:
                answer = function(*args, **kwargs)
            finally:
                running.pop()
            spent = clock() - start  # a call that raised, or was stopped, is not a time to report
            if spent > budget:
                self._record(plugin, hook, spent)
                if self.armed:
                    raise HookOverBudget(plugin, hook, spent, budget)
            return answer

        return timed

    def _record(self, plugin: str, hook: str, seconds: float) -> None:
        key = (plugin, hook)
        call = SlowHook(plugin, hook, seconds)
        self._slow[key] = call if key not in self._slow else self._slow[key].merged(call)
