"""Machine instructions per game of ``tamalou.simulate``, counted by Valgrind: a figure that does not move
with the host's load, for comparing two versions of the code on a noisy machine.

    python benchmarks/instructions.py                          # 4-player French, random bots, 300 games
    python benchmarks/instructions.py 100 --variant tamalou-fun --bots greedy
    python benchmarks/instructions.py --src /tmp/old/src        # another tree's package (an older commit)
    python benchmarks/instructions.py 300 --public              # random_playout.py's games: the public API

Each figure comes from two runs under ``valgrind --tool=cachegrind --cache-sim=no`` (about 50 times slower
than a plain run): both load the ruleset and play the same warm-up games, and one then plays GAMES games
inline; the difference, divided by GAMES, is the cost of a game, without the start of Python, the imports
and the first use of the ruleset. Instructions are not time (a cache miss costs more than an addition),
but a change that saves instructions in the same code saves time, and the count is the same from one run
to the next. With ``--public`` the games are ``random_playout.py``'s (``play``: the public ``Game``, a random
pick among the listed actions, no bots), what a program that holds games pays; ``--bots`` is then unused.
``--src DIR`` runs the package in DIR instead of the installed one: with
``git archive REV src variants | tar -x -C /tmp/old``, ``--src /tmp/old/src`` measures commit REV (with
its own rulesets, found beside its ``src``). Needs Valgrind (``apt install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: What the measured process runs: the warm-up, then ``games`` games (none for the baseline run).
PLAY = """
import sys
from tamalou.simulation import simulate
variant, bots, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
simulate(variant, bots, games=20, seed=1, workers=1, backend="inline")
if games:
    simulate(variant, bots, games=games, seed=0, workers=1, backend="inline")
"""

#: ``--public``: the same, with ``random_playout.py``'s games (the public API), imported from this folder.
PLAY_PUBLIC = """
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("playout", sys.argv[2])
playout = importlib.util.module_from_spec(spec)
spec.loader.exec_module(playout)
import tamalou
variant, games = tamalou.load_variant(sys.argv[1]), int(sys.argv[3])
rng = random.Random(1)
for seed in range(20):
    playout.play(variant, 4, seed, rng)
for seed in range(games):
    playout.play(variant, 4, 1000 + seed, rng)
"""
PLAYOUT = Path(__file__).resolve().parent / "random_playout.py"


def instructions(valgrind: str, variant: str, bots: str, games: int, src: Path | None, public: bool = False) -> int:
    """The instructions Valgrind counts for one run of ``PLAY`` (``PLAY_PUBLIC`` if ``public``)."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # the same dictionaries, run after run
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "cachegrind.out"
        done = subprocess.run(
            [
                *(valgrind, "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"),
                *(sys.executable, "-c", PLAY_PUBLIC if public else PLAY, variant, str(PLAYOUT) if public else bots),
                str(games),
            ],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    if done.returncode != 0:
        raise SystemExit(f"the measured run failed:\n{done.stderr[-3000:]}")
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in Valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=300, help="games measured (default 300)")
    parser.add_argument("--variant", default="french", help="the ruleset (default french)")
    parser.add_argument("--bots", default="random", help="the bots, as simulate takes them (default random)")
    parser.add_argument("--public", action="store_true", help="random_playout.py's games (4 players), not simulate's")
    parser.add_argument("--src", type=Path, help="run the sources of this folder instead of the installed package")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("games must be at least 1")
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("this benchmark counts instructions with Valgrind, which is not installed here")
    if args.src is not None and not (args.src / "tamalou" / "__init__.py").is_file():
        parser.error(f"{args.src} holds no tamalou package (give the folder that holds tamalou/)")
    base = instructions(valgrind, args.variant, args.bots, 0, args.src, args.public)
    total = instructions(valgrind, args.variant, args.bots, args.games, args.src, args.public)
    per_game = (total - base) / args.games
    where = f" (sources: {args.src})" if args.src is not None else ""
    who = "random_playout.py's policy (the public API)" if args.public else f"{args.bots} bots"
    print(f"{args.variant}, {who}, {args.games} games{where}: {per_game:,.0f} instructions a game")


if __name__ == "__main__":
    main()
