"""The plugin system: hooks named by a variant's ``plugins``, built-ins ``trylast``, entry points.

The plugin contract: hooks live in ``tamalou.hookspecs``, one documented function each, prefixed
``tamalou_``; a TOML variant names its plugins; an installed package registers variants and hooks
through the entry-point group ``tamalou``. Every override is shown through a real game built with a
stacked deal, next to the same deal under plain French rules.

The plugin modules are in ``tests/plugins_for_tests``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pluggy
import pytest

import tamalou
import tamalou.plugin_managers
from scenario import FULL_DECK
from tamalou import (
    Call,
    Discard,
    Draw,
    IllegalAction,
    MatchAction,
    Pass,
    Power,
    Round,
    Variant,
    VariantError,
    hookspecs,
)
from tamalou.engine import new_round
from tamalou.plugin_managers import BUILTIN_PLUGINS, ENTRY_POINT_GROUP, discovery_manager, rules_manager
from tamalou.plugins.defaults import builtin_variants_dir
from tamalou.rulesets.registry import refresh_registry
from tamalou.verify import random_playout
from tiers import sized

TESTS_DIR = Path(__file__).resolve().parents[1]
PKG = "plugins_for_tests"

# Cards without a French power (A-6, red kings): turns can be played without a power phase.
PLAIN_STOCK = ["2C", "3C", "4C", "6C", "2D", "3D", "4D", "6D", "6H", "6S"]


@pytest.fixture(autouse=True)
def _test_plugins_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS_DIR))


def house(tmp_path: Path, *plugins: str, extra: str = "", extends: str | None = "french") -> Variant:
    """A variant file in ``tmp_path`` naming ``plugins`` (modules of plugins_for_tests by default)."""
    names = [p if "." in p else f"{PKG}.{p}" for p in plugins]
    lines = []
    if extends:
        lines.append(f'extends = "{extends}"')
    lines.append("plugins = [" + ", ".join(f'"{n}"' for n in names) + "]")
    path = tmp_path / f"house-{'-'.join(p.rsplit('.', 1)[-1] for p in plugins) or 'none'}.toml"
    path.write_text("\n".join(lines) + "\n" + textwrap.dedent(extra), encoding="utf-8")
    return tamalou.load_variant(path)


def game(
    variant: Variant | str,
    hand0: Sequence[str],
    hand1: Sequence[str],
    stock: Sequence[str] = PLAIN_STOCK,
    discard: Sequence[str] = ("KD",),
) -> Round:
    deal = {"hands": [list(hand0), list(hand1)], "stock": list(stock), "discard": list(discard)}
    return new_round(variant, players=2, deal=deal, first_player=0)


def play_turn(g: Round, *, call: bool = False) -> None:
    """The current player draws from the stock, throws it, declines any power, calls if asked."""
    p = g.current_player
    g.apply(Draw(p, "stock"))
    g.apply(Discard(p))
    if g.phase == "power":
        g.apply(Pass(p))
    if g.phase == "call":
        assert g.current_player == p
        g.apply(Call(p) if call else Pass(p))


def close(g: Round) -> None:
    """Everyone passes in the closing window of a called round (the round then ends)."""
    while g.phase == "closing":
        g.apply(Pass(g.current_player))


def player_0_calls(g: Round) -> tamalou.Result:
    """Player 0 plays and calls, player 1 plays the last turn, nobody matches its card in the
    closing window: the round is over."""
    play_turn(g, call=True)
    assert g.caller == 0
    play_turn(g)
    assert g.phase == "closing"
    close(g)
    assert g.is_over
    result = g.result()
    assert result.reason == "called"
    assert result.caller == 0
    return result


def has_call(g: Round, p: int) -> bool:
    return any(isinstance(a, Call) for a in g.legal_actions(p))


# --- card value ----------------------------------------------------------------------------------


def test_a_plugin_overrides_a_card_value(tmp_path: Path) -> None:
    hands = (["2H", "AS", "AC", "AD"], ["3S", "3H", "4S", "4H"])
    french = player_0_calls(game("french", *hands))
    assert french.totals == [5, 14]
    assert french.winners == [0]

    g = game(house(tmp_path, "card_values"), *hands)
    assert g.total(0) == 53  # 2H is worth 50 here
    result = player_0_calls(g)
    assert result.totals == [53, 14]
    assert result.winners == [1]  # the caller is over 5 now
    seen = g.view(1).result
    assert seen is not None
    assert seen.totals == [53, 14]


def test_a_plugin_without_an_opinion_leaves_the_toml_values(tmp_path: Path) -> None:
    g = game(house(tmp_path, "card_values"), ["KS", "KH", "10C", "AS"], ["2S", "3S", "4S", "5S"])
    assert [g.total(0), g.total(1)] == [15 + 0 + 10 + 1, 14]


# --- card power ----------------------------------------------------------------------------------


def test_a_plugin_overrides_a_card_power(tmp_path: Path) -> None:
    hands = (["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"])
    stock = ["5H", "9C", *PLAIN_STOCK]

    g = game("french", *hands, stock=stock)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "call"  # a French five has no power

    g = game(house(tmp_path, "powers"), *hands, stock=stock)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "power"
    legal = g.legal_actions(0)
    assert {a for a in legal if isinstance(a, Power)} == {Power(0, slot=s) for s in range(4)}
    assert Pass(0) in legal
    assert g.view(0).hands[0][3].card is None
    g.apply(Power(0, slot=3))
    assert g.view(0).hands[0][3].card == "4S"  # peeked at with the five's new power
    assert g.view(1).hands[0][3].card is None
    g.apply(Pass(0))  # no call
    # A card the plugin has no opinion on keeps its French power: the nine peeks at an opponent.
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    assert g.phase == "power"
    powers = [a for a in g.legal_actions(1) if isinstance(a, Power)]
    assert powers
    assert all(a.target == 0 and a.slot is None for a in powers)


# --- call threshold ------------------------------------------------------------------------------


def test_a_plugin_overrides_the_call_threshold(tmp_path: Path) -> None:
    hands = (["5S", "5H", "3H", "2H"], ["10S", "10H", "5C", "5D"])  # 15 and 30
    french = player_0_calls(game("french", *hands))
    assert french.winners == [1]  # 15 > 5: the caller loses
    assert french.scores == [15 + 10, 30]

    result = player_0_calls(game(house(tmp_path, "threshold"), *hands))
    assert result.totals == [15, 30]
    assert result.winners == [0]  # 15 <= 20 and strictly lowest
    assert result.ranking == [[0], [1]]
    assert result.scores == [0, 30]


def test_the_toml_threshold_is_the_default(tmp_path: Path) -> None:
    hands = (["5S", "5H", "3H", "2H"], ["10S", "10H", "5C", "5D"])
    v = house(tmp_path, extra="[rules.call]\nthreshold = 15\n")
    assert player_0_calls(game(v, *hands)).winners == [0]
    v = house(tmp_path, extra="[rules.call]\nthreshold = 14\n")
    assert player_0_calls(game(v, *hands)).winners == [1]


# --- whether a call is allowed -------------------------------------------------------------------


def test_a_plugin_forbids_calls_before_turn_4(tmp_path: Path) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "3H"])

    g = game("french", *hands)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "call"
    assert has_call(g, 0)

    g = game(house(tmp_path, "late_calls"), *hands)
    while g.turn < 4:
        p = g.current_player
        g.apply(Draw(p, "stock"))
        g.apply(Discard(p))
        # No call phase: the turn went straight to the next player.
        assert g.phase == "draw"
        assert g.current_player == 1 - p
        assert not has_call(g, 0)
        assert not has_call(g, 1)
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(Call(p))
        assert g.to_json() == before
    assert g.current_player == 0
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "call"
    assert has_call(g, 0)
    g.apply(Call(0))
    assert g.caller == 0


def test_a_forbidden_call_at_the_start_of_a_turn_is_illegal(tmp_path: Path) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "3H"])
    start = "[rules.call]\nwhen = 'start_of_turn'\n"

    g = game(house(tmp_path, extra=start), *hands)
    assert has_call(g, 0)  # without the plugin, a call is offered instead of drawing

    g = game(house(tmp_path, "late_calls", extra=start), *hands)
    assert not has_call(g, 0)
    before = g.to_json()
    with pytest.raises(IllegalAction, match="not allowed"):
        g.apply(Call(0))
    with pytest.raises(IllegalAction):
        g.apply({"type": "call", "player": 0})
    assert g.to_json() == before
    assert g.actions == []
    while g.turn < 4:
        assert not has_call(g, g.current_player)
        play_turn(g)
    assert has_call(g, 0)
    g.apply(Call(0))
    assert g.caller == 0
    play_turn(g)
    close(g)
    assert g.is_over
    assert g.result().caller == 0


def test_an_empty_layout_must_still_call_whatever_the_plugin_says(tmp_path: Path) -> None:
    """French ("il doit annoncer le Tamalou pour mettre fin à la partie, sans jouer"): a player with no
    card at their turn must call, without playing. That
    call is forced, so a plugin cannot refuse it (the player would have no legal action at all)."""
    deal = {"hands": [["4H"], ["AS", "2S", "3S", "5S"]], "stock": PLAIN_STOCK, "discard": ["4S"]}
    g = new_round(house(tmp_path, "late_calls"), players=2, deal=deal, first_player=1)
    g.apply(MatchAction(0, (0,)))  # on the card turned up at the deal
    assert g.occupied(0) == []
    play_turn(g)  # player 1: no call offered
    assert g.caller is None
    assert g.current_player == 0
    assert g.turn == 1
    assert g.legal_actions(0) == [Call(0)]
    g.apply(Call(0))
    assert g.caller == 0
    play_turn(g)
    close(g)
    assert g.is_over
    assert g.result().winners == [0]


# --- ranking, winners, scores --------------------------------------------------------------------


def test_a_plugin_overrides_the_ranking(tmp_path: Path) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["10S", "10H", "5C", "5D"])  # 4 and 30
    french = player_0_calls(game("french", *hands))
    assert french.ranking == [[0], [1]]
    assert french.winners == [0]
    assert french.scores == [0, 30]

    result = player_0_calls(game(house(tmp_path, "highest_wins"), *hands))
    assert result.totals == [4, 30]
    assert result.ranking == [[1], [0]]
    assert result.winners == [1]  # the default winners: the first place
    assert result.scores == [4 + 10, 30]  # the caller lost


def test_the_last_plugin_named_is_asked_first(tmp_path: Path) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["10S", "10H", "5C", "5D"])
    upside_down_last = house(tmp_path, "tamalou.plugins.french", "highest_wins", extends=None)
    assert player_0_calls(game(upside_down_last, *hands)).ranking == [[1], [0]]
    french_last = house(tmp_path, "highest_wins", "tamalou.plugins.french", extends=None)
    assert player_0_calls(game(french_last, *hands)).ranking == [[0], [1]]


def test_a_plugin_overrides_the_winners(tmp_path: Path) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "5S"])  # 4 and 12
    french = player_0_calls(game("french", *hands))
    assert french.winners == [0]

    result = player_0_calls(game(house(tmp_path, "generous_winners"), *hands))
    assert result.ranking == [[0], [1]]  # the ranking is still French
    assert result.winners == [0, 1]
    assert result.scores == [0, 12]  # French scoring, given those winners


def test_a_plugin_overrides_the_round_scores(tmp_path: Path) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "5S"])  # 4 and 12
    french = player_0_calls(game("french", *hands))
    assert french.scores == [0, 12]

    result = player_0_calls(game(house(tmp_path, "double_scores"), *hands))
    assert result.winners == [0]
    assert result.totals == [4, 12]
    assert result.scores == [8, 24]


# --- built-ins are trylast, plugins apply only where named ---------------------------------------


def _impls(pm: pluggy.PluginManager, plugin_name: str) -> dict[str, Any]:
    plugin = pm.get_plugin(plugin_name)
    assert plugin is not None, plugin_name
    out = {}
    for caller in pm.get_hookcallers(plugin) or []:
        for impl in caller.get_hookimpls():
            if impl.plugin is plugin:
                out[caller.name] = impl
    return out


def test_the_defaults_are_trylast(tmp_path: Path) -> None:
    v = house(tmp_path, "card_values")
    for pm in (discovery_manager(), rules_manager(tamalou.load_variant("french")), rules_manager(v)):
        impls = _impls(pm, "tamalou.plugins.defaults")
        assert {
            "tamalou_variant_paths",
            "tamalou_card_value",
            "tamalou_card_power",
            "tamalou_call_threshold",
            "tamalou_rank",
            "tamalou_winners",
            "tamalou_round_scores",
        } <= set(impls)
        for name, impl in impls.items():
            assert impl.trylast, name
    plugin_impl = _impls(rules_manager(v), f"{PKG}.card_values")["tamalou_card_value"]
    assert not plugin_impl.trylast
    assert not plugin_impl.tryfirst


def test_a_plugin_applies_only_to_the_variants_that_name_it(tmp_path: Path) -> None:
    hands = (["2H", "AS", "AC", "AD"], ["3S", "3H", "4S", "4H"])
    v = house(tmp_path, "card_values")
    assert game(v, *hands).total(0) == 53
    # A French game afterwards, in the same process, is unaffected.
    g = game("french", *hands)
    assert g.total(0) == 5
    assert player_0_calls(g).winners == [0]
    # Nor is a variant naming another plugin.
    assert game(house(tmp_path, "powers"), *hands).total(0) == 5
    names = {n for n, _ in rules_manager(tamalou.load_variant("french")).list_name_plugin()}
    assert f"{PKG}.card_values" not in names
    assert f"{PKG}.card_values" not in {n for n, _ in discovery_manager().list_name_plugin()}


def test_a_variant_naming_two_plugins_gets_both(tmp_path: Path) -> None:
    hands = (["2H", "AS", "AC", "AD"], ["3S", "3H", "4S", "4H"])
    g = game(house(tmp_path, "card_values", "double_scores"), *hands)
    result = player_0_calls(g)
    assert result.totals == [53, 14]
    assert result.scores == [106, 28]


def test_a_plugin_named_by_a_modifier_applies_in_a_composition(tmp_path: Path) -> None:
    modifier = tmp_path / "doubling.toml"
    modifier.write_text(f'base = "french"\nplugins = ["{PKG}.double_scores"]\n', encoding="utf-8")
    v = tamalou.load_variant(["french", modifier])
    assert f"{PKG}.double_scores" in v.plugins
    result = player_0_calls(game(v, ["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "5S"]))
    assert result.scores == [8, 24]


# --- bad plugins ---------------------------------------------------------------------------------


def test_a_bad_plugin_module_name_is_a_variant_error(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        tamalou.new_game(house(tmp_path, "no_such_module"), players=2, seed=1)
    message = str(info.value)
    assert "plugins" in message
    assert f"{PKG}.no_such_module" in message


def test_a_bad_plugin_module_name_is_refused_when_the_variant_is_loaded(tmp_path: Path) -> None:
    """Nothing is half-loaded: a variant that cannot be played is not returned."""
    path = tmp_path / "typo.toml"
    path.write_text('extends = "french"\nplugins = ["plugins_for_tests.card_valeus"]\n', encoding="utf-8")
    with pytest.raises(VariantError) as info:
        tamalou.load_variant(path)
    message = str(info.value)
    assert "typo.toml" in message
    assert "plugins" in message
    assert "plugins_for_tests.card_valeus" in message


def test_an_invalid_hook_implementation_is_a_variant_error(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        tamalou.new_game(house(tmp_path, "bad_signature"), players=2, seed=1)
    message = str(info.value)
    assert "plugins" in message
    assert "bad_signature" in message


@pytest.mark.parametrize(("module", "words"), [("bad_power", ["fly", "4"]), ("bad_value", ["lots", "4"])])
def test_a_bad_hook_answer_is_a_variant_error_naming_the_card(tmp_path: Path, module: str, words: list[str]) -> None:
    with pytest.raises(VariantError) as info:
        tamalou.new_game(house(tmp_path, module), players=2, seed=1)
    for word in words:
        assert word in str(info.value)


# --- the hook specifications ---------------------------------------------------------------------


def _specs() -> dict[str, Any]:
    return {name: f for name, f in vars(hookspecs).items() if callable(f) and hasattr(f, f"{hookspecs.PROJECT}_spec")}


def test_every_hook_is_prefixed_and_documented() -> None:
    specs = _specs()
    assert specs
    for name, f in specs.items():
        assert name.startswith("tamalou_"), name
        doc = inspect.getdoc(f)
        assert doc, name
        assert len(doc) > 30, name
    # and every tamalou_* function of the module is a hook.
    functions = {n for n, f in vars(hookspecs).items() if inspect.isfunction(f) and n.startswith("tamalou_")}
    assert functions == set(specs)


def test_the_hooks_of_the_contract_exist() -> None:
    assert {
        "tamalou_card_value",
        "tamalou_card_power",
        "tamalou_call_threshold",
        "tamalou_call_allowed",
        "tamalou_rank",
        "tamalou_winners",
        "tamalou_round_scores",
        "tamalou_variant_paths",
    } <= set(_specs())


def _spec_opts(f: Any) -> dict[str, Any]:
    opts: dict[str, Any] = getattr(f, f"{hookspecs.PROJECT}_spec")
    return opts


def test_first_result_wins_where_the_docstring_says_so() -> None:
    for name, f in _specs().items():
        opts = _spec_opts(f)
        says = "First result wins" in (inspect.getdoc(f) or "")
        assert opts["firstresult"] == says, name
    assert not _spec_opts(hookspecs.tamalou_variant_paths)["firstresult"]


def test_the_markers_are_tamalou_s() -> None:
    assert tamalou.hookimpl is hookspecs.hookimpl
    assert tamalou.hookspec is hookspecs.hookspec
    assert hookspecs.PROJECT == "tamalou"
    assert tamalou.hookimpl.project_name == "tamalou"


def test_every_built_in_plugin_is_registered() -> None:
    assert BUILTIN_PLUGINS
    managers = [discovery_manager()] + [rules_manager(tamalou.load_variant(n)) for n in tamalou.variant_names()]
    for pm in managers:
        for name in BUILTIN_PLUGINS:
            assert pm.has_plugin(name), name
            assert pm.get_plugin(name) is importlib.import_module(name)
        pm.check_pending()  # every implementation answers a hook of the specification


def test_every_implementation_in_the_built_in_plugins_is_a_hook() -> None:
    specs = set(_specs())
    for name in (*BUILTIN_PLUGINS, "tamalou.plugins.french"):
        module = importlib.import_module(name)
        impls = [n for n, f in vars(module).items() if hasattr(f, f"{hookspecs.PROJECT}_impl")]
        assert impls, name
        assert set(impls) <= specs, name


def test_the_french_plugin_is_named_by_french() -> None:
    french = tamalou.load_variant("french")
    assert "tamalou.plugins.french" in french.plugins
    assert rules_manager(french).has_plugin("tamalou.plugins.french")


# --- discovery: the entry-point group ------------------------------------------------------------


def test_the_entry_point_group_is_tamalou() -> None:
    assert ENTRY_POINT_GROUP == "tamalou"


def test_the_discovery_manager_loads_the_built_ins() -> None:
    pm = discovery_manager()
    for name in BUILTIN_PLUGINS:
        assert pm.has_plugin(name)
    paths = [Path(p) for ps in pm.hook.tamalou_variant_paths() for p in ps]
    assert builtin_variants_dir() in paths
    assert discovery_manager() is pm  # one per process, until refreshed


FAKE_MODULE = """
from pathlib import Path

import tamalou

HERE = Path(__file__).parent


@tamalou.hookimpl
def tamalou_variant_paths():
    return [HERE / "{folder}", HERE / "{folder}-single.toml"]


@tamalou.hookimpl
def tamalou_card_value(variant, card):
    return 77 if str(card) == "QS" else None
"""


@contextmanager
def installed_package(site: Path, module: str, group: str = ENTRY_POINT_GROUP) -> Iterator[str]:
    """A package installed in ``site`` (a real ``.dist-info`` with an entry point in ``group``)
    whose module provides a folder of variants and a rule hook. Uninstalled on exit."""
    site.mkdir()
    folder = f"{module}_variants"
    (site / f"{module}.py").write_text(FAKE_MODULE.format(folder=folder), encoding="utf-8")
    (site / folder).mkdir()
    (site / folder / "pub.toml").write_text(
        textwrap.dedent(
            f"""
            name = "{module}-pub"
            aliases = ["{module}-bar"]
            extends = "french"
            plugins = ["{module}"]
            [rules.call]
            threshold = 11
            """
        ),
        encoding="utf-8",
    )
    (site / f"{folder}-single.toml").write_text(f'name = "{module}-single"\nextends = "french"\n', encoding="utf-8")
    dist = site / f"{module}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[{group}]\n{module}_ep = {module}\n", encoding="utf-8")
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    refresh_registry()
    try:
        yield module
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(module, None)
        importlib.invalidate_caches()
        refresh_registry()


def test_an_installed_package_provides_variants_and_hooks(tmp_path: Path) -> None:
    module = "tamalou_fake_house_rules"
    with installed_package(tmp_path / "site", module):
        pm = discovery_manager()
        assert pm.has_plugin(f"{module}_ep")
        for name in BUILTIN_PLUGINS:
            assert pm.has_plugin(name)
        names = tamalou.variant_names()
        assert names == sorted(names)
        assert f"{module}-pub" in names
        assert f"{module}-single" in names  # a path to one file works as well as a folder
        assert "french" in names
        v = tamalou.load_variant(f"{module.upper()}-BAR")
        assert v.name == f"{module}-pub"
        assert v.rules.call.threshold == 11
        assert v.plugins == ("tamalou.plugins.french", module)
        # Its hooks apply to its variant...
        hands = (["QS", "AS", "AC", "AD"], ["3S", "3H", "4S", "4H"])
        assert game(v, *hands).total(0) == 80
        # ...but not to a French game, though the package is loaded for discovery.
        assert game("french", *hands).total(0) == 13
        assert game(f"{module}-single", *hands).total(0) == 13
    names = tamalou.variant_names()
    assert f"{module}-pub" not in names
    assert not discovery_manager().has_plugin(f"{module}_ep")
    with pytest.raises(VariantError):
        tamalou.load_variant(f"{module}-pub")


def test_another_entry_point_group_is_not_loaded(tmp_path: Path) -> None:
    module = "tamalou_fake_other_group"
    with installed_package(tmp_path / "site", module, group="not_tamalou"):
        assert not discovery_manager().has_plugin(f"{module}_ep")
        assert f"{module}-pub" not in tamalou.variant_names()


# --- a plugin's own power: "peek_any" ------------------------------------------------------------

PEEK_ANY = '[rules.powers.ranks]\n"5" = "peek_any"\n'


def peek_any_variant(tmp_path: Path) -> Variant:
    return house(tmp_path, "peek_any", extra=PEEK_ANY)


def test_a_plugin_power_is_named_in_toml(tmp_path: Path) -> None:
    v = peek_any_variant(tmp_path)
    assert tamalou.card_power(v, "5H") == "peek_any"
    assert tamalou.card_power(v, "7H") == "peek_own"  # the French powers are still there
    assert tamalou.card_power("french", "5H") == "none"
    # Without the plugin, the name is unknown.
    with pytest.raises(VariantError, match="unknown power 'peek_any'"):
        house(tmp_path, extra=PEEK_ANY)


def test_peek_any_looks_at_any_card_on_the_table_for_the_user_only(tmp_path: Path) -> None:
    hands = (["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"])
    g = game(peek_any_variant(tmp_path), *hands, stock=["5C", "5D", *PLAIN_STOCK])
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))
    assert g.phase == "power"
    assert any(e.type == "power_offered" and e["power"] == "peek_any" for e in events)
    legal = g.legal_actions(0)
    assert {a for a in legal if isinstance(a, Power)} == {
        Power(0, target=q, target_slot=s) for q in (0, 1) for s in range(4)
    }
    assert Pass(0) in legal
    assert g.view(0).hands[1][2].card is None
    events = g.apply(Power(0, target=1, target_slot=2))  # an opponent's card
    assert g.view(0).hands[1][2].card == "3H"
    assert g.view(1).hands[1][2].card is None  # not even its owner saw it
    looked = [e for e in events if e.type == "looked"]
    assert len(looked) == 1
    assert looked[0].for_player(0)["card"] == "3H"
    assert looked[0].for_player(1)["card"] is None
    assert g.phase == "call"
    g.apply(Pass(0))

    # Player 1 draws the other five and looks at a card of their own.
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    assert g.phase == "power"
    assert {a for a in g.legal_actions(1) if isinstance(a, Power)} == {
        Power(1, target=q, target_slot=s) for q in (0, 1) for s in range(4)
    }
    before = g.to_json()
    for wrong in (Power(1, slot=3), Power(1, target=1, target_slot=7), Power(1, target=5, target_slot=0)):
        with pytest.raises(IllegalAction):
            g.apply(wrong)
        assert g.to_json() == before
    g.apply(Power(1, target=1, target_slot=3))
    assert g.view(1).hands[1][3].card == "4H"
    assert g.view(0).hands[1][3].card is None
    assert g.view(0).hands[1][2].card == "3H"  # what player 0 saw, they still know


#: Random games of each peek_any ruleset below (checked every 5 actions).
PEEK_ANY_GAMES = sized(fast=10, deep=20)


@pytest.mark.scaled
def test_random_games_with_peek_any_keep_every_invariant(tmp_path: Path) -> None:
    v = peek_any_variant(tmp_path)
    for seed in range(PEEK_ANY_GAMES):
        assert random_playout(v, 3, seed, check_every=5).is_over
    # Random play seldom throws a five it drew at once: with every low card a peek_any, the power is
    # offered often, and used on every kind of target.
    low = "".join(f'"{rank}" = "peek_any"\n' for rank in ("A", "2", "3", "4", "5", "6"))
    dense = house(tmp_path, "peek_any", extra=f"[rules.powers.ranks]\n{low}")
    own = others = 0
    for seed in range(PEEK_ANY_GAMES):
        g = random_playout(dense, 3, seed, check_every=5)
        assert g.is_over
        offered_to = None  # who may use a peek_any now
        for e in g.events_so_far():
            if e.type == "power_offered":
                offered_to = e["player"] if e["power"] == "peek_any" else None
            elif e.type == "looked" and e["player"] == offered_to:
                own += e["owner"] == e["player"]
                others += e["owner"] != e["player"]
                offered_to = None
            elif e.type in ("turn", "passed"):
                offered_to = None
    assert own > 0  # the power was played on one's own cards...
    assert others > 0  # ...and on the opponents'


# --- a plugin's own turn move: "exchange" --------------------------------------------------------


def exchange_variant(tmp_path: Path) -> Variant:
    return house(tmp_path, "exchange")


def test_an_exchange_action_parses_and_is_in_the_json_schema(tmp_path: Path) -> None:
    exchange_variant(tmp_path)
    from plugins_for_tests.exchange import Exchange

    a = tamalou.parse_action({"type": "exchange", "player": 0, "slots": [0, 1]})
    assert a == Exchange(0, (0, 1))
    assert isinstance(a, tamalou.Action)
    assert a.to_dict() == {"type": "exchange", "player": 0, "slots": [0, 1]}
    assert tamalou.parse_action({"type": "exchange", "player": 1, "slots": [2, 0], "at": 3.5}) == Exchange(
        1, (2, 0), at=3.5
    )
    for bad in (
        {"type": "exchange", "player": 0},
        {"type": "exchange", "player": 0, "slots": [0, 1], "extra": 1},
        {"type": "exchange", "player": 0, "slots": "01"},
        {"type": "exchange", "player": True, "slots": [0, 1]},
    ):
        with pytest.raises(IllegalAction):
            tamalou.parse_action(bad)
    schema = tamalou.action_json_schema()
    assert "exchange" in schema
    node = schema["exchange"]
    assert node["properties"]["type"] == {"const": "exchange"}
    assert {"player", "slots", "type"} <= set(node["required"])
    assert {"player", "slots", "at"} <= set(node["properties"])


def test_an_exchange_of_equal_cards_discards_them_and_the_held_card_takes_the_first_slot(tmp_path: Path) -> None:
    from plugins_for_tests.exchange import Exchange

    g = game(exchange_variant(tmp_path), ["5S", "9H", "5H", "2S"], ["AH", "2H", "3H", "4H"], stock=["6C", "4C"])
    assert not [a for a in g.legal_actions(0) if isinstance(a, Exchange)]  # not before the draw
    with pytest.raises(IllegalAction):
        g.apply(Exchange(0, (0, 2)))
    g.apply(Draw(0, "stock"))
    listed = {a for a in g.legal_actions(0) if isinstance(a, Exchange)}
    assert listed == {Exchange(0, (a, b)) for a in range(4) for b in range(4) if a != b}
    assert not [a for a in g.legal_actions(1) if isinstance(a, Exchange)]
    before = g.to_json()
    for wrong in (Exchange(1, (0, 1)), Exchange(0, (0, 0)), Exchange(0, (0, 9)), Exchange(0, (0, 1, 2))):
        with pytest.raises(IllegalAction):
            g.apply(wrong)
        assert g.to_json() == before
    events = g.apply({"type": "exchange", "player": 0, "slots": [0, 2]})
    assert g.actions[-1] == Exchange(0, (0, 2))
    assert next(e for e in events if e.type == "exchanged")["right"] is True
    assert g.layout(0) == ["6C", "9H", None, "2S"]
    assert [g.text[c] for c in g.discard] == ["KD", "5S", "5H"]
    assert g.view(1).discard_top == "5H"
    assert g.view(0).held is None and g.view(0).holding is None
    assert g.view(0).hands[0][0].card == "6C"  # drawn from the stock: seen by player 0 only
    assert g.view(1).hands[0][0].card is None
    assert g.phase == "call"  # a replaced card has no French power: the turn goes on to the call
    g.apply(Pass(0))
    assert g.current_player == 1 and g.phase == "draw"


def test_an_exchange_of_unequal_cards_costs_a_penalty(tmp_path: Path) -> None:
    from plugins_for_tests.exchange import Exchange

    g = game(exchange_variant(tmp_path), ["5S", "9H", "7H", "2S"], ["AH", "2H", "3H", "4H"], stock=["6C", "4C"])
    g.apply(Draw(0, "stock"))
    events = g.apply(Exchange(0, (0, 2)))
    assert next(e for e in events if e.type == "exchanged")["right"] is False
    assert any(e.type == "penalty" and e["player"] == 0 for e in events)
    assert g.layout(0) == ["5S", "9H", "7H", "2S", "6C", "4C"]
    assert [g.text[c] for c in g.discard] == ["KD"]
    for viewer in (0, 1):
        hand = [s.card for s in g.view(viewer).hands[0]]
        assert hand[0] == "5S" and hand[2] == "7H"  # the claimed cards stay, face up for all
        assert hand[5] is None  # the penalty card, seen by nobody
    assert g.view(0).hands[0][4].card == "6C"
    assert g.view(1).hands[0][4].card is None
    assert g.view(0).held is None
    assert g.phase == "call"
    assert g.total(0) == 5 + 9 + 7 + 2 + 6 + 4


EXCHANGE_GAMES = sized(fast=8, deep=30)


def test_random_games_with_exchanges_keep_every_invariant(tmp_path: Path) -> None:
    v = exchange_variant(tmp_path)
    right = wrong = 0
    for seed in range(EXCHANGE_GAMES):  # (6 games make 4 right exchanges and 79 wrong ones)
        g = random_playout(v, 3, seed, check_every=5)
        assert g.is_over
        for e in g.events_so_far():
            if e.type == "exchanged":
                right += e["right"]
                wrong += not e["right"]
    assert right > 0
    assert wrong > 0


# --- hooks are checked ---------------------------------------------------------------------------


def test_a_misspelt_hook_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        house(tmp_path, "hook_typo")
    message = str(info.value)
    assert "tamalou_card_vlaue" in message
    assert "tamalou_card_value" in message.replace("tamalou_card_vlaue", "")
    assert f"{PKG}.hook_typo" in message


@pytest.mark.parametrize(
    ("plugin", "kind", "typo", "meant"),
    [
        ("method_typo", "Mechanic 'greeter'", "turn_begins", "turn_began"),
        ("power_method_typo", "CardPower 'glance'", "refusl", "refusal"),
    ],
)
def test_a_misspelt_method_of_a_mechanic_or_a_power_is_refused_with_a_suggestion(
    tmp_path: Path, plugin: str, kind: str, typo: str, meant: str
) -> None:
    """A method the base class does not have, close to one it has, would never be called: refused at load, as a
    misspelt hook is (a helper far from every method of the base, as ``Greeter.greeting``, is not)."""
    with pytest.raises(VariantError) as info:
        house(tmp_path, plugin)
    message = str(info.value)
    assert f"{kind} of plugin '{PKG}.{plugin}': {typo} is not a method of tamalou." in message
    assert f"(did you mean {meant}?)" in message and "never calls it" in message


def test_an_unmarked_hook_is_refused(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        house(tmp_path, "unmarked_hook")
    message = str(info.value)
    assert "not marked" in message
    assert "tamalou_card_value" in message
    assert f"{PKG}.unmarked_hook" in message


def test_a_card_value_that_is_not_a_number_is_refused_at_load(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        house(tmp_path, "text_value")
    message = str(info.value)
    assert f"{PKG}.text_value" in message
    assert "tamalou_card_value" in message
    assert "'x'" in message


def last_pass_of_the_round(g: Round) -> Pass:
    """Player 0 calls, player 1 plays the last turn, all but one seat pass in the closing window:
    the pass returned (not applied) is the action that ends the round."""
    play_turn(g, call=True)
    play_turn(g)
    assert g.phase == "closing"
    while len(g.to_act) > 1:
        g.apply(Pass(g.current_player))
    assert g.phase == "closing"
    return Pass(g.current_player)


@pytest.mark.parametrize(
    ("module", "hook", "words"),
    [
        ("partial_ranking", "tamalou_rank", ["[[0]]"]),
        # the plugin's own line, where its exception was raised (not tamalou's, nor pluggy's)
        ("failing_winners", "tamalou_winners", ["ZeroDivisionError", "plugins_for_tests/failing_winners.py:10)"]),
    ],
)
def test_a_hook_failing_at_the_end_of_the_round_leaves_the_game_as_it_was(
    tmp_path: Path, module: str, hook: str, words: list[str]
) -> None:
    hands = (["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "5S"])
    g = game(house(tmp_path, module), *hands)
    last = last_pass_of_the_round(g)
    before = g.to_json()
    actions = list(g.actions)
    events = g.events_so_far()
    with pytest.raises(tamalou.PluginError) as info:
        g.apply(last)
    error = info.value
    assert error.plugin == f"{PKG}.{module}"
    assert error.hook == hook
    message = str(error)
    for word in [f"{PKG}.{module}", hook, *words]:
        assert word in message
    assert g.to_json() == before
    assert g.actions == actions
    assert len(g.events_so_far()) == len(events)
    assert not g.is_over
    assert g.phase == "closing"
    with pytest.raises(tamalou.GameStateError):
        g.result()
    with pytest.raises(tamalou.PluginError):  # and again: nothing was half-done
        g.apply(last)
    assert g.to_json() == before


def test_apply_unguarded_plays_as_apply_and_raises_the_same_errors_without_undoing(tmp_path: Path) -> None:
    """``Round.apply_unguarded`` (a search's throw-away samples): the same game as ``apply`` move by move, the same
    refusal (``IllegalAction``, nothing changed), and a failing hook's ``PluginError``, without the copy that
    ``apply`` keeps to put the game back (the sample is then thrown away)."""
    hands = (["AS", "AH", "AC", "AD"], ["2S", "2H", "3S", "5S"])
    variant = house(tmp_path, "failing_winners")
    g = game(variant, *hands)
    h = g.copy()  # (the same deal and seed)
    last = last_pass_of_the_round(g)
    for a in g.actions:
        h.apply_unguarded(a)
    assert h.to_json() == g.to_json()
    before = h.to_json()
    with pytest.raises(tamalou.IllegalAction):
        h.apply_unguarded(Pass((h.current_player + 1) % 2) if len(h.to_act) == 1 else Discard(h.current_player))
    assert h.to_json() == before
    with pytest.raises(tamalou.PluginError) as info:
        h.apply_unguarded(last)
    assert "ZeroDivisionError" in str(info.value)
    assert h.is_over  # the round was ended when the hook failed: nothing put it back


# --- card_value and card_power -------------------------------------------------------------------


def test_card_value_and_card_power_answer_for_a_variant() -> None:
    assert tamalou.card_value("french", "KS") == 15
    assert tamalou.card_value("french", "KH") == 0
    assert tamalou.card_power("french", "KS") == "look_and_swap"
    assert tamalou.card_power("french", "2C") == "none"
    assert tamalou.card_value("french", tamalou.parse_card("KS")) == 15


def test_card_value_asks_the_variant_s_plugins(tmp_path: Path) -> None:
    v = house(tmp_path, "value_override")
    assert tamalou.card_value(v, "KS") == 3
    assert tamalou.card_value(v, "KH") == 0  # no opinion: the TOML value
    assert tamalou.card_value(v, "KC") == 15
    assert tamalou.card_power(v, "KS") == "look_and_swap"  # the value hook leaves the power alone
    assert tamalou.card_value("french", "KS") == 15  # and French alone is unaffected


# --- tracing and skipping plugins (as datasette's switches) ---------------------------------------------


def test_tamalou_trace_plugins_names_the_plugin_that_answered_each_hook(tmp_path: Path) -> None:
    """``TAMALOU_TRACE_PLUGINS=1``: each hook call on standard error, with the plugin that answered it (a house
    rule's card values, the default plugin's threshold)."""
    house(tmp_path, "card_values")
    path = tmp_path / "house-card_values.toml"
    code = f"import tamalou; tamalou.new_game(tamalou.load_variant({str(path)!r}), 2, seed=1)"
    env = {**os.environ, "TAMALOU_TRACE_PLUGINS": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    lines = done.stderr.splitlines()
    assert "tamalou: tamalou_call_threshold: tamalou.plugins.defaults answered 5" in lines
    assert any(line.startswith(f"tamalou: tamalou_card_value: {PKG}.card_values answered") for line in lines)
    quiet = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**env, "TAMALOU_TRACE_PLUGINS": ""}
    )
    assert quiet.returncode == 0 and "tamalou:" not in quiet.stderr


def test_tamalou_no_plugins_leaves_the_entry_point_group_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TAMALOU_NO_PLUGINS=1``: the discovery manager loads no installed package's plugins (the entry-point
    group ``tamalou``), only the built-ins."""
    loaded: list[str] = []
    monkeypatch.setattr(
        pluggy.PluginManager, "load_setuptools_entrypoints", lambda pm, group, name=None: loaded.append(group)
    )
    for off, expected in ((False, [ENTRY_POINT_GROUP]), (True, [])):
        monkeypatch.setattr(tamalou.plugin_managers, "NO_PLUGINS", off)
        discovery_manager.cache_clear()
        loaded.clear()
        pm = discovery_manager()
        assert loaded == expected
        assert {name for name, _ in pm.list_name_plugin()} >= set(BUILTIN_PLUGINS)
    discovery_manager.cache_clear()


# --- a new mechanic (the docs' example) --------------------------------------------------------------


def test_a_new_mechanic_calls_for_a_player_whose_layout_is_emptied(tmp_path: Path) -> None:
    """Kaboo: "A player whose layout is emptied calls automatically at the start of their next turn" —
    a mechanic of a few lines (``plugins_for_tests.auto_call``), with no change to the engine."""
    v = house(tmp_path, "auto_call")
    g = game(v, ["AS", "2S", "3S", "5S"], ["4H"], stock=["4C", "2C", "3C", "6C"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # the 4C: player 1 matches it with their only card
    events = g.apply(MatchAction(1, (0,)))
    assert [e.type for e in events] == ["matched"] and g.empty(1)
    events = g.apply(Pass(0))  # no call from player 0
    assert [(e.type, e.get("reason")) for e in events[:2]] == [("passed", None), ("skipped", "called")]
    assert g.caller == 1 and g.current_player == 0  # player 0 plays the last turn
    play_turn(g)
    close(g)
    result = g.result()
    assert result.caller == 1 and result.winners == [1] and result.totals == [11, 0]


def test_a_third_party_mechanic_takes_part_in_matching_through_the_declared_contract(tmp_path: Path) -> None:
    """The matching contract (docs/write-a-mechanic.md): a third party's mechanic implementing ``MatchBlocker``
    and ``MatchListener`` (``plugins_for_tests.match_contract``) is asked and told by matching, as the clock is;
    ``Matching.of`` finds matching and its contract methods say what it would refuse."""
    from tamalou.engine.rulebook import rulebook
    from tamalou.mechanics.match_contract import MatchBlocker, MatchListener
    from tamalou.mechanics.matching import Matching

    v = house(tmp_path, "match_contract")
    mine = next(m for m in rulebook(v).mechanics if m.name == "seat_one_never_matches")
    assert isinstance(mine, MatchBlocker) and isinstance(mine, MatchListener)
    matching = Matching.of(rulebook(v))
    assert matching is not None and matching.name == "matching"
    g = game(v, ["AS", "2S", "3S", "4S"], ["4H", "5H", "6H", "7H"], stock=["4C", "2C", "3C", "6C"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # the 4C is on offer
    assert g.text[matching.card_on_offer(g)] == "4C" and matching.taken_by(g) == -1
    assert not any(isinstance(a, MatchAction) for a in g.legal_actions(1))
    assert matching.refusal(g, 1, 1) == "seat 1 never matches (a house rule)"
    with pytest.raises(IllegalAction, match="seat 1 never matches"):
        g.apply(MatchAction(1, (0,)))
    assert matching.refusal(g, 0, 1) is None
    g.apply(MatchAction(0, (1,)))  # player 0's 2S: a miss
    g.apply(MatchAction(0, (3,)))  # player 0's 4S: right
    assert g.state_of("seat_one_never_matches").throws == [[0, 0], [0, 1]]
    assert matching.taken_by(g) == 0
    restored = tamalou.Game.from_json(g.to_json())
    assert restored.to_json() == g.to_json()


def test_a_third_party_mechanic_shows_a_seat_its_own_fields_typed_and_in_the_json_schema(tmp_path: Path) -> None:
    """The views contract: a mechanic's ``view_extra`` for a seat is in ``PlayerView.extra[name]`` (and the
    ``SeatView``'s), checked by its ``view_model``, whose schema ``tamalou.view_json_schema(variant)`` gives."""
    v = house(tmp_path, "match_contract")
    g = game(v, ["AS", "2S", "3S", "4S"], ["4H", "5H", "6H", "7H"], stock=["4C", "2C", "3C", "6C"])
    assert g.view(0).extra == {"seat_one_never_matches": {"mine": 0, "right": 0}}
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(MatchAction(0, (1,)))  # a miss
    g.apply(MatchAction(0, (3,)))  # right
    assert g.view(0).extra == {"seat_one_never_matches": {"mine": 2, "right": 1}}
    assert g.view(1).extra == {"seat_one_never_matches": {"mine": 0, "right": 0}}
    assert g.seat_view(0) == g.view(0) and g.seat_view(0).extra == g.view(0).extra
    wire = g.view(0).model_dump(mode="json")
    assert wire["extra"] == {"seat_one_never_matches": {"mine": 2, "right": 1}}
    assert tamalou.PlayerView.model_validate(wire) == g.view(0)
    extra = tamalou.view_json_schema(v)["properties"]["extra"]
    assert extra["additionalProperties"] is False
    assert set(extra["properties"]) == {"seat_one_never_matches"}
    assert set(extra["properties"]["seat_one_never_matches"]["properties"]) == {"mine", "right"}
    assert tamalou.view_json_schema(tamalou.load_variant("french"))["properties"]["extra"]["properties"] == {}
    assert tamalou.new_game("french", 2, seed=1).view(0).extra == {}


def test_ismcts_rebuilds_a_third_party_mechanics_state_through_the_search_contract(tmp_path: Path) -> None:
    """The search contract: ISMCTS's determinization rebuilds every mechanic's state from the seat's information
    by ``Mechanic.resample``, a plugin's as the built-ins' (here from what the mechanic showed the seat), and the
    bot plays on such a game."""
    from tamalou.bots.ismcts import Determinizer, ISMCTSBot

    v = house(tmp_path, "match_contract")
    hands = [["AS", "2S", "3S", "4S"], ["4H", "5H", "6H", "7H"]]
    rest = [c for c in FULL_DECK if c not in {*hands[0], *hands[1], "4C", "KD"}]
    g = game(v, *hands, stock=["4C", *rest])  # the whole deck: the determinization deals what the seat cannot see
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(MatchAction(0, (1,)))  # a miss
    g.apply(MatchAction(0, (3,)))  # right
    for seat, throws in ((0, [[0, 0], [0, 1]]), (1, [])):
        view = g.seat_view(seat)
        template = Determinizer(view, g.legal_actions(seat), v, random.Random(1)).template
        assert template.state_of("seat_one_never_matches").throws == throws
    g.apply(Pass(0))  # no call: player 1's turn, searched on games rebuilt the same way
    bot = ISMCTSBot(seed=3, iterations=20)
    bot.setup(v, 1)
    assert bot.act(g.seat_view(1), g.legal_actions(1)) in g.legal_actions(1)


def test_two_mechanics_handling_one_action_in_one_phase_are_an_error_at_load(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match=r"plugins: .*two mechanics handle Draw in the same phase"):
        house(tmp_path, "clash")


def test_a_mechanic_with_a_phase_of_its_own_lists_applies_and_survives_a_snapshot(tmp_path: Path) -> None:
    v = house(tmp_path, "pause")
    g = game(v, ["AS", "2S", "3S", "5S"], ["2H", "3H", "4H", "5H"], stock=["6C", "2C", "3C", "4C"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # the 6C: the new phase
    assert g.phase == "pause" and g.to_act == [0]
    assert Pass(0) in g.legal_actions(0)
    assert any(isinstance(a, MatchAction) for a in g.legal_actions(1))  # the phase is open to matches
    restored = tamalou.Game.from_json(g.to_json())
    assert restored.phase == "pause" and restored.to_json() == g.to_json()
    events = restored.apply(Pass(0))
    assert events[0].type == "paused" and restored.phase == "call"
