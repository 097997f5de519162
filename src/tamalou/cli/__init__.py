"""The ``tamalou`` command line.

```text
tamalou variants                      the known rulesets
tamalou show french                   the rules as they are played (--keys, --json, --toml)
tamalou new our-table --extends french  a new ruleset file to edit (--plugin: and a plugin module)
tamalou validate our-table.toml ...   check house-rule files (exit 1 on a bad one)
tamalou play --seed 7 --bots cautious a seeded game (a whole match for match rulesets) between bots
tamalou simulate --games 1000         many games: speed, win rates, how rounds end
tamalou verify french --games 200     random games checked against the engine's invariants, on every core
tamalou replay COUNTEREXAMPLE.json    a failing game that verify wrote, step by step (--seat, --step, --allow-plugins)
tamalou schema                        the JSON Schema of the variant TOML format
```

A ruleset is a name, an alias, a path to a ``.toml`` file, or a composition written with ``+``
(``french+opponent-matching``). Exit status: 0 success, 1 a rule or invariant failure, 2 a usage or load
error (see ``tamalou --help``).

A file given to ``replay`` is not trusted: it imports no plugin module the file names but tamalou's own unless
``--allow-plugins``. Whatever the command prints from a file (a title, a key's name, a message) is printed
through ``tamalou.cli.printable.printable``: a control character is shown, never sent to the terminal as such.

The command needs the ``cli`` extra (typer and rich): ``pip install 'tamalou[cli]'``. This module imports
neither until the command runs, so that ``tamalou`` without them says so instead of a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

__all__ = ["main"]

#: What ``tamalou`` says, exiting with status 2, when typer or rich is not installed.
MISSING_EXTRA = "the tamalou command needs the cli extra: pip install 'tamalou[cli]'"
_EXTRA_MODULES = ("typer", "rich", "click")
#: The extra that brings each package a command may need beyond the cli extra.
EXTRA_OF = {
    "numpy": "ai",
    "pettingzoo": "ai",
    "gymnasium": "ai",
    "pyspiel": "ai",
    "open_spiel": "ai",
    "ray": "ray",
    "matplotlib": "plot",
    "hypothesis": "testing",
    "mkdocs": "docs",
}


def _missing_extra(exc: ImportError) -> bool:
    name = exc.name or ""
    return name.split(".")[0] in _EXTRA_MODULES


def main() -> None:
    """Entry point of the ``tamalou`` script."""
    try:
        from .commands import app
    except ImportError as exc:
        if not _missing_extra(exc):
            raise
        sys.stderr.write(f"{MISSING_EXTRA}\n")
        raise SystemExit(2) from None
    try:
        app()
    except ImportError as exc:  # a command that needs an extra not installed: one line, no traceback
        package = (exc.name or "").split(".")[0]
        extra = EXTRA_OF.get(package)
        if extra is None:
            raise
        sys.stderr.write(
            f"error: this needs the {extra} extra ({package} is not installed): pip install 'tamalou[{extra}]'\n"
        )
        raise SystemExit(2) from None


def __getattr__(name: str) -> Any:
    """The command's objects (``app``, helpers) from ``tamalou.cli.commands``, imported on first use."""
    if name.startswith("__"):
        raise AttributeError(name)
    commands = importlib.import_module(f"{__name__}.commands")  # not "from . import": it would ask us again
    if name == "commands":
        return commands
    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
