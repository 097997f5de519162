"""Scenario tests of the ``dutch`` ruleset (docs/rules/dutch.md: Dutch, Québec and France), one named test
per rule, plus a match of rounds.

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first; each player knows
their slots 0 and 1 from the deal), ``stock`` top first, ``discard`` bottom first, and seat 0 plays first.
Card values are written out below from the rules, never read back from the engine.
"""

from __future__ import annotations

from functools import partial

import pytest

import scenario
import tamalou
from scenario import (
    FULL_DECK,
    assert_illegal,
    draw_and_throw,
    kinds,
    matches_listed,
    of_kind,
    quiet_turn,
    seen,
    turn_options,
)
from tamalou import Call, Discard, Draw, MatchAction, Pass, Power, Replace, Round, SetupError
from tamalou.engine import new_round
from tamalou.engine.rulebook import rulebook

DUTCH = "dutch"
deal = partial(scenario.deal, variant=DUTCH)
called_round = partial(scenario.called_round, variant=DUTCH)


def dutch_value(card: str) -> int:
    """Dutch: "A 1, 2–10 face value, J 11, Q 12, red K 0, black K 13"."""
    rank, suit = card[:-1], card[-1]
    if rank == "K":
        return 0 if suit in "HD" else 13
    return {"A": 1, "J": 11, "Q": 12}.get(rank) or int(rank)


# Quiet cards (no power in Dutch: only J, Q and A have one).
P0 = ["2C", "3C", "4C", "5C"]
P1 = ["2D", "3D", "4D", "5D"]
P2 = ["2H", "3H", "4H", "9H"]


# --------------------------------------------------------------------------------- the table


def test_players_two_to_six() -> None:
    """Dutch: "2–6 players" — one and seven are refused."""
    for n in range(2, 7):
        assert tamalou.new_game(DUTCH, players=n, seed=n).players == n
    for n in (1, 7):
        with pytest.raises(SetupError, match=f"got {n}"):
            tamalou.new_game(DUTCH, players=n, seed=1)


def test_deck_of_52_cards() -> None:
    """Dutch: "52 cards" — no joker; every card seen before the first reshuffle is different."""
    g = new_round(DUTCH, players=2, seed=52)
    cards = [c for p in range(2) for c in g.layout(p)] + g.view(0).discard
    assert g.view(0).stock_size == 52 - len(cards)
    while g.view(0).stock_size:
        p = g.current_player
        g.apply(Draw(p, "stock"))
        cards.append(g.view(p).held or "")
        g.apply(Discard(p))
        while g.phase in ("power", "call"):
            g.apply(Pass(p))
    assert sorted(cards) == sorted(FULL_DECK)
    with pytest.raises(SetupError, match="no jokers"):
        deal([["JK1", "2C", "3C", "4C"], P1], stock=["6C"])


def test_values_red_king_zero_black_king_thirteen() -> None:
    """Dutch: "Values: A 1, 2–10 face value, J 11, Q 12, red K 0, black K 13"."""
    rb = rulebook(tamalou.load_variant(DUTCH))
    for text in FULL_DECK:
        assert rb.value(tamalou.parse_card(text)) == dutch_value(text), text
    assert [dutch_value(c) for c in ("AS", "7D", "10C", "JH", "QS", "KH", "KD", "KS", "KC")] == [
        1,
        7,
        10,
        11,
        12,
        0,
        0,
        13,
        13,
    ]


def test_four_cards_in_a_square_two_nearest_seen_once() -> None:
    """Dutch: "4 cards in a 2×2 square; each player looks at their two nearest cards once" — from
    the deal each player knows their slots 0 and 1 and nothing else."""
    g = deal([P0, P1, P2], stock=["6C", "6D", "6H"], discard=["6S"])
    assert g.phase == "draw" and tamalou.load_variant(DUTCH).rules.deal.layout == "square"
    for p, hand in enumerate([P0, P1, P2]):
        assert seen(g, p, p) == {0: hand[0], 1: hand[1], 2: None, 3: None}
        for q in range(3):
            if q != p:
                assert seen(g, p, q) == dict.fromkeys(range(4))


def test_top_of_the_stock_starts_the_discard() -> None:
    """Dutch: "The top of the stock starts the discard." — one card, face up for all."""
    g = tamalou.new_game(DUTCH, players=3, seed=9)
    assert len(g.view(0).discard) == 1
    assert g.view(0).stock_size == 52 - 12 - 1
    assert all(g.view(p).discard_top == g.view(0).discard_top for p in range(3))


# --------------------------------------------------------------------------------- the turn


def test_turn_draw_from_stock_or_discard_then_replace_or_throw() -> None:
    """Dutch: "A turn: draw from the stock or take the discard top; replace one of your cards or
    throw the card held." — Decided: a card taken from the discard must replace one of yours."""
    g = deal([P0, P1], stock=["6C", "6D"], discard=["AS"])
    assert turn_options(g, 0) == {Draw(0, "stock"), Draw(0, "discard")}  # no call instead of drawing
    g.apply(Draw(0, "stock"))
    assert turn_options(g, 0) == {Replace(0, s) for s in range(4)} | {Discard(0)}
    events = g.apply(Replace(0, 3))
    assert g.layout(0) == ["2C", "3C", "4C", "6C"] and g.view(1).discard_top == "5C"
    assert "replaced" in kinds(events)
    g = deal([P0, P1], stock=["6C", "6D"], discard=["AS"])
    g.apply(Draw(0, "discard"))
    assert turn_options(g, 0) == {Replace(0, s) for s in range(4)}
    assert_illegal(g, Discard(0))
    g.apply(Replace(0, 2))
    assert g.layout(0)[2] == "AS" and all(seen(g, p, 0)[2] == "AS" for p in range(2))


def test_power_only_from_a_card_drawn_from_the_stock_and_thrown() -> None:
    """As in the whole family, every power is optional and comes from a card drawn from the stock and
    thrown at once — a J replaced out of the layout gives no power; a J drawn and thrown does, and may be
    declined."""
    g = deal([["JC", "3C", "4C", "5C"], P1], stock=["6C", "6D"], discard=["6S"])
    events = g.apply(Draw(0, "stock")) + g.apply(Replace(0, 0))
    assert "power_offered" not in kinds(events) and g.phase == "call"
    g = deal([P0, P1], stock=["JC", "6D"], discard=["6S"])
    events = draw_and_throw(g)
    assert of_kind(events, "power_offered")[0]["power"] == "swap_any_blind"
    g.apply(Pass(0))
    assert g.phase == "call" and g.layout(0) == P0 and g.layout(1) == P1


# --------------------------------------------------------------------------------- powers


def test_jack_swaps_any_two_cards_on_the_table_blind() -> None:
    """Dutch: "Powers: J swap any two cards on the table, blind (as kaboo's J)" — two other players'
    cards, or one of yours; everyone sees which two places; nobody sees a card."""
    g = deal([P0, P1, P2], stock=["JC", "6D", "6H"], discard=["6S"])
    draw_and_throw(g)
    uses = {a for a in turn_options(g, 0) if isinstance(a, Power)}
    assert len(uses) == 3 * 16 and Power(0, slot=2, target=2, target_slot=0, owner=1) in uses
    events = g.apply(Power(0, slot=2, target=2, target_slot=0, owner=1))
    assert g.layout(1) == ["2D", "3D", "2H", "5D"] and g.layout(2) == ["4D", "3H", "4H", "9H"]
    assert events[0].for_player(0).to_dict() == {
        "type": "swapped",
        "player": 0,
        "slot": 2,
        "target": 2,
        "target_slot": 0,
        "owner": 1,
    }
    assert seen(g, 2, 1)[2] == "2H"  # p2 knew its 2H: it follows it
    assert seen(g, 0, 1)[2] is None and seen(g, 1, 2)[0] is None


def test_queen_looks_at_one_of_your_own_cards() -> None:
    """Dutch: "Q look at one of your own cards" — shown to the player alone."""
    g = deal([P0, P1], stock=["QC", "6D"], discard=["6S"])
    draw_and_throw(g)
    assert {a for a in turn_options(g, 0) if isinstance(a, Power)} == {Power(0, slot=s) for s in range(4)}
    events = g.apply(Power(0, slot=3))
    assert events[0].for_player(0).to_dict() == {"type": "looked", "player": 0, "owner": 0, "slot": 3, "card": "5C"}
    assert events[0].for_player(1)["card"] is None
    assert seen(g, 0, 0)[3] == "5C" and seen(g, 1, 0)[3] is None


def test_ace_gives_the_stock_top_unseen_to_another_player() -> None:
    """Dutch: "A give the top card of the stock, face down and unseen, to any other player (it joins
    their layout in a new slot; nobody knows it)"."""
    g = deal([P0, P1, P2], stock=["AC", "KS", "6H"], discard=["6S"])
    draw_and_throw(g)
    assert {a for a in turn_options(g, 0) if isinstance(a, Power)} == {Power(0, target=1), Power(0, target=2)}
    events = g.apply(Power(0, target=1))
    assert g.layout(1) == [*P1, "KS"]
    for p in range(3):
        assert events[0].for_player(p).to_dict() == {"type": "given", "player": 1, "slot": 4, "by": 0}
        assert seen(g, p, 1)[4] is None
        assert not g.knows(p, g.card_at(1, 4))
    assert g.total(1) == sum(dutch_value(c) for c in P1) + 13


# --------------------------------------------------------------------------------- matching


def test_anyone_matches_own_cards_of_the_discard_top_rank_any_time() -> None:
    """Dutch: "Matching: anyone, any time, own cards of the discard top's rank" — out of turn,
    during the next player's turn too; never another player's card."""
    g = deal([P0, P1, ["5H", "3H", "4H", "9H"]], stock=["5S", "6D", "6H"], discard=["6S"])
    draw_and_throw(g)
    g.apply(Pass(0))  # no call
    assert g.current_player == 1 and g.phase == "draw"
    assert matches_listed(g, 2) == {MatchAction(2, (s,)) for s in range(4)}  # every own slot, right or wrong
    assert_illegal(g, MatchAction(2, (3,), owner=1))
    events = g.apply(MatchAction(2, (0,)))
    assert kinds(events) == ["matched"] and events[0]["card"] == "5H"
    assert g.layout(2) == [None, "3H", "4H", "9H"] and g.view(1).discard_top == "5H"


def test_a_miss_costs_one_penalty_card() -> None:
    """Dutch: "a miss costs one penalty card" — the wrong card goes back, one card face down from
    the stock into a new slot."""
    g = deal([P0, P1], stock=["5S", "KS", "6H"], discard=["6S"])
    draw_and_throw(g)
    events = g.apply(MatchAction(1, (0,)))  # 2D on a 5S
    assert kinds(events) == ["missed", "penalty"]
    assert g.layout(1) == [*P1, "KS"] and not any(g.knows(p, g.card_at(1, 4)) for p in range(2))
    assert seen(g, 0, 1)[0] == "2D"  # the wrong card went back face up for everyone


def test_only_the_first_right_throw_counts() -> None:
    """Dutch: "only the first right throw counts" — a later right card goes back, no penalty
    (Decided); and one throw per player on each card (Decided)."""
    hands = [["2C", "3C", "4C", "7C"], ["5D", "5H", "4D", "3D"], ["5S", "3H", "4H", "9H"]]
    g = deal(hands, stock=["5C", "6D", "6H"], discard=["6S"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]
    assert matches_listed(g, 1) == set()
    assert_illegal(g, MatchAction(1, (1,)))
    events = g.apply(MatchAction(2, (0,)))
    assert kinds(events) == ["late"] and g.view(2).hands[2][4:] == []  # no penalty card
    assert g.layout(2) == ["5S", "3H", "4H", "9H"] and g.layout(1) == [None, "5H", "4D", "3D"]


# --------------------------------------------------------------------------------- the call


def test_call_dutch_at_the_end_of_your_turn_any_total() -> None:
    """Dutch: "Calling 'Dutch': at the end of your turn, after playing (as french)" — not instead of
    drawing; offered after playing whatever the total (no threshold)."""
    g = deal([["KS", "KC", "QS", "QC"], P1], stock=["6C", "6D", "6H"], discard=["6S"])
    assert Call(0) not in turn_options(g, 0)
    assert_illegal(g, Call(0))
    draw_and_throw(g)
    assert g.phase == "call" and turn_options(g, 0) == {Call(0), Pass(0)}
    events = g.apply(Call(0))
    assert kinds(events)[0] == "called" and g.caller == 0 and g.current_player == 1


def test_every_other_player_has_one_last_turn() -> None:
    """Dutch: "Every other player has one last turn." — then the round ends (after the last
    chance to match the last card thrown)."""
    g = deal([P0, P1, P2], stock=["6C", "6D", "6H", "7C"], discard=["6S"])
    draw_and_throw(g)
    g.apply(Call(0))
    for p in (1, 2):
        assert g.current_player == p and not g.is_over
        assert Call(p) not in turn_options(g, p)
        quiet_turn(g)
    assert g.is_over and g.result().reason == "called" and g.view(0).stock_size == 1


def test_the_callers_cards_can_no_longer_be_swapped() -> None:
    """Dutch: "The caller's cards can no longer be swapped" — the J leaves the caller's layout out
    (and, Decided, the A gives the caller nothing)."""
    g = deal([P0, P1, P2], stock=["6C", "JD", "AH", "7C"], discard=["6S"])
    draw_and_throw(g)
    g.apply(Call(0))
    draw_and_throw(g)  # p1 throws the J
    uses = {a for a in turn_options(g, 1) if isinstance(a, Power)}
    assert uses and all(0 not in (a.owner, a.target) for a in uses)
    assert len(uses) == 16  # p1's and p2's cards only
    assert_illegal(g, Power(1, slot=0, target=1, target_slot=0, owner=0))
    g.apply(Pass(1))
    draw_and_throw(g)  # p2 throws the A
    assert {a for a in turn_options(g, 2) if isinstance(a, Power)} == {Power(2, target=1)}


def test_the_cards_of_a_caller_at_another_seat_than_the_first_can_no_longer_be_swapped_either() -> None:
    """Dutch: "The caller's cards can no longer be swapped", whoever calls: seat 1 calls, and the J seat 2 throws
    next leaves seat 1's layout out. Pinned by mutation testing (docs/mutation.md)."""
    g = deal([P0, P1, P2], stock=["6C", "7C", "JD", "8C"], discard=["6S"])
    draw_and_throw(g)
    g.apply(Pass(0))
    draw_and_throw(g)
    g.apply(Call(1))
    draw_and_throw(g)  # p2 throws the J
    uses = {a for a in turn_options(g, 2) if isinstance(a, Power)}
    assert uses and all(1 not in (a.owner, a.target) for a in uses)
    assert len(uses) == 16  # p0's and p2's cards only


def test_the_caller_may_still_match() -> None:
    """Dutch: "but the caller may still match"."""
    g = deal([["5C", "3C", "4C", "2C"], P1, P2], stock=["6C", "5S", "7C"], discard=["6S"])
    draw_and_throw(g)
    g.apply(Call(0))
    draw_and_throw(g)  # p1 throws the 5S; p2 is to play
    assert matches_listed(g, 0) == {MatchAction(0, (s,)) for s in range(4)}
    assert kinds(g.apply(MatchAction(0, (0,)))) == ["matched"]
    assert g.layout(0) == [None, "3C", "4C", "2C"]


# --------------------------------------------------------------------------------- scoring


def test_everyone_scores_their_total() -> None:
    """Dutch: "Scoring in a match of rounds: everyone scores their total" — the caller too, when
    lowest (no zero)."""
    hands = [["AC", "2C", "3C", "KH"], ["QD", "10D", "7D", "4D"], ["KS", "9H", "8H", "7H"]]
    r = called_round(*hands)
    totals = [sum(dutch_value(c) for c in h) for h in hands]
    assert totals == [6, 33, 37]
    assert r.totals == totals and r.winners == [0] and r.scores == totals


def test_a_caller_without_the_lowest_total_scores_total_plus_ten() -> None:
    """Dutch: "a caller who does not have the lowest total scores their total + 10"."""
    hands = [["KS", "QC", "JC", "10C"], ["AD", "2D", "3D", "4D"], ["KD", "9H", "8H", "7H"]]
    r = called_round(*hands)
    assert r.totals == [46, 10, 24] and r.winners == [1]
    assert r.scores == [56, 10, 24]


def test_ties_for_the_lowest_favour_the_caller() -> None:
    """Dutch: "ties for the lowest favour the caller" — the caller alone wins and scores the total;
    two tied non-callers share the win."""
    hands = [["KH", "4C", "7C", "9C"], ["KD", "4D", "7D", "9D"], ["KS", "9H", "8H", "7H"]]
    r = called_round(*hands)
    assert r.totals == [20, 20, 37] and r.winners == [0] and r.ranking[0] == [0]
    assert r.scores == [20, 20, 37]
    hands = [["KS", "QC", "JC", "10C"], ["KD", "4D", "7D", "9D"], ["KH", "4H", "7H", "9H"]]
    r = called_round(*hands)
    assert r.winners == [1, 2] and r.scores == [56, 20, 20]


def _play_round(g: Round) -> None:
    """Everybody draws and throws (powers declined); the first player to reach the call calls."""
    while not g.is_over:
        p = g.current_player
        if g.phase in ("power", "swap", "closing"):
            g.apply(Pass(p))
        elif g.phase == "call":
            g.apply(Call(p) if g.caller is None else Pass(p))
        else:
            draw_and_throw(g)


def expected_scores(g: Round) -> list[int]:
    """Dutch's scoring from the cards on the table: totals; the caller + 10 unless lowest (ties favour them)."""
    totals = [sum(dutch_value(c) for c in g.layout(p) if c is not None) for p in range(g.players)]
    caller = g.result().caller
    if caller is not None and totals[caller] > min(totals):
        totals[caller] += 10
    return totals


def test_a_match_ends_when_a_cumulative_score_passes_100() -> None:
    """Dutch: "The match ends when a cumulative score passes 100; the lowest cumulative score wins." """
    for seed in (1, 2, 3):
        m = tamalou.new_match(DUTCH, 3, seed=seed)
        cumulative = [0, 0, 0]
        rounds = 0
        while not m.is_over:
            assert max(cumulative) <= 100
            rd = tamalou.round_of(m.game)
            _play_round(rd)
            scores = expected_scores(rd)
            assert m.game.result().scores == scores
            cumulative = [a + b for a, b in zip(cumulative, scores, strict=True)]
            m.next_round()
            rounds += 1
        r = m.result()
        assert max(cumulative) > 100 and r.totals == cumulative and len(r.rounds) == rounds > 1
        assert r.winners == [p for p in range(3) if cumulative[p] == min(cumulative)]
        assert r.form == "points"


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(DUTCH, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
