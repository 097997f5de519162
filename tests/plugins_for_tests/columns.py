"""A rule by position: on a grid (``rules.deal.grid``), a full column whose cards are all of one rank counts 0;
a round's scores are the totals with such columns taken off, and the ranking is by those scores (the tie-breaks
applied, as the default ranking does). It reads where the cards lie from ``Tally.layouts``: an emptied slot
(``None``) breaks a column, a slot past the grid (a penalty card) counts as it is.
``tests/api/test_position_scoring.py`` uses it."""

from __future__ import annotations

from collections.abc import Sequence

import tamalou
from tamalou import Tally, TieBreak, Variant


def column_scores(variant: Variant, tally: Tally) -> list[int]:
    """Each player's total, less every full column of one rank."""
    grid = variant.rules.deal.grid
    assert grid is not None, "the rule is for rulesets with rules.deal.grid"
    rows, columns = grid
    scores = []
    for p, layout in enumerate(tally.layouts):
        off = 0
        for c in range(columns):
            slots = [c + r * columns for r in range(rows)]
            cards = [layout[s] if s < len(layout) else None for s in slots]
            if None not in cards and len({tamalou.parse_card(t).rank for t in cards if t}) == 1:
                off += sum(tamalou.card_value(variant, t) for t in cards if t)
        scores.append(tally.totals[p] - off)
    return scores


@tamalou.hookimpl
def tamalou_rank(variant: Variant, tally: Tally, tiebreaks: Sequence[TieBreak]) -> list[list[int]]:
    scores = column_scores(variant, tally)
    by_score = Tally(
        totals=tuple(scores),
        card_counts=tally.card_counts,
        caller=tally.caller,
        threshold=tally.threshold,
        left=tally.left,
        hands=tally.hands,
        last_lap=tally.last_lap,
        layouts=tally.layouts,
    )
    return tamalou.rank_by_total(by_score, tiebreaks)


@tamalou.hookimpl
def tamalou_round_scores(variant: Variant, tally: Tally, winners: list[int]) -> list[int]:
    return column_scores(variant, tally)
