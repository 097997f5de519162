"""ISMCTS time benchmark: what a searched decision costs, by ruleset, and what one move of a search costs.

For each ruleset, ``--games`` four-player rounds (game ``i`` dealt with ``game_seed(seed, i)``, the seeds of
``tamalou simulate``) seat one ``ISMCTSBot`` (seeded ``bot_seed(G, seat)``, at seat ``i % 4``) against three
``GreedyBot``. Every decision the search bot searched is timed (its ``act`` call, the determinization
included); the moves its samples played are its ``last_moves``. Timed rulesets are played one second a move.

    python benchmarks/ismcts_time.py [RULESET ...] [--games N] [--iterations K] [--budget M | --no-budget]

Prints, per ruleset: the searched decisions, their mean, 90th percentile and slowest time in milliseconds,
the mean moves and iterations a decision played, and the microseconds a move cost (all the decisions' time
over all their moves). ``tamalou.bots.ismcts.BUDGET`` is chosen from the last column: the dearest ruleset's
cost of a move times the budget keeps a decision near 0.15 s alone on the machine. The games are the same
from run to run; the times are the machine's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import tamalou
from tamalou.bots import GreedyBot, play_game
from tamalou.bots.ismcts import BUDGET, ISMCTSBot
from tamalou.simulation import bot_seed, game_seed
from tamalou.views import SeatView

RULESETS = ["french", "cabo", "kaboo", "dutch", "cambia", "tamalou-fun"]


class TimedSearch:
    """An ``ISMCTSBot`` whose searched decisions are timed, with the moves each played."""

    def __init__(self, bot: ISMCTSBot) -> None:
        self.bot = bot
        self.decisions: list[tuple[float, int, int]] = []  # (seconds, moves, iterations)

    def setup(self, variant: tamalou.Variant, player: int) -> None:
        self.bot.setup(variant, player)

    def act(self, view: SeatView, legal: list[tamalou.Action]) -> tamalou.Action | None:
        before = self.bot.searched
        start = time.perf_counter()
        action = self.bot.act(view, legal)
        seconds = time.perf_counter() - start
        if self.bot.searched > before:
            self.decisions.append((seconds, self.bot.last_moves, self.bot.last_iterations))
        return action


def measure(ruleset: str, games: int, seed: int, bot_options: dict[str, Any]) -> str:
    decisions: list[tuple[float, int, int]] = []
    for i in range(games):
        g = game_seed(seed, i)
        game = tamalou.new_game(ruleset, players=4, seed=g)
        seats: list[Any] = [GreedyBot(bot_seed(g, p)) for p in range(4)]
        timed = TimedSearch(ISMCTSBot(bot_seed(g, i % 4), **bot_options))
        seats[i % 4] = timed
        play_game(game, seats)
        decisions += timed.decisions
    times = sorted(s for s, _, _ in decisions)
    moves = [m for _, m, _ in decisions]
    iterations = [k for _, _, k in decisions]
    return (
        f"{ruleset:12} {len(times):5} {1000 * statistics.mean(times):8.0f} {1000 * times[int(0.9 * len(times))]:6.0f} "
        f"{1000 * times[-1]:8.0f} {statistics.mean(moves):8.0f} {statistics.mean(iterations):6.0f} "
        f"{1e6 * sum(times) / max(1, sum(moves)):8.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=RULESETS)
    parser.add_argument("--games", type=int, default=8, help="rounds per ruleset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--budget", type=int, default=BUDGET, help="moves a decision may play")
    parser.add_argument("--no-budget", action="store_true", help="no budget of moves: the iterations alone")
    args = parser.parse_args()
    options: dict[str, Any] = {"iterations": args.iterations, "budget": None if args.no_budget else args.budget}
    print(f"ISMCTSBot({options}) against 3 GreedyBot, 4 players, {args.games} rounds a ruleset")
    head = ("dec.", 5), ("mean ms", 8), ("p90", 6), ("slowest", 8), ("moves", 8), ("iter.", 6), ("us/move", 8)
    print(f"{'ruleset':12} " + " ".join(f"{name:>{width}}" for name, width in head))
    for ruleset in args.rulesets:
        print(measure(ruleset, args.games, args.seed, options), flush=True)


if __name__ == "__main__":
    main()
