"""The Skyjo-like game of ``benchmarks/search_grid.py``, written as an outside author would (public names only): a grid
of face-down cards, a full column of one rank cancels (its cards count 0), and a player whose cards are all face up
ends the round after one last turn for the others. The columns are told to the bots by ``place_worth`` (the bots
contract), and which card to turn up by ``hint``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import tamalou
from tamalou import Action, CardWorth, Event, Round, SeatView, Tally, TieBreak, Variant


class SkyjoGrid(tamalou.Mechanic):
    name = "skyjo_grid"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        grid = variant.rules.deal.grid
        assert grid is not None
        self.rows, self.columns = grid

    def turn_ending(self, g: Round, events: list[Event]) -> bool:
        p = g.current_player
        if not g.face_down(p):  # all face up: every other player has one last turn
            g.begin_last_lap(p, "out", events)
        return False

    def place_worth(self, view: SeatView, slot: int, card: str | None, worth: CardWorth) -> float | None:
        if card is None:
            return None
        mine = {s.slot: s for s in view.hands[view.player]}
        column = [slot % self.columns + r * self.columns for r in range(self.rows)]
        others = [mine.get(s) for s in column if s != slot]
        if any(o is None or o.card is None or o.card[:-1] != card[:-1] for o in others):
            return None  # no column of one rank completed: the card counts its value
        return -sum(worth.value(o.card) for o in others if o is not None and o.card is not None)

    def hint(self, view: SeatView, action: Action, worth: CardWorth) -> float | None:
        if not isinstance(action, tamalou.Flip):
            return None
        up = {s.slot % self.columns for s in view.hands[view.player] if s.face_up}
        return 1.0 + (action.slot % self.columns not in up)  # a card up in a column with none up yet


def scores(variant: Variant, tally: Tally) -> list[int]:
    grid = variant.rules.deal.grid
    assert grid is not None
    rows, columns = grid
    out = []
    for total, layout in zip(tally.totals, tally.layouts, strict=True):
        for c in range(columns):
            cells = [layout[c + r * columns] if c + r * columns < len(layout) else None for r in range(rows)]
            texts = [x for x in cells if x is not None]
            if len(texts) == rows and len({x[:-1] for x in texts}) == 1:
                total -= sum(tamalou.card_value(variant, x) for x in texts)
        out.append(total)
    return out


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int]:
    return scores(variant, tally)


@tamalou.hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]]:
    return tamalou.rank_by_total(replace(tally, totals=tuple(scores(variant, tally))), tiebreaks)


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [SkyjoGrid]
