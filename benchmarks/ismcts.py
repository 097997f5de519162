"""ISMCTS benchmark: how strong the search bots are, as win rates with 95 % Wilson intervals.

1. ``tamalou.bots.ismcts.ISMCTSBot`` against ``GreedyBot``, two-player French: game ``i`` is dealt with
   ``tamalou.new_game("french", players=2, seed=10_000 + i)`` and played with ``play_game``; the ISMCTS
   bot sits at seat ``i % 2`` (so each seat is played as often), seeded ``i``, the greedy bot seeded
   ``i`` too. A win scores 1, a round both win (a tie) 1/2.
2. OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random-rollout evaluator,
   resampling through ``resample_from_infostate`` with a seeded sampler) against OpenSpiel's uniform
   random bot, on the game ``python_tamalou`` (``tamalou.ai.openspiel``), two-player French, reward
   ``win``; the deal's chance nodes drawn with ``numpy.random.RandomState(i)``; the ISMCTS bot at seat
   ``i % 2``. Needs the ``ai`` extra; ``--no-openspiel`` skips it.

    python benchmarks/ismcts.py [--games N] [--iterations K] [--spiel-games N] [--spiel-simulations K]
                                [--workers W] [--no-openspiel]

Prints, for each match-up, the games, wins, ties and losses, the score and its 95 % Wilson interval,
and the time per game. The games are the same from run to run.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def ismcts_vs_greedy(i: int, iterations: int) -> tuple[float, float]:
    """Game ``i``: the ISMCTS seat's score (1, 1/2 or 0) and the seconds it took."""
    import tamalou
    from tamalou.bots import GreedyBot, play_game
    from tamalou.bots.ismcts import ISMCTSBot

    start = time.perf_counter()
    me = i % 2
    seats: list[Any] = [GreedyBot(i), GreedyBot(i)]
    seats[me] = ISMCTSBot(seed=i, iterations=iterations)
    result = play_game(tamalou.new_game("french", players=2, seed=10_000 + i), seats)
    score = 0.0 if me not in result.winners else 1.0 / len(result.winners)
    return score, time.perf_counter() - start


def spiel_ismcts_vs_random(i: int, simulations: int) -> tuple[float, float]:
    """Game ``i`` of OpenSpiel's ISMCTS against random play: its score and the seconds it took."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.bots import uniform_random

    from tamalou.ai import openspiel

    start = time.perf_counter()
    game = openspiel.load("french", 2, reward="win")
    me = i % 2
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(100_000 + i))
    bots: list[Any] = [
        ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(i)
        ),
        uniform_random.UniformRandomBot(1 - me, np.random.RandomState(200_000 + i)),
    ]
    sampler = pyspiel.UniformProbabilitySampler(300_000 + i, 0.0, 1.0)  # its resampling, seeded
    bots[0].set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    if me == 1:
        bots.reverse()
    chance = np.random.RandomState(i)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    winners = [p for p in range(2) if returns[p] > 0]
    score = 0.0 if me not in winners else 1.0 / len(winners)
    return score, time.perf_counter() - start


def run(name: str, work: Any, games: int, budget: int, workers: int) -> None:
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(work, range(games), [budget] * games, chunksize=4))
    else:
        results = [work(i, budget) for i in range(games)]
    wall = time.perf_counter() - start
    scores = [s for s, _ in results]
    wins = sum(1 for s in scores if s == 1.0)
    ties = sum(1 for s in scores if 0.0 < s < 1.0)
    losses = games - wins - ties
    score = sum(scores)
    from tamalou.simulation import Estimate

    interval = Estimate.wilson(score, games)  # a tie counts one half
    low, high = interval.low, interval.high
    assert low is not None and high is not None
    per_game = sum(t for _, t in results) / games
    print(
        f"{name}: {games} games, {wins} wins, {ties} ties, {losses} losses: score {score / games:.3f} "
        f"(95 % Wilson interval {low:.3f} .. {high:.3f}); {per_game:.2f} s per game, {wall:.0f} s in all"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="ISMCTSBot against GreedyBot (0: skip)")
    parser.add_argument("--iterations", type=int, default=400, help="ISMCTSBot's samples per decision")
    parser.add_argument("--spiel-games", type=int, default=300, help="OpenSpiel's ISMCTS against random play (0: skip)")
    parser.add_argument("--spiel-simulations", type=int, default=50, help="OpenSpiel ISMCTS's simulations per move")
    parser.add_argument("--workers", type=int, default=1, help="processes (each game is the same whatever the count)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel match-up")
    args = parser.parse_args()
    if args.games > 0:
        run(
            f"ISMCTSBot({args.iterations} iterations) vs GreedyBot, french, 2 players",
            ismcts_vs_greedy,
            args.games,
            args.iterations,
            args.workers,
        )
    if not args.no_openspiel and args.spiel_games > 0:
        run(
            f"OpenSpiel ISMCTS ({args.spiel_simulations} simulations) vs uniform random, french, 2 players",
            spiel_ismcts_vs_random,
            args.spiel_games,
            args.spiel_simulations,
            args.workers,
        )


if __name__ == "__main__":
    main()
