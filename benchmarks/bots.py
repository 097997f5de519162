"""Bots benchmark: games per second of 4-player French played out by four of the same built-in bot.

Each game is dealt with ``tamalou.new_game(variant, players=4, seed=i)`` and played to its end with
``tamalou.bots.play_game`` by ``make_bot(name, seed)`` bots (one per seat, seeds ``4 * i + seat``): every
step lists the legal actions of the seats that may act, builds a view for each bot that asks for one
(``needs_view``, ``may_match``), asks the bot and applies its answer. The games are the same from run to
run (seeded bots), so two runs measure the same work.

    python benchmarks/bots.py [GAMES] [--variant NAME] [--players N] [--bots NAME,NAME...]

Output, one line per bot: ``<bot>: <games> games in <s> s: <number> games/s, <number> actions/s
(<number> actions per game)``.
"""

from __future__ import annotations

import argparse
import time

import tamalou
from tamalou.bots import BUILTIN_BOTS, make_bot, play_game


def measure(variant: tamalou.Variant, players: int, bot: str, games: int) -> tuple[float, int]:
    """Seconds to play ``games`` games, and the actions they took."""
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = tamalou.new_game(variant, players=players, seed=seed)
        play_game(game, [make_bot(bot, players * seed + p) for p in range(players)])
        actions += len(game.actions)
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1000)
    parser.add_argument("--variant", default="french")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default=",".join(BUILTIN_BOTS), help="bot names, comma-separated")
    args = parser.parse_args()
    variant = tamalou.load_variant(args.variant)
    for bot in args.bots.split(","):
        measure(variant, args.players, bot, max(1, args.games // 20))  # warm-up: imports, caches
        seconds, actions = measure(variant, args.players, bot, args.games)
        print(
            f"{bot}: {args.games} games in {seconds:.2f} s: {args.games / seconds:.0f} games/s, "
            f"{actions / seconds:.0f} actions/s ({actions / args.games:.1f} actions per game)"
        )


if __name__ == "__main__":
    main()
