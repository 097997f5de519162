"""Scenario tests of the Gabo modifier (docs/rules/gabo.md): the call threshold is 7.

Gabo changes one key, ``rules.call.threshold``; loaded alone it applies to French, composed it adds
only that key to its base. Every scenario is a stacked deal a reader can follow: ``hands`` per seat
(slot 0 first), ``stock`` top first, ``discard`` bottom first, seat 0 plays first and calls on its
first turn. Docstrings quote the French rule sheet "Le Tamalou" (Variantes 1) and, for the
composition with Cartalogue, the "Cartalogue" rules page.
"""

from __future__ import annotations

import random
from functools import partial

import pytest

import scenario
import tamalou
from scenario import cards_in_play, random_game

GABO = "gabo"


# --------------------------------------------------------------------------------- helpers

deal = partial(scenario.dealt, variant=GABO)
called_round = partial(scenario.called_round_stepwise, variant=GABO)


# --------------------------------------------------------------------------------- the threshold


def test_gabo_alone_is_french_with_the_call_at_seven() -> None:
    """ "Dans le Gabo, variante du jeu, on convient que le total des points doit être inférieur ou égal
    à 7 points." — the only key Gabo changes; loaded alone it applies to French."""
    gabo = tamalou.load_variant(GABO)
    french = tamalou.load_variant("french")
    assert gabo.rules.call.threshold == 7 and french.rules.call.threshold == 5
    assert gabo.rules.model_dump() == {
        **french.rules.model_dump(),
        "call": {**french.rules.call.model_dump(), "threshold": 7},
    }
    assert gabo.plugins == french.plugins


def test_caller_at_seven_strictly_lowest_wins() -> None:
    """ "le total des points doit être inférieur ou égal à 7 points" — with French's caller rule:
    "L’annonceur du Tamalou gagne s’il totalise un maximum de [7] points et s’il a moins de points que
    ses adversaires." (French, at 5: the caller loses.)"""
    hands = (
        ["AS", "2S", "4S", "KH"],  # caller: 7
        ["AH", "AD", "4H", "2D"],  # 8
        ["9S", "9H", "9D", "9C"],  # 36
    )
    gabo = called_round(*hands)
    assert gabo.totals == [7, 8, 36]
    assert gabo.winners == [0] and gabo.ranking == [[0], [1], [2]]
    assert gabo.scores == [0, 8, 36]  # the caller who won scores 0 (Variantes 3)
    french = called_round(*hands, variant="french")
    assert french.winners == [1] and french.ranking == [[1], [0], [2]]


def test_caller_at_seven_tied_still_loses() -> None:
    """ "En cas d’égalité, l’annonceur est toujours perdant." — at 7 too."""
    result = called_round(
        ["AS", "2S", "4S", "KH"],  # caller: 7
        ["AH", "2H", "4H", "KD"],  # 7
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert result.totals == [7, 7, 36]
    assert result.winners == [1] and result.ranking == [[1], [0], [2]]


def test_caller_at_eight_loses_even_when_lowest() -> None:
    """ "inférieur ou égal à 7 points" — "Si l’une ou l’autre condition n’est pas remplie, c’est
    l’adversaire totalisant le moins de points qui remporte la partie." """
    result = called_round(
        ["AS", "3S", "4S", "KH"],  # caller: 8, the lowest
        ["AH", "AD", "4H", "3D"],  # 9
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert result.totals == [8, 9, 36]
    assert result.winners == [1]
    assert result.ranking == [[1], [0], [2]]
    assert result.scores == [18, 9, 36]  # the caller who lost: total + 10


# --------------------------------------------------------------------------------- compositions


def test_gabo_over_cartalogue_moves_the_win_bound_to_seven() -> None:
    """Cartalogue: "Pour remporter la partie, un joueur doit obtenir un score inférieur ou égal à 5
    points." Gabo: "une autre limite maximale de points pour l'annonce du Tamalou [...] inférieur ou
    égal à 7 points."

    Decided (no text speaks of this composition): Cartalogue's win bound is its call threshold
    (``rules.end.win_max = "threshold"``), so Gabo over Cartalogue lets a total of 7 or less win: a
    caller at 7, strictly lowest, wins; at 8 nobody wins (nobody is at 7 or less)."""
    variant = ["cartalogue", "gabo"]
    loaded = tamalou.load_variant(variant)
    assert loaded.rules.call.threshold == 7
    assert loaded.rules.end.win_max == "threshold"
    hands = (
        ["AS", "2S", "4S", "10S"],  # caller: 7 (Cartalogue: the 10 is worth 0)
        ["AH", "AD", "4H", "2D"],  # 8
        ["9S", "9H", "9D", "9C"],  # 36
    )
    result = called_round(*hands, variant=variant)
    assert result.totals == [7, 8, 36]
    assert result.winners == [0]
    assert result.ranking == [[0], [1], [2]]
    # Plain Cartalogue: 7 is over its bound of 5, nobody wins.
    assert called_round(*hands, variant="cartalogue").winners == []
    # At 8, nobody is at 7 or less: nobody wins.
    result = called_round(["AS", "2S", "5S", "10S"], ["AH", "AD", "4H", "3D"], variant=variant)
    assert result.totals == [8, 9] and result.winners == []


@pytest.mark.parametrize("variant", [[GABO, "jokers"], ["jokers", GABO], ["french", "jokers", GABO]])
def test_gabo_with_jokers_call_at_seven_jokers_at_minus_one(variant: list[str]) -> None:
    """ "inférieur ou égal à 7 points" — with Benoît's jokers, "qui valent -1": a caller at 7 with a
    joker wins; at 8 loses."""
    loaded = tamalou.load_variant(variant)
    assert loaded.rules.call.threshold == 7 and loaded.rules.deck.jokers == 2
    won = called_round(
        ["JK1", "8S", "KH", "KD"],  # caller: -1 + 8 + 0 + 0 = 7
        ["AH", "AD", "4H", "2D"],  # 8
        variant=variant,
    )
    assert won.totals == [7, 8] and won.winners == [0]
    lost = called_round(
        ["JK1", "9S", "KH", "KD"],  # caller: 8
        ["AH", "AD", "4H", "3D"],  # 9
        variant=variant,
    )
    assert lost.totals == [8, 9] and lost.winners == [1]
    g = tamalou.new_game(variant, players=3, seed=7)
    assert cards_in_play(g) == 54


# --------------------------------------------------------------------------------- random games


def test_random_games_end_without_error_and_keep_every_card() -> None:
    """30 seeded games of 2 to 6 players, random legal actions of any seat: each ends, no card lost;
    a caller who wins is at 7 or less."""
    rng = random.Random(3)
    for i in range(30):
        players = 2 + i % 5
        g = random_game(GABO, players, seed=i, rng=rng, universe=52)
        result = g.result()
        assert sorted(p for place in result.ranking for p in place) == list(range(players))
        if result.caller in result.winners:
            assert result.totals[result.caller] <= 7


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(GABO, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
