"""The Cambia circuit (``variants/cambia-circuit.toml``): a match of a fixed number of rounds (a
multiple of 4, ``rules.rounds.count_multiple``), scored with the match hooks.

- **Placement bonuses** (``tamalou_match_adjust``): after each round, by the round's card totals, the
  best placed get a bonus taken off their cumulative total: with 2 players 1st −3; with 3–4 players 1st
  −5, 2nd −2; with 5 or more 1st −5, 2nd −2, 3rd −1. The caller wins ties for the bonus (placed alone
  before the players tied with them); tied non-callers share a place and each get its bonus, and the
  next player's place counts them all (two tied firsts, then third: "1, 1, 3").
- **The first player moves one seat left each round** (``tamalou_round_first_player``): left is the
  direction of play, the next seat.
- **The winner** (``tamalou_match_rank``): lowest cumulative total (bonuses in); ties broken by the
  lowest cumulative total before bonuses, then by the lowest single-round total; players equal on all
  three share the place.
"""

from __future__ import annotations

from ..hookspecs import MatchTally, hookimpl
from ..schema import Variant
from ..views import Result
from .defaults import places_by_key


def bonuses(players: int) -> tuple[int, ...]:
    """The bonus of the 1st, 2nd, 3rd... place of a round with this many players."""
    if players <= 2:
        return (3,)
    if players <= 4:
        return (5, 2)
    return (5, 2, 1)


def placements(totals: list[int], caller: int | None) -> list[int]:
    """Each player's place in a round (0 for the first): by total, the caller first among equal
    totals; players equal otherwise share a place, and the next place counts them all."""
    key = [(t, 0 if p == caller else 1) for p, t in enumerate(totals)]
    return [sum(1 for q in range(len(totals)) if key[q] < key[p]) for p in range(len(totals))]


@hookimpl
def tamalou_match_adjust(variant: Variant, match: MatchTally, result: Result) -> list[int] | None:
    """The placement bonuses of the round just scored, subtracted from the cumulative totals."""
    table = bonuses(match.players)
    places = placements(list(result.totals), result.caller)
    return [-table[place] if place < len(table) else 0 for place in places]


@hookimpl
def tamalou_round_first_player(variant: Variant, match: MatchTally) -> int | None:
    """One seat left (the next seat in the order of play) of the previous round's first player."""
    return (match.first_players[-1] + 1) % match.players


@hookimpl
def tamalou_match_rank(variant: Variant, match: MatchTally) -> list[list[int]] | None:
    """Lowest cumulative total; then lowest total before bonuses; then lowest single-round total."""
    totals, raw = match.totals(), match.raw_totals()
    best = [min((r[p] for r in match.scores), default=0) for p in range(match.players)]
    return places_by_key({p: (totals[p], raw[p], best[p]) for p in range(match.players)})
