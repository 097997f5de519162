"""Play one complete, seeded game of French Tamalou between random players, printing what happens.

    python examples/quickstart.py [SEED] [PLAYERS]

The log is the referee's (every card shown); the end shows what seat 0 was allowed to see.
"""

from __future__ import annotations

import random
import sys

import tamalou


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    variant = tamalou.load_variant("french")
    game = tamalou.new_game(variant, players=players, seed=seed)
    chooser = random.Random(seed)
    print(f"{variant.title}: {players} players, seed {seed}")
    print(f"player {game.current_player} starts; the discard shows {game.view(0).discard_top}")
    while not game.is_over:
        # Random players: now and then someone tries a match on the card just thrown (anyone may,
        # out of turn); otherwise the player to move picks one of its moves at random, and calls
        # Tamalou one time in ten when the call is offered.
        matcher = chooser.randrange(players)
        matches = [a for a in game.legal_actions(matcher) if isinstance(a, tamalou.MatchAction)]
        if matches and chooser.random() < 0.05:
            action: tamalou.Action = chooser.choice(matches)
        else:
            moves = [a for a in game.legal_actions(game.current_player) if not isinstance(a, tamalou.MatchAction)]
            calls = [a for a in moves if isinstance(a, tamalou.Call)]
            if calls and (len(calls) == len(moves) or chooser.random() < 0.1):
                action = calls[0]
            else:
                action = chooser.choice([a for a in moves if not isinstance(a, tamalou.Call)])
        for event in game.apply(action):
            print("  " + event.describe())
    result = game.result()
    print()
    for p in range(players):
        marks = (" (called)" if p == result.caller else "") + (" WINS" if p in result.winners else "")
        print(f"player {p}: {' '.join(c or '--' for c in game.layout(p))} = {result.totals[p]}{marks}")
    print(f"ranking: {result.ranking}; {game.turn} turns, {len(game.actions)} actions")


if __name__ == "__main__":
    main()
