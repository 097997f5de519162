"""The variant format: every rule of every ruleset as a typed key.

A variant file is TOML. Top-level keys describe the ruleset (``name``, ``aliases``, ``extends``,
``plugins``...); the ``[rules]`` table holds one sub-table per part of the game. Every key has a
default (the plain core: no powers, no special card values, see docs/architecture.md), so a file
that ``extends`` another only says what differs. Unknown keys are
errors. ``tamalou.variant_json_schema()`` returns this schema as JSON Schema for editors.

The modules, each one subject (every name below is importable from ``tamalou.schema`` too):

- ``bounds``: the bounds of a ruleset's numbers and texts (``MAX_PLAYERS``, ``MAX_TURNS``, ``MAX_MATCH_TURNS``,
  ``MAX_POINTS``, ``MAX_NAME_LENGTH``...)
- ``key_types``: the types of the keys (``RankName``, ``Seconds``, ``Points``, ``PowerName``, ``Tup``, ``Table``...),
  the text checks (``CONTROL``) and the base of the sections
- ``checks``: the checks the sections share (tables keyed by cards or ranks, lists without repeats)
- ``table``: ``Players``, ``Deck`` (and ``DECK_RANKS``), ``Deal``, ``Peek``
- ``card_rules``: ``Values`` (and ``DEFAULT_VALUES``), ``Powers``
- ``play``: ``DrawRules``, ``Matching``, ``Call``
- ``ending``: ``End``, ``Scoring``, ``Rounds``
- ``timing``: ``Timing``
- ``variant``: ``Variant``, ``Rules`` and the checks between sections (``rules_problems``)
"""

from __future__ import annotations

from .bounds import (
    MAX_ALIASES,
    MAX_BASE_LENGTH,
    MAX_DEAL,
    MAX_DESCRIPTION_LENGTH,
    MAX_LIMIT,
    MAX_LOCKOUTS,
    MAX_MATCH_TURNS,
    MAX_NAME_LENGTH,
    MAX_NAME_PARTS,
    MAX_PLAYERS,
    MAX_POINTS,
    MAX_RANKS,
    MAX_ROUNDS,
    MAX_SECONDS,
    MAX_SOURCE_LENGTH,
    MAX_SOURCES,
    MAX_TITLE_LENGTH,
    MAX_TURNS,
)
from .card_rules import DEFAULT_VALUES, Powers, Values
from .ending import End, Rounds, Scoring
from .key_types import CONTROL, FrozenTable, Points, PowerName, RankName, Seconds, SuitName, Table, TieBreak, Tup
from .play import Call, DrawRules, Matching
from .table import DECK_RANKS, Deal, Deck, Peek, Players
from .timing import Timing
from .variant import MODULE_NAME as MODULE_NAME
from .variant import Problem, Rules, Variant, rules_problems

__all__ = [
    "CONTROL",
    "DECK_RANKS",
    "DEFAULT_VALUES",
    "MAX_ALIASES",
    "MAX_BASE_LENGTH",
    "MAX_DEAL",
    "MAX_DESCRIPTION_LENGTH",
    "MAX_LIMIT",
    "MAX_LOCKOUTS",
    "MAX_MATCH_TURNS",
    "MAX_NAME_LENGTH",
    "MAX_NAME_PARTS",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_RANKS",
    "MAX_ROUNDS",
    "MAX_SECONDS",
    "MAX_SOURCES",
    "MAX_SOURCE_LENGTH",
    "MAX_TITLE_LENGTH",
    "MAX_TURNS",
    "Call",
    "Deal",
    "Deck",
    "DrawRules",
    "End",
    "FrozenTable",
    "Matching",
    "Peek",
    "Players",
    "Points",
    "PowerName",
    "Powers",
    "Problem",
    "RankName",
    "Rounds",
    "Rules",
    "Scoring",
    "Seconds",
    "SuitName",
    "Table",
    "TieBreak",
    "Timing",
    "Tup",
    "Values",
    "Variant",
    "rules_problems",
]
