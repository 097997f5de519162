"""Random playout benchmark: 4-player French Tamalou through the public API.

Each step lists the current player's legal actions (out-of-turn matches of that player included)
and picks one uniformly, except that an offered ``call`` is taken with probability CALL_P (and
otherwise left out of the pick). Prints actions/s and games/s.

    python benchmarks/random_playout.py [GAMES] [--variant NAME] [--players N] [--reference SCRIPT]

With ``--reference PATH/TO/ref_french.py`` (a hand-written floor kept outside this repository) the
reference script is run right after, in its own process on the same machine, and the ratio of the two
actions/s figures is printed.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time

import tamalou
from tamalou import Call

CALL_P = 0.05


def play(variant: tamalou.Variant, players: int, seed: int, rng: random.Random) -> int:
    game = tamalou.new_game(variant, players=players, seed=seed)
    steps = 0
    legal = game.legal_actions
    apply = game.apply
    while game.phase != "over":
        actions = legal(game.current_player)
        calls = [a for a in actions if type(a) is Call]
        if calls:
            if rng.random() < CALL_P or len(calls) == len(actions):
                action = calls[0]
            else:
                action = rng.choice([a for a in actions if type(a) is not Call])
        else:
            action = rng.choice(actions)
        apply(action)
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=2000)
    parser.add_argument("--variant", default="french")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--reference", help="a reference playout script to run back to back (prints actions/s)")
    parser.add_argument("--reference-games", type=int, default=20000)
    args = parser.parse_args()
    variant = tamalou.load_variant(args.variant)
    rng = random.Random(1)
    play(variant, args.players, 0, rng)  # warm the rulebook cache
    start = time.perf_counter()
    actions = 0
    for i in range(args.games):
        actions += play(variant, args.players, i, rng)
    elapsed = time.perf_counter() - start
    rate = actions / elapsed
    print(
        f"tamalou {args.variant}: {args.games} games, {actions} actions, {args.games / elapsed:.0f} games/s, "
        f"{rate:.0f} actions/s, {actions / args.games:.1f} actions/game"
    )
    if args.reference:
        out = subprocess.run(
            [sys.executable, args.reference, str(args.reference_games)], capture_output=True, text=True, check=True
        ).stdout.strip()
        print(out)
        found = re.search(r"([0-9.]+) actions/s", out)
        if found:
            print(f"ratio: {100 * rate / float(found.group(1)):.1f} % of the reference's actions/s")


if __name__ == "__main__":
    main()
