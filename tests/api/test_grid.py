"""The layouts' shape: ``rules.deal.grid = [rows, columns]`` says that the cards dealt lie in a grid, slot ``s`` at
row ``s // columns`` and column ``s % columns``. The key is checked against ``rules.deal.cards``; every view carries
it (``PlayerView.grid``, ``SeatView.grid``) so that a client draws the table as it lies and a mechanic with rules
by rows or columns reads it; ``repr`` of a game or a view draws the rows, an empty slot as ``·`` and a slot past
the grid (a penalty card) after them, and the log of ``tamalou play`` writes the rows apart.

French with 6 cards in 2 rows of 3 (``SIX``), stacked: seat 0's top row 2S 3S 4S, bottom row 5S 6S 7S; slots 3
and 4 (the bottom row's first two) are peeked at the deal."""

from __future__ import annotations

import pytest

import tamalou
from tamalou import Discard, Draw, MatchAction, VariantError
from tamalou.cli.log import cards
from tamalou.engine.game import round_of
from tamalou.views import PlayerView

SIX = tamalou.variant_from_toml(
    'name = "six"\nextends = "french"\n[rules.deal]\ncards = 6\ngrid = [2, 3]\n[rules.peek]\nslots = [3, 4]\n'
)
HANDS = [["2S", "3S", "4S", "5S", "6S", "7S"], ["2H", "3H", "4H", "5H", "6H", "7H"]]


def six() -> tamalou.Game:
    return tamalou.new_game(SIX, 2, seed=1, deal={"hands": HANDS, "stock": ["KC", "QC", "JC"]}, first_player=0)


def test_the_grid_must_hold_the_cards_dealt() -> None:
    with pytest.raises(VariantError) as caught:
        tamalou.variant_from_toml('name = "odd"\nextends = "french"\n[rules.deal]\ncards = 4\ngrid = [2, 3]\n')
    (error,) = caught.value.errors
    assert error.key == "rules.deal.grid"
    assert error.reason == ("a grid of 2 rows of 3 holds 6 cards, but rules.deal.cards = 4: expected a grid of 4 slots")
    with pytest.raises(VariantError, match=r"rules\.deal\.grid\.0: expected a number greater than or equal to 1"):
        tamalou.variant_from_toml('name = "none"\nextends = "french"\n[rules.deal]\ngrid = [0, 4]\n')
    assert tamalou.load_variant("french").rules.deal.grid is None  # no shape unless a ruleset says one


def test_every_view_carries_the_grid() -> None:
    g = six()
    assert SIX.rules.deal.grid == (2, 3)
    view = g.view(1)
    assert view.grid == [2, 3] and g.seat_view(0).grid == [2, 3]
    assert PlayerView.model_validate(view.model_dump(mode="json")).grid == [2, 3]
    assert tamalou.new_game("french", 2, seed=1).view(0).grid is None


def test_a_view_and_a_game_are_drawn_row_by_row() -> None:
    g = six()
    assert repr(g.view(0)).splitlines()[1:3] == [
        "  P0: [ ??] [ ??] [ ??]  you",
        "      [ 5S] [ 6S] [ ??]",
    ]
    assert repr(g).splitlines()[1:3] == [
        "  P0: [2S*] [3S*] [4S*]",
        "      [ 5S] [ 6S] [7S*]",
    ]


def test_an_empty_slot_keeps_its_place_and_a_slot_past_the_grid_follows() -> None:
    """Seat 0 draws the 5C and discards it; seat 1 matches its own 5H (slot 3, bottom left): that slot is empty,
    drawn as ``·`` in its place; seat 0 throws its 2S (slot 0) on the 5C, a miss: a penalty card, the stock's top
    (the QC, unseen), joins seat 0's layout past the grid; the 2S, shown, stays in its place."""
    g = tamalou.new_game(SIX, 2, seed=1, deal={"hands": HANDS, "stock": ["5C", "QC", "JC"]}, first_player=0)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    g.apply(MatchAction(1, (3,)))
    g.apply(MatchAction(0, (0,)))
    assert repr(g).splitlines()[1:6] == [
        "  P0: [ 2S] [3S*] [4S*]",
        "      [ 5S] [ 6S] [7S*]",
        "      [QC*]  (past the grid)",
        "  P1: [2H*] [3H*] [4H*]",
        "      [  ·] [ 6H] [7H*]",
    ]
    assert cards(round_of(g).layout(1), SIX.rules.deal.grid) == "2H 3H 4H / · 6H 7H"
    assert cards(round_of(g).layout(0), SIX.rules.deal.grid) == "2S 3S 4S / 5S 6S 7S / QC"
    assert cards(round_of(g).layout(0)) == "2S 3S 4S 5S 6S 7S QC"  # (no grid: one row)
