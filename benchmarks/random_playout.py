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

With ``--interleave TURNS``, the engine and the reference (or, without ``--reference``, the floor) take
turns instead: the script runs in a process of its own that imports it by its path and plays with its
``play(rng)`` function, GAMES / TURNS games a turn each, one after the other, so that a machine whose
speed drifts (a shared host) slows both alike. The ratio is taken on the whole run; each turn's ratio is
summarised (median and range).

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


#: Run in a process of its own by ``--interleave``: imports a playout script by its path (its ``main`` does not
#: run) and, for each line "N" read, plays N games with the script's ``play(rng)`` (one generator, seeded 1,
#: as the script's own ``main`` seeds it) and prints the actions and the seconds they took.
DRIVER = """
import importlib.util, random, sys, time
spec = importlib.util.spec_from_file_location("playout", sys.argv[1])
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)
rng = random.Random(1)
for line in sys.stdin:
    games, actions, start = int(line), 0, time.perf_counter()
    for _ in range(games):
        out = script.play(rng)
        actions += out[0] if isinstance(out, tuple) else out
    print(actions, time.perf_counter() - start, flush=True)
"""


def interleaved(
    variant: tamalou.Variant, players: int, script: str | Path, games: int, rounds: int, rng: random.Random
) -> tuple[float, float, list[float]]:
    """The engine and ``script`` (in its own process), ``games`` each, taken in turns of ``games // rounds``:
    on a machine whose speed drifts, both are timed through the same stretches. Returns both actions/s
    over the whole run and the ratio of each turn."""
    child = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdin is not None and child.stdout is not None
    batch = max(1, games // rounds)
    mine = [0, 0.0]
    theirs = [0, 0.0]
    ratios = []
    done = 0
    try:
        child.stdin.write("20\n")  # the script's warm-up, as the engine's below
        child.stdin.flush()
        child.stdout.readline()
        while done < games:
            n = min(batch, games - done)
            start = time.perf_counter()
            actions = sum(play(variant, players, i, rng) for i in range(done, done + n))
            seconds = time.perf_counter() - start
            child.stdin.write(f"{n}\n")
            child.stdin.flush()
            their_actions, their_seconds = child.stdout.readline().split()
            mine[0] += actions
            mine[1] += seconds
            theirs[0] += int(their_actions)
            theirs[1] += float(their_seconds)
            ratios.append((actions / seconds) / (int(their_actions) / float(their_seconds)))
            done += n
    finally:
        child.stdin.close()
        child.wait()
    return mine[0] / mine[1], theirs[0] / theirs[1], ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=2000)
    parser.add_argument("--variant", default="french")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-floor", action="store_true", help="do not run benchmarks/floor_french.py after")
    parser.add_argument("--reference", help="another playout script to run back to back (it prints actions/s)")
    parser.add_argument("--reference-games", type=int, help="games for the reference script (default: GAMES)")
    parser.add_argument(
        "--interleave",
        type=int,
        metavar="TURNS",
        help="run the reference (or, without one, the floor) in its own process in TURNS turns with the engine",
    )
    args = parser.parse_args()
    variant = tamalou.load_variant(args.variant)
    rng = random.Random(1)
    play(variant, args.players, 0, rng)  # warm the rulebook cache
    if args.interleave:
        script = args.reference or FLOOR
        mine, theirs, ratios = interleaved(variant, args.players, script, args.games, args.interleave, rng)
        ratios.sort()
        name = "the reference" if args.reference else "the floor"
        print(
            f"tamalou {args.variant}: {mine:.0f} actions/s; {name}: {theirs:.0f} actions/s, {args.games} games each "
            f"in {len(ratios)} turns"
        )
        low, median, high = (100 * ratios[k] for k in (0, len(ratios) // 2, -1))
        print(
            f"ratio: {100 * mine / theirs:.1f} % of {name}'s actions/s "
            f"(turns: median {median:.1f} %, from {low:.1f} % to {high:.1f} %)"
        )
        return
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
