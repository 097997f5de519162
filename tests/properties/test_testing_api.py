"""``tamalou.testing``: the strategies draw valid things, the profiles have no deadline, the state
machine runs a user's ruleset, and the standard properties catch a broken one.

Every hypothesis run here is small and derandomized (``property_settings("tamalou-ci", ...)``): the
same examples on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable

import tamalou
from tamalou import IllegalAction, InvariantViolation, VariantError
from tamalou import testing as T
from tamalou.testing.properties import run_invariants
from tamalou.testing.rulesets import FAILED_CHANGES
from tamalou.verify import shortest

CI = "tamalou-ci"
Load = Callable[[str], None]
HERE = Path(__file__).resolve().parent
BROKEN = HERE.parent / "data" / "broken"
PARTIAL_RANKING = ["tamalou.plugins.french", "plugins_for_tests.partial_ranking"]


def small(n: int, **changes: Any) -> settings:
    return T.property_settings(CI, max_examples=n, **changes)


# --------------------------------------------------------------------------------- profiles


@pytest.mark.parametrize("name", ["tamalou", "tamalou-ci", "tamalou-thorough"])
def test_profiles_have_no_deadline_and_no_slow_health_checks(name: str) -> None:
    profile = settings.get_profile(name)
    assert profile.deadline is None
    assert {HealthCheck.too_slow, HealthCheck.data_too_large} <= set(profile.suppress_health_check)
    assert Phase.explain not in profile.phases  # tracing whole rounds is slow: no explain phase
    assert Phase.shrink in profile.phases


def test_profiles_budgets() -> None:
    assert settings.get_profile("tamalou").max_examples == 50
    assert settings.get_profile("tamalou-ci").derandomize
    assert settings.get_profile("tamalou-thorough").max_examples == 1000
    assert (
        settings.get_profile("tamalou-thorough").stateful_step_count
        > settings.get_profile("tamalou").stateful_step_count
    )


def test_registering_again_changes_nothing() -> None:
    before = settings.get_profile("tamalou").max_examples
    T.register_profiles()
    assert settings.get_profile("tamalou").max_examples == before


def test_property_settings() -> None:
    s = T.property_settings(max_examples=7)
    assert s.max_examples == 7 and s.deadline is None
    assert T.property_settings("tamalou-thorough").max_examples == 1000
    with pytest.raises(Exception, match="not registered"):
        T.property_settings("nope")


def test_play_out_checked_at_every_step_does_not_hit_the_deadline() -> None:
    """The pattern that failed with FlakyFailure under hypothesis's 200 ms deadline."""
    ran = []

    @small(3)
    @given(T.stacked_games("french", max_stock=2), st.randoms(use_true_random=False))
    def test_short_stock_ends(game: tamalou.Game, rng: random.Random) -> None:
        T.check_result(T.play_out(game, T.RandomChooser(rng), check_every=1))
        ran.append(game)

    test_short_stock_ends()
    assert ran


# --------------------------------------------------------------------------------- rulesets


def test_every_drawn_ruleset_loads_and_plays() -> None:
    seen: list[tamalou.Variant] = []

    @small(30)
    @given(T.variants())
    def test(v: tamalou.Variant) -> None:
        seen.append(v)
        n = random.Random(len(seen)).randint(v.rules.players.min, v.rules.players.max)
        game = tamalou.new_game(v, n, seed=len(seen))
        T.play_out(game, T.RandomChooser(random.Random(len(seen))))
        T.check_result(game)
        T.check_replay(game)

    test()
    assert not FAILED_CHANGES, FAILED_CHANGES
    assert any(v.name.endswith("*") for v in seen), "no ruleset with changed keys"
    assert any(isinstance(v.spec, list) for v in seen), "no composition"
    assert any(isinstance(v.spec, str) for v in seen), "no plain built-in"


def test_variants_draw_compositions_and_changed_keys() -> None:
    composed = find(T.variants(max_changes=0), lambda v: isinstance(v.spec, list), settings=small(200))
    assert composed.spec[0] in tamalou.variant_names() and len(composed.spec) >= 2
    changed = find(T.variants("french", modifiers=False), lambda v: v.rules.call.threshold != 5, settings=small(300))
    assert changed.name == "french*" and changed.spec is None
    with pytest.raises(NoSuchExample):  # no modifier, no change: the base itself
        find(T.variants("cabo", modifiers=False, max_changes=0), lambda v: v.name != "cabo", settings=small(20))


def test_ruleset_names_are_the_registered_names() -> None:
    @small(20)
    @given(T.ruleset_names())
    def test(name: str) -> None:
        assert name in tamalou.variant_names()

    test()


def test_tweak_changes_keys_and_keeps_the_ruleset_consistent() -> None:
    v = T.tweak("french", {"call.threshold": 9, "rules.values.ranks.K": 0, "values.cards.QS": 20})
    assert (v.rules.call.threshold, v.rules.values.ranks["K"], v.rules.values.cards["QS"]) == (9, 0, 20)
    assert v.name == "french*" and v.plugins == ("tamalou.plugins.french",)
    big = T.tweak("french", {"deal.cards": 12, "peek.slots": [0, 11]})
    assert big.rules.deal.cards == 12 and big.rules.players.max == 4  # 52 cards: 4 x 12 + discard + 1
    short = T.tweak("french", {"deal.cards": 1})
    assert short.rules.peek.slots == (0,)  # slot 1 is no longer dealt
    assert T.tweak(big, {"call.threshold": 1}).name == "french*"
    with pytest.raises(VariantError, match="max_cards"):
        T.tweak("french", {"matching.max_cards": 9})


# --------------------------------------------------------------------------------- deals and games


def test_deals_fit_the_deck_and_play() -> None:
    @small(20)
    @given(st.data())
    def test(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(["french", "cabo", "kaboo"]))
        v = tamalou.load_variant(name)
        full = data.draw(T.deals(name, players=st.integers(2, 4)))
        n = len(full["hands"])
        assert all(len(h) == v.rules.deal.cards for h in full["hands"])
        dealt = sum(map(len, full["hands"])) + len(full["stock"]) + len(full["discard"])
        assert dealt == v.rules.deck.size(n)  # the whole deck of the table, stacked
        assert len(full["discard"]) <= v.rules.deal.discard
        game = tamalou.new_game(name, players=n, deal=full, first_player=0)
        T.check_conservation(game)
        tiny = data.draw(T.deals(v, players=2, max_stock=3))
        assert len(tiny["stock"]) <= 3
        T.check_conservation(tamalou.new_game(v, 2, deal=tiny))

    test()


def test_dealt_games_are_fresh_and_games_have_played_a_prefix() -> None:
    @small(15)
    @given(T.dealt_games("french"), T.games("french", players=3, min_actions=5, max_actions=20))
    def test(fresh: tamalou.Game, played: tamalou.Game) -> None:
        assert fresh.actions == []
        assert played.players == 3
        assert 5 <= len(played.actions) <= 20 or played.is_over
        T.check_conservation(played)

    test()
    assert T.played_games is T.games  # the old name is the same strategy


def test_stacked_games_have_a_small_stock() -> None:
    @small(10)
    @given(T.stacked_games("french", players=2, max_stock=3))
    def test(game: tamalou.Game) -> None:
        table = tamalou.round_of(game)
        assert len(table.stock) <= 3 and table.deal_spec is not None

    test()


def test_games_of_a_strategy_of_rulesets() -> None:
    @small(10)
    @given(T.games(T.variants(max_changes=1), max_actions=10))
    def test(game: tamalou.Game) -> None:
        T.check_conservation(game)

    test()


# --------------------------------------------------------------------------------- actions


def test_listed_actions_are_accepted_and_hostile_ones_refused_cleanly() -> None:
    hostile_seen = []

    @small(30)
    @given(st.data())
    def test(data: st.DataObject) -> None:
        game = data.draw(T.games(st.sampled_from(["french", "tamalou-fun", "kaboo"]), max_actions=40))
        if game.is_over:
            return
        action = data.draw(T.actions(game))
        game.copy().apply(action)  # a legal action is accepted
        mine = data.draw(T.actions(game, player=game.current_player))
        assert mine in game.legal_actions(game.current_player)
        x = data.draw(T.actions(game, hostile=True))
        if T.check_illegal_leaves_state(game, x):
            hostile_seen.append(x)

    test()
    assert hostile_seen


def test_no_action_when_the_round_is_over() -> None:
    game = T.random_playout("french", players=2, seed=3)
    with pytest.raises(Unsatisfiable):
        find(T.actions(game), lambda a: True, settings=small(5))
    junk = find(T.actions(game, hostile=True), lambda a: True, settings=small(5))
    with pytest.raises(IllegalAction):
        game.copy().apply(junk)  # type: ignore[arg-type]


def test_time_moves_a_timed_round_on() -> None:
    game = tamalou.new_game("tamalou-fun", 2, seed=1)  # the opening peek: only time moves the round on
    assert game.phase == "opening" and game.deadline is not None
    tick = find(T.actions(game), lambda a: True, settings=small(5))
    assert tick == tamalou.Tick(at=game.deadline)
    game.apply(tick)
    assert game.phase == "draw"


def test_actions_for_is_kept() -> None:
    game = tamalou.new_game("french", 2, seed=1)
    action = find(T.actions_for(game, game.current_player), lambda a: True, settings=small(5))
    assert action in game.legal_actions(game.current_player)


# --------------------------------------------------------------------------------- the state machine


class FrenchRounds(T.RoundMachine):
    variant = "french"
    players = 3


class TamalouFunSmallDeals(T.RoundMachine):
    variant = "tamalou-fun"
    stacked = True


class BrokenRanking(T.RoundMachine):
    variant = T.tweak("french", {"plugins": PARTIAL_RANKING, "end.max_turns": 4})
    players = 2


@pytest.fixture
def loaded_profile() -> Iterator[Load]:
    """Load a profile for one test (hypothesis loads its own ``"ci"`` profile when ``CI`` is set,
    and other tests may load one of tamalou's), and put back the one that was loaded before."""
    before = settings.get_current_profile_name()
    yield settings.load_profile
    settings.load_profile(before)


settings.register_profile("foreign-for-tests", max_examples=7, deadline=300, derandomize=True)


@pytest.mark.parametrize(
    ("loaded", "used"),
    [("default", "tamalou"), *((name, name) for name in ("tamalou", "tamalou-ci", "tamalou-thorough"))],
)
def test_a_machine_runs_with_tamalous_profile_by_default(loaded_profile: Load, loaded: str, used: str) -> None:
    loaded_profile(loaded)

    class Fresh(T.RoundMachine):
        variant = "french"

    s, expected = Fresh.TestCase.settings, settings.get_profile(used)
    assert s.deadline is None
    assert (s.max_examples, s.stateful_step_count) == (expected.max_examples, expected.stateful_step_count)
    assert Fresh.home == HERE


@pytest.mark.parametrize("loaded", ["foreign-for-tests", "ci"])
def test_a_machine_keeps_a_users_own_profile_without_its_deadline(loaded_profile: Load, loaded: str) -> None:
    """A profile of the user's (or hypothesis's ``"ci"``, loaded when ``CI`` is set) keeps its
    budget and its derandomizing; only the deadline and the slow health checks go."""
    loaded_profile(loaded)

    class Fresh(T.RoundMachine):
        variant = "french"

    s, theirs = Fresh.TestCase.settings, settings.get_profile(loaded)
    assert s.deadline is None and HealthCheck.too_slow in s.suppress_health_check
    assert (s.max_examples, s.derandomize) == (theirs.max_examples, theirs.derandomize)


@pytest.mark.parametrize("machine", [FrenchRounds, TamalouFunSmallDeals], ids=lambda m: m.__name__)
def test_the_machine_plays_and_checks(machine: type[T.RoundMachine]) -> None:
    machine.TestCase.settings = small(4, stateful_step_count=12)
    machine.TestCase("runTest").runTest()


def test_the_machine_catches_a_broken_ranking() -> None:
    # (no shrinking: the failure and its replay note are what is tested; shrinking a whole round costs seconds)
    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    BrokenRanking.TestCase.settings = small(30, stateful_step_count=20, database=None, phases=phases)
    with pytest.raises(Exception, match="tamalou_rank") as info:
        BrokenRanking.TestCase("runTest").runTest()
    assert any("tamalou.replay" in n for n in getattr(info.value, "__notes__", []))


def test_a_relative_variant_file_is_found_beside_the_test_module(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text('name = "house"\nextends = "french"\n[rules.call]\nthreshold = 9\n')

    class House(T.RoundMachine):
        variant = "house.toml"

    House.home = tmp_path
    House.TestCase.settings = small(2, stateful_step_count=4)
    House.TestCase("runTest").runTest()


# --------------------------------------------------------------------------------- the standard properties


@pytest.mark.parametrize("name", list(T.PROPERTIES))
def test_every_property_holds_on_french(name: str) -> None:
    T.check_property(name, "french", max_examples=3, profile=CI)


def test_a_property_catches_a_broken_ranking() -> None:
    broken = T.tweak("french", {"plugins": PARTIAL_RANKING})
    with pytest.raises(Exception, match="tamalou_rank") as info:
        T.check_property("result", broken, max_examples=20, profile=CI)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "the round that failed: tamalou.replay(" in notes


def test_small_deals_checks_every_invariant_of_verify() -> None:
    """``small_deals`` checks the invariants of ``INVARIANTS`` (``slot_order`` here, which the old property did not
    check), named as verify names them."""
    with pytest.raises(InvariantViolation, match=r"^slot_order: .*depends on the order"):
        T.check_property("small_deals", BROKEN / "first_slot.toml", max_examples=10, profile=CI)


# --------------------------------------------------------------------------------- verify's invariants, by name


def test_run_invariants_reads_verify_by_invariant() -> None:
    """What ``pytest --tamalou-variant`` reports: verify's games, each invariant failing with its simplest failing
    game and how to play it again, or skipped when no game reached it."""
    run = run_invariants(BROKEN / "first_slot.toml", games=3)
    assert run.report.games == 3 and run.command.endswith("first_slot.toml")
    assert run.checks("conservation") > 0 and run.violation("conservation") is None
    assert run.unchecked("conservation") is None
    exc = run.violation("slot_order")
    assert isinstance(exc, InvariantViolation) and exc.invariant == "slot_order"
    assert str(exc).startswith("slot_order: ") and "depends on the order" in str(exc)
    notes = "\n".join(exc.__notes__)
    assert "slot_order failed in 3 of 3 games" in notes
    shown = shortest(run.failures("slot_order"))  # the simplest: the fewest actions, then the fewest players
    assert f"reproduce: tamalou verify {run.command} --games 1 --seed {shown.seed} --players {shown.players}" in notes
    assert len(shown.actions) == min(len(f.actions) for f in run.failures("slot_order"))
    assert "the state that broke: tamalou.replay(" in notes

    endless = run_invariants(BROKEN / "endless.toml", games=1, players=2, seed=5, command="endless.toml")
    stuck = endless.violation("termination")
    assert stuck is not None
    assert "reproduce: tamalou verify endless.toml --games 1 --seed 5 --players 2" in "\n".join(stuck.__notes__)
    assert endless.unchecked("slot_order") == "not checked: every game broke termination before slot_order was checked"


def test_an_unknown_property_is_refused() -> None:
    with pytest.raises(ValueError, match="conservation"):
        T.check_property("conservervation", "french")


def test_old_names_still_work() -> None:
    for name in ("played_games", "stacked_games", "actions_for", "any_action", "DrawChooser", "games", "variants"):
        assert name in T.__all__ and callable(getattr(T, name))
    from tamalou import verify

    for name in verify.__all__:  # every name of tamalou.verify is importable from here too
        assert name in T.__all__ and getattr(T, name) is getattr(verify, name)
