"""The search bot on a game it was not tuned for: ``ISMCTSBot`` alone against ``GreedyBot``s, by default in the
Skyjo-like grid game of ``benchmarks/grid_game/`` (an outside author's plugin and TOML), the figures of docs/bots.md
and ``tamalou.bots.ismcts.paired``.

Game ``i`` (from ``--offset``) is dealt with ``tamalou.new_game(ruleset, players, seed=50_000 + i)``; the search bot,
seeded ``i``, sits at seat ``i % players``, a ``GreedyBot`` seeded ``1000 * i + seat`` at every other. Prints its score
(its share of the wins: 1/k for a win shared by k) with the 95 % Wilson interval, the even share, and the time a game.

    python benchmarks/search_grid.py --players 4 --games 120 --root paired
    python benchmarks/search_grid.py --players 2 --games 60 --root tree --anchor 0.05
    python benchmarks/search_grid.py french --players 2 --games 100 --root paired

The search's CPU limit (``--cpu``, 0.25 s a decision by default) makes the games depend on the machine's speed: a
decision it stops has searched less on a slower or busier machine (``--cpu none`` and a ``--budget`` of moves make the
run a function of its seeds alone).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

GRID = Path(__file__).resolve().parent / "grid_game" / "skyjo-grid.toml"


def play(ruleset: str, players: int, i: int, settings: dict[str, Any]) -> tuple[float, float]:
    """Game ``i``: the search bot's score (1, 1/k or 0) and the seconds the game took."""
    import tamalou
    from tamalou.bots import GreedyBot, play_game
    from tamalou.bots.ismcts import ISMCTSBot

    variant = tamalou.load_variant(ruleset)
    me = i % players
    seats: list[Any] = [GreedyBot(1000 * i + s) for s in range(players)]
    seats[me] = ISMCTSBot(seed=i, **settings)
    start = time.perf_counter()
    result = play_game(tamalou.new_game(variant, players=players, seed=50_000 + i), seats)
    return (0.0 if me not in result.winners else 1.0 / len(result.winners)), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("ruleset", nargs="?", default=str(GRID), help="a ruleset (default: the grid game)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--offset", type=int, default=0, help="the first game's number")
    parser.add_argument("--root", default="tree", help="ISMCTSBot(root=...): tree or paired")
    parser.add_argument("--anchor", type=float, default=None, help="ISMCTSBot(anchor=...) (default: its own)")
    parser.add_argument("--evidence", type=float, default=2.0, help="ISMCTSBot(evidence=...), for the paired root")
    parser.add_argument("--cpu", default="0.25", help="ISMCTSBot(cpu=...): seconds, or none")
    parser.add_argument("--budget", type=int, default=None, help="ISMCTSBot(budget=...) (default: its own)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    settings: dict[str, Any] = {"root": args.root, "evidence": args.evidence, "anchor": args.anchor}
    settings["cpu"] = None if args.cpu.lower() == "none" else float(args.cpu)
    if args.budget is not None:
        settings["budget"] = args.budget
    games = range(args.offset, args.offset + args.games)
    n = len(games)
    with ProcessPoolExecutor(args.workers) as pool:
        out = list(pool.map(play, [args.ruleset] * n, [args.players] * n, games, [settings] * n))
    from tamalou.simulation import Estimate

    score = sum(s for s, _ in out)
    interval = Estimate.wilson(score, len(out))
    assert interval.low is not None and interval.high is not None
    name = Path(args.ruleset).stem
    print(
        f"{name}, {args.players} players, games {games.start} to {games.stop - 1}, ISMCTSBot({settings}) against "
        f"GreedyBot: score {score / len(out):.3f} [{interval.low:.3f}, {interval.high:.3f}] (even "
        f"{1 / args.players:.3f}); {sum(t for _, t in out) / len(out):.1f} s a game"
    )


if __name__ == "__main__":
    main()
