"""Scenario tests of Cartalogue (docs/rules/cartalogue.md): the rules that differ from French.

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first), ``stock``
top first, ``discard`` bottom first, and seat 0 plays first. Cartalogue starts with a peek phase
where each player chooses two of their slots; unless a test is about that choice, everybody peeks at
slots 0 and 1 (``dealt``). Docstrings quote the "Cartalogue" rules page.
"""

from __future__ import annotations

import random
from functools import partial
from itertools import combinations

import pytest

import scenario
import tamalou
from scenario import (
    assert_illegal,
    draw_and_throw,
    kinds,
    matches_listed,
    of_kind,
    peek_all,
    play_out,
    quiet_turn,
    random_game,
    seen,
    turn_options,
)
from tamalou import (
    Action,
    Call,
    Discard,
    Draw,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Round,
    Swap,
)
from tamalou.engine import new_round

CARTALOGUE = "cartalogue"

# --------------------------------------------------------------------------------- helpers

deal = partial(scenario.deal, variant=CARTALOGUE)
dealt = partial(scenario.dealt, variant=CARTALOGUE)
called_round = partial(scenario.called_round, variant=CARTALOGUE, peek=True)


# --------------------------------------------------------------------------------- the opening peek


def test_opening_peek_of_any_two_slots_chosen_by_each_player() -> None:
    """ "Chaque joueur regarde 2 cartes de son carré et les reposent au même endroit." — the
    engine asks each player for an opening ``peek`` choice; the first turn starts after all."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5H", "6H", "7H", "8H"],
            ["9D", "JD", "QD", "KD"],
        ],
        stock=["6C", "5C"],
        discard=["3D"],
    )
    assert g.phase == "peek" and g.turn == 0
    every_pair = list(combinations(range(4), 2))
    assert len(every_pair) == 6
    for p in range(3):
        assert set(g.legal_actions(p)) == {PeekAction(p, pair) for pair in every_pair}
        for q in range(3):
            assert seen(g, p, q) == {k: None for k in range(4)}  # nobody has seen a card yet
    # No turn, no matching (the 3D turned up), no call before everybody peeked.
    assert_illegal(g, Draw(0, "stock"))
    assert_illegal(g, Draw(0, "discard"))
    assert_illegal(g, MatchAction(0, (2,)))
    assert_illegal(g, Call(0))

    # Any order: p2 peeks first, at its slots 3 and 1; only p2 sees them.
    (peeked,) = g.apply(PeekAction(2, (3, 1)))
    assert peeked["player"] == 2
    assert sorted(peeked.for_player(2)["cards"]) == ["JD", "KD"]
    assert peeked.for_player(0)["cards"] is None and peeked.for_player(1)["cards"] is None
    assert seen(g, 2, 2) == {0: None, 1: "JD", 2: None, 3: "KD"}
    assert seen(g, 0, 2) == {k: None for k in range(4)}
    assert seen(g, 1, 2) == {k: None for k in range(4)}
    assert g.phase == "peek" and g.legal_actions(2) == []
    assert_illegal(g, PeekAction(2, (0, 2)))  # peeking twice
    assert_illegal(g, PeekAction(0, (0, 1, 2)))  # three slots
    assert_illegal(g, PeekAction(0, (0,)))  # one slot
    assert_illegal(g, PeekAction(0, (1, 1)))  # the same slot twice
    assert_illegal(g, PeekAction(0, (3, 4)))  # no slot 4 in p0's square
    assert_illegal(g, {"type": "peek", "player": 0, "slots": [0, 1], "owner": 1})  # another's slots

    g.apply(PeekAction(0, (0, 3)))
    assert g.phase == "peek"  # p1 has not peeked yet
    assert_illegal(g, Draw(0, "stock"))
    events = g.apply(PeekAction(1, (2, 0)))
    assert kinds(events) == ["peeked", "turn"]
    assert g.phase == "draw" and g.current_player == 0 and g.turn == 0
    assert seen(g, 0, 0) == {0: "AS", 1: None, 2: None, 3: "4S"}
    assert seen(g, 1, 1) == {0: "5H", 1: None, 2: "7H", 3: None}
    assert seen(g, 0, 1) == {k: None for k in range(4)} and seen(g, 1, 0) == {k: None for k in range(4)}
    assert_illegal(g, PeekAction(0, (1, 2)))  # the opening peek is over


def test_opening_peek_on_shuffled_deals_shows_each_player_its_own_choice() -> None:
    """ "Chaque joueur regarde 2 cartes de son carré" — any two, for every seat of every table."""
    rng = random.Random(1)
    for n in range(2, 7):
        g = new_round(CARTALOGUE, players=n, seed=300 + n)
        chosen = {p: tuple(sorted(rng.sample(range(4), 2))) for p in range(n)}
        for p in rng.sample(range(n), n):
            assert g.phase == "peek"
            g.apply(PeekAction(p, chosen[p]))
        assert g.phase == "draw"
        for p in range(n):
            for q in range(n):
                expected = {s: (g.layout(q)[s] if p == q and s in chosen[p] else None) for s in range(4)}
                assert seen(g, p, q) == expected


# --------------------------------------------------------------------------------- values


def test_card_values_ten_is_zero_and_every_face_ten_no_red_king_at_zero() -> None:
    """ "Chaque carte numérique restante dans le carré d'un joueur vaut sa valeur en points. Le "10"
    vaut 0 points." — "Les figures (Valet, Dame, Roi) valent 10 points chacune." """
    result = called_round(
        ["10S", "10H", "10D", "10C"],  # 0 (French: 40)
        ["KS", "KC", "KH", "KD"],  # 40 (French: 30)
        ["JS", "QS", "JH", "QH"],  # 40
        ["AS", "2S", "3S", "4S"],  # 10
        ["5S", "6S", "7S", "8S"],  # 26
        ["9S", "AH", "9H", "AD"],  # 20
    )
    assert result.totals == [0, 40, 40, 10, 26, 20]
    assert result.winners == [0]


# --------------------------------------------------------------------------------- matching


def test_instant_matching_of_one_card_per_thrown_card() -> None:
    """ "Défausse instantanée : Si la dernière carte de la défausse a la même valeur qu'une carte dans
    le carré du joueur, celui-ci peut immédiatement se défausser de cette carte, sans attendre son
    tour." — one card ("cette carte": one card of one's own at once); a second card on the same thrown card
    is refused."""
    g = dealt(
        [
            ["AS", "2S", "3S", "4S"],
            ["5S", "5H", "6D", "KD"],  # p1 sees its 5S and 5H
            ["5C", "AH", "2H", "3H"],  # p2 sees its 5C
        ],
        stock=["5D", "6C", "2C"],
        discard=["9C"],
    )
    draw_and_throw(g)  # p0 throws the 5D
    assert matches_listed(g, 1) == {MatchAction(1, (k,)) for k in range(4)}
    assert_illegal(g, MatchAction(1, (0, 1)))  # two cards at once
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]
    assert g.layout(1) == [None, "5H", "6D", "KD"]
    assert matches_listed(g, 1) == set()
    assert_illegal(g, MatchAction(1, (1,)))  # a second card on the same 5D
    # The matching window is as French (Decided): the slower one takes its card back, no penalty.
    assert kinds(g.apply(MatchAction(2, (0,)))) == ["late"]
    assert g.layout(2) == ["5C", "AH", "2H", "3H"] and g.view(0).stock_size == 2
    g.apply(Pass(0))
    # A new thrown card, a new chance: p1 throws the 6C and its 6D on it, in its own turn.
    draw_and_throw(g)
    assert kinds(g.apply(MatchAction(1, (2,)))) == ["matched"]
    assert g.view(0).discard[-2:] == ["6C", "6D"]
    assert_illegal(g, MatchAction(1, (1,)))
    assert g.current_player == 1 and g.phase == "call"


def test_missed_match_costs_a_penalty_card_and_uses_the_one_try() -> None:
    """ "En cas d'erreur, le joueur doit piocher une carte de pénalité." """
    g = dealt(
        [
            ["AS", "2S", "3S", "4S"],
            ["5S", "2H", "9C", "4H"],  # p1 sees 5S, 2H; it believes slot 2 is a 5
        ],
        stock=["5D", "6C", "2C"],
        discard=["8D"],
    )
    draw_and_throw(g)  # p0 throws the 5D
    events = g.apply(MatchAction(1, (2,)))
    assert kinds(events) == ["missed", "penalty"]
    assert events[0]["card"] == "9C" and events[1]["slot"] == 4
    assert g.layout(1) == ["5S", "2H", "9C", "4H", "6C"]  # back in its slot, the penalty in slot 4
    for p in (0, 1):
        assert seen(g, p, 1)[2] == "9C"
        assert seen(g, p, 1)[4] is None  # the penalty card is known to nobody
    # One card per thrown card: the miss was it; p1 may not try its real 5 on the same 5D.
    assert matches_listed(g, 1) == set()
    assert_illegal(g, MatchAction(1, (0,)))


# --------------------------------------------------------------------------------- powers


def _power_table(drawn: str) -> Round:
    """Three seats; p0 draws ``drawn`` from the stock."""
    return dealt(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["AH", "2H", "3H", "4H"],  # p1 sees AH, 2H
            ["AD", "2D", "3D", "4D"],  # p2 sees AD, 2D
        ],
        stock=[drawn, "5C", "6H"],
        discard=["5S"],
    )


@pytest.mark.parametrize(
    ("drawn", "power"),
    [
        ("7C", "peek_own"),
        ("8C", "peek_own"),
        ("9C", "peek_opponent"),
        ("10C", "peek_opponent"),
        ("JC", "blind_swap"),
        ("QC", "blind_swap"),
        ("KS", "look_and_swap"),
        ("KC", "look_and_swap"),
        ("KH", "look_and_swap"),
        ("KD", "look_and_swap"),
        ("6C", None),
        ("AC", None),
    ],
)
def test_powers_as_french_on_the_same_ranks_every_king_look_and_swap(drawn: str, power: str | None) -> None:
    """ "Cartes spéciales : En piochant une carte spéciale, le joueur peut réaliser une action
    spécifique (voir tableau ci-dessous)." — the table is missing; Decided: French powers
    on the same ranks, K look-and-swap for every king, since Cartalogue does not tell kings apart."""
    g = _power_table(drawn)
    offered = of_kind(draw_and_throw(g), "power_offered")
    assert [e["power"] for e in offered] == ([] if power is None else [power])
    own = range(4)
    opponents = [(q, k) for q in (1, 2) for k in range(4)]
    decline: set[Action] = {Pass(0)}
    table: dict[str | None, set[Action]] = {
        None: {Call(0), Pass(0)},
        "peek_own": decline | {Power(0, slot=k) for k in own},
        "peek_opponent": decline | {Power(0, target=q, target_slot=k) for q, k in opponents},
        "blind_swap": decline | {Power(0, slot=m, target=q, target_slot=k) for m in own for q, k in opponents},
        "look_and_swap": decline | {Power(0, target=q, target_slot=k) for q, k in opponents},
    }
    assert turn_options(g, 0) == table[power]


@pytest.mark.parametrize("drawn", ["KH", "KD"])
def test_red_king_looks_then_swaps(drawn: str) -> None:
    """Decided: K look-and-swap for every king — a red king too (French: no power)."""
    g = _power_table(drawn)
    draw_and_throw(g)
    (looked,) = g.apply(Power(0, target=1, target_slot=2))
    assert looked.for_player(0)["card"] == "3H" and looked.for_player(1)["card"] is None
    assert g.phase == "swap"
    assert turn_options(g, 0) == {Swap(0, k) for k in range(4)} | {Pass(0)}
    g.apply(Swap(0, 3))  # p0's 4S <-> p1's 3H
    assert g.layout(0)[3] == "3H" and g.layout(1)[2] == "4S"
    assert seen(g, 0, 0)[3] == "3H"
    assert g.phase == "call"


# --------------------------------------------------------------------------------- who wins


def test_winner_is_the_lowest_total_at_or_under_five() -> None:
    """ "Pour remporter la partie, un joueur doit obtenir un score inférieur ou égal à 5 points." —
    "Le joueur avec le score le plus bas parmi ceux ayant atteint cet objectif remporte la partie." """
    won = called_round(
        ["AS", "2S", "10S", "10H"],  # caller: 3
        ["AH", "AD", "AC", "2H"],  # 5
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert won.totals == [3, 5, 36] and won.winners == [0]
    assert won.ranking == [[0], [1], [2]]
    lost = called_round(
        ["AS", "2S", "2D", "10S"],  # caller: 5
        ["AH", "AD", "AC", "10H"],  # 3
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert lost.totals == [5, 3, 36] and lost.winners == [1]
    assert lost.ranking == [[1], [0], [2]]


def test_caller_loses_ties() -> None:
    """ "En cas d'égalité de score, le joueur qui a annoncé « Tamalo » est perdant d'office." """
    tie = called_round(
        ["AS", "AH", "2S", "10S"],  # caller: 4
        ["AD", "AC", "2H", "10H"],  # 4
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert tie.totals == [4, 4, 36] and tie.winners == [1]
    assert tie.ranking == [[1], [0], [2]]
    # Opponents tied at the lowest total, at or under 5, share the win.
    shared = called_round(
        ["4S", "5S", "10S", "10H"],  # caller: 9
        ["AH", "2H", "10D", "AS"],  # 4
        ["AD", "2D", "10C", "AC"],  # 4
    )
    assert shared.totals == [9, 4, 4] and shared.winners == [1, 2]
    assert shared.ranking == [[1, 2], [0]]


def test_nobody_wins_if_nobody_is_at_or_under_five() -> None:
    """ "Pour remporter la partie, un joueur doit obtenir un score inférieur ou égal à 5 points." —
    Decided: nobody at 5 or less at the end means nobody wins the round (the result says so; no winner
    is invented). The ranking still orders every player. (French: the lowest opponent would win.)"""
    result = called_round(
        ["AS", "2S", "3S", "10S"],  # caller: 6, the lowest
        ["AH", "AD", "5H", "10H"],  # 7
        ["4H", "5D", "10D", "10C"],  # 9
    )
    assert result.totals == [6, 7, 9] and result.caller == 0
    assert result.winners == []
    assert result.ranking == [[0], [1], [2]]
    # Without a call: the round ends as nothing can be drawn; nobody is at 5 or less.
    g = deal(
        [
            ["AS", "2S", "3S", "QS"],  # 16
            ["AH", "2H", "3H", "4H"],  # 10
            ["AD", "2D", "3D", "KD"],  # 16
        ],
        stock=[],
        discard=[],
    )
    events = peek_all(g)
    assert g.is_over and of_kind(events, "round_over")
    result = g.result()
    assert result.reason == "no_card_to_draw" and result.caller is None
    assert result.totals == [16, 10, 16]
    assert result.winners == []
    assert result.ranking == [[1], [0, 2]]


def test_caller_over_five_loses_and_the_lowest_other_at_or_under_five_wins() -> None:
    """ "Le joueur avec le score le plus bas parmi ceux ayant atteint cet objectif remporte la
    partie." — the caller's call does not make them win; another player at or under 5 may."""
    result = called_round(
        ["AS", "2S", "3S", "10S"],  # caller: 6
        ["AH", "AD", "3H", "10H"],  # 5
        ["AC", "3D", "10D", "10C"],  # 4
    )
    assert result.totals == [6, 5, 4] and result.caller == 0
    assert result.winners == [2]
    assert result.ranking == [[2], [1], [0]]


# --------------------------------------------------------------------------------- empty layout


def test_empty_layout_may_call_but_need_not_and_plays_on() -> None:
    """ "Dès qu'un joueur estime que le total de ses cartes est égal ou inférieur à 5 ou qu'il n'a plus
    de cartes en jeu, il peut dire « Tamalo »." — may, not must (French: must call, without playing).
    Decided: a player with no card at their turn may call; the call is made after playing, as French."""
    g = dealt(
        [
            ["AH", "2H", "4H", "AD"],  # p0: 8 points
            ["9S", "6S", "5S", "3S"],  # p1 throws them one per thrown card
        ],
        stock=["6C", "5C", "3C", "2C", "4C", "AC", "2D"],
        discard=["9D"],
    )
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # the 9S on the 9D turned up
    draw_and_throw(g)  # p0 throws the 6C
    assert kinds(g.apply(MatchAction(1, (1,)))) == ["matched"]
    g.apply(Pass(0))
    draw_and_throw(g)  # p1 throws the 5C...
    assert kinds(g.apply(MatchAction(1, (2,)))) == ["matched"]  # ... and its 5S
    g.apply(Pass(1))
    draw_and_throw(g)  # p0 throws the 3C
    assert kinds(g.apply(MatchAction(1, (3,)))) == ["matched"]
    g.apply(Pass(0))
    # p1's turn with no card: no forced call; it plays (the discard top could only replace a card).
    assert g.card_count(1) == 0 and g.current_player == 1 and g.phase == "draw" and not g.is_over
    assert g.legal_actions(1) == [Draw(1, "stock")]
    assert_illegal(g, Call(1))
    assert_illegal(g, Draw(1, "discard"))
    g.apply(Draw(1, "stock"))  # the 2C
    assert turn_options(g, 1) == {Discard(1)}
    g.apply(Discard(1))
    assert turn_options(g, 1) == {Call(1), Pass(1)}
    # It may call...
    called = g.copy()
    called.apply(Call(1))
    play_out(called)
    result = called.result()
    assert result.caller == 1 and result.totals == [8, 0] and result.winners == [1]
    # ... or not: the game goes on, and p1 plays again on its next turn.
    g.apply(Pass(1))
    assert g.caller is None and g.current_player == 0 and not g.is_over
    quiet_turn(g)
    assert g.current_player == 1 and g.legal_actions(1) == [Draw(1, "stock")]


# --------------------------------------------------------------------------------- compositions


@pytest.mark.parametrize("modifier", ["jokers", "gabo"])
def test_compositions_keep_cartalogue_values(modifier: str) -> None:
    """ "Le "10" vaut 0 points." — "Les figures (Valet, Dame, Roi) valent 10 points chacune." A
    modifier composed over Cartalogue adds only its own keys (jokers: a deck of 54; gabo: the call at
    7, which moves Cartalogue's win bound, its call threshold, to 7): Cartalogue's values, opening peek
    and one-card matching stay."""
    variant = [CARTALOGUE, modifier]
    loaded = tamalou.load_variant(variant)
    assert loaded.rules.end.win_max == "threshold"  # 5, or Gabo's 7
    assert loaded.rules.matching.max_cards == 1
    result = called_round(
        ["10S", "KH", "KD", "AS"],  # caller: 21 (French: 11)
        ["KS", "KC", "JS", "QS"],  # 40 (French: 50)
        ["10D", "10C", "5S", "AD"],  # 6 (French: 26)
        variant=variant,
    )
    assert result.totals == [21, 40, 6]
    # Nobody at 5 or less; with Gabo the bound is 7 and the 6 wins.
    assert result.winners == ([2] if modifier == "gabo" else [])
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["5C"], discard=["6C"], variant=variant)
    assert g.phase == "peek"


# --------------------------------------------------------------------------------- random games


def test_random_games_end_without_error_and_keep_every_card() -> None:
    """30 seeded games of 2 to 6 players, random legal actions of any seat: each ends, no card lost."""
    rng = random.Random(1)
    for i in range(30):
        players = 2 + i % 5
        g = random_game(CARTALOGUE, players, seed=i, rng=rng, universe=52)
        assert sum(isinstance(a, PeekAction) for a in g.actions) == players
        result = g.result()
        assert sorted(p for place in result.ranking for p in place) == list(range(players))
        assert all(result.totals[p] <= 5 for p in result.winners)
        assert result.totals == [g.total(p) for p in range(players)]


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(CARTALOGUE, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
