"""Scenario tests of the Jokers modifier (docs/rules/jokers.md): a deck of 54 with two jokers.

The jokers (``JK1``, ``JK2``) are worth -1 each, have no power, and match each other (same rank
``JK``, Decided); totals can be negative. Loaded alone the modifier applies to French;
composed it adds only its keys to its base. Every scenario is a stacked deal a reader can follow:
``hands`` per seat (slot 0 first), ``stock`` top first, ``discard`` bottom first, seat 0 plays first.
Docstrings quote Benoît's comment under the French rule sheet "Le Tamalou" and the sheet's author's
answer to it.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

import scenario
from scenario import RANKS, assert_illegal, cards_in_play, close, draw_and_throw, kinds, random_game, turn_options
from tamalou import (
    Call,
    Discard,
    Draw,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Replace,
    Round,
)
from tamalou.engine import new_round

JOKERS = "jokers"
DECK_54 = frozenset({f"{r}{s}" for r in RANKS for s in "SHDC"} | {"JK1", "JK2"})


# --------------------------------------------------------------------------------- helpers

deal = partial(scenario.dealt, variant=JOKERS)
called_round = partial(scenario.called_round_stepwise, variant=JOKERS)


def every_card_of(g: Round) -> list[str]:
    """Deal, turned-up card, then the whole stock drawn and thrown (powers and calls declined):
    every card of a seeded round before the first reshuffle."""
    if g.phase == "peek":
        for p in range(g.players):
            g.apply(PeekAction(p, (0, 1)))
    cards = [c for p in range(g.players) for c in g.layout(p) if c is not None] + g.view(0).discard
    while g.view(0).stock_size:
        p = g.current_player
        g.apply(Draw(p, "stock"))
        held = g.view(p).held
        assert held is not None
        cards.append(held)
        g.apply(Discard(p))
        while g.current_player == p and g.phase in ("power", "call"):
            g.apply(Pass(p))
    return cards


# --------------------------------------------------------------------------------- the deck


@pytest.mark.parametrize("variant", [[JOKERS], ["cartalogue", JOKERS]])
def test_deck_of_54_cards_with_two_jokers(variant: list[str]) -> None:
    """ "On joue aussi une variante avec en plus les 2 cartes joker" (French: "Un jeu de 52 cartes (sans
    Joker)") — every card dealt, turned up or drawn before the first reshuffle is a different card of
    the 54."""
    for players in (2, 4, 6):
        g = new_round(variant, players=players, seed=54 + players)
        assert cards_in_play(g) == 54
        cards = every_card_of(g)
        assert len(cards) == 54
        assert set(cards) == DECK_54


# --------------------------------------------------------------------------------- values


def test_joker_is_worth_minus_one() -> None:
    """ "les 2 cartes joker qui valent -1" """
    result = called_round(
        ["JK1", "AS", "2S", "KH"],  # caller: -1 + 1 + 2 + 0 = 2
        ["JK2", "9S", "KS", "QS"],  # -1 + 9 + 15 + 10 = 33
    )
    assert result.totals == [2, 33]
    assert result.winners == [0]


def test_totals_can_be_negative_and_the_lowest_wins() -> None:
    """ "Ça permet par exemple parfois de contrer quelqu'un à qui il ne reste plus du tout de carte où
    qui a 0 points" — "Avec, en prime, une possibilité d'avoir un total de points négatif." """
    won = called_round(
        ["JK1", "JK2", "KH", "KD"],  # caller: -2
        ["AS", "AH", "AD", "AC"],  # 4
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert won.totals == [-2, 4, 36]
    assert won.winners == [0] and won.ranking == [[0], [1], [2]]
    assert won.scores == [0, 4, 36]
    beaten = called_round(
        ["AS", "AH", "AD", "AC"],  # caller: 4
        ["JK1", "JK2", "KH", "KD"],  # -2
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert beaten.totals == [4, -2, 36]
    assert beaten.winners == [1] and beaten.ranking == [[1], [0], [2]]
    assert beaten.scores == [14, -2, 36]


def test_joker_counters_a_player_with_no_card_left() -> None:
    """ "Ça permet par exemple parfois de contrer quelqu'un à qui il ne reste plus du tout de carte" —
    p1 throws all its cards and must call with nothing (0 points); p0's joker alone (-1) beats it."""
    g = deal(
        [
            ["JK1", "5S", "5H", "5C"],  # p0 sees JK1, 5S; its 5H, 5C are lucky guesses
            ["6S", "6D", "6H", "6C"],  # p1 sees 6S, 6D
        ],
        stock=["5D", "2C", "2D", "3C"],
        discard=["9D"],
    )
    draw_and_throw(g)  # p0 throws the 5D...
    assert kinds(g.apply(MatchAction(0, (1, 2, 3)))) == ["matched"] * 3  # ... and its three 5s
    g.apply(Pass(0))
    g.apply(Draw(1, "stock"))  # p1 draws the 2C and puts it in slot 0: its 6S is thrown...
    g.apply(Replace(1, 0))
    assert kinds(g.apply(MatchAction(1, (1, 2, 3)))) == ["matched"] * 3  # ... with its three other 6s
    g.apply(Pass(1))
    draw_and_throw(g)  # p0 throws the 2D
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # p1's 2C on it: p1 has no card left
    g.apply(Pass(0))
    assert g.layout(0) == ["JK1", None, None, None] and g.card_count(1) == 0
    assert g.legal_actions(1) == [Call(1)]  # French: "il doit annoncer le Tamalou [...] sans jouer"
    g.apply(Call(1))
    draw_and_throw(g)  # p0's last turn: the 3C
    assert g.phase == "closing" and g.to_act == [0]  # p0 may still match the 3C; p1 has no card
    close(g)
    result = g.result()
    assert result.reason == "called" and result.caller == 1
    assert result.totals == [-1, 0] and result.card_counts == [1, 0]
    assert result.winners == [0] and result.ranking == [[0], [1]]


# --------------------------------------------------------------------------------- powers


def test_joker_has_no_power() -> None:
    """Benoît's comment gives jokers a value and nothing else; Decided: no power. A joker drawn
    from the stock and thrown offers no power; the call is next."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
        ],
        stock=["JK1", "5C"],
        discard=["6D"],
    )
    events = draw_and_throw(g)
    assert kinds(events) == ["drew", "discarded"]
    assert events[1]["card"] == "JK1"
    assert g.phase == "call" and g.view(0).power is None
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    assert_illegal(g, Power(0, slot=0))
    assert_illegal(g, Power(0, target=1, target_slot=0))


# --------------------------------------------------------------------------------- matching


def test_joker_matches_the_other_joker_and_nothing_else() -> None:
    """Decided: jokers match each other (same rank ``JK``): "à tout moment, un joueur peut jeter
    une, deux ou trois cartes de même valeur que celle visible dans la défausse"."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["JK2", "5H", "KD", "4H"],  # p1 sees JK2, 5H
        ],
        stock=["6C", "JK1", "5C", "6D"],
        discard=["9D"],
    )
    # A joker on a 9: a miss, the joker shown to all, and a penalty card.
    events = g.apply(MatchAction(1, (0,)))
    assert kinds(events) == ["missed", "penalty"] and events[0]["card"] == "JK2"
    assert g.layout(1) == ["JK2", "5H", "KD", "4H", "6C"]
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))  # p0 throws the JK1
    assert kinds(events) == ["discarded"]
    # A red king (0 points, French) on a joker: a miss.
    missed = g.copy()
    assert kinds(missed.apply(MatchAction(1, (2,)))) == ["missed", "penalty"]
    # The other joker on it: a match.
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]
    assert g.view(0).discard[-2:] == ["JK1", "JK2"]
    assert g.layout(1) == [None, "5H", "KD", "4H", "6C"]
    # Another card on the same joker: a miss (p1 may throw up to three cards on one card in French).
    events = g.apply(MatchAction(1, (1,)))
    assert kinds(events) == ["missed", "penalty"] and events[0]["card"] == "5H"
    assert g.current_player == 0 and g.phase == "call"


# --------------------------------------------------------------------------------- over Cartalogue


def test_jokers_over_cartalogue_keep_cartalogue_values_and_powers() -> None:
    """ "les 2 cartes joker qui valent -1" over Cartalogue: "Le "10" vaut 0 points." and "Les figures
    (Valet, Dame, Roi) valent 10 points chacune." A negative total wins if it is the lowest at or under
    5; a joker has no power while every king has Cartalogue's look-and-swap."""
    variant = ["cartalogue", JOKERS]
    result = called_round(
        ["JK1", "AS", "AH", "10H"],  # caller: -1 + 1 + 1 + 0 = 1 (French values: 11)
        ["JK2", "10S", "10D", "10C"],  # -1 (French values: 29)
        ["KH", "KD", "AD", "AC"],  # 22 (French values: 2)
        variant=variant,
    )
    assert result.totals == [1, -1, 22]
    assert result.winners == [1] and result.ranking == [[1], [0], [2]]
    g = deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
        stock=["JK1", "KH", "5C"],
        discard=["6D"],
        variant=variant,
    )
    assert kinds(draw_and_throw(g)) == ["drew", "discarded"] and g.phase == "call"
    g.apply(Pass(0))
    events = draw_and_throw(g)
    assert kinds(events)[-1] == "power_offered" and events[-1]["power"] == "look_and_swap"


# --------------------------------------------------------------------------------- random games


@pytest.mark.parametrize("variant", [[JOKERS], ["cartalogue", JOKERS]])
def test_random_games_end_without_error_and_keep_every_card(variant: list[str]) -> None:
    """30 seeded games of 2 to 6 players, random legal actions of any seat: each ends, no card of the
    54 lost; totals are the sums of the values of the cards left."""
    rng = random.Random(4)
    for i in range(30):
        players = 2 + i % 5
        g = random_game(variant, players, seed=i, rng=rng, universe=54)
        result = g.result()
        assert sorted(p for place in result.ranking for p in place) == list(range(players))
        assert result.totals == [g.total(p) for p in range(players)]


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(JOKERS, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
