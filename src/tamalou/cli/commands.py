"""The ``tamalou`` application with every command registered on it: ``app``, what ``tamalou.cli.main`` runs.

The commands are in modules of their own; this module registers them on ``app``, in the order ``tamalou --help``
lists them:

- ``tamalou.cli.ruleset_commands``: ``variants``, ``show``, ``schema``, ``new``, ``validate``;
- ``tamalou.cli.play_command``: ``play``, its log and tables, the bots of each seat;
- ``tamalou.cli.simulate_command``: ``simulate`` and its report and balance tables;
- ``tamalou.cli.tournament_command``: ``tournament``, how strong bots are;
- ``tamalou.cli.verify_commands``: ``verify`` and ``replay``.

``tamalou.cli.application`` holds ``app`` itself and the help's formatting; ``tamalou.cli._options`` what the
commands share. A name replaced for a test (``monkeypatch.setattr``) must be replaced where the command looks it
up: in the module that holds it (``play_game`` for ``play``: ``tamalou.cli.play_command``).
"""

from __future__ import annotations

from ._options import BOT_KINDS
from .application import EPILOG, app, register_command
from .play_command import play
from .ruleset_commands import new, schema, show, validate, variants
from .simulate_command import simulate
from .tournament_command import tournament
from .verify_commands import replay, verify

# The commands, in the order of ``tamalou --help``.
register_command(variants)
register_command(show)
register_command(schema)
register_command(new)
register_command(validate)
register_command(play)
register_command(simulate)
register_command(tournament)
register_command(verify)
register_command(replay)

__all__ = ["BOT_KINDS", "EPILOG", "app"]
