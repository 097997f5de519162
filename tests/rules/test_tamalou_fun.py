"""Scenario tests of the tamalou.fun ruleset (docs/rules/tamalou-fun.md): the page "How to play Tamalou"
on tamalou.fun (rules and FAQ), its timing and doubling, and the points the engine decides.

One test per sentence of the page that states a rule, named after it and quoting it. Every scenario
is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first; the opening peek shows each
player slots 0 and 3), ``stock`` top first, the discard empty, seat 0 plays first. Time is explicit:
every action carries ``at`` (seconds since the deal), ``Tick`` lets time pass. The opening peek ends
at 5 s; a turn lasts 45 s (15 s for an absent player).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import partial
from typing import Any, Literal

import pytest

import scenario
import tamalou
from scenario import FULL_DECK, RANKS, assert_illegal, kinds, of_kind, seen, turn_options
from scenario import draw_and_throw as throw
from scenario import matches_listed as doubles_listed
from tamalou import (
    Action,
    Call,
    Discard,
    Draw,
    Event,
    Game,
    IllegalAction,
    MatchAction,
    Pass,
    Power,
    Replace,
    Round,
    SetupError,
    Tick,
)
from tamalou.engine import new_round
from tamalou.testing import check_conservation

FUN = "tamalou.fun"
OPEN = 5.0  # the opening peek ends
TURN = 45.0
SHORT = 15.0  # the turn of an absent player (Decided)
COUNTDOWN = 5.0
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 0, "J": 10, "Q": 10, "K": 10}
POWER_OF = {"J": "play_again", "Q": "blind_swap", "K": "peek_own"}


# --------------------------------------------------------------------------------- helpers

deal = partial(scenario.deal, variant=FUN)


def fun_with(**changes: Any) -> tamalou.Variant:
    """tamalou.fun with some keys changed: ``fun_with(deal={"discard": 1})``."""
    d = tamalou.load_variant(FUN).model_dump()
    for table, keys in changes.items():
        d["rules"][table].update(keys)
    d["name"] = "tamalou-fun-changed"
    d["aliases"] = []
    return tamalou.variant_from_dict(d)


def known_to_all(g: Round, owner: int) -> bool:
    """Every card of ``owner`` shows in every player's view."""
    cards = {s: c for s, c in enumerate(g.layout(owner)) if c is not None}
    return all(seen(g, p, owner) == cards for p in range(g.players))


def double(p: int, slot: int, at: float) -> MatchAction:
    return MatchAction(p, (slot,), at=at)


def quiet_turn(g: Round, at: float) -> list[Event]:
    """Draw from the stock and throw it at ``at``, passing a power if one is offered."""
    p = g.current_player
    events = throw(g, at)
    if not g.is_over and g.current_player == p and g.phase == "power":
        events += g.apply(Pass(p, at=at))
    return events


def run_out_the_clock(g: Round) -> list[Event]:
    """Nobody plays any more: every turn times out until one player is left."""
    return g.apply(Tick(at=g.now + 10_000))


def thrown_after_the_opening(variant: tamalou.Variant, top: str) -> Round:
    """After the opening, seat 0 draws ``top`` from the stock at 6 s and throws it."""
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[top, "6C", "5D"], discard=["3C"], variant=variant
    )
    g.apply(Tick(at=OPEN))
    throw(g, 6)
    return g


def check_cards(g: Round, universe: int) -> None:
    """Cards are conserved: every card is in one place, and what is public adds up."""
    check_conservation(g)
    view = g.view(0)
    public = [c for p in range(g.players) for c in g.layout(p) if c is not None] + view.discard
    held = 0 if view.holding is None else 1
    assert len(public) == len(set(public))
    assert len(public) + held + view.stock_size == universe


# --------------------------------------------------------------------------------- the goal, setup


def test_two_to_five_players_with_an_ordinary_deck_of_52_cards_and_no_jokers() -> None:
    """FAQ "How many players can play Tamalou?" — "2 to 5 players, with an ordinary deck of 52 cards
    and no jokers." Also "The goal": "2 to 5 players, one ordinary deck of 52 cards, no jokers." """
    for n in range(2, 6):
        g = new_round(FUN, players=n, seed=n)
        dealt = [c for p in range(n) for c in g.layout(p)]
        assert len(dealt) == 4 * n == len(set(dealt))
        assert set(dealt) <= FULL_DECK
        assert g.view(0).stock_size == 52 - 4 * n
    for n in (1, 6):
        with pytest.raises(SetupError):
            tamalou.new_game(FUN, players=n, seed=1)
    # Every card of the stock, drawn one by one until the first reshuffle: the 52 cards, no joker.
    g = new_round(FUN, players=2, seed=52)
    cards = [c for p in range(2) for c in g.layout(p) if c is not None]
    t = OPEN
    while g.view(0).stock_size:
        p = g.current_player
        g.apply(Draw(p, "stock", at=t))
        held = g.view(p).held
        assert held is not None
        cards.append(held)
        g.apply(Discard(p, at=t))
        if g.phase == "power":
            g.apply(Pass(p, at=t))
        t += 1
    assert len(cards) == 52 and set(cards) == FULL_DECK


def test_a_game_is_a_single_round() -> None:
    """ "A game is a single round." — a match of tamalou.fun is over after its first round."""
    assert tamalou.load_variant(FUN).rules.rounds.form == "single"
    m = tamalou.new_match(FUN, players=3, seed=11)
    run_out_the_clock(tamalou.round_of(m.game))
    assert m.game.is_over and not m.is_over
    m.next_round()
    assert m.is_over
    assert len(m.result().rounds) == 1


def test_every_player_gets_4_cards_face_down_in_a_row() -> None:
    """ "Every player gets 4 cards face down, in a row in front of them." """
    assert tamalou.load_variant(FUN).rules.deal.layout == "row"
    for n in range(2, 6):
        g = new_round(FUN, players=n, seed=40 + n)
        for p in range(n):
            assert g.card_count(p) == 4
            for q in range(n):
                row = seen(g, p, q)
                assert list(row) == [0, 1, 2, 3]
                if p != q:
                    assert set(row.values()) == {None}  # face down


def test_the_rest_of_the_deck_is_the_draw_pile_the_discard_pile_is_empty_at_the_start() -> None:
    """ "The rest of the deck is the draw pile; the discard pile is empty at the start." """
    for n in range(2, 6):
        g = tamalou.new_game(FUN, players=n, seed=60 + n)
        for p in range(n):
            view = g.view(p)
            assert view.discard == [] and view.discard_top is None
            assert view.stock_size == 52 - 4 * n
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C"])
    g.apply(Tick(at=OPEN))
    # Nothing to take from the discard, nothing to double on.
    assert turn_options(g, 0) == {Draw(0, "stock"), Call(0)}
    assert_illegal(g, Draw(0, "discard", at=OPEN + 1))
    assert doubles_listed(g, 0) == doubles_listed(g, 1) == set()
    assert_illegal(g, double(1, 0, OPEN))


def test_for_5_seconds_everyone_sees_the_first_and_the_last_of_their_row() -> None:
    """ "For 5 seconds, everyone sees two of their own cards: the first and the last of their row.
    Memorise them: they are then hidden." ("In short": "Everyone has 4 cards face down and sees only 2 of
    them, for 5 seconds, at the start.") — slots 0 and 3; a view is what a player knows (perfect
    recall), so the memorised cards stay in their owner's view after the 5 s."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 4S
            ["AH", "2H", "3H", "4H"],  # p1 sees AH, 4H
        ],
        stock=["5C", "6C"],
    )
    assert seen(g, 0, 0) == {0: "AS", 1: None, 2: None, 3: "4S"}
    assert seen(g, 1, 1) == {0: "AH", 1: None, 2: None, 3: "4H"}
    assert set(seen(g, 0, 1).values()) == set(seen(g, 1, 0).values()) == {None}
    # The 5 s of the opening: nobody plays.
    assert g.phase == "opening" and g.now == 0 and g.deadline == OPEN
    # Only time may pass: the opening is a time-only phase, every seat is offered nothing but Tick.
    assert g.legal_actions(0) == g.legal_actions(1) == [Tick(at=OPEN)]
    assert g.to_act == [0, 1]
    assert_illegal(g, Draw(0, "stock", at=4.99))
    assert_illegal(g, Call(0, at=4.99))
    g.apply(Tick(at=4.99))
    assert g.phase == "opening"
    events = g.apply(Draw(0, "stock", at=OPEN))
    assert kinds(events) == ["opening_over", "turn", "drew"]
    assert seen(g, 0, 0) == {0: "AS", 1: None, 2: None, 3: "4S"}
    # The same on shuffled deals of every size.
    for n in range(2, 6):
        g = new_round(FUN, players=n, seed=80 + n)
        for p in range(n):
            for q in range(n):
                expected = {s: (g.layout(q)[s] if p == q and s in (0, 3) else None) for s in range(4)}
                assert seen(g, p, q) == expected


def test_from_then_on_you_play_from_memory_you_no_longer_see_your_own_cards() -> None:
    """ "From then on you play from memory: you no longer see your own cards." — the two middle cards
    were never shown, and a player's view never shows a card they were not shown."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
    throw(g, OPEN)
    throw(g, 6)
    for p in range(2):
        assert seen(g, p, p)[1] is None and seen(g, p, p)[2] is None
        assert g.view(p).held is None


def test_the_first_player_is_drawn_at_random_then_everyone_plays_in_turn() -> None:
    """ "The first player is drawn at random, then everyone plays in turn." """
    firsts = {new_round(FUN, players=4, seed=s).first_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    g = new_round(FUN, players=4, seed=5)
    first = g.first_player
    order = []
    t = OPEN
    for _ in range(8):
        order.append(g.current_player)
        quiet_turn(g, t)
        t += 1
    assert order == [(first + k) % 4 for k in range(8)]


# --------------------------------------------------------------------------------- card values


@pytest.mark.parametrize("rank", RANKS)
def test_what_the_cards_are_worth_suits_never_matter(rank: str) -> None:
    """ "Ace: 1 point", "2 to 9: their number", "10: 0 points: the best card in the game", "Jack, Queen,
    King: 10 points each" — "Suits (hearts, diamonds, clubs, spades) never matter." """
    other, filler = [r for r in ("9", "8", "7") if r != rank][:2]
    g = deal([[f"{rank}{s}" for s in "SHDC"], [f"{other}{s}" for s in "SHDC"]], stock=[f"{filler}{s}" for s in "SHDC"])
    assert g.total(0) == 4 * VALUES[rank]
    run_out_the_clock(g)
    assert g.result().totals[0] == 4 * VALUES[rank]


def test_example_ace_10_3_and_king_make_14_points() -> None:
    """ "Example: Ace, 10, 3 and King make 1 + 0 + 3 + 10 = 14 points." """
    g = deal([["AH", "10C", "3D", "KS"], ["9S", "9H", "9D", "9C"]], stock=["5C", "6C", "7C", "8C"])
    assert g.total(0) == 14
    run_out_the_clock(g)
    assert g.result().totals == [14, 36]


def test_faq_a_10_is_worth_0_points_the_best_card_in_the_game() -> None:
    """FAQ "What is a 10 worth in Tamalou?" — "0 points: it is the best card in the game. An Ace is
    worth 1 point, cards 2 to 9 their number, and a Jack, Queen or King 10 points." """
    g = deal([["10S", "10H", "10D", "10C"], ["AS", "AH", "AD", "AC"]], stock=["5C", "6C"])
    run_out_the_clock(g)
    assert g.result().totals == [0, 4]


# --------------------------------------------------------------------------------- a turn


def test_draw_the_top_card_of_the_draw_pile_or_the_top_card_of_the_discard_pile() -> None:
    """ "Draw the top card of the draw pile, or the top card of the discard pile." """
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
    (_, _, drew) = g.apply(Draw(0, "stock", at=OPEN))
    assert drew.for_player(0)["card"] == "5C" and drew.for_player(1)["card"] is None
    assert g.view(0).held == "5C" and g.view(1).held is None and g.view(1).holding == 0
    g.apply(Discard(0, at=6))
    assert turn_options(g, 1) == {Draw(1, "stock"), Draw(1, "discard"), Call(1)}
    (drew,) = g.apply(Draw(1, "discard", at=7))
    assert drew.for_player(0)["card"] == "5C"  # taken in everyone's sight
    assert g.view(1).held == "5C" and g.view(0).discard == []
    assert g.view(0).stock_size == 2


def test_a_jack_a_queen_or_a_king_cannot_be_taken_from_the_discard_pile() -> None:
    """ "A Jack, a Queen or a King cannot be taken from the discard pile." """
    for face in ("JC", "QC", "KC"):
        g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[face, "6C"])
        throw(g, OPEN)
        g.apply(Pass(0, at=6))  # its power is not used
        assert g.view(1).discard_top == face and g.current_player == 1 and g.phase == "draw"
        assert turn_options(g, 1) == {Draw(1, "stock"), Call(1)}
        assert_illegal(g, Draw(1, "discard", at=7))


def test_the_refusal_of_a_king_from_the_discard_says_which_rank_may_not_be_taken() -> None:
    """The draw of a King from the discard is refused for its rank, not because the discard may never be drawn
    from (it may: an Ace to a 10). Pinned by mutation testing (docs/mutation.md)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["KC", "6C"])
    throw(g, OPEN)
    g.apply(Pass(0, at=6))  # its power is not used
    with pytest.raises(IllegalAction, match=r"^a K cannot be taken from the discard$"):
        g.apply(Draw(1, "discard", at=7))


@pytest.mark.parametrize("rank", RANKS[:10])
def test_faq_from_the_discard_you_can_only_take_a_card_without_a_power_ace_to_10(rank: str) -> None:
    """FAQ "Can you take a Jack, Queen or King from the discard pile?" — "No. From the discard pile you
    can only take a card without a power, from Ace to 10." """
    top = f"{rank}C"
    g = deal([["JS", "QS", "KS", "JH"], ["QH", "KH", "JD", "QD"]], stock=[top, "KC"])
    throw(g, OPEN)
    assert g.current_player == 1 and g.phase == "draw"  # no power: the turn passed at once
    assert Draw(1, "discard") in turn_options(g, 1)
    g.apply(Draw(1, "discard", at=7))
    assert g.view(1).held == top


def test_keep_it_in_the_place_of_one_of_your_cards_which_goes_face_up_or_throw_it() -> None:
    """ "Keep it or not. Put it in the place of one of your cards, which goes face up onto the discard
    pile. Or throw the card you just drew straight onto the discard pile." ("In short": "On your turn, draw
    a card, then keep it in the place of one of yours, or throw it away.") — a card taken from the discard
    must replace one (Decided)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
    g.apply(Draw(0, "stock", at=OPEN))
    assert turn_options(g, 0) == {Replace(0, s) for s in range(4)} | {Discard(0)}
    (replaced, turn) = g.apply(Replace(0, 1, at=6))
    assert replaced["card"] == "2S" and turn["player"] == 1
    assert g.layout(0) == ["AS", "5C", "3S", "4S"]
    assert g.view(1).discard == ["2S"]  # face up, in everyone's sight
    g.apply(Draw(1, "discard", at=7))  # p1 takes the 2S: it must go into p1's row
    assert turn_options(g, 1) == {Replace(1, s) for s in range(4)}
    assert_illegal(g, Discard(1, at=7.5))
    g.apply(Replace(1, 2, at=8))
    assert g.layout(1)[2] == "2S" and g.view(0).discard == ["3H"]
    (discarded,) = of_kind(throw(g, 9), "discarded")
    assert discarded["card"] == "6C" and g.view(1).discard == ["3H", "6C"]
    assert g.layout(0) == ["AS", "5C", "3S", "4S"]


def test_then_the_next_player_plays_the_card_you_keep_goes_face_down_remember_it() -> None:
    """ "Then the next player plays. The card you keep goes face down: you saw it when you drew it, so
    remember it." """
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
    g.apply(Draw(0, "stock", at=OPEN))
    events = g.apply(Replace(0, 2, at=6))
    assert [e["player"] for e in of_kind(events, "turn")] == [1]
    assert g.current_player == 1 and g.turn == 1
    assert seen(g, 0, 0)[2] == "5C"  # the drawer saw it
    assert seen(g, 1, 0)[2] is None  # face down to the others


@pytest.mark.parametrize("rank", RANKS)
def test_power_if_the_card_that_landed_is_a_jack_queen_or_king_you_may_use_it_or_pass(rank: str) -> None:
    """ "Power. If the card that has just landed on the discard pile is a Jack, a Queen or a King, you
    may use its power, or pass." — no other card has a power (no 7 to 10 powers here)."""
    card = f"{rank}D"  # diamonds: no clash with the clubs filling the stock
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[card, "6C", "7C"])
    events = throw(g, OPEN)
    offered = [e["power"] for e in of_kind(events, "power_offered")]
    if rank in POWER_OF:
        assert offered == [POWER_OF[rank]]
        assert g.phase == "power" and g.current_player == 0
        assert Pass(0) in turn_options(g, 0)
        events = g.apply(Pass(0, at=6))
        assert [e["player"] for e in of_kind(events, "turn")] == [1]
    else:
        assert offered == []
        assert g.current_player == 1 and g.phase == "draw"
    assert g.view(1).power is None


# --------------------------------------------------------------------------------- the clock


def test_each_turn_lasts_45_seconds() -> None:
    """ "Each turn lasts 45 seconds." — the first turn starts when the 5 s opening ends."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C", "8C"])
    g.apply(Tick(at=OPEN))
    assert g.current_player == 0 and g.deadline == OPEN + TURN
    late = g.copy()
    assert_illegal(late, Draw(0, "stock", at=OPEN + TURN))  # the turn is over by then
    assert late.now == OPEN
    g.apply(Draw(0, "stock", at=OPEN + TURN - 0.01))
    g.apply(Discard(0, at=OPEN + TURN - 0.01))
    start = OPEN + TURN - 0.01
    assert g.current_player == 1 and g.deadline == start + TURN
    g.apply(Tick(at=start + TURN - 0.01))
    assert g.current_player == 1 and g.phase == "draw"
    events = g.apply(Tick(at=start + TURN))
    assert of_kind(events, "timeout")[0]["player"] == 1
    assert g.current_player == 0


@pytest.mark.parametrize("stage", ["nothing drawn", "holding", "holding from the discard", "choosing a power"])
def test_when_the_fuse_burns_out_your_turn_is_played_for_you(stage: str) -> None:
    """ "When less than 15 are left, a fuse burns across the table; when it burns out, your turn is
    played for you." — Decided: nothing drawn: draw from the stock and throw it (its
    power passed); holding: throw the held card; choosing a power target: pass."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
        ],
        stock=["KC", "6C", "7C", "8C"],
    )
    rows = [g.layout(0), g.layout(1)]
    g.apply(Tick(at=OPEN))
    if stage == "holding":
        g.apply(Draw(0, "stock", at=10))
    elif stage == "choosing a power":
        throw(g, 10)
        assert g.phase == "power"
    elif stage == "holding from the discard":
        quiet_turn(g, 10)  # p0 throws the KC
        throw(g, 11)  # p1 throws the 6C
        g.apply(Draw(0, "discard", at=12))  # p0 takes the 6C...
    deadline = (11 if stage == "holding from the discard" else OPEN) + TURN
    assert g.deadline == deadline
    g.apply(Tick(at=deadline - 0.01))
    assert g.current_player == 0
    events = g.apply(Tick(at=deadline))
    (timeout,) = of_kind(events, "timeout")
    assert timeout["player"] == 0 and timeout["at"] == deadline
    assert g.current_player == 1 and g.phase == "draw"
    assert [g.layout(0), g.layout(1)] == rows  # nothing was put in a row
    if stage == "holding from the discard":
        assert g.view(0).discard == ["KC", "6C"]  # ... and it goes back where it came from
    else:
        assert g.view(0).discard == ["KC"]
        assert g.view(1).power is None  # a power passed is not handed on
    if stage == "nothing drawn":
        assert kinds(events)[1:] == ["drew", "discarded", "power_offered", "passed", "turn"]


def test_the_clock_running_out_with_only_the_discard_to_draw_from_passes_the_turn() -> None:
    """tamalou-fun: a turn whose time runs out before a draw is played for the player with a draw
    from the stock; with the stock empty (and nothing to reshuffle under the discard's single card),
    the player passes and the next turn starts.
    Pinned by mutation testing (docs/mutation.md)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[], discard=["5C"])
    g.apply(Tick(at=OPEN))
    assert g.legal_actions(0)[0] == Draw(0, "discard")
    events = g.apply(Tick(at=OPEN + TURN))
    assert kinds(events) == ["timeout", "passed", "turn"]
    assert of_kind(events, "passed")[0]["player"] == 0
    assert (g.current_player, g.phase, g.view(0).discard) == (1, "draw", ["5C"])


def test_the_clock_running_out_when_a_second_draw_is_offered_declines_it() -> None:
    """tamalou-fun with two draws a turn: time running out after the first draw was thrown declines
    the second, as a pass would, and the next turn starts.
    Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
        stock=["5C", "6C", "5D"],
        discard=["3C"],
        variant=fun_with(draw={"per_turn": 2}),
    )
    g.apply(Tick(at=OPEN))
    g.apply(Draw(0, "stock", at=6))
    assert kinds(g.apply(Discard(0, at=6))) == ["discarded", "draw_offered"]
    events = g.apply(Tick(at=6 + TURN))
    assert kinds(events) == ["timeout", "passed", "turn"]
    assert (g.current_player, g.view(0).stock_size, g.view(0).discard) == (1, 2, ["3C", "5C"])


def test_the_clock_running_out_in_an_end_of_turn_call_declines_the_call() -> None:
    """tamalou-fun with the call offered at the end of a turn: time running out while the call is on
    offer declines it, as a pass would; nobody called.
    Pinned by mutation testing (docs/mutation.md)."""
    g = thrown_after_the_opening(fun_with(call={"when": "end_of_turn"}), "5C")
    assert g.phase == "call"
    events = g.apply(Tick(at=OPEN + TURN))
    assert kinds(events) == ["timeout", "passed", "turn"]
    assert (g.current_player, g.caller) == (1, None)


def test_the_clock_running_out_on_a_power_that_may_not_be_declined_uses_it() -> None:
    """tamalou-fun with powers that may not be declined: time running out on a King's peek uses it on
    the first slot it may look at (the player's slot 0).
    Pinned by mutation testing (docs/mutation.md)."""
    g = thrown_after_the_opening(fun_with(powers={"optional": False}), "KC")
    assert g.phase == "power"
    events = g.apply(Tick(at=OPEN + TURN))
    (looked,) = of_kind(events, "looked")
    assert (looked["player"], looked["owner"], looked["slot"], looked["card"]) == (0, 0, 0, "AS")
    assert g.current_player == 1


def test_the_clock_running_out_in_a_look_and_swap_passes_the_swap() -> None:
    """tamalou-fun with a King that looks then may swap: time running out after the look, before the
    swap is chosen, passes it; nothing moves.
    Pinned by mutation testing (docs/mutation.md)."""
    d = tamalou.load_variant(FUN).model_dump(mode="json")
    d["rules"]["powers"]["ranks"]["K"] = "look_and_swap"
    d["name"], d["aliases"] = "tamalou-fun-look-and-swap", []
    g = thrown_after_the_opening(tamalou.variant_from_dict(d), "KC")
    g.apply(g.legal_actions(0)[0])  # look at p1's slot 0
    assert g.phase == "swap"
    events = g.apply(Tick(at=OPEN + TURN))
    assert kinds(events)[:3] == ["timeout", "passed", "turn"]
    assert [g.layout(0), g.layout(1)] == [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]]


def test_an_absent_player_who_plays_without_a_time_is_back_too() -> None:
    """An action without ``at`` happens at the game's time; played by an absent player in their turn, it brings them
    back as a timed one does (the clock's presence check runs for every action, not only for timed ones).
    Pinned by mutation testing (docs/mutation.md)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[f"{r}C" for r in "5678"] + ["9C", "9D"])
    quiet_turn(g, 6)  # p0; p1's turn: 6 to 51
    g.apply(Tick(at=6 + TURN))  # p1 lets it go by
    quiet_turn(g, 52)  # p0: p1's next turn is short
    assert g.current_player == 1 and g.state_of("timing").absent[1]
    g.apply(Draw(1, "stock"))  # at the game's time, 52 s
    assert g.now == 52 and not g.state_of("timing").absent[1] and g.state_of("timing").absent_turns[1] == 0


def test_let_a_whole_turn_go_by_without_playing_and_your_next_one_is_short_until_you_play() -> None:
    """ "Let a whole turn go by without playing and your next one is short, until you play." — 15 s
    (Decided)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[f"{r}C" for r in "5678"] + ["9C", "9D"])
    quiet_turn(g, 6)  # p0; p1's turn: 6 to 51
    g.apply(Tick(at=6 + TURN))  # p1 lets it go by
    assert g.state_of("timing").absent[1] and g.state_of("timing").absent_turns[1] == 1
    quiet_turn(g, 52)  # p0: p1's next turn is short
    assert g.current_player == 1 and g.deadline == 52 + SHORT
    g.apply(Tick(at=52 + SHORT))  # and it goes by too
    assert g.state_of("timing").absent_turns[1] == 2
    quiet_turn(g, 70)
    assert g.deadline == 70 + SHORT
    quiet_turn(g, 71)  # p1 plays: it is back
    assert not g.state_of("timing").absent[1] and g.state_of("timing").absent_turns[1] == 0
    quiet_turn(g, 72)  # p0
    assert g.current_player == 1 and g.deadline == 72 + TURN
    # A turn in which the player did something is not a whole turn gone by.
    g.apply(Draw(1, "stock", at=73))
    g.apply(Tick(at=72 + TURN))
    assert not g.state_of("timing").absent[1]
    assert g.current_player == 0 and g.deadline == 72 + TURN + TURN


def test_when_every_clock_but_one_has_run_out_the_game_ends() -> None:
    """ "The game ends: [...] when every clock but one has run out;" — Decided: a player
    absent for 3 whole turns in a row leaves the round, ranked last; one player left ends the game."""
    g = deal(
        [
            ["9S", "9H", "9D", "9C"],  # 36
            ["AH", "2H", "10H", "10D"],  # 3, but p1 never plays
        ],
        stock=["5C", "6C", "7C", "8C", "5D", "6D", "7D", "8D"],
    )
    quiet_turn(g, 6)
    g.apply(Tick(at=6 + TURN))  # p1: 1st whole turn gone (45 s)
    quiet_turn(g, 52)
    g.apply(Tick(at=52 + SHORT))  # 2nd (15 s)
    quiet_turn(g, 68)
    assert g.state_of("timing").absent_turns[1] == 2 and not g.is_over
    g.apply(Tick(at=68 + SHORT - 0.01))
    assert not g.is_over and g.left == 0
    events = g.apply(Tick(at=68 + SHORT))  # 3rd in a row: p1's clock has run out
    assert kinds(events)[-2:] == ["left", "round_over"]
    assert events[-2].to_dict() == {"type": "left", "player": 1}  # (pinned by mutation testing)
    assert g.left == 1 << 1
    result = g.result()
    assert result.reason == "last_player"
    assert result.totals == [36, 3]
    assert result.ranking == [[0], [1]] and result.winners == [0]


def test_a_player_whose_clock_ran_out_is_skipped_and_ranked_last() -> None:
    """ "when every clock but one has run out" — with three players, one leaving is not the end: the
    others play on; the one who left is ranked last whatever their total (Decided)."""
    g = deal(
        [
            ["AS", "2S", "10S", "10C"],  # p0: 3
            ["9S", "9H", "9D", "9C"],  # p1: 36
            ["10H", "10D", "AH", "AD"],  # p2: 2, never plays
        ],
        stock=["5C", "6C", "7C", "8C", "5D", "6D", "7D", "8D", "5H", "6H"],
    )
    t = 6.0
    while not g.left:
        if g.current_player == 2:
            g.apply(Tick(at=g.deadline))
        else:
            quiet_turn(g, t)
        t = g.now + 1
    assert g.left == 1 << 2 and not g.is_over
    assert g.current_player == 0
    assert doubles_listed(g, 2) == set()  # out of the game: no doubles either
    quiet_turn(g, t)
    events = quiet_turn(g, t + 1)  # p1; p2 is skipped
    assert g.current_player == 0 and [e["player"] for e in of_kind(events, "turn")] == [0]
    g.apply(Call(0, at=t + 2))  # a right call: p1 plays its last turn
    quiet_turn(g, t + 3)
    g.apply(Tick(at=t + 3 + COUNTDOWN))
    result = g.result()
    assert result.reason == "called"
    assert result.totals == [3, 36, 2]
    assert result.ranking == [[0], [1], [2]] and result.winners == [0]


def test_the_countdown_after_a_call_waits_only_on_the_players_still_in_the_round() -> None:
    """tamalou-fun: a player whose clock ran out has left the round; after a call, the final countdown
    is time the others may still use (to double), not the one who left.
    Pinned by mutation testing (docs/mutation.md)."""
    g = deal(
        [["AS", "2S", "10S", "10C"], ["9S", "9H", "9D", "9C"], ["10H", "10D", "AH", "AD"]],
        stock=["5C", "6C", "7C", "8C", "5D", "6D", "7D", "8D", "5H", "6H"],
    )
    t = 6.0
    while not g.left:  # p2 never plays: three turns gone by and it leaves
        if g.current_player == 2:
            g.apply(Tick(at=g.deadline))
        else:
            throw(g, t)
        t = g.now + 1
    while g.current_player != 0:
        throw(g, t)
    g.apply(Call(0, at=t + 1))
    throw(g, t + 2)
    assert g.phase == "countdown"
    assert g.to_act == [0, 1]


# --------------------------------------------------------------------------------- powers


@pytest.mark.parametrize("how", ["thrown", "replaced"])
@pytest.mark.parametrize("face", ["J", "Q", "K"])
def test_the_power_comes_from_the_thrown_draw_or_the_replaced_row_card(face: str, how: str) -> None:
    """ "The power comes from the card that lands on the discard pile during your turn: the card you just
    drew and threw away, or the card of your row that you replace." ("In short": "A Jack plays again, a
    Queen swaps a card with an opponent, a King peeks at one of your own cards.")"""
    card = f"{face}H"
    if how == "thrown":
        g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=[card, "6C", "7C"])
        events = throw(g, OPEN)
    else:
        g = deal([["AS", card, "3S", "4S"], ["AC", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
        g.apply(Draw(0, "stock", at=OPEN))
        events = g.apply(Replace(0, 1, at=6))
    assert g.view(1).discard_top == card
    assert [e["power"] for e in of_kind(events, "power_offered")] == [POWER_OF[face]]
    assert g.phase == "power" and g.current_player == 0 and g.view(0).power == POWER_OF[face]


def test_in_a_house_rule_on_tamalou_fun_a_replaced_row_card_still_gives_its_power() -> None:
    """A ruleset built on tamalou.fun keeps its trigger, "the card that lands on the discard pile during your
    turn": seat 0's Queen, replaced out of its row by a card drawn from the stock, offers its power. Pinned by
    mutation testing (docs/mutation.md): the trigger is read when a ruleset is built, and mutmut runs, for that
    code, only the tests that built a ruleset first in their process, so a ruleset made here is needed."""
    d = tamalou.load_variant(FUN).model_dump(mode="json")
    d["name"], d["aliases"] = "tamalou-fun-house", []
    g = scenario.deal(
        [["AS", "QH", "3S", "4S"], ["AC", "2H", "3H", "4H"]],
        stock=["5C", "6C", "7C"],
        variant=tamalou.variant_from_dict(d),
    )
    g.apply(Draw(0, "stock", at=OPEN))
    events = g.apply(Replace(0, 1, at=6))
    assert [e["power"] for e in of_kind(events, "power_offered")] == ["blind_swap"]


def test_a_power_passed_on_and_used_instead_of_a_draw_is_the_whole_turn_even_with_a_second_draw() -> None:
    """A house rule on tamalou.fun where a King looks at an opponent's card and may swap it (two steps) and a
    turn may hold a second draw: seat 1 uses the King's power passed on to it instead of drawing, and passes
    the swap. The power was its turn: no second draw is offered, seat 0 plays. Pinned by mutation testing
    (docs/mutation.md)."""
    d = tamalou.load_variant(FUN).model_dump(mode="json")
    d["name"], d["aliases"] = "tamalou-fun-two-draws", []
    d["rules"]["powers"]["ranks"]["K"] = "look_and_swap"
    d["rules"]["draw"]["per_turn"] = 2
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
        stock=["KC", "6C", "5D", "7D", "8D"],
        discard=["3C"],
        variant=tamalou.variant_from_dict(d),
    )
    g.apply(Tick(at=OPEN))
    throw(g, 6)  # p0 throws the KC
    g.apply(Power(0, target=1, target_slot=0))  # looks at p1's AH
    g.apply(Pass(0))  # no swap; the second draw is offered
    events = g.apply(Pass(0))  # declined: p1's turn, the King's power passed on
    assert kinds(events) == ["passed", "turn", "power_passed"]
    g.apply(Power(1, target=0, target_slot=0))  # instead of drawing: looks at p0's AS
    events = g.apply(Pass(1))  # no swap
    assert [e.to_dict() for e in events] == [
        {"type": "passed", "player": 1, "phase": "swap"},
        {"type": "turn", "player": 0, "turn": 2},
    ]


def test_a_penalty_that_takes_the_last_card_the_next_player_could_draw_ends_the_round() -> None:
    """Seat 0 throws the KC (a King cannot be taken from the discard, and one card is no pile to shuffle into a
    new stock); the stock holds one card, the 9C, for seat 1's draw. Seat 0 then throws a wrong card: its penalty
    card is that 9C, and seat 1 has nothing left to draw. The round ends at once. Pinned by mutation testing
    (docs/mutation.md)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["KC", "9C"], discard=[])
    g.apply(Tick(at=OPEN))
    throw(g, 6)
    g.apply(Pass(0, at=6))  # the King's power declined: seat 1 is to draw
    events = g.apply(MatchAction(0, (0,), at=7))  # the AS on the KC: a miss
    assert kinds(events) == ["missed", "penalty", "round_over"]
    assert g.is_over and g.result().reason == "no_card_to_draw"


def test_a_power_used_at_the_start_of_a_turn_with_none_passed_on_is_refused_saying_why() -> None:
    """A turn starts with a draw, unless a power was passed on: a ``power`` when none was is refused, saying so.
    Pinned by mutation testing (docs/mutation.md)."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C"])
    g.apply(Tick(at=OPEN))
    with pytest.raises(IllegalAction, match=r"^no power is passed on to you: a turn starts with a draw$"):
        g.apply(Power(0, slot=0, at=6))


@pytest.mark.parametrize("source", ["stock", "discard"])
def test_replacing_a_king_of_your_row_gives_you_the_kings_power(source: Literal["stock", "discard"]) -> None:
    """ "Replacing a King of your row gives you the King's power." — whichever pile the new card came
    from."""
    g = deal(
        [
            ["AS", "2S", "3S", "5S"],
            ["AH", "2H", "3H", "KH"],  # p1 sees its KH
        ],
        stock=["5C", "6C", "7C"],
    )
    throw(g, OPEN)  # p0 throws the 5C
    g.apply(Draw(1, source, at=6))
    events = g.apply(Replace(1, 3, at=7))
    assert of_kind(events, "power_offered")[0]["power"] == "peek_own"
    assert turn_options(g, 1) == {Power(1, slot=s) for s in range(4)} | {Pass(1)}
    (looked,) = g.apply(Power(1, slot=1, at=8))[:1]
    assert looked.for_player(1)["card"] == "2H"
    assert seen(g, 1, 1)[1] == "2H"


def test_jack_play_again_from_the_draw_pile_not_the_discard_pile() -> None:
    """ "Jack: play again. You take another turn at once. On that turn you draw from the draw pile, not
    from the discard pile." — a new 45 s turn."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["JC", "6C", "7C"])
    throw(g, 6)
    assert turn_options(g, 0) == {Power(0), Pass(0)}
    events = g.apply(Power(0, at=20))
    assert kinds(events) == ["play_again"]
    assert g.current_player == 0 and g.phase == "draw" and g.turn == 0
    assert g.deadline == 20 + TURN  # another turn, at once
    assert Draw(0, "stock") in turn_options(g, 0)
    assert Draw(0, "discard") not in turn_options(g, 0)
    assert_illegal(g, Draw(0, "discard", at=21))
    g.apply(Draw(0, "stock", at=21))
    assert g.view(0).held == "6C"
    g.apply(Replace(0, 0, at=22))
    assert g.current_player == 1
    # Stock only, even where the discard top could be taken (a ruleset without the J/Q/K ban).
    g = deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
        stock=["JC", "6C", "7C"],
        variant=fun_with(draw={"discard_forbidden": []}),
    )
    throw(g, 6)
    g.apply(Power(0, at=7))
    assert Draw(0, "discard") not in turn_options(g, 0)
    assert_illegal(g, Draw(0, "discard", at=8))


def test_queen_swap_without_looking_everyone_sees_which_places_changed() -> None:
    """ "Queen: swap. Exchange one of your cards with a card of an opponent, without looking: neither of
    you sees the swapped cards. Everyone sees which places changed." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 4S
            ["AH", "2H", "3H", "4H"],  # p1 sees AH, 4H
            ["AD", "2D", "3D", "4D"],
        ],
        stock=["QC", "6C", "7C"],
    )
    throw(g, 6)
    swaps = {Power(0, slot=m, target=q, target_slot=k) for m in range(4) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == swaps | {Pass(0)}
    assert_illegal(g, Power(0, target=1, target_slot=0, at=7))  # one of your cards, too
    events = g.apply(Power(0, slot=0, target=1, target_slot=2, at=7))  # p0's AS <-> p1's 3H
    (swapped,) = of_kind(events, "swapped")
    for p in range(3):  # the same public fact for everybody
        assert swapped.for_player(p).to_dict() == {
            "type": "swapped",
            "player": 0,
            "slot": 0,
            "target": 1,
            "target_slot": 2,
        }
    assert g.layout(0)[0] == "3H" and g.layout(1)[2] == "AS"
    # Nobody saw a swapped card: p0 follows its AS to p1's row, nobody knows the 3H.
    assert seen(g, 0, 1)[2] == "AS" and seen(g, 1, 1)[2] is None and seen(g, 2, 1)[2] is None
    assert all(seen(g, p, 0)[0] is None for p in range(3))


def test_king_peek_look_at_one_of_your_own_cards() -> None:
    """ "King: peek. Look at one of your own cards for 2 seconds." """
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["KC", "6C", "7C"])
    throw(g, 6)
    assert turn_options(g, 0) == {Power(0, slot=s) for s in range(4)} | {Pass(0)}
    assert_illegal(g, Power(0, target=1, target_slot=1, at=7))  # not an opponent's card
    (looked, turn) = g.apply(Power(0, slot=2, at=7))[:2]
    assert looked.for_player(0)["card"] == "3S" and looked.for_player(1)["card"] is None
    assert seen(g, 0, 0)[2] == "3S" and seen(g, 1, 0)[2] is None
    assert turn["player"] == 1


@pytest.mark.parametrize("face", ["Q", "K"])
def test_passed_on_power_the_next_player_may_use_it_once_instead_of_drawing(face: str) -> None:
    """ "Passed-on power. When a player has just used a Queen or a King, the next player may use that
    same power once, instead of drawing." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
            ["AD", "2D", "3D", "4D"],
        ],
        stock=[f"{face}C", "6C", "7C", "8C"],
    )
    throw(g, 6)
    use = Power(0, slot=1) if face == "K" else Power(0, slot=1, target=2, target_slot=1)
    events = g.apply(Power(0, use.slot, use.target, use.target_slot, at=7))
    (passed,) = of_kind(events, "power_passed")
    assert passed["player"] == 1 and passed["power"] == POWER_OF[face]
    assert g.view(1).power == POWER_OF[face]
    options = turn_options(g, 1)
    assert Draw(1, "stock") in options
    if face == "K":
        assert {Power(1, slot=s) for s in range(4)} <= options
        events = g.apply(Power(1, slot=2, at=8))
        assert of_kind(events, "looked")[0].for_player(1)["card"] == "3H"
    else:
        assert {
            Power(1, slot=m, target=q, target_slot=k) for m in range(4) for q in (0, 2) for k in range(4)
        } <= options
        events = g.apply(Power(1, slot=2, target=0, target_slot=3, at=8))
        assert g.layout(1)[2] == "4S" and g.layout(0)[3] == "3H"
    # Instead of drawing: nothing was drawn, and the turn is over.
    assert g.view(0).stock_size == 3 and g.view(0).discard == [f"{face}C"]
    assert g.current_player == 2 and g.phase == "draw"
    # Once: whoever draws instead loses it.
    g = deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]],
        stock=[f"{face}C", "6C", "7C", "8C"],
    )
    throw(g, 6)
    g.apply(Power(0, use.slot, use.target, use.target_slot, at=7))
    g.apply(Draw(1, "stock", at=8))
    assert g.view(1).power is None
    assert not any(isinstance(a, Power) for a in g.legal_actions(1))
    g.apply(Discard(1, at=8))
    assert not any(isinstance(a, Power) for a in g.legal_actions(1))


def test_a_power_that_was_passed_is_not_handed_on_and_a_jack_never_is() -> None:
    """ "A power that was passed is not handed on, and a Jack never is." — nor a power that was
    declined: it must have been used ("has just used a Queen or a King")."""
    hands = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]]
    # A King used by p0, used again by p1 instead of drawing: not handed on to p2.
    g = deal(hands, stock=["KC", "6C", "7C", "8C"])
    throw(g, 6)
    g.apply(Power(0, slot=1, at=7))
    events = g.apply(Power(1, slot=1, at=8))
    assert of_kind(events, "power_passed") == [] and g.current_player == 2
    assert g.view(2).power is None
    assert not any(isinstance(a, Power) for a in g.legal_actions(2))
    # A Jack used by p0: nothing for p1.
    g = deal(hands, stock=["JC", "6C", "7C", "8C"])
    throw(g, 6)
    g.apply(Power(0, at=7))
    events = quiet_turn(g, 8)
    assert of_kind(events, "power_passed") == [] and g.current_player == 1
    assert g.view(1).power is None
    # A King declined by p0: nothing for p1.
    g = deal(hands, stock=["KC", "6C", "7C", "8C"])
    throw(g, 6)
    events = g.apply(Pass(0, at=7))
    assert of_kind(events, "power_passed") == [] and g.view(1).power is None


def test_a_card_thrown_by_doubling_gives_no_power() -> None:
    """ "A card thrown by doubling gives no power." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
            ["KD", "JD", "3D", "4D"],  # p2 sees its KD; its JD is a lucky guess
        ],
        stock=["KC", "JC", "7C", "8C"],
    )
    throw(g, 6)  # p0 throws the KC: its power is p0's
    events = g.apply(double(2, 0, 6))  # p2 doubles its KD on it, out of turn
    assert kinds(events) == ["matched"]
    assert g.current_player == 0 and g.phase == "power"
    g.apply(Pass(0, at=7))
    assert g.view(1).power is None  # nothing handed on either
    throw(g, 8)  # p1 throws the JC and does not play again
    g.apply(Pass(1, at=9))
    assert g.current_player == 2 and g.phase == "draw"
    events = g.apply(double(2, 1, 10))  # p2's JD, in its own turn before drawing: no Jack
    assert kinds(events) == ["matched"]
    assert g.current_player == 2 and g.phase == "draw" and g.view(2).power is None
    assert turn_options(g, 2) == {Draw(2, "stock"), Call(2)}


def test_with_two_players_after_a_successful_tamalou_a_queen_has_no_power() -> None:
    """ "With two players, after a successful Tamalou, a Queen has no power any more: the only opponent
    can no longer be targeted." """
    g = deal(
        [
            ["AS", "2S", "10S", "10C"],  # p0: 3
            ["AH", "2H", "3H", "4H"],
        ],
        stock=["QC", "6C"],
    )
    events = g.apply(Call(0, at=OPEN))
    assert of_kind(events, "called")[0]["right"] is True
    events = throw(g, 6)  # p1 throws the QC
    assert "power_offered" not in kinds(events)
    assert not any(isinstance(a, Power) for a in g.legal_actions(1))
    assert g.layout(0) == ["AS", "2S", "10S", "10C"]
    assert g.phase == "countdown"


# --------------------------------------------------------------------------------- doubling


def test_even_when_it_is_not_your_turn_throw_a_card_of_the_same_rank_one_card_fewer() -> None:
    """ "Even when it is not your turn: if the top card of the discard pile has the same rank as one of
    your cards (two 7s, two Kings…), tap your card to throw it on the pile. One card fewer for you." ("In
    short": "Even when it is not your turn, throw a card of the same rank as the top of the discard pile:
    that is doubling.")"""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
            ["7S", "2D", "3D", "4D"],  # p2 sees its 7S
        ],
        stock=["7C", "6C", "8C"],
    )
    throw(g, 6)  # p0 throws the 7C; p1 to play
    for p in range(3):
        assert doubles_listed(g, p) == {MatchAction(p, (s,)) for s in range(4)}
    events = g.apply(double(2, 0, 7))
    assert kinds(events) == ["matched"]
    assert g.layout(2) == [None, "2D", "3D", "4D"] and g.card_count(2) == 3
    assert g.view(0).discard == ["7C", "7S"]
    assert list(seen(g, 1, 2)) == [1, 2, 3]  # the row keeps its places
    assert g.current_player == 1 and g.phase == "draw"  # play goes on


def test_it_must_be_the_same_rank_not_just_the_same_points_a_jack_on_a_king_is_a_miss() -> None:
    """ "It must be the same rank, not just the same points: a Jack on a King is a miss, even though both
    are worth 10 points. Suits do not matter." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["JH", "2H", "3H", "4H"],  # p1 sees its JH (10 points)
            ["KD", "2D", "3D", "4D"],  # p2 sees its KD
        ],
        stock=["KC", "9C", "6C", "8C"],
    )
    throw(g, 6)  # the KC
    events = g.apply(double(1, 0, 7))
    assert kinds(events) == ["missed", "penalty"]
    assert g.layout(1)[:4] == ["JH", "2H", "3H", "4H"]
    events = g.apply(double(2, 0, 8))  # a King of another suit
    assert kinds(events) == ["matched"]
    assert g.view(0).discard_top == "KD"


def test_you_can_double_with_a_card_you_do_not_see() -> None:
    """ "You can double with a card you do not see: that is where your memory pays off." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "7H", "3H", "4H"],  # p1 never saw its 7H
        ],
        stock=["7C", "6C"],
    )
    throw(g, 6)
    assert seen(g, 1, 1)[1] is None
    assert MatchAction(1, (1,)) in doubles_listed(g, 1)
    assert kinds(g.apply(double(1, 1, 7))) == ["matched"]


def test_one_double_per_card_only_the_first_player_to_double_on_a_card_succeeds() -> None:
    """ "One double per card: only the first player to double on a card succeeds." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["7H", "2H", "3H", "7D"],  # p1 sees both its 7s
            ["7S", "2D", "3D", "4D"],  # p2 sees its 7S
        ],
        stock=["7C", "6C", "8C", "9C"],
    )
    throw(g, 6)
    assert kinds(g.apply(double(1, 0, 7))) == ["matched"]
    # p1's second 7 on the same card: not a second double.
    assert doubles_listed(g, 1) == set()
    assert_illegal(g, double(1, 3, 8))
    # p2 comes second: too late.
    events = g.apply(double(2, 0, 8))
    assert kinds(events) == ["late", "penalty"]
    assert g.layout(2)[0] == "7S"
    assert g.view(0).discard == ["7C", "7H"]


def test_faq_two_players_double_at_the_same_time_the_second_is_too_late() -> None:
    """FAQ "What if two players double at the same time?" — "The first double to arrive succeeds. The other
    one is too late: that card goes back into its owner's row and they draw a penalty card." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["7H", "2H", "3H", "4H"],
            ["7S", "2D", "3D", "4D"],
        ],
        stock=["7C", "6C", "8C"],
    )
    throw(g, 6)
    first = g.apply(double(2, 0, 9))
    second = g.apply(double(1, 0, 9))  # the same second, arrived after
    assert kinds(first) == ["matched"]
    assert kinds(second) == ["late", "penalty"]
    assert g.layout(1) == ["7H", "2H", "3H", "4H", "6C"]
    assert g.layout(2)[0] is None
    assert g.state_of("timing").misses[1] == 1


@pytest.mark.parametrize("how", ["wrong card", "too late"])
def test_wrong_card_or_too_late_your_card_goes_back_seen_by_all_and_you_draw_a_penalty_card(how: str) -> None:
    """ "Wrong card, or too late: your card goes back into your row, after everyone has seen it fly by,
    and you draw a penalty card." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "7H", "3H", "4H"],  # p1 believes its slot 1 is a 7
            ["7S", "2D", "3D", "4D"],
        ],
        stock=["7C", "6C", "8C"],
    )
    throw(g, 6)
    if how == "too late":
        g.apply(double(2, 0, 7))
        events = g.apply(double(1, 1, 8))
        assert kinds(events) == ["late", "penalty"]
    else:
        events = g.apply(double(1, 2, 8))
        assert kinds(events) == ["missed", "penalty"]
    flew = events[0]
    slot = flew["slot"]
    card = g.layout(1)[slot]
    assert flew["card"] == card
    assert all(flew.for_player(p)["card"] == card for p in range(3))  # everyone saw it fly by
    assert all(seen(g, p, 1)[slot] == card for p in range(3))
    assert g.layout(1)[:4] == ["AH", "7H", "3H", "4H"]  # back in its place
    assert g.layout(1)[4] == "6C" and g.card_count(1) == 5


def test_faq_the_penalty_card_arrives_face_down_at_the_end_of_your_row_unseen() -> None:
    """FAQ "Do you see your penalty card?" — "No. It arrives face down at the end of your row, and you do
    not see it." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["7H", "2H", "3H", "4H"],  # p1 sees its 7H
        ],
        stock=["7C", "9C", "6C", "5C", "8C"],
    )
    throw(g, 6)  # the 7C
    g.apply(double(1, 0, 6))  # slot 0 emptied
    throw(g, 7)  # p1 throws the 9C
    events = g.apply(double(1, 3, 8))  # its 4H on the 9C: a miss
    (penalty,) = of_kind(events, "penalty")
    assert penalty["slot"] == 4  # at the end of the row, not in the empty place 0
    assert "card" not in penalty.to_dict()
    assert g.layout(1) == [None, "2H", "3H", "4H", "6C"]
    assert all(seen(g, p, 1)[4] is None for p in range(2))


def test_misses_add_up_locked_0_then_5_then_20_then_60_seconds_then_for_the_rest_of_the_game() -> None:
    """ "Misses add up: the first one locks nothing, then your doubles are locked for 5 seconds, then 20
    seconds, then 1 minute, then for the rest of the game." """
    g = deal(
        [
            ["JS", "JH", "JD", "JC"],
            ["QS", "QH", "QD", "QC"],
            ["KS", "KH", "KD", "KC"],
            ["5S", "5H", "5D", "5C"],
            ["AS", "2S", "3S", "4S"],  # p4 misses on every card
        ],
        stock=[f"{r}{s}" for r in ("6", "7", "8", "9", "10") for s in "SHDC"],
    )
    quiet_turn(g, 6)  # p0
    g.apply(double(4, 0, 6))  # 1st miss: locks nothing
    assert g.state_of("timing").misses[4] == 1 and g.state_of("timing").locked_until[4] == 6
    quiet_turn(g, 7)  # p1
    assert doubles_listed(g, 4) != set()
    g.apply(double(4, 0, 7))  # 2nd miss: 5 s
    assert g.state_of("timing").locked_until[4] == 7 + 5
    quiet_turn(g, 8)  # p2
    g.apply(Tick(at=11.99))
    assert doubles_listed(g, 4) == set()
    assert_illegal(g, double(4, 0, 11.99))
    g.apply(Tick(at=12))
    assert doubles_listed(g, 4) != set()
    g.apply(double(4, 0, 12))  # 3rd miss: 20 s
    assert g.state_of("timing").locked_until[4] == 12 + 20
    quiet_turn(g, 13)  # p3; p4's turn starts locked: nothing wiped out
    assert g.current_player == 4 and g.state_of("timing").misses[4] == 3
    assert_illegal(g, double(4, 0, 31.99))
    g.apply(double(4, 0, 32))  # 4th miss, in p4's own turn: 60 s
    assert g.state_of("timing").locked_until[4] == 32 + 60
    quiet_turn(g, 33)  # p4
    quiet_turn(g, 34)  # p0
    quiet_turn(g, 35)  # p1; p2's turn runs out at 80 (played for p2), p3's runs from 80
    assert_illegal(g, double(4, 0, 91.99))
    g.apply(double(4, 0, 92))  # 5th miss: for the rest of the game
    assert g.state_of("timing").misses[4] == 5 and g.state_of("timing").locked_until[4] > 1e9
    assert g.current_player == 3
    quiet_turn(g, 93)  # p3: p4's turn starts, still locked: nothing wiped out
    assert g.current_player == 4 and g.state_of("timing").misses[4] == 5
    quiet_turn(g, 94)  # p4
    assert doubles_listed(g, 4) == set()
    assert_illegal(g, double(4, 0, 500))


def test_a_successful_double_wipes_it_all_out() -> None:
    """ "A successful double wipes it all out" """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
            ["9S", "6S", "7S", "8D"],  # p2 sees its 9S; misses with its 8D
        ],
        stock=["5C", "6D", "KC", "6H", "9C", "7C", "6C"],
    )
    throw(g, 6)  # p0 throws the 5C
    g.apply(double(2, 3, 6))  # miss 1 (penalty: the 6D)
    throw(g, 7)  # p1 throws the KC: still p1's turn (the power)
    g.apply(double(2, 3, 7))  # miss 2 (penalty: the 6H): locked 5 s
    assert g.state_of("timing").misses[2] == 2 and g.state_of("timing").locked_until[2] == 12
    g.apply(Pass(1, at=8))  # p2's turn starts while locked: nothing wiped out
    assert g.state_of("timing").misses[2] == 2
    throw(g, 12)  # p2 throws the 9C
    assert kinds(g.apply(double(2, 0, 12))) == ["matched"]  # its 9S on it
    assert g.state_of("timing").misses[2] == 0
    throw(g, 14)  # p0 throws the 7C
    g.apply(double(2, 3, 14))  # a miss again: the first one, it locks nothing
    assert g.state_of("timing").misses[2] == 1 and g.state_of("timing").locked_until[2] == 14


def test_each_start_of_your_turn_while_you_are_not_locked_wipes_out_one() -> None:
    """ "and each start of your turn while you are not locked wipes out one." """
    for turn_starts, misses_left in ((12.99, 2), (13.0, 1)):
        g = deal(
            [
                ["AS", "2S", "3S", "4S"],
                ["AH", "2H", "3H", "4H"],
                ["5S", "6S", "7S", "8S"],  # p2 misses on every card
            ],
            stock=["9C", "9D", "KC", "9H", "9S", "10C", "10D"],
        )
        throw(g, 6)  # p0 throws the 9C
        g.apply(double(2, 0, 6))  # miss 1 (penalty 9D)
        throw(g, 7)  # p1 throws the KC: its power is on offer, still p1's turn
        g.apply(double(2, 0, 8))  # miss 2: locked until 13 (penalty 9H)
        assert g.state_of("timing").misses[2] == 2 and g.state_of("timing").locked_until[2] == 13
        g.apply(Pass(1, at=turn_starts))  # p2's turn starts
        assert g.current_player == 2
        assert g.state_of("timing").misses[2] == misses_left
        # What is left shows on the next miss: 2 left -> 3rd miss, 20 s; 1 left -> 2nd miss, 5 s.
        quiet_turn(g, 14)  # p2 throws the 9S
        quiet_turn(g, 15)  # p0 throws the 10C
        g.apply(double(2, 0, 15))
        assert g.state_of("timing").locked_until[2] == 15 + (20 if misses_left == 2 else 5)


def test_a_double_that_leaves_you_with_no_card_at_all_ends_the_game_at_once() -> None:
    """ "A double that leaves you with no card at all ends the game at once." — and "The game ends: [...]
    at once when a double leaves a player with no card;" "A player with no card left scores 0." """
    g = deal(
        [
            ["9S", "9H", "9D", "9C"],
            ["5H", "6H", "7H", "8H"],  # p1 will double all four
        ],
        stock=["5C", "6C", "7C", "8C", "KC", "AD"],
    )
    throw(g, 6)  # p0: 5C
    g.apply(double(1, 0, 6))
    throw(g, 7)  # p1: 6C
    g.apply(double(1, 1, 8))  # in p0's turn
    throw(g, 9)  # p0: 7C
    g.apply(double(1, 2, 9))
    throw(g, 10)  # p1: 8C
    g.apply(Draw(0, "stock", at=11))  # p0 holds the KC...
    events = g.apply(double(1, 3, 12))  # ... when p1 throws its last card
    assert kinds(events) == ["matched", "round_over"]
    assert g.is_over
    result = g.result()
    assert result.reason == "emptied"
    assert result.totals == [36, 0] and result.card_counts == [4, 0]
    assert result.winners == [1] and result.ranking == [[1], [0]]
    assert_illegal(g, Discard(0, at=12))
    # p0 still holds the KC, shown to all and counted for nobody: the finished round saves and restores
    again = tamalou.Game.from_json(g.to_json())
    assert again.is_over and again.to_json() == g.to_json()


# --------------------------------------------------------------------------------- FAQ: when can you double?


def test_faq_no_double_during_the_5_seconds_at_the_start() -> None:
    """FAQ "When can you double?" — "Almost all the time [...]. Not during the 5 seconds at the start" —
    there is no card to double on (the discard is empty); where one was turned up, still no double."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C"])
    for t in (0, 2.5, 4.99):
        g.apply(Tick(at=t))
        assert doubles_listed(g, 0) == doubles_listed(g, 1) == set()
        assert_illegal(g, double(1, 0, t))
    g = deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
        stock=["5C"],
        discard=["AC"],
        variant=fun_with(deal={"discard": 1, "first_card_matchable": True}),
    )
    assert g.view(0).discard_top == "AC"
    g.apply(Tick(at=4.99))
    assert doubles_listed(g, 0) == doubles_listed(g, 1) == set()
    assert_illegal(g, double(1, 0, 4.99))
    assert kinds(g.apply(double(1, 0, OPEN))) == ["opening_over", "turn", "matched"]


def test_faq_no_double_during_the_2_seconds_when_a_queens_swap_is_shown() -> None:
    """FAQ "When can you double?" — "not during the 2 seconds when a Queen's swap is shown" (a King's peek
    blocks nothing)."""
    hands = [
        ["AS", "2S", "3S", "4S"],
        ["AH", "2H", "3H", "4H"],
        ["QS", "KS", "3D", "4D"],  # p2 sees QS and its 4D; the KS is a lucky guess
    ]
    g = deal(hands, stock=["QC", "6C", "7C"])
    throw(g, 6)
    g.apply(Power(0, slot=1, target=1, target_slot=1, at=7))  # the swap, shown 7 to 9
    assert g.state_of("timing").quiet_until == 9
    g.apply(Tick(at=8.99))
    assert doubles_listed(g, 2) == set()
    assert_illegal(g, double(2, 0, 8.99))
    assert kinds(g.apply(double(2, 0, 9))) == ["matched"]
    g = deal(hands, stock=["KC", "6C", "7C"])
    throw(g, 6)
    g.apply(Power(0, slot=1, at=7))
    assert kinds(g.apply(double(2, 1, 7))) == ["matched"]


def test_faq_no_double_on_your_own_turn_while_holding_the_drawn_card_or_picking_a_power_target() -> None:
    """FAQ "When can you double?" — "Almost all the time, on your turn and on everybody else's. [...] not
    on your own turn while you hold the card you drew or while you pick a card for a power." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["7H", "2H", "3H", "7D"],  # p1 sees its 7H and 7D
        ],
        stock=["7C", "KD", "6C"],
    )
    throw(g, 6)  # p0 throws the 7C; p1's turn
    before_drawing = g.copy()
    assert kinds(before_drawing.apply(double(1, 0, 7))) == ["matched"]  # on your turn, before drawing
    g.apply(Draw(1, "stock", at=7))  # holding the KD
    assert doubles_listed(g, 1) == set()
    assert_illegal(g, double(1, 0, 8))
    assert kinds(g.copy().apply(double(0, 0, 8))) == ["missed", "penalty"]  # others may (p0 misses)
    g.apply(Discard(1, at=9))  # choosing a card for the King
    assert g.phase == "power"
    assert doubles_listed(g, 1) == set()
    assert_illegal(g, double(1, 3, 10))
    g.apply(Pass(1, at=10))  # p0's turn: p1 may double again (a 7 on the KD: a miss)
    assert doubles_listed(g, 1) == {MatchAction(1, (s,)) for s in range(4)}


def test_faq_the_player_who_called_tamalou_can_no_longer_double() -> None:
    """FAQ "When can you double?" — "The player who called Tamalou can no longer double." """
    g = deal(
        [
            ["5S", "10S", "10H", "10D"],  # p0: 5, sees 5S and 10D
            ["AH", "2H", "3H", "4H"],
            ["5H", "2D", "3D", "4D"],  # p2 sees its 5H
        ],
        stock=["5C", "6C", "7C"],
    )
    assert of_kind(g.apply(Call(0, at=OPEN)), "called")[0]["right"] is True  # 5 or less: right
    throw(g, 6)  # p1 throws the 5C
    assert doubles_listed(g, 0) == set()
    assert_illegal(g, double(0, 0, 7))
    assert kinds(g.apply(double(2, 0, 7))) == ["matched"]


# --------------------------------------------------------------------------------- calling Tamalou


def test_call_at_the_start_of_your_turn_before_you_draw_the_call_takes_your_turn() -> None:
    """ "At the start of your turn, before you draw: if you think your cards add up to 5 points or less,
    call Tamalou! The call takes your turn: you do not draw." """
    g = deal(
        [
            ["AS", "2S", "10S", "10C"],  # p0: 3
            ["9S", "9H", "9D", "9C"],
        ],
        stock=["5C", "6C", "7C"],
    )
    g.apply(Tick(at=OPEN))
    assert turn_options(g, 0) == {Draw(0, "stock"), Call(0)}
    drawn = g.copy()
    drawn.apply(Draw(0, "stock", at=6))
    assert Call(0) not in turn_options(drawn, 0)
    assert_illegal(drawn, Call(0, at=6.5))
    drawn.apply(Discard(0, at=6.5))
    assert_illegal(drawn, Call(0, at=7))  # not after playing either: the turn is over
    assert_illegal(g, Call(1, at=6))  # and only in one's own turn
    events = g.apply(Call(0, at=6))
    assert kinds(events) == ["called", "turn"]
    assert g.caller == 0 and g.current_player == 1
    assert g.view(0).stock_size == 3 and g.view(0).discard == []  # nothing drawn
    assert g.layout(0) == ["AS", "2S", "10S", "10C"]


def test_faq_you_can_call_tamalou_on_your_first_turn() -> None:
    """FAQ "Can you call Tamalou on your first turn?" — "Yes, at the start of any of your turns, if you
    think you hold 5 points or less. On your first turn you have only seen two of your four cards: it is a
    gamble." """
    for hidden, right in ((["AH", "2H"], True), (["9H", "9D"], False)):
        g = deal([["AS", *hidden, "10S"], ["9S", "8H", "8D", "9C"]], stock=["5C", "6C", "7C"])
        assert seen(g, 0, 0) == {0: "AS", 1: None, 2: None, 3: "10S"}
        g.apply(Tick(at=OPEN))
        assert Call(0) in turn_options(g, 0)
        events = g.apply(Call(0, at=OPEN + 1))
        assert of_kind(events, "called")[0]["right"] is right
        assert (g.caller == 0) is right


def test_you_are_right_your_cards_are_turned_face_up_for_everyone() -> None:
    """ "You are right: your cards are turned face up for everyone." """
    g = deal(
        [
            ["AS", "2S", "AH", "10C"],  # p0: 4
            ["9S", "9H", "9D", "9C"],
            ["8S", "8H", "8D", "8C"],
        ],
        stock=["5C", "6C", "7C"],
    )
    events = g.apply(Call(0, at=6))
    (called,) = of_kind(events, "called")
    for p in range(3):
        shown = called.for_player(p)
        assert shown["right"] is True and shown["total"] == 4
        assert shown["cards"] == ["AS", "2S", "AH", "10C"]
    assert known_to_all(g, 0)
    throw(g, 7)
    assert known_to_all(g, 0)  # and they stay so


def test_you_are_right_you_no_longer_play_nor_double_and_nobody_can_swap_a_card_with_you() -> None:
    """ "You no longer play, you can no longer double, and nobody can swap a card with you any more." """
    g = deal(
        [
            ["AS", "2S", "AH", "10H"],  # p0: 4
            ["9S", "9H", "9D", "9C"],
            ["QS", "8H", "8D", "8C"],  # p2 sees its QS
        ],
        stock=["QC", "AD", "6C", "7C"],
    )
    g.apply(Call(0, at=6))
    events = throw(g, 7)  # p1 throws the QC: a swap, but never with p0
    assert of_kind(events, "power_offered")[0]["power"] == "blind_swap"
    swaps = [a for a in turn_options(g, 1) if isinstance(a, Power)]
    assert swaps and {a.target for a in swaps} == {2}
    assert_illegal(g, Power(1, slot=0, target=0, target_slot=1, at=8))
    assert doubles_listed(g, 0) == set()
    assert_illegal(g, double(0, 0, 8))  # the caller's AS on the QC: refused, not even a miss
    g.apply(Power(1, slot=0, target=2, target_slot=1, at=8))
    # p2 may use the passed-on Queen: still never with p0.
    swaps = [a for a in turn_options(g, 2) if isinstance(a, Power)]
    assert swaps and {a.target for a in swaps} == {1}
    assert_illegal(g, Power(2, slot=0, target=0, target_slot=0, at=9))
    g.apply(Power(2, slot=2, target=1, target_slot=2, at=11))
    # p0 never plays again: after p2, the countdown, then the end.
    assert g.phase == "countdown"
    g.apply(Tick(at=11 + COUNTDOWN))
    assert g.is_over and g.layout(0) == ["AS", "2S", "AH", "10H"]
    turns = [a for a in g.actions if not isinstance(a, (Tick, MatchAction)) and getattr(a, "player", None) == 0]
    assert turns == [Call(0, at=6)]


def test_you_are_right_each_other_player_plays_one_last_turn_then_the_game_ends() -> None:
    """ "Each other player plays one last turn, then the game ends." ("In short": "Think you hold 5 points
    or less? Call "Tamalou!": the others play one last turn, then the lowest total wins.") — after a 5 s
    countdown (see the end of the game)."""
    g = deal(
        [
            ["9S", "9H", "9D", "9C"],
            ["AS", "2S", "AH", "10H"],  # p1: 4, calls on its first turn
            ["8S", "8H", "8D", "8C"],
            ["7S", "7H", "7D", "7C"],
        ],
        stock=["5C", "6C", "5D", "6D", "5H", "6H"],
    )
    quiet_turn(g, 6)  # p0
    events = g.apply(Call(1, at=7))
    events += quiet_turn(g, 8)  # p2
    events += quiet_turn(g, 9)  # p3
    events += quiet_turn(g, 10)  # p0
    assert [e["player"] for e in of_kind(events, "turn")] == [2, 3, 0]
    assert kinds(events)[-1] == "countdown" and g.phase == "countdown"
    events = g.apply(Tick(at=10 + COUNTDOWN))
    assert kinds(events) == ["round_over"]
    assert g.result().reason == "called" and g.result().caller == 1


def test_you_are_right_nobody_else_can_call_tamalou() -> None:
    """ "Nobody else can call Tamalou." """
    g = deal(
        [
            ["AS", "2S", "AH", "10H"],  # p0: 4
            ["AD", "2D", "AC", "10D"],  # p1: 4 as well
        ],
        stock=["5C", "6C"],
    )
    g.apply(Call(0, at=6))
    assert g.current_player == 1 and Call(1) not in turn_options(g, 1)
    assert_illegal(g, Call(1, at=7))
    assert g.caller == 0


def test_you_are_wrong_everyone_sees_your_cards_penalty_card_the_turn_passes_call_again_later() -> None:
    """ "You are wrong (more than 5 points): everyone sees your cards for 5 seconds, then they are hidden
    again. You draw a penalty card, the turn passes to the next player and the game goes on. You can call
    again later." — 6 is wrong (5 is right: see the caller's doubles); everyone remembers the cards (a view
    is what a player knows: perfect recall)."""
    g = deal(
        [
            ["AS", "2S", "3S", "10H"],  # p0: 6, one too many
            ["9S", "9H", "9D", "9C"],
            ["8S", "8H", "8D", "8C"],
        ],
        stock=["KC", "5C", "6C", "7C", "AD"],
    )
    events = g.apply(Call(0, at=6))
    (called,) = of_kind(events, "called")
    assert called["right"] is False and called["total"] == 6
    for p in range(3):
        assert called.for_player(p)["cards"] == ["AS", "2S", "3S", "10H"]
        assert seen(g, p, 0)[1] == "2S" and seen(g, p, 0)[2] == "3S"  # everyone learnt them
    # The penalty card, unseen, at the end of the row.
    (penalty,) = of_kind(events, "penalty")
    assert penalty["player"] == 0 and penalty["slot"] == 4
    assert g.layout(0) == ["AS", "2S", "3S", "10H", "KC"]
    assert all(seen(g, p, 0)[4] is None for p in range(3))
    # The turn passes; the game goes on; nobody is the caller.
    assert g.caller is None and g.current_player == 1 and not g.is_over
    assert of_kind(events, "turn")[-1]["player"] == 1
    assert Call(1) in turn_options(g, 1)
    quiet_turn(g, 7)
    quiet_turn(g, 8)
    assert g.current_player == 0 and Call(0) in turn_options(g, 0)
    events = g.apply(Call(0, at=9))  # wrong again: 16
    assert of_kind(events, "called")[0]["right"] is False
    assert g.card_count(0) == 6


def test_faq_you_do_not_need_the_lowest_total_to_call_your_call_costs_nothing_more() -> None:
    """FAQ "Do you need the lowest total to call Tamalou?" — "No: 5 points or less is enough. If another
    player ends with a lower total, they win, and your call costs you nothing more." """
    g = deal(
        [
            ["AS", "2S", "AH", "10H"],  # p0: 4
            ["10S", "10D", "AC", "10C"],  # p1: 1
        ],
        stock=["5C", "6C"],
    )
    events = g.apply(Call(0, at=6))
    assert of_kind(events, "called")[0]["right"] is True
    quiet_turn(g, 7)
    g.apply(Tick(at=7 + COUNTDOWN))
    result = g.result()
    assert result.caller == 0 and result.winners == [1]
    assert result.ranking == [[1], [0]]
    assert result.scores == result.totals == [4, 1]


# --------------------------------------------------------------------------------- scoring


def test_at_the_end_all_cards_are_turned_over_and_counted_penalty_cards_included() -> None:
    """ "At the end, all the cards are turned over and counted, penalty cards included." (For "A player with
    no card left scores 0." see the emptying double.)"""
    g = deal(
        [
            ["AS", "2S", "AH", "10H"],  # p0: 4, will call
            ["9S", "9H", "9D", "9C"],  # p1: 36, takes a penalty card
        ],
        stock=["5C", "KC", "6C"],
    )
    throw(g, 6)  # p0 throws the 5C
    g.apply(double(1, 1, 6))  # p1's 9H on it: a miss, the KC as a penalty
    throw(g, 7)  # p1 throws the 6C
    g.apply(Call(0, at=8))
    assert g.caller == 0 and g.current_player == 1
    g.apply(Tick(at=8 + TURN))  # p1's last turn runs out: played for p1
    assert g.phase == "countdown"
    g.apply(Tick(at=8 + TURN + COUNTDOWN))
    assert g.is_over
    for p in range(2):
        for q in range(2):
            assert seen(g, p, q) == {s: c for s, c in enumerate(g.layout(q)) if c is not None}
    assert g.result().totals == [4, 36 + 10]


def test_the_lowest_total_wins_calling_is_not_enough() -> None:
    """ "The lowest total wins. Calling Tamalou is not enough: if another player ends lower, they win."
    ("The goal": "Have the lowest total when the game ends.")"""
    g = deal(
        [
            ["AS", "2S", "AH", "10H"],  # p0: 4, calls
            ["9S", "9H", "9D", "9C"],  # 36
            ["AD", "10S", "10D", "10C"],  # 1
        ],
        stock=["5C", "6C", "7C"],
    )
    g.apply(Call(0, at=6))
    quiet_turn(g, 7)
    quiet_turn(g, 8)
    g.apply(Tick(at=8 + COUNTDOWN))
    result = g.result()
    assert result.totals == [4, 36, 1]
    assert result.winners == [2] and result.ranking == [[2], [0], [1]]


@pytest.mark.parametrize(
    ("p1", "p2", "p1_doubles", "ranking"),
    [
        # p1 doubles its 5H away: 4 points in 3 cards, ahead of the caller's 4 points in 4 cards.
        (["AH", "3H", "5H", "10D"], ["9S", "9H", "9D", "9C"], True, [[1], [0], [2]]),
        # p1 keeps 4 points in 4 cards, like the caller: the caller is ahead.
        (["2H", "2C", "10D", "10C"], ["9S", "9H", "9D", "9C"], False, [[0], [1], [2]]),
        # p1 and p2 tie in points and in cards, neither called: they share the place.
        (["9S", "9H", "8D", "8C"], ["9D", "9C", "8S", "8H"], False, [[0], [1, 2]]),
    ],
)
def test_a_tie_fewer_cards_ahead_then_the_caller_otherwise_the_tied_share_the_place(
    p1: list[str], p2: list[str], p1_doubles: bool, ranking: list[list[int]]
) -> None:
    """ "A tie? The player with fewer cards is ahead. Still tied? The player who called Tamalou. Otherwise
    the tied players share the place." """
    g = deal([["AS", "3S", "10H", "10S"], p1, p2], stock=["5C", "6C", "7C", "5D"])  # p0: 4, calls
    g.apply(Call(0, at=6))
    throw(g, 7)  # p1 throws the 5C
    if p1_doubles:
        assert kinds(g.apply(double(1, 2, 7))) == ["matched"]
    quiet_turn(g, 8)  # p2 throws the 6C
    g.apply(Tick(at=8 + COUNTDOWN))
    result = g.result()
    assert result.reason == "called"
    assert result.ranking == ranking
    assert result.winners == ranking[0]


# --------------------------------------------------------------------------------- the end of the game


def test_the_game_ends_after_the_last_turn_then_a_5_second_countdown_during_which_others_can_double() -> None:
    """ "The game ends: after the last turn that follows a successful Tamalou, then a 5-second countdown
    during which the other players can still double;" """
    g = deal(
        [
            ["AS", "2S", "AH", "10H"],  # p0: 4, calls
            ["6S", "9H", "9D", "9C"],  # p1 sees its 6S
            ["8S", "8H", "8D", "6H"],  # p2 sees its 6H
        ],
        stock=["5C", "6C", "7C", "9S"],
    )
    g.apply(Call(0, at=6))
    quiet_turn(g, 7)  # p1
    events = quiet_turn(g, 8)  # p2 throws the 6C: its last turn is over
    (countdown,) = of_kind(events, "countdown")
    assert countdown["until"] == 8 + COUNTDOWN and g.phase == "countdown"
    # only doubles now (and letting the countdown run out)
    assert turn_options(g, 0) == turn_options(g, 1) == turn_options(g, 2) == {Tick(at=8 + COUNTDOWN)}
    assert doubles_listed(g, 0) == set()
    g.apply(Tick(at=12.99))
    assert not g.is_over
    assert kinds(g.apply(double(1, 0, 12.99))) == ["matched"]
    assert kinds(g.apply(double(2, 3, 12.99))) == ["late", "penalty"]
    events = g.apply(Tick(at=8 + COUNTDOWN))
    assert kinds(events) == ["round_over"]
    assert g.result().reason == "called"
    assert g.result().totals == [4, 27, 8 + 8 + 8 + 6 + 7]  # p2's penalty card: the 7C
    # After the countdown nothing more: no late double.
    g2 = deal(
        [["AS", "2S", "AH", "10H"], ["6S", "9H", "9D", "9C"], ["8S", "8H", "8D", "6H"]],
        stock=["5C", "6C", "7C", "9S"],
    )
    g2.apply(Call(0, at=6))
    quiet_turn(g2, 7)
    quiet_turn(g2, 8)
    assert_illegal(g2, double(1, 0, 8 + COUNTDOWN))


def test_the_game_ends_when_there_is_no_card_left_to_draw() -> None:
    """ "or, very rarely, when there is no card left to draw." — the stock is empty, the discard holds a
    single card (nothing to reshuffle), a King: nobody can draw any more."""
    g = deal([["9S", "9H", "9D", "9C"], ["8S", "8H", "8D", "8C"]], stock=["KC"])
    throw(g, 6)
    events = g.apply(Pass(0, at=7))
    assert g.view(1).stock_size == 0 and g.view(1).discard == ["KC"]
    assert "round_over" in kinds(events)
    assert g.is_over and g.result().reason == "no_card_to_draw"
    assert g.result().totals == [36, 32] and g.result().winners == [1]


def test_no_card_left_to_draw_but_a_passed_on_power_is_still_used() -> None:
    """ "or, very rarely, when there is no card left to draw." — a passed-on power is used "instead of
    drawing", so the player it is passed to still has a turn; the next one ends the game."""
    g = deal([["9S", "9H", "9D", "9C"], ["8S", "8H", "8D", "8C"]], stock=["KC"])
    throw(g, 6)
    g.apply(Power(0, slot=1, at=7))
    assert g.current_player == 1 and not g.is_over
    assert {a for a in turn_options(g, 1) if isinstance(a, Power)} == {Power(1, slot=s) for s in range(4)}
    events = g.apply(Power(1, slot=1, at=8))
    assert "round_over" in kinds(events)
    assert g.result().reason == "no_card_to_draw"


def test_when_the_draw_pile_is_empty_the_discard_is_shuffled_into_a_new_one_except_its_top_card() -> None:
    """ "When the draw pile is empty, the discard pile is shuffled into a new one, except its top card." """
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C", "8C"])
    for t in (6, 7, 8, 9):
        throw(g, t)
    assert g.view(0).stock_size == 0 and g.view(0).discard == ["5C", "6C", "7C", "8C"]
    events = g.apply(Draw(0, "stock", at=10))
    (reshuffled,) = of_kind(events, "reshuffled")
    assert reshuffled["stock_size"] == 3
    assert g.view(0).discard == ["8C"]  # the top stays
    held = g.view(0).held
    assert held in {"5C", "6C", "7C"}
    assert g.view(0).stock_size == 2


# --------------------------------------------------------------------------------- time as an input


def test_an_action_earlier_than_the_games_time_is_refused() -> None:
    """Time goes forward (time is an input): an action dated before ``g.now`` is refused,
    and an action refused at its time changes nothing, not even the time."""
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
    g.apply(Tick(at=20))
    assert_illegal(g, Draw(0, "stock", at=19.99))
    assert_illegal(g, Tick(at=10))
    assert g.now == 20
    # Refused at its time: p0's turn ran out at 50, so p0 may not draw at 60; the clock stays at 20.
    assert_illegal(g, Draw(0, "stock", at=60))
    assert g.now == 20 and g.current_player == 0


def test_the_same_actions_at_the_same_times_replay_to_the_same_game() -> None:
    """Time is an input, never the machine's clock: the same actions at the same times
    give the same game, timeouts, reshuffles and lockouts included."""
    hands = [
        ["AS", "2S", "3S", "4S"],
        ["7H", "2H", "3H", "KH"],
        ["7S", "QD", "3D", "4D"],
    ]
    spec = {"hands": hands, "stock": ["7C", "QC", "KC", "JC", "5C", "6C"], "discard": []}
    g = tamalou.new_game(FUN, players=3, deal=spec, first_player=0, seed=9)
    throw(g, 6)
    g.apply(double(1, 0, 6))
    g.apply(double(2, 0, 6.5))  # late
    g.apply(Tick(at=60))  # p1's turn runs out
    g.apply(Draw(2, "stock", at=61))
    g.apply(Discard(2, at=62))  # the JC: play again
    g.apply(Power(2, at=63))
    run_out_the_clock(g)
    assert g.is_over
    again = tamalou.replay(FUN, players=3, seed=9, deal=spec, first_player=0, actions=g.actions)
    assert again.to_json() == g.to_json()
    # The log in its JSON form (the wire protocol) gives the same state.
    wire = json.loads(json.dumps([tamalou.action_to_dict(a) for a in g.actions]))
    again = tamalou.replay(FUN, players=3, seed=9, deal=spec, first_player=0, actions=wire)
    assert json.loads(again.to_json()) == json.loads(g.to_json())


def test_the_action_log_in_its_json_form_replays_to_the_same_snapshot() -> None:
    """The same actions at the same times replay to the same game (time is an input) — also when the log went
    through its JSON form, where ``"at": 6`` is read back as ``6.0``: the snapshot should not depend on
    how a time was typed."""
    spec = {"hands": [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "stock": ["5C", "6C", "7C"]}
    g = tamalou.new_game(FUN, players=2, deal=spec, first_player=0, seed=1)
    throw(g, 6)
    wire = [tamalou.action_to_dict(a) for a in g.actions]
    again = tamalou.replay(FUN, players=2, seed=1, deal=spec, first_player=0, actions=wire)
    assert again.to_json() == g.to_json()


def test_an_illegal_action_at_the_current_time_leaves_the_game_unchanged() -> None:
    """An illegal action raises ``IllegalAction`` and changes nothing: the same holds for an action
    without ``at`` or dated ``g.now``. A refused action of the player to move is not "playing"."""
    # An absent player's refused action does not bring them back.
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C", "8C", "9C"])
    g.apply(Tick(at=OPEN + TURN))  # p0 lets its first turn go by
    quiet_turn(g, 51)
    assert g.current_player == 0 and g.state_of("timing").absent[0]
    assert_illegal(g, Replace(0, 0))  # nothing drawn: refused
    assert_illegal(g, Replace(0, 0, at=g.now))
    assert_illegal(g, Discard(0, at=g.now + 1))
    g.apply(Tick(at=g.deadline))
    assert g.state_of("timing").absent_turns[0] == 2


def test_a_refused_draw_from_the_discard_keeps_the_passed_on_power() -> None:
    """ "the next player may use that same power once, instead of drawing" — trying to take the King from
    the discard is refused ("A Jack, a Queen or a King cannot be taken from the discard pile"), and a
    refused action changes nothing: the passed-on power is still there."""
    g = deal([["AS", "2S", "3S", "KS"], ["AH", "2H", "3H", "4H"]], stock=["5C", "6C", "7C"])
    g.apply(Draw(0, "stock", at=6))
    g.apply(Replace(0, 3, at=7))  # the KS lands: peek
    g.apply(Power(0, slot=1, at=8))
    assert g.view(1).power == "peek_own" and g.view(1).discard_top == "KS"
    assert_illegal(g, Draw(1, "discard", at=9))  # at a later time: the game is restored
    assert_illegal(g, Draw(1, "discard", at=g.now))  # at the current time
    assert_illegal(g, Draw(1, "discard"))
    assert g.view(1).power == "peek_own"
    assert Power(1, slot=0) in g.legal_actions(1)


# --------------------------------------------------------------------------------- random games


def _value(card: str | None) -> int:
    return 0 if card is None else VALUES[card[:-1]]


def _good_placement(g: Round, p: int, options: Sequence[Action]) -> Action:
    """Keep the held card in place of the worst card if that lowers the total, else throw it."""
    held = _value(g.view(p).held)
    worst = max((a for a in options if isinstance(a, Replace)), key=lambda a: _value(g.layout(p)[a.slot]))
    if _value(g.layout(p)[worst.slot]) > held or Discard(p) not in options:
        return worst
    return Discard(p)


# Play styles (chances per step): tick, a right double, any double, a right call, a wrong call, a good placement.
STYLES = {
    "careful": (0.06, 0.3, 0.01, 0.5, 0.02, 0.7),
    "sloppy": (0.06, 0.1, 0.08, 0.2, 0.1, 0.3),
    "idle": (0.35, 0.2, 0.02, 0.3, 0.02, 0.5),
    "doubler": (0.04, 0.9, 0.02, 0.05, 0.0, 0.9),
}


def _random_step(g: Round, rng: random.Random, style: tuple[float, ...]) -> Action:
    """A random action of a random seat (or a tick), at a random later time. Doubles are sometimes
    right (the driver peeks at the cards), calls mostly when they are right: games end every way."""
    tick, right_double, any_double, right_call, wrong_call, good = style
    if rng.random() < tick:
        return Tick(at=g.now + rng.choice([0.5, 3.0, 16.0, 46.0, rng.uniform(0, 120)]))
    p = g.current_player if rng.random() < 0.75 else rng.randrange(g.players)
    options = g.legal_actions(p)
    doubles = [a for a in options if isinstance(a, MatchAction)]
    calls = [a for a in options if isinstance(a, Call)]
    others = [a for a in options if not isinstance(a, MatchAction | Call)]
    top = g.view(p).discard_top
    right = [a for a in doubles if top is not None and (g.layout(p)[a.slots[0]] or "")[:-1] == top[:-1]]
    if right and rng.random() < right_double:
        a: Action = rng.choice(right)
    elif doubles and rng.random() < any_double:
        a = rng.choice(doubles)
    elif calls and rng.random() < (right_call if g.total(p) <= 5 else wrong_call):
        a = calls[0]
    elif g.phase == "hold" and p == g.current_player and rng.random() < good:
        a = _good_placement(g, p, others)
    elif others:
        a = rng.choice(others)
    elif calls:
        a = calls[0]
    else:
        return Tick(at=g.now + rng.uniform(0, 20))
    d = tamalou.action_to_dict(a)
    quick = isinstance(a, MatchAction) and rng.random() < 0.9  # a double is quick, or it may come too late
    d["at"] = g.now + (rng.uniform(0, 1) if quick else rng.choice([0.0, 0.0, 0.3, 1.0, 2.5, rng.uniform(0, 50)]))
    return tamalou.parse_action(d)


@pytest.mark.parametrize("seed", range(40))
def test_random_timed_games_conserve_cards_and_replay(seed: int) -> None:
    """Random games of 2 to 5 players, random times and ticks, any seat acting: cards are conserved at
    every step; the action log replays to the same game; a snapshot continues identically with the actions
    applied since (as a server keeps them, one by one: a quiet tick after a tick takes its place in
    ``g.actions``, not in the server's own log)."""
    rng = random.Random(seed)
    players = rng.randint(2, 5)
    style = STYLES[list(STYLES)[seed % len(STYLES)]]
    g = new_round(FUN, players=players, seed=seed)
    universe = 52
    snapshot: str | None = None
    snapshot_at = rng.randint(0, 60)
    since: list[Action] = []  # the actions applied after the snapshot
    steps = 0
    while not g.is_over:
        if steps == snapshot_at:
            snapshot = g.to_json()
        a = _random_step(g, rng, style)
        before = g.copy()
        try:
            g.apply(a)
            if snapshot is not None:
                since.append(a)
        except IllegalAction:
            assert g.to_json() == before.to_json()
        check_cards(g, universe)
        steps += 1
        assert steps < 5000
    again = tamalou.replay(FUN, players=players, seed=seed, actions=g.actions)
    assert again.to_json() == g.to_json()
    restored = Game.from_json(g.to_json())
    assert restored.to_json() == g.to_json()
    if snapshot is not None:
        resumed = Game.from_json(snapshot)
        for a in since:
            resumed.apply(a)
        assert resumed.to_json() == g.to_json()


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(FUN, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
