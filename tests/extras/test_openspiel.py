"""The OpenSpiel game (``tamalou.ai.openspiel``): OpenSpiel's own API checks on every untimed built-in
ruleset, the deal as chance nodes, reaction turns as in the PettingZoo environment, serialisation through
snapshots, resampling from an information state, and OpenSpiel's ISMCTS bot against a random bot."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from optional import require

require("ai", "pyspiel")
np = require("ai", "numpy")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

import tamalou  # noqa: E402
import tiers  # noqa: E402
from tamalou.ai import openspiel  # noqa: E402
from tamalou.ai.encoding import ActionSpace  # noqa: E402
from tamalou.ai.observation import observation, observation_size  # noqa: E402
from tamalou.engine import new_round  # noqa: E402
from train_a_bot_page import run_sections  # noqa: E402

RULESETS = tamalou.variant_names()  # timed ones included: time is an explicit step


def _play(state: object, rng: random.Random, moves: int) -> None:
    """Up to ``moves`` random moves, calls left aside while there is something else (rounds go on)."""
    for _ in range(moves):
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        legal = state.legal_actions()  # type: ignore[attr-defined]
        quiet = [a for a in legal if "'call'" not in state.action_to_string(a)]  # type: ignore[attr-defined]
        state.apply_action(rng.choice(quiet or legal))  # type: ignore[attr-defined]


def _dealt(game: object, seed: int) -> object:
    """A new state of ``game`` with its chance nodes played at random."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(rng.choice([a for a, _ in outcomes]))
    return state


@pytest.mark.scaled
@pytest.mark.parametrize("variant", RULESETS)
def test_random_sim_test(variant: str) -> None:
    """OpenSpiel's own consistency checks: legal actions, chance outcomes, observations, information
    states, returns, clones and serialisation (through the round's snapshot), over random games (kaboo's
    3-player games in the deep tier only: its random rounds run to the turn limit)."""
    sims = 1 if variant == "kaboo" else 3  # random kaboo rounds run to the turn limit
    for players in (2, 3) if variant != "kaboo" or tiers.DEEP else (2,):
        game = openspiel.load(variant, players)
        pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_the_deal_is_chance_nodes_and_the_game_matches_the_engine() -> None:
    game = openspiel.load("french", 2)
    deck = new_round("french", players=2, seed=0).rb.deck_for(2)
    assert game.max_chance_outcomes() == len(deck)
    assert game.num_distinct_actions() == ActionSpace.of("french", 2).size + 1
    assert game.observation_tensor_shape() == [observation_size("french", 2)]
    state = game.new_initial_state()
    picked = []
    for _ in range(len(deck) - 1):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == len(deck) - len(picked)
        picked.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    assert state.is_chance_node()  # French draws the first player
    assert [a for a, _ in state.chance_outcomes()] == [0, 1]
    state.apply_action(1)
    played = state.round
    assert played is not None and played.current_player == 1
    g = tamalou.round_of(played)  # the table itself: its layouts and its discard
    top = [str(deck[i]) for i in picked] + [str(c) for i, c in enumerate(deck) if i not in picked]
    assert g.layout(0) == [top[0], top[2], top[4], top[6]]
    assert g.layout(1) == [top[1], top[3], top[5], top[7]]
    assert g.text[g.discard[-1]] == top[8]
    # the observation is the seat's view's, and nothing else
    for p in range(2):
        assert np.array_equal(np.asarray(state.observation_tensor(p)), observation(g.seat_view(p), g.variant))
        assert "moves: " in state.information_state_string(p)  # perfect recall: the string, not a tensor


def test_reaction_turns_follow_the_pettingzoo_protocol() -> None:
    """After a move, the other seats with matches listed react (a match or NOOP), then the round's seat."""
    game = openspiel.load("french", 3)
    state = _dealt(game, 1)
    noop = game.num_distinct_actions() - 1
    g = state.round
    mover = state.current_player()
    assert mover == g.to_act[0] and noop not in state.legal_actions()
    state.apply_action(state.legal_actions()[0])  # a draw
    seen = []
    while state.current_player() != g.to_act[0] or state.current_player() in seen:
        p = state.current_player()
        assert noop in state.legal_actions()
        seen.append(p)
        state.apply_action(noop)
    assert seen == [(mover + 1) % 3, (mover + 2) % 3]


def test_serialisation_goes_through_the_snapshot() -> None:
    game = openspiel.load("cabo", 2)
    state = _dealt(game, 3)
    rng = random.Random(3)
    _play(state, rng, 25)
    assert not state.is_terminal()
    text = state.serialize()
    again = game.deserialize_state(text)
    assert again.round.to_json() == state.round.to_json()
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    assert again.information_state_string(0) == state.information_state_string(0)
    # the round pickles as its snapshot (the JSON text of to_json), not as Python objects
    pickled = pickle.dumps(openspiel._Round(state.round))
    assert state.round.to_json().encode() in pickled
    restored = pickle.loads(pickled)
    assert restored.game.to_json() == state.round.to_json()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.round.to_json() != clone.round.to_json()
    assert again.round.to_json() == state.round.to_json()


@pytest.mark.parametrize("variant", ["french", "cambia", "cabo"])
def test_resampling_keeps_the_information_state(variant: str) -> None:
    game = openspiel.load(variant, 3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(4):
        state = _dealt(game, seed)
        rng = random.Random(seed)
        _play(state, rng, rng.randrange(5, 40))
        if state.is_terminal():
            continue
        p = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.legal_actions() == state.legal_actions()
            assert np.array_equal(np.asarray(other.observation_tensor(p)), np.asarray(state.observation_tensor(p)))
            g, h = tamalou.round_of(state.round), tamalou.round_of(other.round)  # the tables themselves
            # only cards the seat does not know changed faces; the rest of the table is the same
            for c in range(len(g.cards)):
                if g.knowers[c] >> p & 1:
                    assert h.text[c] == g.text[c]
            changed += sum(h.text[c] != g.text[c] for c in range(len(g.cards)))
            assert sorted(h.text) == sorted(g.text)
    assert changed > 0


def _restored(game: Any, state: Any, how: str) -> Any:
    if how == "serialize":
        return game.deserialize_state(state.serialize())
    if how == "pickle":
        return pickle.loads(pickle.dumps(state))
    return copy.deepcopy(state)


@pytest.mark.scaled
@pytest.mark.parametrize("variant", RULESETS)
def test_every_restored_state_plays_on(variant: str) -> None:
    """Every state of random rounds, restored by ``deserialize_state``, ``pickle`` and ``copy.deepcopy``, has
    the original's legal actions, strings and returns, and plays on: the same move on the original and on
    each copy gives the same state again."""
    rng = random.Random(variant)
    rounds = tiers.sized(fast=1, deep=2)
    for seed in range(rounds):
        game = openspiel.load(variant, 2 + seed % 2)
        state = _dealt(game, seed)
        steps = 0
        while not state.is_terminal() and steps < tiers.sized(fast=40, deep=200):
            copies = [_restored(game, state, how) for how in ("serialize", "pickle", "deepcopy")]
            legal = state.legal_actions()
            action = rng.choice(legal)
            for other in copies:
                assert other.legal_actions() == legal and str(other) == str(state)
                assert other.information_state_string() == state.information_state_string()
                other.apply_action(action)
            state.apply_action(action)
            for other in copies:
                assert other.serialize() == state.serialize() and other.returns() == state.returns()
            steps += 1


def test_there_is_no_information_state_tensor() -> None:
    # The observation tensor is not perfect recall: the game type says so, and the string is.
    game = openspiel.load("french", 2)
    kind = game.get_type()
    assert not kind.provides_information_state_tensor and kind.provides_information_state_string
    assert kind.provides_observation_tensor


def test_timed_rulesets_make_time_an_explicit_step() -> None:
    game = openspiel.load("tamalou-fun", 3, seconds_per_move=2.0)
    state = _dealt(game, 5)
    g = state.round
    assert g.now == 0.0 and game.noop in state.legal_actions()  # the opening: a seat may wait for its end
    state.apply_action(game.noop)
    assert g.actions[-1] == tamalou.Tick(at=5.0)
    seat = g.current_player
    assert state.current_player() == seat
    state.apply_action(game.space.id(tamalou.Draw(seat, "stock")))
    assert g.actions[-1] == tamalou.Draw(seat, "stock", at=7.0)
    while state.current_player() != seat or seat not in g.to_act:
        state.apply_action(game.noop)  # the others let their matches go
    deadline = g.deadline
    state.apply_action(game.noop)  # its time runs out: the clock plays for it
    assert g.now == deadline and g.current_player != seat


@pytest.mark.deep  # a statistical strength test: many games
def test_openspiel_ismcts_beats_a_random_bot() -> None:
    """OpenSpiel's ISMCTS (random rollouts, resampling through ``resample_from_infostate``) wins at least
    9 games of 10 against uniform random play: a fair coin does so with probability 11/1024."""
    game = openspiel.load("french", 2, reward="win")
    wins = 0
    for i in range(10):
        me = i % 2
        rs = np.random.RandomState(i)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(100 + i))
        searcher = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=30, random_state=np.random.RandomState(i)
        )
        sampler = pyspiel.UniformProbabilitySampler(200 + i, 0.0, 1.0)  # seeded: the same games every run
        searcher.set_resampler(lambda state, player, sampler=sampler: state.resample_from_infostate(player, sampler))
        bots = [searcher, uniform_random.UniformRandomBot(1 - me, np.random.RandomState(300 + i))]
        if me == 1:
            bots.reverse()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[me] > 0
    assert wins >= 9, wins


def test_the_page_section_runs(tmp_path: Path) -> None:
    run_sections(("OpenSpiel",), tmp_path)


def test_returns_hold_no_negative_zero() -> None:
    """The first place's return under "rank" is 0.0, never -0.0 (which prints as "-0.0" and compares equal only by
    luck of the format): every return of 20 random games, in every reward."""
    import math

    for reward in openspiel.SPIEL_REWARDS:
        game = pyspiel.load_game(openspiel.GAME_NAME, {"variant": "french", "players": 3, "reward": reward})
        for seed in range(20):
            state = game.new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            returns = state.returns()
            assert not any(r == 0 and math.copysign(1.0, r) < 0 for r in returns), returns
            assert "-0.0" not in repr(returns)
