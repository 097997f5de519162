"""tamalou: a referee engine for the Tamalou family of card games.

The public API (see docs/architecture.md)::

    import tamalou
    v = tamalou.load_variant("french")
    g = tamalou.new_game(v, players=4, seed=7)
    while not g.is_over:
        p = g.current_player
        g.apply(g.legal_actions(p)[0])
    print(g.result())
"""

from __future__ import annotations

from .actions import (
    Action,
    Call,
    Discard,
    Draw,
    Flip,
    Give,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Replace,
    Swap,
    Tick,
    action_json_schema,
    action_to_dict,
    parse_action,
    register_action,
)
from .cards import Card, parse_card
from .engine.game import Game, new_game, replay, round_of
from .engine.round import Round
from .engine.rulebook import card_power, card_value, ranking_rule
from .engine.state import Phase, Reason
from .engine.view import view_json_schema
from .errors import (
    ActionEncodingError,
    AdapterError,
    GameStateError,
    IllegalAction,
    InvariantViolation,
    PluginError,
    RulesetNameError,
    SetupError,
    SimulationError,
    SnapshotError,
    TamalouError,
    Unbuildable,
    VariantError,
    VerifyInterrupted,
)
from .events import Event
from .hookspecs import MatchTally, Tally, TieBreak, hookimpl, hookspec
from .match import Match, MatchResult, new_match, replay_match
from .mechanic import Mechanic, PhaseSpec
from .plugins.defaults import rank_by_total
from .powers import CardPower, CardWorth
from .round_table import RoundTable
from .rulesets.loader import load_variant, variant_from_dict, variant_from_toml, variant_json_schema
from .rulesets.power_catalogue import PowerEntry, power_catalogue
from .rulesets.registry import variant_names
from .schema import Variant
from .simulation import SimulationReport, simulate
from .version import __version__
from .views import PlayerView, Result, SeatInfo, SeatView, Slot, SlotView

__all__ = [
    "Action",
    "ActionEncodingError",
    "AdapterError",
    "Call",
    "Card",
    "CardPower",
    "CardWorth",
    "Discard",
    "Draw",
    "Event",
    "Flip",
    "Game",
    "GameStateError",
    "Give",
    "IllegalAction",
    "InvariantViolation",
    "Match",
    "MatchAction",
    "MatchResult",
    "MatchTally",
    "Mechanic",
    "Pass",
    "PeekAction",
    "Phase",
    "PhaseSpec",
    "PlayerView",
    "PluginError",
    "Power",
    "PowerEntry",
    "Reason",
    "Replace",
    "Result",
    "Round",
    "RoundTable",
    "RulesetNameError",
    "SeatInfo",
    "SeatView",
    "SetupError",
    "SimulationError",
    "SimulationReport",
    "Slot",
    "SlotView",
    "SnapshotError",
    "Swap",
    "Tally",
    "TamalouError",
    "Tick",
    "TieBreak",
    "Unbuildable",
    "Variant",
    "VariantError",
    "VerifyInterrupted",
    "__version__",
    "action_json_schema",
    "action_to_dict",
    "card_power",
    "card_value",
    "hookimpl",
    "hookspec",
    "load_variant",
    "new_game",
    "new_match",
    "parse_action",
    "parse_card",
    "power_catalogue",
    "rank_by_total",
    "ranking_rule",
    "register_action",
    "replay",
    "replay_match",
    "round_of",
    "simulate",
    "variant_from_dict",
    "variant_from_toml",
    "variant_json_schema",
    "variant_names",
    "view_json_schema",
]
