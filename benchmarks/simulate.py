"""How fast ``tamalou.simulate`` plays: random bots, 4-player French, on 1 worker then 2; then every
built-in ruleset on the inline backend, and its speed next to French's.

    python benchmarks/simulate.py                    # 20 000 games, then 2 000 per ruleset
    python benchmarks/simulate.py 5000 --per-ruleset 500
    python benchmarks/simulate.py --no-rulesets
    python benchmarks/simulate.py --no-french --bots greedy --per-ruleset 500

A game of a ruleset of several rounds is a whole match: its line also gives rounds per second, and the
ratio to French is taken on rounds (French is played one round a game). Each line also gives the actions
of a round and the actions per second, with that ratio to French's too: rulesets whose rounds run longer
(random players who never call right in them) play fewer rounds a second at the same speed per action.
"cpu" is the games per second of this process's CPU time (for the 2-worker run: of the workers, summed): on
a machine shared with other work it stays near what an idle core gives, when the wall-clock figure drops.
"""

from __future__ import annotations

import argparse
import time

import tamalou
from tamalou.simulation import SimulationReport, simulate


def run(
    variant: str, games: int, workers: int, backend: str = "process", bots: str = "random"
) -> tuple[SimulationReport, float]:
    cpu = time.process_time()
    report = simulate(variant, bots, games=games, seed=0, workers=workers, backend=backend)  # type: ignore[arg-type]
    return report, time.process_time() - cpu


def children_cpu() -> float:
    """CPU seconds of the finished worker processes (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=20_000, help="games for the 1- and 2-worker runs")
    parser.add_argument("--per-ruleset", type=int, default=2_000, metavar="N", help="games of each ruleset")
    parser.add_argument("--no-rulesets", action="store_true", help="only the French runs")
    parser.add_argument("--no-french", action="store_true", help="only the rulesets' table")
    parser.add_argument("--bots", default="random", help="the bots of the rulesets' table (default: random)")
    args = parser.parse_args()
    if not args.no_french:
        french_runs(args.games)
    if not args.no_rulesets:
        rulesets(args.per_ruleset, args.bots)


def french_runs(games: int) -> None:
    """4-player French on 1 worker, then on 2: games per second, the speed-up, the same statistics."""
    print(f"4-player French, random bots, {games} games")
    one, cpu = run("french", games, workers=1)
    assert one.run.workers == 1
    gps1 = one.run.games_per_second or 0.0
    print(f"  1 worker : {gps1:8,.0f} games/s ({one.run.seconds:.1f} s; cpu {games / cpu:,.0f} games/s)")
    before = children_cpu()
    two, _ = run("french", games, workers=2)
    gps2 = two.run.games_per_second or 0.0
    spent = children_cpu() - before
    cpu_note = f"; the workers' cpu {games / spent:,.0f} games/s" if spent > 0 else ""
    print(f"  2 workers: {gps2:8,.0f} games/s ({two.run.seconds:.1f} s, the pool's start included{cpu_note})")
    print(f"  speed-up : {gps2 / gps1:.2f}x")
    assert one.statistics() == two.statistics(), "the workers changed the statistics"


def rulesets(n: int, bots: str) -> None:
    """Every built-in ruleset, inline: games and rounds per second, actions per round and per second, and
    both speeds next to French's (a ruleset whose rounds are longer plays fewer of them per second at the
    same speed per action)."""
    print(f"\nEvery built-in ruleset, inline, {bots} bots, {n} games (4 players, or the nearest count allowed)")
    print(
        f"  {'ruleset':<18} {'form':<7} {'games/s':>9} {'rounds/s':>9} {'vs French':>10} "
        f"{'actions/round':>14} {'actions/s':>10} {'vs French':>10}"
    )
    french: tuple[float, float] | None = None
    for name in ["french", *(v for v in tamalou.variant_names() if v != "french")]:
        report, _ = run(name, n, workers=1, backend="inline", bots=bots)
        rounds_per_second = report.rounds.rounds / report.run.seconds
        actions = report.rounds.actions.mean or 0.0
        actions_per_second = rounds_per_second * actions
        if french is None:
            french = (rounds_per_second, actions_per_second)
        print(
            f"  {name:<18} {report.form:<7} {report.run.games_per_second or 0:9,.0f} {rounds_per_second:9,.0f} "
            f"{rounds_per_second / french[0]:9.2f}x {actions:14.1f} {actions_per_second:10,.0f} "
            f"{actions_per_second / french[1]:9.2f}x"
        )


if __name__ == "__main__":
    main()
