"""Rules by position: the ranking and scoring hooks read where each card lies (``Tally.layouts``: each player's slots
in order, an emptied slot as ``None``), and ``tamalou verify``'s ``slot_order`` check lets a grid ruleset
(``rules.deal.grid``) score by rows and columns: it moves the cards by whole rows and whole columns there, and
still catches a rule that reads one slot's place.

The plugin ``plugins_for_tests.columns``: on a grid, a full column of one rank counts 0 (scores, and the ranking
by them). ``COLUMNS``: French on a 2 x 2 grid with it (slots 0 1 / 2 3: the columns are 0 and 2, 1 and 3), seat 0
first, slots 2 and 3 (the bottom row) peeked at the deal."""

from __future__ import annotations

import random

import pytest

import tamalou
from tamalou import Call, Discard, Draw, MatchAction, Pass
from tamalou.engine import NO_CARD
from tamalou.engine.game import round_of
from tamalou.verify import InvariantViolation, check_slot_order, random_playout
from tamalou.verify.checks_cards import _grid_orders
from tamalou.verify.tallies import synthetic_tallies

GRID = 'extends = "french"\n[rules.deal]\ngrid = [2, 2]\n[rules.peek]\nslots = [2, 3]\n'
COLUMNS = tamalou.variant_from_toml('name = "columns"\nplugins = ["plugins_for_tests.columns"]\n' + GRID)
#: The first slot counts double (tests/plugins_for_tests/broken_first_slot.py), on the same grid.
FIRST_SLOT = tamalou.variant_from_toml(
    'name = "first-slot"\nplugins = ["plugins_for_tests.broken_first_slot"]\n' + GRID
)


def played_out(hands: list[list[str]], stock: list[str]) -> tamalou.Game:
    """Seat 0 draws the stock's top, discards it and calls; seat 1 draws the next, discards it; the round ends.
    (Each other chance, a power or a match, is let go.)"""
    g = tamalou.new_game(COLUMNS, 2, seed=1, deal={"hands": hands, "stock": stock}, first_player=0)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(Call(0))
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    while not g.is_over:
        (wait,) = [a for a in g.legal_actions(g.current_player) if isinstance(a, Pass)]
        g.apply(wait)
    return g


def test_a_column_of_one_rank_counts_0() -> None:
    """Seat 0's 7S (slot 0) and 7H (slot 2) are a column: 7 + 7 taken off its total of 7 + 3 + 7 + 2 = 19: 5.
    Seat 1's two 4s lie in a row, not a column: its 4 + 4 + 9 + 9 = 26 counts whole."""
    g = played_out([["7S", "3S", "7H", "2S"], ["4D", "4C", "9D", "9C"]], ["5C", "6C"])
    result = g.result()
    assert result.totals == [19, 26]
    assert result.scores == [5, 26]
    assert result.ranking == [[0], [1]]


def test_an_emptied_slot_keeps_its_place() -> None:
    """Seat 1 matches its 8C (slot 1) on the 8D seat 0 throws: slot 1 is emptied, ``None`` in its layout. Its cards
    stay where they lie: 6C and 5H in the first column, the 6H alone in the second, so nothing counts 0 (6 + 5 + 6
    = 17). (Read without the emptied slot, 6C 5H 6H would put the two 6s in a column.) The stock keeps a 5C: a
    penalty card could be given, so matching is open."""
    hands = [["AS", "2S", "3S", "4S"], ["6C", "8C", "5H", "6H"]]
    g = tamalou.new_game(COLUMNS, 2, seed=1, deal={"hands": hands, "stock": ["8D", "5C"]}, first_player=0)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(MatchAction(1, (1,)))
    rnd = round_of(g)
    assert rnd.hands[1][1] == NO_CARD
    rnd.finish("called", [])
    assert g.result().scores == [10, 17]


def test_made_up_ends_lie_in_the_first_slots() -> None:
    """verify's made-up ends of rounds give layouts too: a hand of fewer cards than were dealt lies in the first
    slots, the others emptied (``None``), so a rule by position is asked about emptied layouts as well."""
    tallies = list(synthetic_tallies(COLUMNS, players=[2], callers=False))
    assert all(len(t.layouts) == 2 for t in tallies)
    for t in tallies:
        for hand, layout in zip(t.hands, t.layouts, strict=True):
            assert [c for c in layout if c is not None] == list(hand)
            assert len(layout) == max(4, len(hand))
    assert any(layout == (None,) * 4 for t in tallies for layout in t.layouts)


def test_grid_orders_keep_each_row_and_each_column() -> None:
    """On a 2 x 3 grid, the orders ``slot_order`` tries move whole rows and whole columns: every row keeps its
    cards and every column its cards; the slots past the grid are shuffled among themselves."""
    hand = [0, 1, 2, 3, 4, 5, 6, NO_CARD, 7]
    orders = _grid_orders(hand, (2, 3), random.Random(1), 3)
    assert len(orders) == 3
    rows = {frozenset(hand[0:3]), frozenset(hand[3:6])}
    columns = {frozenset(hand[c:6:3]) for c in range(3)}
    for layout in orders:
        assert {frozenset(layout[0:3]), frozenset(layout[3:6])} == rows
        assert {frozenset(layout[c:6:3]) for c in range(3)} == columns
        assert layout[7] == NO_CARD and sorted(layout[6::2]) == [6, 7]


def test_verify_s_slot_order_lets_a_grid_ruleset_score_by_column() -> None:
    for seed in range(8):
        check_slot_order(random_playout(COLUMNS, players=2, seed=seed))


def test_verify_s_slot_order_still_catches_a_rule_by_one_slot_on_a_grid() -> None:
    with pytest.raises(InvariantViolation, match="the result depends on the order"):
        for seed in range(8):
            check_slot_order(random_playout(FIRST_SLOT, players=2, seed=seed))
