"""Scenario tests of Cabo, second edition (docs/rules/cabo.md): one test (or a few) per rule.

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first), ``stock`` top
first, ``discard`` bottom first, and seat 0 plays first. Cabo starts with a peek phase where each player
chooses two of their cards; unless a test is about that choice, everybody peeks at slots 0 and 1
(``dealt``). Cards are written as their value (the deck has no suits). Cards 0 to 6 and 13 have no
power: they fill the stocks of quiet scenarios.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from functools import partial
from itertools import combinations

import pytest

import scenario
import tamalou
from scenario import assert_illegal, kinds, of_kind, seen, turn_options
from tamalou import Call, Discard, Draw, Event, Game, MatchAction, Pass, PeekAction, Power, Replace, Round
from tamalou.engine import new_round
from tamalou.hookspecs import MatchTally, Tally
from tamalou.plugins import cabo as cabo_plugin
from tamalou.plugins.cabo import ExchangeEqual

CABO = "cabo"

deal = partial(scenario.deal, variant=CABO)
dealt = partial(scenario.dealt, variant=CABO)


def exchanges(g: Round, p: int) -> set[ExchangeEqual]:
    return {a for a in g.legal_actions(p) if isinstance(a, ExchangeEqual)}


def all_views_show(g: Round, owner: int, slot: int) -> list[str | None]:
    """What each seat sees in ``owner``'s ``slot``."""
    return [seen(g, viewer, owner)[slot] for viewer in range(g.players)]


def quiet_turn(g: Round) -> list[Event]:
    """Draw from the stock and throw it (a quiet card: no power)."""
    p = g.current_player
    events = g.apply(Draw(p, "stock")) + g.apply(Discard(p))
    assert "power_offered" not in kinds(events)
    return events


def called(hands: Sequence[Sequence[str]], stock: Sequence[str], discard: Sequence[str] = ("6",)) -> Round:
    """Seat 0 calls Cabo instead of drawing on the first turn; everybody else plays a quiet last turn."""
    g = dealt(hands, stock, discard)
    g.apply(Call(0))
    while not g.is_over:
        quiet_turn(g)
    assert g.result().reason == "called" and g.result().caller == 0
    return g


def stock_out(hands: Sequence[Sequence[str]], stock: Sequence[str], discard: Sequence[str] = ("6",)) -> Round:
    """Nobody calls: quiet turns until the stock runs out."""
    g = dealt(hands, stock, discard)
    while not g.is_over:
        quiet_turn(g)
    assert g.result().reason == "stock_out" and g.result().caller is None
    return g


# --------------------------------------------------------------------------------- players and deck


def test_two_to_four_players() -> None:
    """Cabo: "2–4 players" """
    for n in (2, 3, 4):
        assert tamalou.new_game(CABO, n, seed=1).players == n
    for n in (1, 5):
        with pytest.raises(tamalou.SetupError):
            tamalou.new_game(CABO, n, seed=1)


def test_its_own_deck_of_52_cards_valued_0_to_13() -> None:
    """Cabo: "its own deck of 52 cards valued 0 to 13: two 0s, two 13s, and four each of 1 to
    12 (no suits; two cards of the same value are the same "rank" for matching)" """
    g = new_round(CABO, 2, seed=1)
    assert len(g.cards) == 52
    counts = Counter(g.text)
    assert counts == {"0": 2, "13": 2, **{str(v): 4 for v in range(1, 13)}}
    assert all(c.suit == "" for c in g.cards)
    for v in range(14):
        assert tamalou.card_value(CABO, str(v)) == v
    assert all(g.rank[c] == g.text[c] for c in range(52))  # a card's rank is its value
    with pytest.raises(tamalou.SetupError):  # a third 0 is not in the deck
        deal([["0", "0", "1", "2"], ["0", "3", "4", "5"]], stock=["6", "6"])


# --------------------------------------------------------------------------------- the deal and the opening


def test_four_cards_face_down_in_a_row_each_player_looks_at_any_two() -> None:
    """Cabo: "4 cards face down in a row; each player looks at any two of their own cards at the
    start (as cartalogue's choice)" """
    g = deal([["1", "2", "3", "4"], ["5", "6", "7", "8"]], stock=["1", "2"], discard=["3"])
    assert g.rules.deal.layout == "row"
    assert g.phase == "peek"
    for p in range(2):
        assert len(g.hands[p]) == 4
        assert set(g.legal_actions(p)) == {PeekAction(p, pair) for pair in combinations(range(4), 2)}
        for q in range(2):
            assert seen(g, p, q) == dict.fromkeys(range(4))  # face down: nobody has seen a card
    assert_illegal(g, Draw(0, "stock"))
    g.apply(PeekAction(0, (1, 3)))
    assert seen(g, 0, 0) == {0: None, 1: "2", 2: None, 3: "4"}
    assert seen(g, 1, 0) == dict.fromkeys(range(4))
    g.apply(PeekAction(1, (0, 2)))
    assert seen(g, 1, 1) == {0: "5", 1: None, 2: "7", 3: None}
    assert g.phase == "draw" and g.current_player == 0


def test_the_top_of_the_stock_is_turned_up_to_start_the_discard() -> None:
    """Cabo: "The top of the stock is turned up to start the discard." """
    g = new_round(CABO, 3, seed=7)
    v = g.view(1)
    assert len(v.discard) == 1 and v.discard_top == v.discard[0]
    assert v.stock_size == 52 - 3 * 4 - 1
    assert all(g.knows(p, g.discard[0]) for p in range(3))


# --------------------------------------------------------------------------------- a turn


def test_a_turn_is_draw_from_the_stock_take_the_discard_or_call() -> None:
    """Cabo: "A turn is one of: draw from the stock, then keep it (exchange, below) or throw it
    (power); take the discard top and exchange it; or call "Cabo" instead of drawing (no threshold)." """
    g = dealt([["1", "2", "3", "4"], ["5", "6", "7", "8"]], stock=["1", "2", "3"], discard=["9"])
    assert turn_options(g, 0) == {Draw(0, "stock"), Draw(0, "discard"), Call(0)}
    assert turn_options(g, 1) == set()
    g.apply(Draw(0, "stock"))
    options = turn_options(g, 0)
    assert {a for a in options if not isinstance(a, ExchangeEqual)} == {
        *(Replace(0, s) for s in range(4)),
        Discard(0),
    }
    assert Call(0) not in options  # the call is instead of drawing


def test_a_card_taken_from_the_discard_is_kept() -> None:
    """Cabo: "take the discard top and exchange it" — it is kept (one card or several claimed
    equal), never thrown back."""
    g = dealt([["1", "2", "3", "4"], ["5", "6", "7", "8"]], stock=["1", "2", "3"], discard=["9"])
    g.apply(Draw(0, "discard"))
    assert Discard(0) not in turn_options(g, 0)
    assert_illegal(g, Discard(0))
    assert exchanges(g, 0)  # the exchange of several cards is open to it
    events = g.apply(Replace(0, 2))
    assert of_kind(events, "replaced")[0]["card"] == "3"
    assert g.layout(0) == ["1", "2", "9", "4"]
    assert "power_offered" not in kinds(events)  # a 9 taken from the discard gives no power


def test_a_call_instead_of_drawing_at_any_total() -> None:
    """Cabo: "or call "Cabo" instead of drawing (no threshold)" — a call at 48 is accepted and
    never checked."""
    g = dealt([["13", "12", "12", "11"], ["1", "2", "3", "4"]], stock=["1", "2", "3"])
    events = g.apply(Call(0))
    assert of_kind(events, "called")[0].data == {"player": 0}
    assert g.caller == 0 and g.layout(0) == ["13", "12", "12", "11"]
    assert seen(g, 1, 0) == dict.fromkeys(range(4))  # not shown: nothing is verified
    assert g.current_player == 1 and g.phase == "draw"


def test_after_a_call_every_other_player_has_one_more_turn() -> None:
    """Cabo: "After a call every other player has one more turn." """
    g = dealt(
        [["1", "2", "3", "4"], ["5", "5", "5", "5"], ["6", "6", "6", "6"]],
        stock=["1", "2", "3", "4", "2"],
        discard=["3"],
    )
    quiet_turn(g)  # seat 0
    g.apply(Call(1))  # seat 1 calls instead of drawing
    assert not g.is_over and g.current_player == 2
    quiet_turn(g)
    assert not g.is_over and g.current_player == 0
    events = quiet_turn(g)
    assert g.is_over and g.result().reason == "called"
    assert of_kind(events, "round_over")[0]["caller"] == 1


# --------------------------------------------------------------------------------- the exchange of several cards


def test_the_exchange_is_listed_for_every_set_of_two_to_four_own_cards() -> None:
    """Cabo: "the card kept replaces one of your cards, or two, three or four of your cards that
    you claim are equal" — one action per set of 2, 3 or 4 occupied slots (in increasing order); one
    card is the core's ``replace``."""
    g = dealt([["1", "2", "3", "4", "5"], ["5", "6", "7", "8"]], stock=["1", "2", "3"])
    assert exchanges(g, 0) == set()  # nothing held yet
    g.apply(Draw(0, "stock"))
    expected = {ExchangeEqual(0, c) for k in (2, 3, 4) for c in combinations(range(5), k)}
    assert exchanges(g, 0) == expected and len(expected) == 10 + 10 + 5
    assert exchanges(g, 1) == set()  # only the player holding a card


def test_claimed_equal_cards_go_to_the_discard_and_the_kept_card_takes_the_first_slot() -> None:
    """Cabo: "The claimed cards are turned face up for all to see. If they are all equal they go
    to the discard and the kept card takes one of their slots (the other slots stay empty)." — Decided
    here: the first claimed slot (the lowest); thrown in the order claimed, so the discard top is the
    last claimed card."""
    g = dealt([["5", "9", "5", "2"], ["1", "2", "3", "4"]], stock=["3", "1", "2"], discard=["6"])
    fives = [g.card_at(0, 0), g.card_at(0, 2)]
    g.apply(Draw(0, "stock"))
    events = g.apply({"type": "exchange_equal", "player": 0, "slots": [0, 2]})
    exchanged = of_kind(events, "exchanged")[0].data
    assert exchanged == {"player": 0, "slots": [0, 2], "cards": ["5", "5"], "right": True, "slot": 0}
    assert g.layout(0) == ["3", "9", None, "2"]
    assert g.discard[-2:] == fives  # in the order claimed: the top is the last claimed
    assert seen(g, 1, 0) == {0: None, 1: None, 3: None}  # the kept 3 came from the stock: p0 alone knows it
    assert seen(g, 0, 0)[0] == "3"
    assert all(g.knows(p, c) for p in range(2) for c in fives)
    assert g.current_player == 1 and g.phase == "draw"


def test_three_or_four_equal_cards_leave_the_other_slots_empty() -> None:
    """Cabo: "two, three or four of your cards ... the kept card takes one of their slots (the
    other slots stay empty)." """
    g = dealt([["4", "1", "4", "4"], ["1", "2", "3", "2"]], stock=["3", "5", "6"])
    g.apply(Draw(0, "stock"))
    g.apply(ExchangeEqual(0, (0, 2, 3)))
    assert g.layout(0) == ["3", "1", None, None]
    g2 = dealt([["4", "4", "4", "4"], ["1", "2", "3", "2"]], stock=["3", "5", "6"])
    g2.apply(Draw(0, "stock"))
    g2.apply(ExchangeEqual(0, (0, 1, 2, 3)))
    assert g2.layout(0) == ["3", None, None, None]
    assert [g2.text[c] for c in g2.discard[-4:]] == ["4"] * 4


def test_unequal_claimed_cards_go_back_face_up_and_the_kept_card_takes_a_new_slot() -> None:
    """Cabo: "If they are not all equal, they go back face up into their slots (known to
    everyone), the kept card is added to your layout in a new slot" """
    g = dealt([["5", "9", "5", "2"], ["1", "2", "3", "4"]], stock=["3", "1", "2", "6"], discard=["6"])
    g.apply(Draw(0, "stock"))
    events = g.apply(ExchangeEqual(0, (0, 1)))
    data = of_kind(events, "exchanged")[0].data
    assert data["right"] is False and data["cards"] == ["5", "9"] and data["slot"] == 4
    assert g.layout(0)[:5] == ["5", "9", "5", "2", "3"]
    for viewer in range(2):
        assert seen(g, viewer, 0)[0] == "5" and seen(g, viewer, 0)[1] == "9"  # face up for all
    assert all_views_show(g, 0, 4) == ["3", None]  # the kept card: its drawer alone saw it
    assert g.discard == [g.discard[0]]  # nothing was thrown


def test_one_penalty_per_claimed_card_whose_value_differs_from_the_first() -> None:
    """Cabo: "Decided: you take one penalty card for each claimed card beyond the first whose
    value differs from the first claimed card." — 5, 7, 7 costs two (both 7s differ from the 5), and
    5, 9, 5, 7 costs two (the 9 and the 7)."""
    g = dealt([["5", "7", "7", "2"], ["1", "2", "3", "4"]], stock=["3", "1", "2", "6", "6"])
    g.apply(Draw(0, "stock"))
    events = g.apply(ExchangeEqual(0, (0, 1, 2)))
    assert of_kind(events, "exchanged")[0]["penalty_cards"] == 2
    assert [e.data for e in of_kind(events, "penalty")] == [{"player": 0, "slot": 5}, {"player": 0, "slot": 6}]
    assert g.layout(0) == ["5", "7", "7", "2", "3", "1", "2"]
    assert seen(g, 0, 0)[5] is None and seen(g, 1, 0)[6] is None  # penalties: seen by nobody

    g = dealt([["5", "9", "5", "7"], ["1", "2", "3", "4"]], stock=["3", "1", "2", "6", "6"])
    g.apply(Draw(0, "stock"))
    events = g.apply(ExchangeEqual(0, (0, 1, 2, 3)))
    assert len(of_kind(events, "penalty")) == 2
    assert g.card_count(0) == 4 + 1 + 2


def test_cards_thrown_by_an_exchange_give_no_power() -> None:
    """Cabo: a power comes from a card "drawn from the stock and thrown at once" (as in the whole
    family): two 7s thrown by an exchange offer nothing."""
    g = dealt([["7", "7", "1", "2"], ["1", "2", "3", "4"]], stock=["3", "4", "5"])
    g.apply(Draw(0, "stock"))
    events = g.apply(ExchangeEqual(0, (0, 1)))
    assert "power_offered" not in kinds(events)
    assert g.phase == "draw" and g.current_player == 1


def test_an_exchange_of_the_discard_top() -> None:
    """Cabo: "take the discard top and exchange it" — the exchange of several cards too."""
    g = dealt([["2", "8", "2", "1"], ["1", "3", "3", "4"]], stock=["5", "4", "5"], discard=["6"])
    g.apply(Draw(0, "discard"))
    g.apply(ExchangeEqual(0, (0, 2)))
    assert g.layout(0) == ["6", "8", None, "1"]
    assert all_views_show(g, 0, 0) == ["6", "6"]


def test_an_exchange_is_refused_unless_it_names_two_to_four_own_cards_in_order() -> None:
    """The exchange names 2 to 4 occupied slots of the player holding the card, increasing."""
    g = dealt([["5", "9", "5", "2", "1"], ["1", "2", "3", "4"]], stock=["3", "1", "2"])
    assert_illegal(g, ExchangeEqual(0, (0, 2)))  # nothing held
    g.apply(Draw(0, "stock"))
    for bad in [(0,), (2, 0), (0, 0), (0, 1, 2, 3, 4), (0, 7), (0, -1), ()]:
        assert_illegal(g, ExchangeEqual(0, bad))
    assert_illegal(g, ExchangeEqual(1, (0, 1)))
    g.apply(ExchangeEqual(0, (0, 2)))
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    g.apply(Draw(0, "stock"))
    assert_illegal(g, ExchangeEqual(0, (1, 2)))  # slot 2 was emptied
    assert ExchangeEqual(0, (1, 3, 4)) in exchanges(g, 0)


def test_the_exchange_action_json_round_trip_schema_and_snapshot() -> None:
    """The new move's wire form: ``{"type": "exchange_equal", "player": p, "slots": [...]}``, parsed,
    in the JSON Schema, kept by snapshots and replays."""
    a = tamalou.parse_action({"type": "exchange_equal", "player": 0, "slots": [0, 2]})
    assert a == ExchangeEqual(0, (0, 2))
    assert a.to_dict() == {"type": "exchange_equal", "player": 0, "slots": [0, 2]}
    assert tamalou.parse_action(json.loads(json.dumps(a.to_dict()))) == a
    for bad in (
        {"type": "exchange_equal", "player": 0},
        {"type": "exchange_equal", "player": 0, "slots": [0, 1], "extra": 1},
        {"type": "exchange_equal", "player": 0, "slots": "01"},
        {"type": "exchange_equal", "player": True, "slots": [0, 1]},
    ):
        with pytest.raises(tamalou.IllegalAction):
            tamalou.parse_action(bad)
    node = tamalou.action_json_schema()["exchange_equal"]
    assert node["properties"]["type"] == {"const": "exchange_equal"}
    assert {"player", "slots"} <= set(node["required"])

    g = dealt([["5", "9", "5", "2"], ["1", "2", "3", "4"]], stock=["3", "1", "2"], discard=["6"])
    g.apply(Draw(0, "stock"))
    g.apply(ExchangeEqual(0, (0, 2)))
    again = Game.from_json(g.to_json())
    assert again.to_json() == g.to_json() and again.actions[-1] == ExchangeEqual(0, (0, 2))
    log = [x.to_dict() for x in g.actions]
    replayed = tamalou.replay(CABO, 2, seed=1, actions=log, deal=g.deal_spec, first_player=0)
    assert replayed.to_json() == g.to_json()


# --------------------------------------------------------------------------------- the discard card stays face up


def test_a_card_taken_from_the_discard_stays_face_up_wherever_it_moves() -> None:
    """Cabo: "Second edition: a card taken from the discard stays face up in your layout for the
    rest of the round (known to everyone, wherever it moves)." — no rule of its own: the card was face
    up, everyone keeps knowing it through a replace, a blind swap and an exchange; every seat's view
    shows it."""
    g = dealt(
        [["1", "2", "3", "4"], ["5", "6", "2", "3"], ["5", "6", "1", "2"]],
        stock=["11", "3", "5", "4", "5", "6"],
        discard=["9", "8"],
    )
    g.apply(Draw(0, "discard"))  # the 8
    g.apply(Replace(0, 1))
    assert all_views_show(g, 0, 1) == ["8", "8", "8"]
    # Seat 1 draws an 11 and swaps, blind, its slot 3 with seat 0's face-up 8.
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1))
    assert g.phase == "power"
    g.apply(Power(1, slot=3, target=0, target_slot=1))
    assert g.layout(1)[3] == "8" and g.layout(0)[1] == "3"
    assert all_views_show(g, 1, 3) == ["8", "8", "8"]
    assert all_views_show(g, 0, 1) == [None, None, None]  # seat 1's 3 was never seen
    # Seat 2 takes the discard top (seat 1's 11, face up) and keeps it by an exchange that fails.
    g.apply(Draw(2, "discard"))
    g.apply(ExchangeEqual(2, (0, 1)))  # 5 and 6: not equal
    assert all_views_show(g, 2, 4) == ["11", "11", "11"]
    # The 8 moves no more; still face up to everyone several turns later.
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert all_views_show(g, 1, 3) == ["8", "8", "8"]


# --------------------------------------------------------------------------------- powers


def test_powers_7_8_peek_9_10_spy_11_12_swap() -> None:
    """Cabo: "Powers: 7, 8 look at one of your own cards ("peek"); 9, 10 look at one card of
    another player ("spy"); 11, 12 blind swap of one of your cards with one of another player's
    ("swap")." """
    expected = {"7": "peek_own", "8": "peek_own", "9": "peek_opponent", "10": "peek_opponent"}
    expected |= {"11": "blind_swap", "12": "blind_swap"}
    for v in range(14):
        assert tamalou.card_power(CABO, str(v)) == expected.get(str(v), "none")
    g = dealt([["1", "2", "3", "4"], ["5", "6", "1", "2"]], stock=["7", "9", "12", "3"])
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))
    assert of_kind(events, "power_offered")[0].data == {"player": 0, "power": "peek_own"}
    events = g.apply(Power(0, slot=3))
    assert of_kind(events, "looked")[0].for_player(0).to_dict()["card"] == "4"
    g.apply(Draw(1, "stock"))
    events = g.apply(Discard(1))
    assert of_kind(events, "power_offered")[0]["power"] == "peek_opponent"
    g.apply(Power(1, target=0, target_slot=2))
    assert seen(g, 1, 0)[2] == "3" and seen(g, 0, 0)[2] is None
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))
    assert of_kind(events, "power_offered")[0]["power"] == "blind_swap"
    g.apply(Pass(0))  # every power is optional
    assert g.current_player == 1


def test_a_card_drawn_from_the_stock_and_kept_gives_no_power() -> None:
    """As in the whole family, a power comes from a card "drawn from the stock and thrown at once"."""
    g = dealt([["7", "2", "3", "4"], ["5", "6", "1", "2"]], stock=["3", "9", "3"])
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 0))  # the 7 replaced out of the layout: no power
    assert "power_offered" not in kinds(events) and g.current_player == 1


def test_no_out_of_turn_matching() -> None:
    """Cabo: "No out-of-turn matching." """
    g = dealt([["3", "2", "3", "4"], ["3", "6", "1", "2"]], stock=["3", "5", "4"], discard=["6"])
    for p in range(2):
        assert not [a for a in g.legal_actions(p) if isinstance(a, MatchAction)]
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # a 3 on the discard; both players hold 3s
    for p in range(2):
        assert not [a for a in g.legal_actions(p) if isinstance(a, MatchAction)]
    assert_illegal(g, MatchAction(1, (0,)))
    assert_illegal(g, MatchAction(0, (0,)))


# --------------------------------------------------------------------------------- the end of the round


def test_the_round_ends_when_the_stock_runs_out() -> None:
    """Cabo: "The round ends after the call's last turns or when the stock runs out." — at the
    end of the turn that took the last card, although the discard top could still be taken."""
    g = dealt([["1", "2", "3", "4"], ["5", "6", "1", "2"]], stock=["3", "4", "5"])
    quiet_turn(g)
    quiet_turn(g)
    assert not g.is_over and len(g.stock) == 1
    events = g.apply(Draw(0, "stock"))
    assert not g.is_over
    events += g.apply(Replace(0, 0))
    assert g.is_over and g.result().reason == "stock_out"
    assert of_kind(events, "round_over")[0]["totals"] == [5 + 2 + 3 + 4, 5 + 6 + 1 + 2]


def test_the_round_ends_after_the_calls_last_turns() -> None:
    """Cabo: "The round ends after the call's last turns" """
    g = called([["1", "2", "3", "4"], ["5", "6", "1", "2"], ["6", "5", "4", "3"]], stock=["3", "4", "5"])
    assert g.result().totals == [10, 14, 18]
    assert g.turn == 3  # the call, then one turn each for seats 1 and 2


# --------------------------------------------------------------------------------- scoring


def test_everyone_scores_their_total_and_the_lowest_caller_scores_zero() -> None:
    """Cabo: "Scoring: everyone scores their total. The caller scores 0 if their total is the
    lowest" """
    r = called([["1", "2", "0", "1"], ["5", "6", "1", "2"], ["6", "5", "4", "3"]], stock=["3", "4", "5"]).result()
    assert r.totals == [4, 14, 18] and r.scores == [0, 14, 18] and r.winners == [0]


def test_a_caller_tied_for_the_lowest_scores_zero() -> None:
    """Cabo: "The caller scores 0 if their total is the lowest or tied for the lowest" """
    r = called([["1", "2", "3", "4"], ["5", "2", "1", "2"], ["6", "5", "4", "3"]], stock=["3", "4", "5"]).result()
    assert r.totals == [10, 10, 18] and r.scores == [0, 10, 18]
    assert r.winners == [0] and r.ranking == [[0], [1], [2]]


def test_a_caller_not_lowest_scores_total_plus_ten() -> None:
    """Cabo: "else their total + 10" """
    r = called([["5", "2", "3", "4"], ["5", "2", "1", "2"], ["6", "5", "4", "3"]], stock=["3", "4", "5"]).result()
    assert r.totals == [14, 10, 18] and r.scores == [24, 10, 18] and r.winners == [1]


def test_kamikaze_scores_zero_and_fifty_for_everyone_else_caller_rules_aside() -> None:
    """Cabo: "Kamikaze: a player who ends the round with exactly two 12s and two 13s (and no
    other card) scores 0 and every other player scores 50, caller rules aside." """
    # The caller is lowest but scores 50, not 0.
    r = called([["1", "2", "0", "1"], ["12", "13", "12", "13"], ["6", "5", "4", "3"]], stock=["3", "4", "5"]).result()
    assert r.totals == [4, 50, 18] and r.scores == [50, 0, 50]
    assert r.ranking[0] == [1] and r.winners == [1]
    # The kamikaze player is the caller, not the lowest: 0, not 50 + 10.
    r = called([["13", "12", "13", "12"], ["5", "2", "1", "2"]], stock=["3", "4"]).result()
    assert r.scores == [0, 50] and r.winners == [0]
    # Without a call too.
    r = stock_out([["13", "12", "13", "12"], ["5", "2", "1", "2"]], stock=["3", "4"]).result()
    assert r.scores == [0, 50]


def test_kamikaze_needs_exactly_those_four_cards() -> None:
    """Cabo: "exactly two 12s and two 13s (and no other card)" — a fifth card, even a 0, spoils
    it; so do three 12s and a 13."""
    r = stock_out([["13", "12", "13", "12", "0"], ["5", "2", "1", "2"]], stock=["3", "4"]).result()
    assert r.totals == [50, 10] and r.scores == [50, 10]
    r = stock_out([["13", "12", "12", "12"], ["5", "2", "1", "2"]], stock=["3", "4"]).result()
    assert r.scores == [49, 10]
    # The rule read from the cards, when the engine gives them to the hooks.
    tally = Tally((50, 50), (4, 4), None, 5, hands=(("12", "13", "12", "13"), ("12", "13", "12", "13")))
    assert cabo_plugin.kamikaze(tally) == [0, 1]
    tally = Tally((50, 10), (4, 4), None, 5, hands=(("13", "13", "11", "13"), ("5", "2", "1", "2")))
    assert cabo_plugin.kamikaze(tally) == []


# --------------------------------------------------------------------------------- the match


def _round(m: tamalou.Match, hands: Sequence[Sequence[str]], stock: Sequence[str]) -> None:
    """The match's round in play becomes this stacked round, played quietly until the stock runs out,
    then scored."""
    m.game = stock_out(hands, stock)
    m.next_round()


LOW = ["0", "0", "1", "1"]  # 2
HIGH = ["13", "12", "12", "11"]  # 48


def test_a_match_is_played_until_a_cumulative_score_is_over_100_and_the_lowest_wins() -> None:
    """Cabo: "A match is played over rounds until some cumulative score is over 100; the lowest
    cumulative score then wins." """
    m = tamalou.new_match(CABO, 2, seed=3)
    _round(m, [LOW, HIGH], ["3", "4"])
    _round(m, [LOW, HIGH], ["3", "4"])
    assert m.totals() == [4, 96] and not m.is_over
    _round(m, [LOW, ["2", "2", "1", "1"]], ["3", "4"])
    assert m.totals() == [6, 102] and m.is_over
    r = m.result()
    assert r.winners == [0] and r.ranking == [[0], [1]] and r.form == "points"
    assert r.rounds == [[2, 48], [2, 48], [2, 6]]


def test_a_cumulative_score_of_exactly_100_falls_back_to_50_once_per_player() -> None:
    """Cabo: "A cumulative score of exactly 100 is reset to 50, once per player per match." """
    m = tamalou.new_match(CABO, 2, seed=3)
    _round(m, [LOW, HIGH], ["3", "4"])
    _round(m, [LOW, HIGH], ["3", "4"])
    _round(m, [["2", "2", "3", "3"], ["1", "1", "1", "1"]], ["3", "4"])  # 96 + 4 = 100 -> 50
    assert m.totals() == [14, 50] and not m.is_over
    _round(m, [LOW, HIGH], ["3", "4"])
    assert m.totals() == [16, 98]
    _round(m, [["1", "1", "2", "2"], LOW], ["3", "4"])  # 98 + 2 = 100 again: no second reset
    assert m.totals() == [22, 100] and not m.is_over  # 100 is not over 100
    _round(m, [["2", "2", "3", "3"], ["1", "1", "1", "2"]], ["3", "4"])
    assert m.is_over
    r = m.result()
    assert r.totals == [32, 105] and r.winners == [0]
    assert r.adjustments == [[0, 0], [0, 0], [0, -50], [0, 0], [0, 0], [0, 0]]
    assert [sum(x) for x in zip(*r.rounds, strict=True)] == [32, 155]


def test_the_exact_100_reset_hook_alone() -> None:
    """Cabo: "exactly 100 ... reset to 50, once per player per match" — on a match's tally: only
    exactly 100, each player once."""
    tally = MatchTally(
        players=3,
        scores=((60, 100, 99), (40, 0, 0)),
        winners=((1,), (1,)),
        adjustments=((0, 0, 0),),
        first_players=(0, 1),
    )
    assert tally.totals() == [100, 100, 99]
    assert cabo_plugin.tamalou_match_adjust(None, tally, None) == [-50, -50, 0]  # type: ignore[arg-type]
    tally = MatchTally(
        players=2, scores=((100, 50), (50, 0)), winners=((1,), (1,)), adjustments=((-50, 0),), first_players=(0, 1)
    )
    assert tally.totals() == [100, 50]
    assert cabo_plugin.tamalou_match_adjust(None, tally, None) == [0, 0]  # type: ignore[arg-type]


def test_a_cabo_match_snapshot_round_trips() -> None:
    """A match of Cabo rounds played by random legal moves: its snapshot restores and replays, the
    adjustments with it."""
    rng = random.Random(5)
    m = tamalou.new_match(CABO, 3, seed=11)
    while not m.is_over:
        g = m.game
        while not g.is_over:
            options = g.legal_actions(g.to_act[0])
            calls = [a for a in options if isinstance(a, Call)]
            g.apply(calls[0] if calls and g.turn > 12 else rng.choice([a for a in options if a not in calls]))
        m.next_round()
        text = m.to_json()
        again = tamalou.Match.from_json(text)
        assert again.to_json() == text and again.totals() == m.totals()
    r = m.result()
    assert max(r.totals) > 100 and r.winners == r.ranking[0]
    assert sorted(r.totals)[0] == r.totals[r.winners[0]]
    replayed = tamalou.replay_match(CABO, 3, seed=11, actions=m.actions)
    assert replayed.result() == r
