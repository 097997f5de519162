"""``tamalou.ai.pettingzoo``: the AEC environment passes PettingZoo's own API and seed tests on every
built-in ruleset (timed ones included: time is an explicit step), asks the seats the round waits for and gives
react turns for out-of-turn matches as documented, pays the documented rewards, refuses illegal ids or ends the
episode on one, and gives the whole table as its ``state()``."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from optional import require

np = require("ai", "numpy")
require("ai", "pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import tamalou  # noqa: E402
from tamalou.ai import ActionSpace, observation  # noqa: E402
from tamalou.ai.observation import table_view  # noqa: E402
from tamalou.ai.pettingzoo import REWARDS, env, raw_env  # noqa: E402
from tamalou.engine.game import round_of  # noqa: E402
from train_a_bot_page import run_sections  # noqa: E402

RULESETS = tamalou.variant_names()  # timed ones included: time is an explicit step
#: What PettingZoo's api_test says of any environment whose observations are dicts with an action mask.
DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably")


@pytest.mark.parametrize("name", RULESETS)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    r = tamalou.load_variant(name).rules
    for players in sorted({r.players.min, r.players.max}):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            api_test(env(name, players=players), num_cycles=60)
            seed_test(lambda players=players: env(name, players=players), num_cycles=60)
        unexpected = {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)}
        assert not unexpected, unexpected


def play(e: Any, seed: int, rng: np.random.Generator, check: bool = False) -> dict[str, float]:
    """A round with a random policy over the mask (``NOOP`` one time in two when offered); returns each
    agent's reward at its termination. With ``check``, every decision is checked against the game."""
    u = e.unwrapped
    e.reset(seed=seed)
    final: dict[str, float] = {}
    stats = {"react": 0, "noop": 0, "main": 0}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask[:-1])
        p = int(agent.split("_")[1])
        react = p not in u.game.to_act
        if check:
            g = u.game
            assert np.array_equal(obs["observation"], observation(g.seat_view(p), g.variant))
            assert set(legal.tolist()) == set(u.space.legal_ids(g, p))  # every listed action, no other
            if react:
                assert mask[-1] and len(legal) > 0
            else:
                assert p == g.to_act[0]
                assert bool(mask[-1]) == (g.variant.rules.timing.turn_seconds > 0)  # waiting: timed rulesets
        stats["react" if react else "main"] += 1
        if mask[-1] and (not len(legal) or rng.random() < (0.5 if react else 0.05)):
            stats["noop"] += 1
            e.step(u.noop)
        else:
            e.step(int(rng.choice(legal)))
    final["_stats"] = stats  # type: ignore[assignment]
    return final


@pytest.mark.parametrize("name", ["french", "kaboo", "cambia", "cabo", "opponent-matching"])
def test_who_is_asked_and_the_masks(name: str) -> None:
    rng = np.random.default_rng(1)
    e = env(name, players=3)
    reacts = 0
    for seed in range(3):
        stats: Any = play(e, seed, rng, check=True)["_stats"]
        assert stats["main"] > 0
        reacts += stats["react"]
        assert e.unwrapped.game.is_over
    if name not in ("cabo", "cambia"):  # cabo has no matching; cambia's window is a phase of its own
        assert reacts > 0


@pytest.mark.parametrize("reward", ["rank", "win", "score"])
def test_rewards_come_from_the_result(reward: str) -> None:
    rng = np.random.default_rng(2)
    e = env("french", players=4, reward=reward)
    for seed in range(3):
        final = play(e, seed, rng)
        result = e.unwrapped.game.result()
        want = {f"player_{p}": REWARDS[reward](result, p) for p in range(4)}
        assert {a: r for a, r in final.items() if a != "_stats"} == want
    if reward == "rank":
        assert sorted(want.values())[-1] == 0.0 and want[f"player_{result.ranking[-1][0]}"] == -(
            len(result.ranking) - 1
        )
    if reward == "win":
        assert set(want.values()) <= {1.0, -1.0} and [p for p in range(4) if want[f"player_{p}"] == 1] == result.winners
    if reward == "score":
        assert [-want[f"player_{p}"] for p in range(4)] == result.scores


def test_a_reward_function() -> None:
    e = env("gabo", players=2, reward=lambda result, seat: float(result.totals[seat]))
    final = play(e, 5, np.random.default_rng(5))
    assert final["player_0"] == e.unwrapped.game.result().totals[0]


def test_the_same_seed_and_actions_give_the_same_round() -> None:
    logs = []
    for _ in range(2):
        e = env("french", players=3)
        play(e, 42, np.random.default_rng(3))
        logs.append(e.unwrapped.game.to_json())
    assert logs[0] == logs[1]
    e = env("french", players=3)
    play(e, 43, np.random.default_rng(3))
    assert e.unwrapped.game.to_json() != logs[0]


def test_a_seat_with_no_numbered_action_has_its_first_listed_action_played() -> None:
    # With one slot numbered, a seat whose options all name later slots (a card to give, a replace
    # forced by the rules...) has no id to choose: the environment plays its first listed action.
    auto = 0
    for seed in range(20):
        e = env("cabo", players=2, max_slots=1)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            e.step(int(rng.choice(legal)))
        assert e.unwrapped.game.is_over
        auto += e.unwrapped.auto_played
    assert auto > 0


def test_refusals() -> None:
    with pytest.raises(ValueError, match="played by 2 to 6 players"):
        env("french", players=7)
    with pytest.raises(ValueError, match="unknown reward 'money'"):
        env("french", reward="money")
    e = raw_env("french", players=2)
    e.reset(seed=1)
    assert e.agent_selection == f"player_{e.game.current_player}"
    space = ActionSpace.of("french", 2)
    first = e.game.current_player
    replace = space.id(tamalou.Replace(first, 0))  # no card is held yet
    words = r"put the card you hold in your slot 0 .*"  # (the action in words, then its JSON)
    with pytest.raises(ValueError, match=r"action \d+ \(" + words + r"\{'type': 'replace'.*not legal"):
        e.step(replace)
    with pytest.raises(ValueError, match="NOOP"):
        e.step(e.noop)
    with pytest.raises(ValueError, match="integer id"):
        e.step("draw")  # type: ignore[arg-type]
    assert e.game.actions == []  # the refused ids changed nothing
    e.step(space.id(tamalou.Draw(first, "stock")))
    assert e.game.actions == [tamalou.Draw(first, "stock")] and e.game.seat_view(0).holding == first


def test_an_illegal_id_may_end_the_episode_instead() -> None:
    # illegal="terminate", as PettingZoo's TerminateIllegalWrapper: the agent that chose it is penalised.
    e = env("french", players=3, illegal="terminate", illegal_reward=-5)
    e.reset(seed=4)
    u = e.unwrapped
    chooser = e.agent_selection
    before = list(u.game.actions)
    e.step(u.space.id(tamalou.Replace(u.game.current_player, 0)))  # no card is held yet
    assert u.game.actions == before  # the game is untouched
    assert all(u.terminations.values())
    assert u.infos[chooser]["illegal_move"] and "not legal" in u.infos[chooser]["illegal_reason"]
    finals = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        finals[agent] = reward
        e.step(None)
    assert finals == {a: (-5.0 if a == chooser else 0.0) for a in u.possible_agents}
    with pytest.raises(ValueError, match="'raise' or 'terminate'"):
        env("french", illegal="ignore")


def test_state_is_the_whole_table() -> None:
    # state(): every card, as seat 0 would observe it knowing them all; no seat's observation is that.
    e = raw_env("french", players=3)
    e.reset(seed=2)
    g = e.game
    snapshot = g.to_json()
    state = e.state()
    assert state.shape == e.state_space.shape and e.state_space.contains(state)
    everything = observation(table_view(round_of(g), 0), g.variant)
    assert np.array_equal(state, everything)
    for p in range(3):
        assert not np.array_equal(state, e.observe(f"player_{p}")["observation"])
    hidden = [s for s in table_view(round_of(g), 0).hands[1]]
    assert all(s.card is not None for s in hidden) and all(s.card is None for s in g.seat_view(0).hands[1])
    assert g.to_json() == snapshot and np.array_equal(e.state(), state)  # state() reads, changes nothing


def test_timed_rulesets_make_time_an_explicit_step() -> None:
    e = raw_env("tamalou-fun", players=3, seconds_per_move=2.0)
    e.reset(seed=2)
    g = e.game
    # The opening: every seat may wait for its end (5 s), which NOOP does.
    assert g.now == 0.0 and g.deadline == 5.0 and e.observe(e.agent_selection)["action_mask"][-1] == 1
    e.step(e.noop)
    assert g.actions[-1] == tamalou.Tick(at=5.0) and g.now == 5.0
    # A move is stamped seconds_per_move after the clock.
    seat = g.current_player
    assert e.agent_selection == f"player_{seat}"
    draw = e.space.id(tamalou.Draw(seat, "stock"))
    e.step(draw)
    assert g.actions[-1] == tamalou.Draw(seat, "stock", at=7.0)
    # On its turn a seat may let its time run out: the clock plays for it at the turn's deadline.
    while e.agent_selection != f"player_{g.current_player}" or g.current_player != seat:
        e.step(e.noop)  # the others let their matches go
    deadline = g.deadline
    assert deadline is not None and deadline > g.now
    e.step(e.noop)
    assert g.now == deadline and g.current_player != seat
    assert tamalou.Tick(at=deadline) in g.actions


def test_render() -> None:
    e = raw_env("french", players=2, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str) and "french" in text and "P1" in text
    assert raw_env("french", players=2).render() is None


# ----------------------------------------------------------------------------------- the documentation

#: The sections of docs/train-a-bot.md about action ids, observations and PettingZoo (others document
#: OpenSpiel and search, and are run by their own tests).
SECTIONS = ("Action ids and masks", "Observations", "A PettingZoo environment")


def test_the_page_runs_and_prints_what_it_shows(tmp_path: Path) -> None:
    run_sections(SECTIONS, tmp_path)


def test_render_shows_the_last_move_in_words() -> None:
    """``render()`` ("ansi") is the referee's table and the last move in words (``Action.describe``)."""
    e = raw_env(variant="french", players=2, render_mode="ansi")
    e.reset(seed=2)
    agent = e.agent_selection
    p = e.agents.index(agent)
    draw = e.space.id(tamalou.Draw(p, "stock"))
    e.step(draw)
    text = e.render()
    assert text is not None and text.splitlines()[-1] == f"last move: P{p}: draw from the stock"
    quiet = raw_env(variant="french", players=2)
    quiet.reset(seed=2)
    assert quiet.render() is None
