"""The ``tamalou`` application with every command registered on it: ``app``, what ``tamalou.cli.main`` runs.

The commands and their helpers moved to modules of their own; this module registers the commands on ``app``,
in the order ``tamalou --help`` lists them, and re-exports every name it used to hold, for code that imports
them from here:

- ``tamalou.cli.application``: ``app``, the exit statuses and ``EPILOG``, the help's formatting and
  ``_command``, the shared options (``VariantOption``...), ``BOT_KINDS``, the consoles (``_out``, ``_err``,
  ``_echo_document``), ``_fail`` and the reading of a ruleset argument (``_load``...), ``--version``;
- ``tamalou.cli.ruleset_commands``: ``variants``, ``show``, ``schema``, ``new``, ``validate``;
- ``tamalou.cli.play_command``: ``play``, its log and tables, the bots of each seat (``_bots``, ``_round_bots``);
- ``tamalou.cli.simulate_command``: ``simulate`` and its report and balance tables;
- ``tamalou.cli.tournament_command``: ``tournament``, how strong bots are;
- ``tamalou.cli.verify_commands``: ``verify`` and ``replay``.

A name replaced for a test (``monkeypatch.setattr``) must be replaced where the command looks it up: in the
module it moved to (``play_game`` for ``play``: ``tamalou.cli.play_command``), not here.
"""

from __future__ import annotations

from .application import BOT_KINDS, EPILOG, _command, app
from .application import OK as OK
from .application import RULE_FAILURE as RULE_FAILURE
from .application import RULESET as RULESET
from .application import RULESET_HELP as RULESET_HELP
from .application import USAGE_ERROR as USAGE_ERROR
from .application import BotsOption as BotsOption
from .application import F as F
from .application import PlayersOption as PlayersOption
from .application import VariantOption as VariantOption
from .application import _at_least_one as _at_least_one
from .application import _check_players as _check_players
from .application import _Command as _Command
from .application import _Console as _Console
from .application import _echo_document as _echo_document
from .application import _err as _err
from .application import _fail as _fail
from .application import _findable as _findable
from .application import _Group as _Group
from .application import _load as _load
from .application import _out as _out
from .application import _parts as _parts
from .application import _plain_types as _plain_types
from .application import _root as _root
from .application import _spec as _spec
from .application import _version as _version
from .play_command import _bot_kinds as _bot_kinds
from .play_command import _bots as _bots
from .play_command import _is_match as _is_match
from .play_command import _new_game as _new_game
from .play_command import _new_match as _new_match
from .play_command import _play_json as _play_json
from .play_command import _Round as _Round
from .play_command import _round_bots as _round_bots
from .play_command import play
from .ruleset_commands import _extends_entry as _extends_entry
from .ruleset_commands import _first_line as _first_line
from .ruleset_commands import _from as _from
from .ruleset_commands import _keys_tree as _keys_tree
from .ruleset_commands import _print_effective as _print_effective
from .ruleset_commands import _text as _text
from .ruleset_commands import new, schema, show, validate, variants
from .simulate_command import _interval as _interval
from .simulate_command import _num as _num
from .simulate_command import _pct as _pct
from .simulate_command import _print_balance as _print_balance
from .simulate_command import _print_report as _print_report
from .simulate_command import _range as _range
from .simulate_command import _simulate_one as _simulate_one
from .simulate_command import _simulate_progress as _simulate_progress
from .simulate_command import _table as _table
from .simulate_command import _writable as _writable
from .simulate_command import simulate
from .tournament_command import tournament
from .verify_commands import _foreign as _foreign
from .verify_commands import _foreign_plugins as _foreign_plugins
from .verify_commands import _invariants_table as _invariants_table
from .verify_commands import _plugins_refused as _plugins_refused
from .verify_commands import _progress as _progress
from .verify_commands import _quoted as _quoted
from .verify_commands import _read_replayable as _read_replayable
from .verify_commands import replay, verify

# The commands, in the order of ``tamalou --help``.
_command(variants)
_command(show)
_command(schema)
_command(new)
_command(validate)
_command(play)
_command(simulate)
_command(tournament)
_command(verify)
_command(replay)

__all__ = ["BOT_KINDS", "EPILOG", "app"]
