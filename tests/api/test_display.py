"""``repr`` and ``__rich__`` of a game, a view and a result draw the table (``tamalou.display``)."""

from __future__ import annotations

import io

import pytest

import tamalou
from scenario import deal
from tamalou.bots import RandomBot

HANDS = (["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"])


def test_a_view_draws_the_table_as_its_seat_sees_it() -> None:
    g = deal(HANDS, stock=["9C", "10C"], discard=["KD"], variant="french")
    text = repr(g.view(1))
    assert text.splitlines()[0] == "turn 1 · P0 to play (draw) · stock 2 · discard KD · no call yet · seen by P1"
    assert text.splitlines()[1] == "  P0: [ ??] [ ??] [ ??] [ ??]"
    assert text.splitlines()[2] == "  P1: [ 5H] [ 6H] [ ??] [ ??]  you"  # French: the two nearest, peeked
    assert str(g.view(1)) == text
    for card in ("AS", "7H", "9C"):
        assert card not in text  # nothing hidden is drawn


def test_a_view_shows_the_cards_its_seat_knows_and_what_it_holds() -> None:
    g = deal(HANDS, stock=["9C", "10C"], discard=["KD"], variant="french")
    g.apply({"type": "draw", "player": 0, "source": "stock"})
    mine = repr(g.view(0)).splitlines()
    assert "[ AS] [ 2S] [ ??] [ ??]  you, holding 9C" in mine[1]
    theirs = repr(g.view(1)).splitlines()
    assert theirs[1] == "  P0: [ ??] [ ??] [ ??] [ ??]  holding a card"
    assert "9C" not in "\n".join(theirs)


def test_the_game_draws_every_card_and_marks_those_their_owner_does_not_know() -> None:
    g = deal(HANDS, stock=["9C", "10C"], discard=["KD"], variant="french")
    lines = repr(g).splitlines()
    assert lines[0].startswith("french · turn 1 · P0 to play")
    assert lines[1] == "  P0: [ AS] [ 2S] [3S*] [4S*]"


def test_a_finished_game_draws_the_result() -> None:
    g = tamalou.new_game("french", players=3, seed=3)
    bot = RandomBot(3)
    while not g.is_over:
        p = g.current_player
        action = bot.act(g.view(p), g.legal_actions(p))
        assert action is not None
        g.apply(action)
    r = g.result()
    text = repr(r)
    assert text.startswith(f"result ({r.reason})")
    first = r.ranking[0][0]
    assert f"1. P{first}: {r.totals[first]} points" in text
    assert text in repr(g)
    assert text in repr(g.view(0))


def test_rich_renders_a_panel() -> None:
    rich_console = pytest.importorskip("rich.console")
    g = tamalou.new_game("french", players=2, seed=1)
    out = io.StringIO()
    rich_console.Console(file=out, width=100).print(g.view(0))
    assert "seen by P0" in out.getvalue()
    assert "P1: [ ??]" in out.getvalue()
