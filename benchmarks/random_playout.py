"""Random playout benchmark: 4-player French Tamalou through the public API, against the project's floor.

Each step lists the current player's legal actions (out-of-turn matches of that player included)
and picks one uniformly, except that an offered ``call`` is taken with probability CALL_P (and
otherwise left out of the pick). Prints actions/s and games/s.

    python benchmarks/random_playout.py [GAMES] [--variant NAME] [--players N] [--no-floor]
                                        [--reference SCRIPT] [--reference-games N]

Then, unless ``--no-floor``, ``benchmarks/floor_french.py`` (the project's own floor: the same game and the
same random policy, hand-written in plain Python without tamalou) plays the same number of games in its
own process on the same machine, right after, and the ratio of the two actions/s figures is printed. The
floor plays 4-player French only: with another variant or player count it is skipped.

With ``--reference SCRIPT``, another playout script is run the same way (with GAMES, or
``--reference-games``, as its only argument; it must print ``<number> actions/s``) and the ratio to it
is printed too.

Output, one line each: ``tamalou <variant>: ... <number> actions/s ...``, then ``floor_french: ...``
and ``ratio: <number> % of the floor's actions/s``, then the reference's line and
``ratio: <number> % of the reference's actions/s``.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import tamalou
from tamalou import Call

CALL_P = 0.05
FLOOR = Path(__file__).resolve().parent / "floor_french.py"


def play(variant: tamalou.Variant, players: int, seed: int, rng: random.Random) -> int:
    """One game; returns its number of actions.

    The policy of the module's docstring, drawn in an order that costs little per step: a uniform pick among
    the listed actions; then, with probability CALL_P, the offered call instead if there is one; otherwise,
    if the pick fell on a call and something else is listed, picks again until it does not (a uniform pick
    among the others). That is the same distribution as splitting the calls from the others at every step,
    without building those two lists at every step.
    """
    game = tamalou.new_game(variant, players=players, seed=seed)
    steps = 0
    legal = game.legal_actions
    apply = game.apply
    rand = rng.random
    while game.phase != "over":
        actions = legal(game.current_player)
        action = actions[int(rand() * len(actions))]
        if rand() < CALL_P:
            for a in actions:
                if type(a) is Call:
                    action = a  # (no call offered: the uniform pick stands)
                    break
        elif type(action) is Call and any(type(a) is not Call for a in actions):
            while type(action) is Call:
                action = actions[int(rand() * len(actions))]
        apply(action)
        steps += 1
    return steps


def run_script(script: str | Path, games: int) -> float | None:
    """Run a playout script in its own process, print its output, and return its actions/s (``None``
    if it printed none)."""
    out = subprocess.run([sys.executable, str(script), str(games)], capture_output=True, text=True, check=True)
    text = out.stdout.strip()
    print(text)
    found = re.search(r"([0-9.]+) actions/s", text)
    return float(found.group(1)) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=2000)
    parser.add_argument("--variant", default="french")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-floor", action="store_true", help="do not run benchmarks/floor_french.py after")
    parser.add_argument("--reference", help="another playout script to run back to back (it prints actions/s)")
    parser.add_argument("--reference-games", type=int, help="games for the reference script (default: GAMES)")
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
    if not args.no_floor:
        if variant.name == "french" and args.players == 4:
            floor = run_script(FLOOR, args.games)
            if floor:
                print(f"ratio: {100 * rate / floor:.1f} % of the floor's actions/s")
        else:
            print("floor_french: skipped (it plays 4-player French only)")
    if args.reference:
        games = args.games if args.reference_games is None else args.reference_games
        reference = run_script(args.reference, games)
        if reference:
            print(f"ratio: {100 * rate / reference:.1f} % of the reference's actions/s")


if __name__ == "__main__":
    main()
