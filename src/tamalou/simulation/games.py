"""The games of a run: their seeds (``game_seed``, ``bot_seed``), each game played and counted into a tally
(what every backend runs, in a worker or here; ``tamalou.errors.SimulationError`` when one fails)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.game import round_of
from ..engine.round import new_round
from ..errors import SimulationError
from ..events import Event
from ..match import new_match
from ..play import BotLike, play_out
from ..schema import Variant
from .tally import Tally, count_value

# ----------------------------------------------------------------------------- seeds


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: the first 53 bits of a BLAKE2b hash of both
    (stable across versions, platforms and processes; an integer JSON keeps exactly)."""
    digest = hashlib.blake2b(f"tamalou-simulate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 11


def bot_seed(game_seed: int, seat: int, round: int | None = None) -> int:
    """The seed of the bot of ``seat`` in the game seeded ``game_seed`` (in its round ``round``, for a
    match): the seeds ``tamalou play --seed`` gives its bots."""
    base = game_seed if round is None else game_seed * 1000 + round
    return base * 64 + seat


# ----------------------------------------------------------------------------- the games


def _round(tally: Tally, game: Any, bots: list[BotLike]) -> None:
    """Play one round out and count it."""
    events: list[Event] = []
    last_turn = game.turn
    play_out(game, bots, events.extend)
    round_totals, winners, ranking, _, round_scores = game.judged()  # (the result's lists, no pydantic model)
    counted = tally.events
    for e in events:
        t = e.type
        if t == "turn":
            last_turn = e.data["turn"]
        else:
            seats = counted.get(t)
            if seats is not None:
                p = e.data.get("player")
                if type(p) is int:
                    seats[p] += 1
    tally.rounds += 1
    count_value(tally.turns, last_turn + 1)
    count_value(tally.actions, len(game.actions))
    reasons = tally.reasons
    reasons[game.reason] = reasons.get(game.reason, 0) + 1
    if not winners:
        tally.no_winner += 1
    wins = tally.wins
    for p in winners:
        wins[p] += 1
    if game.first_turn_player in winners:
        tally.first_wins += 1
    places = tally.places
    ahead = 0
    for group in ranking:
        for p in group:
            places[p][ahead] += 1
        ahead += len(group)
    totals, scores = tally.totals, tally.scores
    for p, v in enumerate(round_totals):
        h = totals[p]
        h[v] = h.get(v, 0) + 1
    for p, v in enumerate(round_scores):
        h = scores[p]
        h[v] = h.get(v, 0) + 1
    caller = game.caller
    if caller is not None:
        tally.calls[caller] += 1
        if caller in winners:
            tally.calls_won[caller] += 1
    ender = game.last_lap
    if ender is not None:
        tally.last_laps[ender] += 1
        if ender in winners:
            tally.last_laps_won[ender] += 1


def run_chunk(
    variant: Variant,
    factories: Sequence[Callable[[int], BotLike]],
    players: int,
    seed: int,
    start: int,
    stop: int,
) -> Tally:
    """Play games ``start`` to ``stop - 1`` of the run and count them."""
    tally = Tally(players)
    seats = [factories[p % len(factories)] for p in range(players)]
    is_match = variant.rules.rounds.form != "single"
    for i in range(start, stop):
        gs = game_seed(seed, i)
        try:
            if is_match:
                m = new_match(variant, players, seed=gs)
                while not m.is_over:
                    r = m.round
                    _round(tally, round_of(m.game), [make(bot_seed(gs, p, r)) for p, make in enumerate(seats)])
                    m.next_round()
                result = m.result()
                tally.matches += 1
                count_value(tally.match_rounds, len(result.rounds))
                for p in result.winners:
                    tally.match_wins[p] += 1
                ahead = 0
                for group in result.ranking:
                    for p in group:
                        tally.match_places[p][ahead] += 1
                    ahead += len(group)
                for p, v in enumerate(result.totals):
                    count_value(tally.match_totals[p], v)
            else:
                game = new_round(variant, players, seed=gs)
                _round(tally, game, [make(bot_seed(gs, p)) for p, make in enumerate(seats)])
        except Exception as exc:
            raise SimulationError(f"game {i} (seed {gs}): {type(exc).__name__}: {exc}") from exc
        tally.games += 1
    return tally
