"""What ``Match.to_json()`` costs after each action of a long match, as a server that saves it pays.

A match of several rounds is played by greedy bots (``tamalou.play_game``, one round after another),
then replayed action by action, and ``match.to_json()`` is timed after every action (and after each
round is scored), with ``match.game.to_json()`` (the round in play alone) timed at the same points for
comparison. Two matches:

- ``uploaded``: the ``multi-round`` rules with ``count = 10``, given whole (``variant_from_dict``), as
  rules a server receives as text are: the snapshot embeds the whole variant;
- ``registered``: ``cambia-circuit``, a registered ruleset of 8 rounds: the snapshot names it.

    python benchmarks/match_snapshot.py [--players N] [--seed S] [--repeat R]

Each line: the match, its rounds and actions, then the mean time of ``match.to_json()`` per action, its
time at the match's last action, the snapshot's size there, and the same times of ``game.to_json()``.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import tamalou
from tamalou.bots import make_bot
from tamalou.play import play_game


def ten_rounds() -> tamalou.Variant:
    data = tamalou.load_variant("multi-round").model_dump(mode="json")
    data["name"] = "ten-rounds"
    data["aliases"] = []
    data["rules"]["rounds"]["count"] = 10
    return tamalou.variant_from_dict(data)


def played(variant: tamalou.Variant, players: int, seed: int) -> tamalou.Match:
    m = tamalou.new_match(variant, players, seed=seed)
    while True:
        bots = [make_bot("greedy", seed=seed * 100 + 10 * m.round + p) for p in range(players)]
        play_game(m.game, bots)
        m.next_round()
        if m.is_over:
            return m


def clock(f: Callable[[], object], repeat: int) -> float:
    """The best of ``repeat`` timings of ``f()``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def measure(label: str, variant: tamalou.Variant, players: int, seed: int, repeat: int) -> None:
    done = played(variant, players, seed)
    m = tamalou.new_match(variant, players, seed=seed)
    match_times: list[float] = []
    game_times: list[float] = []
    gc.disable()
    try:
        for k, actions in enumerate(done.actions):
            if k > 0:
                m.next_round()
                match_times.append(clock(m.to_json, repeat))
                game_times.append(clock(m.game.to_json, repeat))
            for a in actions:
                m.game.apply(a)
                match_times.append(clock(m.to_json, repeat))
                game_times.append(clock(m.game.to_json, repeat))
    finally:
        gc.enable()
    m.next_round()
    assert m.to_json() == done.to_json()
    n = sum(len(r) for r in done.actions)
    mean = sum(match_times) / len(match_times)
    print(
        f"{label}: {len(done.actions)} rounds, {n} actions; match.to_json(): mean {mean * 1e6:.0f} µs per action, "
        f"{match_times[-1] * 1e6:.0f} µs at the last ({len(done.to_json()) / 1000:.1f} KB); "
        f"game.to_json(): mean {sum(game_times) / len(game_times) * 1e6:.0f} µs, "
        f"{game_times[-1] * 1e6:.0f} µs at the last"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="timings of each call (the best is kept)")
    args = parser.parse_args()
    measure("uploaded (multi-round, 10 rounds)", ten_rounds(), args.players, args.seed, args.repeat)
    measure("registered (cambia-circuit)", tamalou.load_variant("cambia-circuit"), args.players, args.seed, args.repeat)


if __name__ == "__main__":
    main()
