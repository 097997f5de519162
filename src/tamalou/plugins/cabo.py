"""Cabo, second edition (Bezier Games, 2019): the rules ``variants/cabo.toml`` cannot say as keys.

- **The exchange of several claimed-equal cards** (action ``exchange_equal``, phase ``hold``): the
  card held is kept for two, three or four of your cards that you claim are equal. The claimed cards
  are turned face up for everyone. All equal: they go to the discard in the order claimed (so the
  discard top is the last claimed card) and the kept card takes the first claimed slot (the lowest:
  slots are listed in increasing order); the other slots stay empty. Not all equal: they stay face up
  in their slots, the kept card goes to a new slot, and you take one penalty card for each claimed
  card beyond the first whose value differs from the first's. Cards thrown so give no power (the
  built-in power trigger ``drawn_thrown`` reacts only to a card drawn from the stock and thrown at
  once). A one-card exchange is the core's ``replace``.
- **The stock running out ends the round**: a key, ``draw.stock_empty = "end_round"`` (the built-in
  mechanic ``tamalou.mechanics.stock_out``; ``Result.reason`` is ``"stock_out"``).
- **Kamikaze**: a player who ends the round with exactly two 12s and two 13s and no other card scores
  0 and every other player 50, the caller's rules aside; they are ranked first.
- **A cumulative score of exactly 100 falls back to 50**, once per player per match
  (``tamalou_match_adjust``).

"A card taken from the discard stays face up" needs no code: it was face up, everyone knows it, and
the table keeps its knowers wherever it moves (a replace, an exchange, a swap), so every seat's view
shows it to the end of the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, ClassVar

from pydantic import ConfigDict

from ..actions import Action
from ..engine.state import HOLD, NO_CARD
from ..errors import IllegalAction
from ..events import Event
from ..hookspecs import MatchTally, Tally, TieBreak, hookimpl
from ..mechanic import Mechanic, PhaseSpec
from ..schema import Variant
from ..views import Result
from .defaults import rank_by_total

if TYPE_CHECKING:
    from ..round_table import RoundTable

#: A kamikaze hand: exactly these ranks, in any order.
KAMIKAZE = ("12", "12", "13", "13")
#: What a kamikaze scores, for its player and for every other player.
KAMIKAZE_SCORES = (0, 50)
#: A cumulative score of exactly ``RESET_AT`` falls back to ``RESET_TO``, once per player per match.
RESET_AT, RESET_TO = 100, 50
#: How many cards an exchange may claim.
MIN_CLAIMED, MAX_CLAIMED = 2, 4


@dataclass(frozen=True, slots=True)
class ExchangeEqual(Action):
    """Keep the held card for own ``slots`` (2 to 4, in increasing order), claimed equal."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "exchange_equal"
    text: ClassVar[str] = "keep {held} for {my_slots}, claiming they are equal"
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid", strict=False)


# The listed exchanges of a seat and a layout's occupied slots, made once and handed out again (as the
# core's seat actions): a layout's slots change rarely, and listing is on every step of a bot.
_LISTS: dict[tuple[int, tuple[int, ...]], tuple[ExchangeEqual, ...]] = {}
_LISTS_MAX = 4096


def exchanges_for(p: int, occupied: tuple[int, ...]) -> tuple[ExchangeEqual, ...]:
    """Every exchange of ``p`` over the ``occupied`` slots: each set of 2, 3 or 4, slots increasing."""
    key = (p, occupied)
    found = _LISTS.get(key)
    if found is None:
        found = tuple(
            ExchangeEqual(p, combo)
            for k in range(MIN_CLAIMED, min(MAX_CLAIMED, len(occupied)) + 1)
            for combo in combinations(occupied, k)
        )
        if len(_LISTS) >= _LISTS_MAX:
            _LISTS.clear()
        _LISTS[key] = found
    return found


class Exchange(Mechanic):
    """The exchange of several claimed-equal cards, in phase ``hold``."""

    name = "exchange_equal"
    order = 30
    actions = (ExchangeEqual,)

    def phases(self) -> dict[str, PhaseSpec]:
        return {HOLD: PhaseSpec(self.list_exchanges, {ExchangeEqual: self.do_exchange})}

    def list_exchanges(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if p == g.current_player and g.holder == p:
            out.extend(exchanges_for(p, tuple(g.occupied(p))))

    def do_exchange(self, g: RoundTable, a: ExchangeEqual) -> list[Event]:
        p = g.turn_check(a)
        slots = a.slots
        if g.holder != p or g.held == NO_CARD:
            raise IllegalAction("you hold no card to keep", a)
        if not MIN_CLAIMED <= len(slots) <= MAX_CLAIMED:
            raise IllegalAction(f"an exchange claims {MIN_CLAIMED} to {MAX_CLAIMED} of your cards", a)
        if any(x >= y for x, y in pairwise(slots)) or not all(g.slot_ok(p, s) for s in slots):
            raise IllegalAction("an exchange names occupied slots of yours, each once, in increasing order", a)
        cards = [g.card_at(p, s) for s in slots]
        for c in cards:
            g.show(c)
        value = g.value
        right = all(g.rank[c] == g.rank[cards[0]] for c in cards)
        data = {"player": p, "slots": list(slots), "cards": [g.text[c] for c in cards], "right": right}
        events = [Event("exchanged", data)]
        if right:
            for s in slots:
                g.throw_from(p, s)
            data["slot"] = g.place_held(slots[0])
            g.thrown(cards[-1], "exchanged", events)
        else:
            data["slot"] = g.place_held()  # into a new slot
            misses = sum(1 for c in cards[1:] if value[c] != value[cards[0]])
            data["penalty_cards"] = misses
            g.penalty(p, misses, events)
            g.held_from = ""
            g.end_play(events)
        return events


@hookimpl
def tamalou_mechanics() -> list[type[Mechanic]]:
    return [Exchange]


# --------------------------------------------------------------------------------- scoring


def kamikaze(tally: Tally) -> list[int]:
    """The players whose hand is exactly two 12s and two 13s (their ranks, read from ``tally.hands``)."""
    return [p for p, hand in enumerate(tally.hands) if tuple(sorted(hand)) == KAMIKAZE]


@hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]] | None:
    """A kamikaze player is first; the others by total, with the variant's tie-breaks."""
    first = kamikaze(tally)
    if not first:
        return None
    rest = [[p for p in place if p not in first] for place in rank_by_total(tally, tiebreaks)]
    return [first, *[place for place in rest if place]]


@hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int] | None:
    """Kamikaze: 0 for its player, 50 for every other player, the caller's rules aside."""
    first = kamikaze(tally)
    if not first:
        return None  # the keys: each total, the caller 0 when lowest or tied, else total + 10
    mine, others = KAMIKAZE_SCORES
    return [mine if p in first else others for p in range(len(tally.totals))]


@hookimpl
def tamalou_match_adjust(variant: Variant, match: MatchTally, result: Result) -> list[int] | None:
    """A cumulative score of exactly 100 falls back to 50, once per player per match."""
    totals = match.totals()
    out = [0] * match.players
    for p, total in enumerate(totals):
        if total == RESET_AT and not any(a[p] for a in match.adjustments):
            out[p] = RESET_TO - RESET_AT
    return out
