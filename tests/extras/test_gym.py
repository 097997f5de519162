"""``tamalou.ai.gym``: the single-agent Gymnasium environment passes Gymnasium's ``check_env`` on every built-in
ruleset (timed ones included), its masks are the seat's legal ids, the other seats are played by their bots
(named or given, each seeing only its own view), an episode is the round its seed deals, and illegal ids end the
episode or raise, as asked."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from optional import require

np = require("ai", "numpy")
gymnasium = require("ai", "gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import tamalou  # noqa: E402
from tamalou.ai.gym import ENV_ID, TamalouGymEnv  # noqa: E402
from tamalou.engine.game import round_of  # noqa: E402
from train_a_bot_page import run_sections, section_scripts  # noqa: E402

RULESETS = tamalou.variant_names()


def run(env: TamalouGymEnv, seed: int, pick: Any) -> tuple[list[int], float, Any]:
    """An episode: ``pick(mask) -> id`` chooses; the ids chosen, the last reward and the result."""
    obs, info = env.reset(seed=seed)
    chosen: list[int] = []
    reward, done = 0.0, False
    while not done:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool)) and mask.any()
        i = int(pick(mask))
        chosen.append(i)
        obs, reward, done, truncated, info = env.step(i)
        assert not truncated and env.observation_space.contains(obs)
        if not done:
            assert reward == 0.0
    return chosen, reward, env.game.result()


@pytest.mark.parametrize("name", RULESETS)
def test_check_env_and_random_episodes(name: str) -> None:
    players = min(4, tamalou.load_variant(name).rules.players.max)
    env = TamalouGymEnv(name, players=players, opponents="random")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(env)
    rng = np.random.default_rng(0)
    _, reward, result = run(env, 1, lambda mask: rng.choice(np.flatnonzero(mask)))
    place = next(i for i, tied in enumerate(result.ranking) if 0 in tied)
    assert reward == -place  # the default reward: minus the seat's place


def test_the_mask_is_the_seats_legal_ids_and_the_bots_see_only_their_views() -> None:
    seen: list[tuple[int, Any]] = []

    class Watcher:
        """A given bot: records what it is shown, plays the first listed action, lets matches go."""

        def setup(self, variant: tamalou.Variant, player: int) -> None:
            self.player = player

        def act(self, view: Any, legal: list[tamalou.Action]) -> tamalou.Action | None:
            seen.append((self.player, view))
            assert all(a.player == self.player for a in legal)
            if self.player not in view.to_act:
                return None
            return legal[0]

    env = TamalouGymEnv("french", players=3, seat=1, opponents=[Watcher(), Watcher()])
    env.reset(seed=5)
    for _ in range(12):
        g = round_of(env.game)
        if g.is_over:
            break
        ids = set(np.flatnonzero(env.action_masks()[:-1]).tolist())
        assert ids == set(env.space.legal_ids(g, 1))
        env.step(min(ids) if ids else env.noop)
    assert {p for p, _ in seen} == {0, 2}
    for p, view in seen:
        assert view.player == p  # each bot got its own seat's view, never the game


def test_an_episode_is_its_seed() -> None:
    env = gymnasium.make(ENV_ID, variant="cabo", players=4, opponents=["greedy", "cautious", "random"])
    first = run(env.unwrapped, 9, lambda mask: np.flatnonzero(mask)[0])
    again = run(env.unwrapped, 9, lambda mask: np.flatnonzero(mask)[0])
    assert first[0] == again[0] and first[2] == again[2]
    other = run(env.unwrapped, 10, lambda mask: np.flatnonzero(mask)[0])
    assert other[2] != first[2] or other[0] != first[0]


def test_illegal_ids() -> None:
    env = TamalouGymEnv("french", players=2, opponents="random")
    env.reset(seed=3)
    before = list(env.game.actions)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_move"] and env.game.actions == before
    strict = TamalouGymEnv("french", players=2, opponents="random", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
    assert strict.game.actions == before


def test_refusals() -> None:
    with pytest.raises(ValueError, match="one opponent for each of the 2 other seats"):
        TamalouGymEnv("french", players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="seat is a seat"):
        TamalouGymEnv("french", players=3, seat=3)
    with pytest.raises(ValueError, match="unknown bot"):
        TamalouGymEnv("french", players=3, opponents="grredy")
    env = TamalouGymEnv("french", players=2)
    with pytest.raises(tamalou.GameStateError, match="reset"):
        env.step(0)


def test_the_page_section_runs(tmp_path: Path) -> None:
    # docs/train-a-bot.md's Gymnasium section prints what it shows.
    run_sections(("A Gymnasium environment",), tmp_path)


TRAINING = "Train an agent"
#: The training of the page as written, and at the size the fast tier runs it.
SMALL = (
    (
        "ITERATIONS, POPULATION, ELITE, EPISODES = 12, 40, 8, 40",
        "ITERATIONS, POPULATION, ELITE, EPISODES = 2, 6, 2, 3",
    ),
    ("GAMES = 1000", "GAMES = 20"),
)


def test_the_training_runs_at_a_small_size(tmp_path: Path) -> None:
    # The page's training, shrunk: it trains, saves the agent, measures it; the file is a bot by its name.
    (_, train, _), (_, load, shown) = section_scripts((TRAINING,))
    for written, small in SMALL:
        assert written in train, f"docs/train-a-bot.md no longer holds {written!r}"
        train = train.replace(written, small)
    done = subprocess.run([sys.executable, "-I", "-c", train], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^trained in \d+ CPU-seconds$", done.stdout, re.M), done.stdout
    assert re.search(r"^against 3 cautious bots: [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\]$", done.stdout, re.M)
    assert (tmp_path / "agent.npz").is_file()
    loaded = subprocess.run([sys.executable, "-I", "-c", load], capture_output=True, text=True, cwd=tmp_path)
    assert loaded.returncode == 0 and loaded.stdout.splitlines() == shown, loaded.stdout + loaded.stderr


@pytest.mark.deep  # the page's training as written: about three CPU-minutes
def test_the_trained_agent_beats_the_cautious_bots_as_the_page_says(tmp_path: Path) -> None:
    run_sections((TRAINING,), tmp_path)


def test_gymnasium_make_finds_the_environment_in_a_fresh_interpreter() -> None:
    """``gymnasium.make("tamalou/Tamalou-v0")`` with nothing of tamalou imported first (the ``.pth`` hook that
    ``_tamalou_gymnasium`` installs, or the ``gymnasium.envs`` entry point of older Gymnasium releases)."""
    code = (
        "import sys, gymnasium\n"
        "assert 'tamalou' not in sys.modules\n"
        "env = gymnasium.make('tamalou/Tamalou-v0', variant='cabo', players=3)\n"
        "obs, info = env.reset(seed=1)\n"
        "print(obs.shape, env.unwrapped.variant.name)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "cabo"


def test_render_mode_none_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a render mode, nothing is printed, by the environment or by Gymnasium's checker through it; "ansi"
    returns the table, as words; "human" prints it."""
    env = gymnasium.make(ENV_ID, variant="french", players=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    env.reset(seed=3)
    for _ in range(5):
        mask = env.unwrapped.action_masks()
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.unwrapped.render() is None
    assert capsys.readouterr().out == ""
    ansi = TamalouGymEnv("french", players=2, render_mode="ansi")
    ansi.reset(seed=3)
    assert "P0" in (ansi.render() or "")
    human = TamalouGymEnv("french", players=2, render_mode="human")
    human.reset(seed=3)
    human.render()
    assert "P0" in capsys.readouterr().out
