"""Properties of every built-in ruleset over random games (hypothesis).

Each property runs on every name of ``tamalou.variant_names()``, so a ruleset added later is
covered without touching this file, and on a few compositions of a base with modifiers. The games
come from ``tamalou.testing``: a seeded deal (any player count the variant allows: 2 to 6 for
French), then random legal actions of random players (out-of-turn matches included, time passing
in timed rulesets). The first choices are drawn one by one by hypothesis and the rest from a drawn
seed, so a failure shrinks to a short game while an example stays cheap; the failure report prints
the ``tamalou.replay`` call that rebuilds it.

Conservation is checked at every step of whole games; the expensive invariants (no leak, every
listed action accepted, snapshots, replays) on one state per example, taken after a random
number of actions: across the examples, that samples every stage of a round.

Every property runs in both tiers (``tests/tiers.py``): 8 derandomized examples per ruleset in the fast tier
(``pytest``), so that every invariant is checked at least once on every ruleset by every change, and 200 in
the deep tier (``pytest --deep``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tamalou
from tamalou.actions import action_to_dict
from tamalou.testing import (
    DrawChooser,
    any_action,
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
    dealt_games,
    play_out,
    played_games,
    stacked_games,
    step_bound,
)
from tamalou.verify import PlayStyle
from tiers import sized

pytestmark = pytest.mark.scaled

Variantish = str | tuple[str, ...]
COMPOSITIONS = [
    ("cartalogue", "jokers", "opponent-matching"),
    ("french", "gabo", "jokers", "multi-round"),
    ("cambia", "multi-round"),
    ("dutch", "jokers"),
]
VARIANTS: list[Variantish] = [*tamalou.variant_names(), *COMPOSITIONS]
#: Examples per property and ruleset (tests/tiers.py): a few in the fast tier, 25 in the deep one (200, then 100,
#: then 50, took CI past its 15-minute budget on a slower host). Derandomized in both: the same games on every run,
#: so that a run is reproducible and CI never fails by chance.
EXAMPLES = sized(fast=8, deep=25)
PROPERTY = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    report_multiple_bugs=False,  # shrink the first failure only: a failing run stays short
)
every_variant = pytest.mark.parametrize("name", VARIANTS, ids=lambda v: v if isinstance(v, str) else "+".join(v))
BUDGET = 40  # choices drawn one by one by hypothesis in each game, before a drawn seed takes over
seeds = st.integers(0, 2**32 - 1)
# Play styles: how often an offered call is taken (0: never, the round runs to the turn limit)...
calls = st.sampled_from([0.05, 0.2])
calls_or_never = st.sampled_from([0.05, 0.05, 0.05, 0.2, 0.2, 0.1, 0.1, 0.0])
# ... and how keen players are to match: (out_of_turn, match_probability).
match_styles = st.sampled_from([(0.3, 0.15), (0.8, 0.6), (0.0, 0.0)])


def _played(data: st.DataObject, name: Variantish, max_actions: int = 100) -> tamalou.Game:
    out_of_turn, match_probability = data.draw(match_styles)
    game: tamalou.Game = data.draw(
        played_games(
            name,
            max_actions=max_actions,
            style=PlayStyle(
                out_of_turn=out_of_turn, match_probability=match_probability, call_probability=data.draw(calls)
            ),
            budget=BUDGET,
        )
    )
    return game


def _play_to_end(
    data: st.DataObject,
    game: tamalou.Game,
    call_styles: st.SearchStrategy[float],
    on_step: Callable[[tamalou.Game, tamalou.Action], None] | None = None,
) -> None:
    out_of_turn, match_probability = data.draw(match_styles)
    play_out(
        game,
        DrawChooser(data.draw, budget=BUDGET),
        PlayStyle(
            call_probability=data.draw(call_styles), out_of_turn=out_of_turn, match_probability=match_probability
        ),
        on_step=on_step,
    )


def _each_step(game: tamalou.Game, _action: tamalou.Action) -> None:
    check_conservation(game)
    check_knowledge(game)


def test_every_builtin_ruleset_is_covered() -> None:
    assert "french" in VARIANTS


@every_variant
@PROPERTY
@given(data=st.data())
def test_cards_are_conserved_at_every_step(name: Variantish, data: st.DataObject) -> None:
    game = data.draw(dealt_games(name))
    check_conservation(game)
    _play_to_end(data, game, calls, on_step=_each_step)


@every_variant
@PROPERTY
@given(data=st.data())
def test_no_leak(name: Variantish, data: st.DataObject) -> None:
    game = _played(data, name)
    rng = random.Random(data.draw(seeds))
    for player in range(game.players):
        check_no_leak(game, player, rng, pairs=8)


@every_variant
@PROPERTY
@given(data=st.data())
def test_every_listed_action_is_accepted(name: Variantish, data: st.DataObject) -> None:
    check_legal_actions_accepted(_played(data, name))


@every_variant
@PROPERTY
@given(data=st.data())
def test_a_refused_action_leaves_the_game_identical(name: Variantish, data: st.DataObject) -> None:
    game = _played(data, name)
    snapshot = game.to_json()
    for _ in range(3):
        action = data.draw(any_action(game))
        refused = check_illegal_leaves_state(game, action, snapshot=snapshot)
        if not refused and isinstance(action, dict):
            check_accepted_is_listed(game, action)


@every_variant
@PROPERTY
@given(data=st.data())
def test_the_round_ends(name: Variantish, data: st.DataObject) -> None:
    game = data.draw(dealt_games(name))
    _play_to_end(data, game, calls_or_never)  # raises InvariantViolation past step_bound(game)
    assert game.is_over
    assert len(game.actions) <= step_bound(game)
    check_result(game)


@every_variant
@PROPERTY
@given(data=st.data())
def test_the_same_seed_and_actions_give_the_same_game(name: Variantish, data: st.DataObject) -> None:
    game = _played(data, name)
    # The deal depends only on the seed.
    dealt = tamalou.new_game(game.variant, game.players, seed=game.seed)
    assert dealt.to_json() == tamalou.new_game(game.variant, game.players, seed=game.seed).to_json()
    # The actions as JSON dicts (the wire form) and as objects rebuild the same game.
    check_replay(game)
    again = tamalou.replay(game.variant, game.players, seed=game.seed, actions=game.actions)
    assert again.to_json() == game.to_json()
    assert [action_to_dict(a) for a in again.actions] == [action_to_dict(a) for a in game.actions]


@every_variant
@PROPERTY
@given(data=st.data())
def test_from_json_continues_identically(name: Variantish, data: st.DataObject) -> None:
    game = _played(data, name)
    check_snapshot_roundtrip(game, random.Random(data.draw(seeds)), steps=6)


@every_variant
@PROPERTY
@given(data=st.data())
def test_small_stacked_deals_hold_every_invariant(name: Variantish, data: st.DataObject) -> None:
    """Tiny universes (a stock of 0 to 6 cards): empty stocks, impossible reshuffles, penalties
    with no card left, rounds that end for want of a card. Conservation and knowledge at every
    step, every check of ``check_all`` at one drawn step, the result at the end."""
    game = data.draw(stacked_games(name, max_stock=6))
    rng = random.Random(data.draw(seeds))
    at = data.draw(st.integers(0, 60))
    if at == 0:
        check_all(game, rng)

    def each(g: tamalou.Game, action: tamalou.Action) -> None:
        _each_step(g, action)
        if len(g.actions) == at:
            check_all(g, rng)

    _play_to_end(data, game, calls, on_step=each)
    check_result(game)
    check_replay(game)
