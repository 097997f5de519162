"""The Golf mechanic: going out, and columns that cancel.

The plugin module every Golf ruleset names (``plugins = ["tamalou_golf.mechanic"]``): it registers one
mechanic, ``Golf``, and Golf's scoring. Everything else Golf plays is tamalou's own keys:

| key                           | golf-4         | golf-6         | golf-9         | what it says                 |
|-------------------------------|----------------|----------------|----------------|------------------------------|
| `rules.deal.grid`             | [2, 2]         | [2, 3]         | [3, 3]         | rows, columns (row by row)   |
| `rules.peek`                  | bottom row     | 2 chosen       | 3 chosen       | the opening                  |
| `rules.peek.public`           | false          | true           | true           | opening cards face up        |
| `rules.draw.placed`           | face_up        | face_up        | face_up        | a placed card lies face up   |
| `rules.draw.discard_turns_up` | false          | true           | true           | the flip                     |
| `options.golf.go_out`         | false          | true           | true           | all face up ends the round   |

golf-6-knock extends golf-6 and keeps its keys. A ruleset the mechanic cannot play is a ``VariantError`` naming
the key: one without ``rules.deal.grid`` (the columns are the grid's), one whose public opening turns up every
card (``rules.peek.count`` must leave one face down).

What the mechanic does, moment by moment (the moments of ``tamalou.Mechanic``):

- ``turn_ending``: with ``go_out``, a player whose cards are all face up at the end of their turn "goes
  out": they begin the round's last lap (tamalou's ``g.begin_last_lap``: every other player has one last
  turn, then the round ends with the reason ``"out"``; nobody is the caller, ``Result.last_lap`` names them).
- ``finished``: every full column of one rank (two cards in a grid of 2 rows, three in golf-9's 3) is said
  (event ``column_cancelled``); the cards stay where they lie.

The score is by position, through two of tamalou's hooks that read where the cards lie (``Tally.layouts``):
``tamalou_round_scores`` gives each player their total less every full column of one rank (``golf_scores``),
and ``tamalou_rank`` ranks the round by those scores (lowest first, ties sharing a place). ``Result.totals``
stay the cards' sums; ``Result.scores`` are Golf's, and a match adds them up.

Face up is tamalou's own state (``g.is_up``, ``face_up`` on each slot of a view); the mechanic keeps no state.

Bots: the built-in bots have no rule for the flip; the mechanic's hint (``hint``, tamalou's bots contract) tells
them which card to turn up: in a column with no face-up card first. A face-up card is a column that a drawn card
of its rank can cancel, so cards turned up in different columns give more chances. (The opening's choice is the
bots' own: they pick the first slots, a row, each in a column of its own.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

import tamalou
from pydantic import BaseModel, ConfigDict, Field
from tamalou import Action, Event, Flip, Tally, TieBreak

if TYPE_CHECKING:
    from tamalou import CardWorth, Round, SeatView, Variant

#: ``Result.reason`` of a round ended because a player's cards were all face up.
OUT = "out"


class GolfOptions(BaseModel):
    """The settings of a Golf ruleset: its table ``[options.golf]`` (the default: golf-6's, the usual game)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    go_out: bool = Field(
        True, description="A player whose cards are all face up ends the round: every other player plays once more."
    )


class Golf(tamalou.Mechanic):
    """Golf's rules that tamalou's keys do not say (see the module's documentation)."""

    name = "golf"
    order = 5
    title = "going out when every card is face up, and columns of one rank that count 0"
    event_texts: ClassVar[dict[str, str]] = {
        "column_cancelled": "{player}'s column of slots {slots} is one rank ({cards}): it counts 0",
    }

    options_model = GolfOptions
    options: GolfOptions  # (tamalou's Mechanic reads the table [options.golf] into it)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        grid = variant.rules.deal.grid
        if grid is None:
            raise tamalou.VariantError(
                "Golf scores the layout's columns: expected its shape, rules.deal.grid = [rows, columns]",
                key="rules.deal.grid",
            )
        #: The layout's shape (tamalou checked that rows × columns is rules.deal.cards).
        self.rows, self.columns = grid
        cards, peek = variant.rules.deal.cards, variant.rules.peek
        if peek.public and peek.mode == "choose" and peek.count >= cards:
            raise tamalou.VariantError(
                f"expected at most {cards - 1} (one of a layout's {cards} cards at least stays face down at the "
                f"opening), got {peek.count}",
                key="rules.peek.count",
            )
        if not self.options.go_out:
            self.idle.add("turn_ending")

    def face_down(self, g: Round, p: int) -> list[int]:
        """Player ``p``'s occupied slots that are face down (tamalou's ``g.face_down``)."""
        return g.face_down(p)

    def column_slots(self, column: int) -> list[int]:
        """The slots of ``column``, top row first."""
        return [column + r * self.columns for r in range(self.rows)]

    # ---------------------------------------------------------------- going out

    def turn_ending(self, g: Round, events: list[Event]) -> bool:
        p = g.current_player
        if not self.face_down(g, p):  # every other player has one last turn (nothing if someone knocked)
            g.begin_last_lap(p, OUT, events)
        return False

    # ---------------------------------------------------------------- a hint for bots

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None:
        """How good a ``flip`` is (tamalou's bots contract): 1, and 1 more when it turns a card up in a column that
        has no face-up card of the seat's yet. ``None`` for other moves."""
        if not isinstance(action, Flip):
            return None
        up = {s.slot % self.columns for s in view.hands[view.player] if s.face_up}
        return 1.0 + (action.slot % self.columns not in up)

    # ---------------------------------------------------------------- scoring

    def finished(self, g: Round, events: list[Event]) -> None:
        for p in range(g.players):
            hand = g.hands[p]
            for column in range(self.columns):
                slots = self.column_slots(column)
                if not all(g.slot_ok(p, s) for s in slots):
                    continue
                if len({g.rank[hand[s]] for s in slots}) != 1:
                    continue
                cards = [g.text[hand[s]] for s in slots]
                events.append(Event("column_cancelled", {"player": p, "slots": slots, "cards": cards}))


def golf_scores(variant: Variant, tally: Tally) -> list[int]:
    """Each player's Golf score: their cards' total, less every full column of one rank (``rules.deal.grid``: a
    column of a grid of ``rows`` x ``columns`` is the slots ``c``, ``c + columns``...). A column with an emptied
    slot, or one a layout does not reach (verify's made-up ends of rounds), is no full column."""
    grid = variant.rules.deal.grid
    assert grid is not None  # (the mechanic refuses a ruleset without one)
    rows, columns = grid
    scores = []
    for total, layout in zip(tally.totals, tally.layouts, strict=True):
        off = 0
        for column in range(columns):
            cards = [layout[s] if s < len(layout) else None for s in range(column, rows * columns, columns)]
            texts = [c for c in cards if c is not None]
            if len(texts) == rows and len({tamalou.parse_card(c).rank for c in texts}) == 1:
                off += sum(tamalou.card_value(variant, c) for c in texts)
        scores.append(total - off)
    return scores


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int]:
    """Golf's scores: the totals less the columns of one rank."""
    return golf_scores(variant, tally)


@tamalou.hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]]:
    """The round ranked by Golf's scores (lowest first; the ruleset's tie-breaks, none in Golf: ties share)."""
    return tamalou.rank_by_total(replace(tally, totals=tuple(golf_scores(variant, tally))), tiebreaks)


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Golf]
