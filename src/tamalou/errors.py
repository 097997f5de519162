"""The exceptions a user of tamalou meets: one type per meaning, all deriving from ``TamalouError``, all here (the
modules that raise them import them from here; each is importable from ``tamalou`` too)."""

from __future__ import annotations

import os
import sysconfig
from collections.abc import Sequence
from typing import Any

import pluggy


class TamalouError(Exception):
    """Base class of every error tamalou raises on purpose."""


class VariantError(TamalouError, ValueError):
    """A ruleset (TOML file, name, or composition) is invalid.

    The message names the file, the key path and what was expected, e.g.
    ``gabo.toml: call.threshold: expected an integer, got 'seven'``.

    A file with several problems raises one ``VariantError`` listing them all, one line each
    (``file: key: expectation``); ``errors`` holds them one by one, and ``file``, ``key`` and
    ``reason`` are the first one's. An error of a single problem is its own only item of ``errors``.
    """

    #: How many problems the message lists at most (``errors`` keeps them all).
    MAX_LISTED = 30

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        key: str | None = None,
        errors: Sequence[VariantError] = (),
    ) -> None:
        self.file = file
        self.key = key
        self.reason = message
        self.errors: list[VariantError] = list(errors) or [self]
        if len(self.errors) == 1:
            text = self.line
        else:
            lines = [e.line for e in self.errors[: self.MAX_LISTED]]
            if len(self.errors) > self.MAX_LISTED:
                lines.append(f"... and {len(self.errors) - self.MAX_LISTED} more")
            text = "\n".join(lines)
        super().__init__(text)

    @property
    def line(self) -> str:
        """This one problem as ``file: key: reason``."""
        return "".join(f"{x}: " for x in (self.file, self.key) if x) + self.reason

    @classmethod
    def combine(cls, errors: Sequence[VariantError]) -> VariantError:
        """One error for ``errors`` (at least one): the error itself when there is one, else an error
        listing each, whose ``file``, ``key`` and ``reason`` are the first one's."""
        flat = [one for e in errors for one in e.errors]
        if not flat:
            raise ValueError("VariantError.combine needs at least one error")
        if len(flat) == 1:
            return flat[0]
        first = flat[0]
        return cls(first.reason, file=first.file, key=first.key, errors=flat)

    def __reduce__(self) -> tuple[Any, ...]:
        parts = None if self.errors == [self] else [(e.reason, e.file, e.key) for e in self.errors]
        return (_variant_error, (self.reason, self.file, self.key, parts))


def _variant_error(
    reason: str, file: str | None, key: str | None, parts: list[tuple[str, str | None, str | None]] | None
) -> VariantError:
    """Unpickle a ``VariantError`` (its keyword arguments and its list of problems kept)."""
    if parts is None:
        return VariantError(reason, file=file, key=key)
    return VariantError.combine([VariantError(r, file=f, key=k) for r, f, k in parts])


class RulesetNameError(VariantError):
    """A name that cannot be a new ruleset's (``tamalou new``, ``tamalou.rulesets.authoring.check_name``): the
    message says why; its key is ``name``."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = "name") -> None:
        super().__init__(message, file=file, key=key)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ruleset_name_error, (self.reason, self.file, self.key))


def _ruleset_name_error(reason: str, file: str | None, key: str | None) -> RulesetNameError:
    """Unpickle a ``RulesetNameError``."""
    return RulesetNameError(reason, file=file, key=key)


class IllegalAction(TamalouError, ValueError):
    """An action the rules forbid right now. The game is left exactly as it was."""

    def __init__(self, reason: str, action: object | None = None) -> None:
        self.reason = reason
        self.action = action
        super().__init__(reason)


class SetupError(TamalouError, ValueError):
    """Bad arguments to ``new_game`` / ``new_match``: a player count the ruleset does not allow, a
    stacked deal that does not fit the variant's deck, a first player who is not a seat."""


class SnapshotError(TamalouError, ValueError):
    """A snapshot (``to_json``) that cannot be restored: not JSON, another version, missing state."""


class GameStateError(TamalouError, RuntimeError):
    """A question the game cannot answer yet, e.g. ``result()`` before the round is over."""


class PluginError(TamalouError):
    """A plugin's hook raised or answered something the engine cannot use. The message names the
    plugin and the hook; a hook that fails during ``apply`` leaves the game as it was before."""

    def __init__(self, message: str, *, plugin: str | None = None, hook: str | None = None) -> None:
        self.plugin = plugin
        self.hook = hook
        where = ", ".join(x for x in (f"plugin {plugin!r}" if plugin else "", hook or "") if x)
        super().__init__(f"{where}: {message}" if where else message)


class ActionEncodingError(TamalouError, ValueError):
    """An action (or an action class) that an ``ActionSpace`` cannot number (the ``ai`` extra): the message says
    why."""


class SimulationError(TamalouError):
    """A game of a simulation failed (a plugin's hook, a bot, a ruleset that does not load in a worker).
    The message names the game (its index in the run and its seed) and the error."""


class InvariantViolation(TamalouError, AssertionError):
    """An invariant of the game does not hold (``tamalou.verify``, the testing extra): an ``AssertionError``, so
    that a test framework reports it as a failed check. The message says which one, where, and with what.

    ``invariant`` is the name of the invariant that broke (a key of ``INVARIANTS``; empty if
    unknown). ``actions`` holds the actions applied before the violation when a playout raised it
    (with the game's seed and player count, ``tamalou.replay`` rebuilds the state that broke), and
    ``pending`` the action whose ``apply`` crashed, if that was the violation.
    """

    def __init__(self, message: str, *, actions: Sequence[Any] = (), invariant: str = "", pending: Any = None) -> None:
        # (``Any``: this module is below ``tamalou.actions``, which raises its errors; each is an ``Action``.)
        super().__init__(message)
        self.actions: list[Any] = list(actions)
        self.invariant = invariant
        self.pending = pending


class AdapterError(TamalouError, AssertionError):
    """A machine-learning adapter (PettingZoo, OpenSpiel, the action numbering) does not conform on a ruleset:
    ``tamalou.ai.conformance`` raises it naming the ruleset, the player count and what failed (an
    ``AssertionError``: a test framework reports a failed check)."""


class Unbuildable(TamalouError):
    """A seat's view that does not fit a game the ISMCTS determinizer can rebuild (its cards, its phase):
    ``tamalou.bots.ismcts.Determinizer`` raises it, and the bot then plays its fallback."""


def _folder(path: str) -> str:
    return os.path.normcase(os.path.realpath(path)) + os.sep


#: Where code that is not a plugin's lives: tamalou's package and pluggy's; the standard library (but the
#: packages installed below it, whose folder may be inside it).
_LIBRARIES = (_folder(os.path.dirname(__file__)), _folder(os.path.dirname(pluggy.__file__)))
_STDLIB = _folder(sysconfig.get_paths()["stdlib"])
_INSTALLED = tuple({_folder(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")})


def _a_plugin_s(path: str) -> bool:
    if path.startswith(_LIBRARIES):
        return False
    return not path.startswith(_STDLIB) or path.startswith(_INSTALLED)


def raised_at(exc: BaseException) -> str:
    """Where ``exc`` was raised in a plugin's code, as `` (at FILE:LINE)`` to put after a message: the deepest
    frame of its traceback outside tamalou, pluggy and the standard library (``""`` if there is none). So an
    error of a hook or of a power names the line of the plugin that raised it."""
    where = ""
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        path = os.path.normcase(os.path.realpath(filename)) if not filename.startswith("<") else ""
        if path and _a_plugin_s(path):
            where = f"{filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return f" (at {where})" if where else ""


def what_raised(exc: BaseException) -> str:
    """``exc`` as a report says it: its type, its message and where a plugin's code raised it (``raised_at``)."""
    return f"{type(exc).__name__}: {exc}{raised_at(exc)}"


class VerifyInterrupted(KeyboardInterrupt):
    """``tamalou.verify.verify`` was interrupted (Ctrl-C, or SIGTERM in the command): its workers are stopped, and
    ``report`` (a ``tamalou.verify.VerifyReport``) holds the games finished, with ``report.interrupted`` set. A
    ``KeyboardInterrupt``, not a ``TamalouError``, so a script that does not catch it stops as it would."""

    def __init__(self, report: Any) -> None:
        super().__init__(f"verify interrupted after {report.games} games")
        self.report = report
