"""Play one complete, seeded game of French Tamalou between random players, printing what happens.

    python examples/quickstart.py [SEED] [PLAYERS]

The log is what seat 0 is told (``event.for_player(0)``: other seats' hidden cards removed), with the
table as seat 0 sees it every few turns; at the end every card is turned up and the result drawn.
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
        turn = game.turn
        for event in game.apply(action):
            print("  " + event.for_player(0).describe())
        if game.turn != turn and game.turn % 5 == 0 and not game.is_over:
            print(repr(game.view(0)))  # the table as seat 0 sees it: ?? for what seat 0 does not know
    print()
    print(repr(game.view(0)))  # the round is over: every card is shown, then the result
    print(f"{game.turn} turns, {len(game.actions)} actions")


if __name__ == "__main__":
    main()
