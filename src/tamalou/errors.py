"""The two exceptions a user of tamalou meets."""

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
