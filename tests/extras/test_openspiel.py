"""The OpenSpiel game (``tamalou.ai.openspiel``): OpenSpiel's own API checks on every untimed built-in
ruleset, the deal as chance nodes, reaction turns as in the PettingZoo environment, serialisation through
snapshots, resampling from an information state, and OpenSpiel's ISMCTS bot against a random bot."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

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

UNTIMED = [n for n in tamalou.variant_names() if tamalou.load_variant(n).rules.timing.turn_seconds == 0]


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
@pytest.mark.parametrize("variant", UNTIMED)
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
        assert np.array_equal(np.asarray(state.information_state_tensor(p)), observation(g.seat_view(p), g.variant))


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


def test_timed_rulesets_are_refused() -> None:
    with pytest.raises(ValueError, match="timed"):
        openspiel.load("tamalou-fun", 2)


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
