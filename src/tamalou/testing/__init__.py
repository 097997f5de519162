"""Property tests for your own rulesets, with hypothesis (``pip install "tamalou[testing]"``).

Write property tests for your house rules with the tools tamalou tests itself with. The strategies
draw *valid* things: rulesets (``variants``), stacked deals (``deals``), games in progress
(``games``) and actions (``actions``). The invariant checks (``check_*``, ``play_out``,
``verify``...) come from ``tamalou.verify`` and are re-exported here, so one import gives both::

    from hypothesis import given
    from tamalou.testing import check_conservation, check_no_leak, games, property_settings

    @property_settings(max_examples=50)          # the "tamalou" profile: no deadline
    @given(games("my-rules.toml"))
    def test_my_rules_lose_no_card(game):
        check_conservation(game)
        for p in range(game.players):
            check_no_leak(game, p)

The random choices of a game are drawn through hypothesis (the first ``budget`` ones one by one,
the rest from a drawn seed), so a failing game shrinks to a short one; each drawn game is reported
(``hypothesis.note``) as the ``tamalou.replay`` call that rebuilds it.

``RoundMachine`` is a ready-made stateful test: subclass it with your ruleset and it plays legal
actions, fuzzes illegal ones and checks every invariant after each step. ``check_property`` runs one
of the standard hypothesis properties (``PROPERTIES``) on a ruleset. The pytest plugin's
``pytest --tamalou-variant FILE`` runs what ``tamalou verify FILE`` runs, one test per invariant of
``tamalou.verify.INVARIANTS`` (``properties.run_invariants``), and the ``small_deals`` property.

Importing this module registers three hypothesis settings profiles: ``"tamalou"`` (no deadline,
the slow health checks off, 50 examples), ``"tamalou-ci"`` (the same, 100 examples, derandomized)
and ``"tamalou-thorough"`` (1000 examples, longer state machine runs). Load one with
``hypothesis.settings.load_profile("tamalou")`` or ``pytest --hypothesis-profile=tamalou``.

The package's modules: ``profiles`` (the settings profiles, ``property_settings``), ``rulesets``
(``ruleset_names``, ``variants``, ``tweak``), ``playing`` (``DrawChooser``, rounds played on),
``strategies`` (deals, games, actions), ``machine`` (``RoundMachine``) and ``properties``
(``PROPERTIES``, ``check_property``, and ``run_invariants``, what the pytest plugin runs); import from
``tamalou.testing`` itself.
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401  (the extra this package needs: a clear message when it is missing)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tamalou.testing needs hypothesis, which is not installed: pip install 'tamalou[testing]'"
    ) from exc

from .. import verify as _verify
from ..verify import *  # noqa: F403  (every name of tamalou.verify, those added later included)
from ..verify import (
    InvariantViolation,
    RandomChooser,
    VerifyReport,
    check_accepted_is_listed,
    check_all,
    check_conservation,
    check_illegal_leaves_state,
    check_knowledge,
    check_legal_actions_accepted,
    check_no_leak,
    check_replay,
    check_result,
    check_snapshot_roundtrip,
    exchange_faces,
    play_out,
    random_playout,
    step_bound,
    verify,
)
from .machine import RoundMachine
from .playing import BUDGET as BUDGET
from .playing import DrawChooser
from .profiles import property_settings, register_profiles
from .properties import PROPERTIES, InvariantRun, check_property, run_invariants
from .properties import Property as Property
from .rulesets import Change as Change
from .rulesets import DrawFn as DrawFn
from .rulesets import VariantArg as VariantArg
from .rulesets import ruleset_names, tweak, variants
from .strategies import PlayersArg as PlayersArg
from .strategies import (
    actions,
    actions_for,
    any_action,
    deals,
    dealt_games,
    games,
    played_games,
    stacked_games,
)

__all__ = [
    "PROPERTIES",
    "DrawChooser",
    "InvariantRun",
    "InvariantViolation",
    "RandomChooser",
    "RoundMachine",
    "VerifyReport",
    "actions",
    "actions_for",
    "any_action",
    "check_accepted_is_listed",
    "check_all",
    "check_conservation",
    "check_illegal_leaves_state",
    "check_knowledge",
    "check_legal_actions_accepted",
    "check_no_leak",
    "check_property",
    "check_replay",
    "check_result",
    "check_snapshot_roundtrip",
    "deals",
    "dealt_games",
    "exchange_faces",
    "games",
    "play_out",
    "played_games",
    "property_settings",
    "random_playout",
    "register_profiles",
    "ruleset_names",
    "run_invariants",
    "stacked_games",
    "step_bound",
    "tweak",
    "variants",
    "verify",
]
__all__ += [name for name in _verify.__all__ if name not in __all__]
