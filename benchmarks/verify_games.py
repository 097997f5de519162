"""How fast ``tamalou verify`` checks games: every invariant at every step, in this process (one worker).

    python benchmarks/verify_games.py                       # 20 games of french, cabo and kaboo
    python benchmarks/verify_games.py golf-6 --games 40     # any registered ruleset (an installed package's too)
    python benchmarks/verify_games.py french --profile 25   # and the 25 functions that take the most time

Each line gives the games and actions checked per second of CPU time (a machine shared with other work slows
the wall clock, less the process's CPU time). A game of ``verify`` costs far more than a game played: at each
step it exchanges cards a seat does not know and compares views, round-trips snapshots and replays; what one of
its steps costs is what this measures.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import tamalou
from tamalou.verify import verify


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", default=["french", "cabo", "kaboo"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--profile", type=int, metavar="N", help="print the N functions of most cumulative time")
    args = parser.parse_args()
    for name in args.rulesets:
        variant = tamalou.load_variant(name)
        profile = cProfile.Profile() if args.profile else None
        cpu = time.process_time()
        if profile is not None:
            report = profile.runcall(verify, variant, games=args.games, workers=1)
        else:
            report = verify(variant, games=args.games, workers=1)
        cpu = time.process_time() - cpu
        print(
            f"{name}: {args.games} games, {report.actions} actions, {cpu:.1f} s of CPU, {args.games / cpu:.2f} "
            f"games/s, {report.actions / cpu:.0f} actions/s, {len(report.failures)} failure(s)"
        )
        if profile is not None:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
