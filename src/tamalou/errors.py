"""The exceptions a user of tamalou meets: one type per meaning, all deriving from ``TamalouError``."""

from __future__ import annotations


class TamalouError(Exception):
    """Base class of every error tamalou raises on purpose."""


class VariantError(TamalouError, ValueError):
    """A ruleset (TOML file, name, or composition) is invalid.

    The message names the file, the key path and what was expected, e.g.
    ``gabo.toml: call.threshold: expected an integer, got 'seven'``.
    """

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None) -> None:
        self.file = file
        self.key = key
        self.reason = message
        prefix = ""
        if file:
            prefix += f"{file}: "
        if key:
            prefix += f"{key}: "
        super().__init__(prefix + message)


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
