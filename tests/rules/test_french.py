"""Scenario tests of the French ruleset (docs/rules/french.md): the rules of the French rule sheet
"Le Tamalou", then the rulings its author gave in answer to players' comments (the ``test_ruling_*``
tests, numbered 1 to 16), then the points the engine decides where the sheet is silent.

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first; from the
opening peek each player knows its slots 0 and 1), ``stock`` top first, ``discard`` bottom first,
and seat 0 plays first. Docstrings quote "Le Tamalou": the rule text, or the author's answer in the
comments, which is a ruling.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import pytest

import scenario
import tamalou
from scenario import (
    FULL_DECK,
    assert_illegal,
    calling_turn,
    close,
    draw_and_throw,
    kinds,
    matches_listed,
    of_kind,
    play_out,
    quiet_turn,
    seen,
    turn_options,
)
from tamalou import (
    Call,
    Discard,
    Draw,
    Give,
    IllegalAction,
    MatchAction,
    Pass,
    Power,
    Replace,
    Round,
    SetupError,
    Swap,
)
from tamalou.engine import new_round

FRENCH = "french"

# --------------------------------------------------------------------------------- helpers

deal = partial(scenario.deal, variant=FRENCH)
called_round = partial(scenario.called_round, variant=FRENCH)


# --------------------------------------------------------------------------------- setup


def test_players_two_to_six_one_and_seven_refused() -> None:
    """ "♦ Nombre de joueurs : Entre 2 et 6 joueurs" """
    for n in range(2, 7):
        g = tamalou.new_game(FRENCH, players=n, seed=n)
        assert g.players == n
        assert len(g.view(0).hands) == n
    for n in (1, 7):
        with pytest.raises(SetupError, match=f"got {n}"):
            tamalou.new_game(FRENCH, players=n, seed=1)


def test_deck_of_52_cards_without_jokers() -> None:
    """ "♦ Matériel : Un jeu de 52 cartes (sans Joker)" — every card dealt, turned up or drawn
    before the first reshuffle is a different card of the 52."""
    g = new_round(FRENCH, players=4, seed=52)
    seen_cards = [c for p in range(4) for c in g.layout(p)] + g.view(0).discard
    assert g.view(0).stock_size == 52 - len(seen_cards)
    while g.view(0).stock_size:
        p = g.current_player
        g.apply(Draw(p, "stock"))
        held = g.view(p).held
        assert held is not None
        seen_cards.append(held)
        g.apply(Discard(p))
        while g.current_player == p and g.phase in ("power", "call"):
            g.apply(Pass(p))
    assert len(seen_cards) == 52
    assert set(seen_cards) == FULL_DECK


def test_four_cards_each_in_slots_0_to_3() -> None:
    """ "♦ Nombre de cartes pour chaque joueur : 4 cartes, disposées en carré, face cachée, devant
    chaque joueur" """
    for n in range(2, 7):
        g = new_round(FRENCH, players=n, seed=100 + n)
        for p in range(n):
            assert g.card_count(p) == 4
            for q in range(n):
                assert list(seen(g, p, q)) == [0, 1, 2, 3]


def test_opening_peek_shows_slots_0_and_1_only() -> None:
    """ "prend connaissance uniquement des deux premières cartes devant lui" """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["5H", "6H", "7H", "8H"],  # p1 sees 5H, 6H
        ],
        stock=["9C"],
        discard=["10D"],
    )
    assert seen(g, 0, 0) == {0: "AS", 1: "2S", 2: None, 3: None}
    assert seen(g, 0, 1) == {0: None, 1: None, 2: None, 3: None}
    assert seen(g, 1, 1) == {0: "5H", 1: "6H", 2: None, 3: None}
    assert seen(g, 1, 0) == {0: None, 1: None, 2: None, 3: None}
    # The same on a shuffled deal, for every seat of a 5-player table.
    g = new_round(FRENCH, players=5, seed=3)
    for p in range(5):
        for q in range(5):
            expected = {s: (g.layout(q)[s] if p == q and s < 2 else None) for s in range(4)}
            assert seen(g, p, q) == expected


def test_opening_peek_of_a_short_stacked_hand_shows_the_slots_it_has() -> None:
    """A stacked deal may give a seat fewer cards than the slots peeked: the opening peek shows the slots the
    hand has (slot 0 of a one-card hand), and nothing of the others."""
    g = deal(
        [
            ["AS"],  # p0 has slot 0 only: it sees AS
            ["5H", "6H", "7H", "8H"],  # p1 sees 5H, 6H
        ],
        stock=["9C"],
        discard=["10D"],
    )
    assert seen(g, 0, 0) == {0: "AS"}
    assert seen(g, 1, 1) == {0: "5H", 1: "6H", 2: None, 3: None}
    assert seen(g, 1, 0) == {0: None}


def test_discard_starts_with_one_card_turned_up() -> None:
    """ "pose la pioche au centre, face cachée, et retourne une carte à côté, qui constitue la
    défausse" — one card, seen by all, and (Decided: matching is "à tout moment") already open to
    matching."""
    for n in range(2, 7):
        g = tamalou.new_game(FRENCH, players=n, seed=200 + n)
        views = [g.view(p) for p in range(n)]
        assert all(len(v.discard) == 1 and v.discard_top == views[0].discard[0] for v in views)
        assert views[0].stock_size == 52 - 4 * n - 1
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["10S", "2H", "3H", "4H"],  # p1 sees its 10S
        ],
        stock=["5C"],
        discard=["10H"],
    )
    assert {MatchAction(1, (s,)) for s in range(4)} <= matches_listed(g, 1)
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]
    assert g.view(0).discard == ["10H", "10S"]


def test_card_values_of_every_rank_black_kings_15_red_kings_0() -> None:
    """ "As, 2, 3, 4, 5, 6, 7, 8, 9 et 10 : valeur numérique (de 1 à 10 points)", "Valet et Dame :
    10 points", "♠Roi et ♣Roi : 15 points", "♥Roi et ♦Roi : 0 point" """
    result = called_round(
        ["AS", "2S", "3S", "4S"],  # 1 + 2 + 3 + 4 = 10
        ["5S", "6S", "7S", "8S"],  # 5 + 6 + 7 + 8 = 26
        ["9S", "10S", "JS", "QS"],  # 9 + 10 + 10 + 10 = 39
        ["KS", "KC", "AH", "2H"],  # 15 + 15 + 1 + 2 = 33
        ["KH", "KD", "3H", "4H"],  # 0 + 0 + 3 + 4 = 7
        ["9H", "10H", "JH", "QH"],  # 9 + 10 + 10 + 10 = 39
    )
    assert result.totals == [10, 26, 39, 33, 7, 39]


# --------------------------------------------------------------------------------- a turn


def _two_seats(stock: Sequence[str], discard: Sequence[str] = ("9D",)) -> Round:
    return deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["AH", "2H", "3H", "4H"],  # p1 sees AH, 2H
        ],
        stock=stock,
        discard=discard,
    )


def test_draw_from_stock_or_discard_top() -> None:
    """ "1) Le joueur prend la dernière carte de la défausse et l’échange contre une carte de son jeu
    [...] 2) Le joueur pioche une carte" """
    g = _two_seats(stock=["5C", "6C"])
    assert turn_options(g, 0) == {Draw(0, "stock"), Draw(0, "discard")}
    # From the stock: the card is seen by the drawer only.
    s = g.copy()
    (drew,) = s.apply(Draw(0, "stock"))
    assert drew.for_player(0)["card"] == "5C"
    assert drew.for_player(1)["card"] is None
    assert s.view(0).held == "5C"
    assert s.view(1).held is None and s.view(1).holding == 0
    assert s.view(1).stock_size == 1
    assert turn_options(s, 0) == {Replace(0, k) for k in range(4)} | {Discard(0)}
    # From the discard: the top, in everyone's sight; its matching window is closed.
    (drew,) = g.apply(Draw(0, "discard"))
    assert drew.for_player(1)["card"] == "9D"
    assert g.view(0).held == "9D"
    assert g.view(1).discard == []
    assert matches_listed(g, 1) == set()


def test_card_taken_from_discard_must_replace_a_slot() -> None:
    """ "Le joueur prend la dernière carte de la défausse et l’échange contre une carte de son jeu
    (qu’il jette ensuite dans la défausse)" """
    g = _two_seats(stock=["5C"])
    g.apply(Draw(0, "discard"))
    assert turn_options(g, 0) == {Replace(0, k) for k in range(4)}
    assert_illegal(g, Discard(0))  # throwing back the card taken from the discard
    (replaced,) = g.apply(Replace(0, 2))
    assert replaced["card"] == "3S"
    assert g.view(1).discard == ["3S"]
    assert g.layout(0)[2] == "9D"
    # Everyone saw the 9D go into slot 2, and the 3S come out.
    assert seen(g, 1, 0)[2] == "9D" and seen(g, 0, 0)[2] == "9D"
    assert g.phase == "call"


def test_power_only_from_a_stock_card_drawn_and_thrown() -> None:
    """ "3) Le joueur pioche une carte et la repose dans la défausse, en utilisant le pouvoir de cette
    carte le cas échéant" — a card thrown from the layout, or taken from the discard, has none."""
    g = deal(
        [
            ["7S", "2S", "3S", "4S"],  # p0 sees its 7S
            ["AH", "2H", "3H", "9H"],
        ],
        stock=["5C", "6C"],
        discard=["10D"],
    )
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 0))  # the 5C goes in, the 7S out of the layout: no power
    assert kinds(events) == ["replaced"]
    assert g.phase == "call" and g.view(0).power is None
    g.apply(Pass(0))
    g.apply(Draw(1, "discard"))  # p1 takes the 7S: it must replace a card, it is never thrown
    assert turn_options(g, 1) == {Replace(1, k) for k in range(4)}
    events = g.apply(Replace(1, 3))  # the 9H leaves p1's layout: no power either
    assert kinds(events) == ["replaced"]
    assert g.phase == "call" and g.view(1).power is None
    assert turn_options(g, 1) == {Call(1), Pass(1)}


# --------------------------------------------------------------------------------- powers


def _power_table(drawn: str) -> Round:
    """Three seats; p0 draws ``drawn`` from the stock."""
    return deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["AH", "2H", "3H", "4H"],  # p1 sees AH, 2H
            ["AD", "2D", "3D", "4D"],  # p2 sees AD, 2D
        ],
        stock=[drawn, "5C", "6C"],
        discard=["5S"],
    )


@pytest.mark.parametrize("drawn", ["7C", "8C"])
def test_power_7_8_peek_at_one_own_card(drawn: str) -> None:
    """ "Si la carte est un 7 ou un 8, le joueur peut regarder au choix l’une des cartes de son jeu" """
    g = _power_table(drawn)
    offered = of_kind(draw_and_throw(g), "power_offered")
    assert [e["power"] for e in offered] == ["peek_own"]
    assert turn_options(g, 0) == {Power(0, slot=k) for k in range(4)} | {Pass(0)}
    assert_illegal(g, Power(0, target=1, target_slot=0))  # not an opponent's card
    (looked,) = g.apply(Power(0, slot=2))
    assert looked.for_player(0)["card"] == "3S"
    assert looked.for_player(1)["card"] is None
    assert seen(g, 0, 0) == {0: "AS", 1: "2S", 2: "3S", 3: None}
    assert seen(g, 1, 0)[2] is None
    assert g.phase == "call"


@pytest.mark.parametrize("drawn", ["9C", "10C"])
def test_power_9_10_peek_at_an_opponents_card(drawn: str) -> None:
    """ "Si la carte est un 9 ou un 10, le joueur peut regarder une carte du jeu d’un adversaire" """
    g = _power_table(drawn)
    offered = of_kind(draw_and_throw(g), "power_offered")
    assert [e["power"] for e in offered] == ["peek_opponent"]
    targets = {Power(0, target=q, target_slot=k) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == targets | {Pass(0)}
    assert_illegal(g, Power(0, slot=3))  # not one's own card
    (looked,) = g.apply(Power(0, target=2, target_slot=3))
    assert looked.for_player(0)["card"] == "4D"
    assert looked.for_player(2)["card"] is None
    assert seen(g, 0, 2)[3] == "4D"
    assert seen(g, 1, 2)[3] is None and seen(g, 2, 2)[3] is None
    assert g.phase == "call"


@pytest.mark.parametrize("drawn", ["JC", "QC"])
def test_power_jack_queen_blind_swap(drawn: str) -> None:
    """ "Si la carte est un Valet ou une Dame, le joueur peut échanger à l’aveugle une carte de son jeu
    avec une carte du jeu d’un adversaire" """
    g = _power_table(drawn)
    offered = of_kind(draw_and_throw(g), "power_offered")
    assert [e["power"] for e in offered] == ["blind_swap"]
    swaps = {Power(0, slot=m, target=q, target_slot=k) for m in range(4) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == swaps | {Pass(0)}
    assert_illegal(g, Power(0, target=1, target_slot=0))  # a swap needs one's own card too
    events = g.apply(Power(0, slot=0, target=1, target_slot=0))  # p0's AS <-> p1's AH
    assert kinds(events) == ["swapped"]
    assert g.layout(0)[0] == "AH" and g.layout(1)[0] == "AS"
    # Blind: nobody learns a card, but each one's knowledge follows its card.
    assert seen(g, 0, 1)[0] == "AS" and seen(g, 0, 0)[0] is None
    assert seen(g, 1, 0)[0] == "AH" and seen(g, 1, 1)[0] is None
    assert seen(g, 2, 0)[0] is None and seen(g, 2, 1)[0] is None
    assert g.phase == "call"


@pytest.mark.parametrize("drawn", ["KS", "KC"])
def test_power_black_king_look_then_swap_or_keep(drawn: str) -> None:
    """ "Si la carte est ♠Roi ou ♣Roi, le joueur peut échanger une carte de son jeu avec une carte du
    jeu d’un adversaire qu’il a la possibilité de regarder." """
    g = _power_table(drawn)
    offered = of_kind(draw_and_throw(g), "power_offered")
    assert [e["power"] for e in offered] == ["look_and_swap"]
    looks = {Power(0, target=q, target_slot=k) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == looks | {Pass(0)}
    (looked,) = g.apply(Power(0, target=1, target_slot=2))
    assert looked.for_player(0)["card"] == "3H" and looked.for_player(1)["card"] is None
    assert g.phase == "swap"
    assert turn_options(g, 0) == {Swap(0, k) for k in range(4)} | {Pass(0)}
    kept = g.copy()
    g.apply(Swap(0, 3))  # p0's 4S <-> p1's 3H
    assert g.layout(0)[3] == "3H" and g.layout(1)[2] == "4S"
    assert seen(g, 0, 0)[3] == "3H"  # p0 looked at it
    assert seen(g, 0, 1)[2] is None  # p0 never saw its own 4S
    assert g.phase == "call"
    kept.apply(Pass(0))  # after the look, the swap is optional
    assert kept.layout(0)[3] == "4S" and kept.layout(1)[2] == "3H"
    assert seen(kept, 0, 1)[2] == "3H"
    assert kept.phase == "call"


@pytest.mark.parametrize("drawn", ["KH", "KD"])
def test_red_king_has_no_power(drawn: str) -> None:
    """The powers are for "un 7, d'un 8, d'un 9, d'un 10, d'un Valet, d'une Dame ou d'un Roi noir":
    "♥Roi et ♦Roi : 0 point", and nothing else."""
    g = _power_table(drawn)
    events = draw_and_throw(g)
    assert "power_offered" not in kinds(events)
    assert g.phase == "call" and g.view(0).power is None
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    assert_illegal(g, Power(0, slot=0))


def test_powers_are_optional() -> None:
    """ "le joueur "peut" utiliser le pouvoir d'une carte [...] mais il n'est pas obligé de le faire" """
    g = _power_table("9C")
    draw_and_throw(g)
    assert Pass(0) in turn_options(g, 0)
    events = g.apply(Pass(0))
    assert "looked" not in kinds(events)
    assert g.phase == "call" and g.current_player == 0
    assert seen(g, 0, 1) == {k: None for k in range(4)}
    assert seen(g, 0, 2) == {k: None for k in range(4)}


# --------------------------------------------------------------------------------- matching


def test_matching_one_to_three_cards_of_the_tops_rank_by_anyone_at_any_time() -> None:
    """ "à tout moment, un joueur peut jeter une, deux ou trois cartes de même valeur que celle
    visible dans la défausse, issues des cartes disposées devant lui." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5S", "5H", "5C", "KD"],  # p1 sees 5S, 5H; its 5C is a lucky guess
            ["AH", "2H", "3H", "4H"],
        ],
        stock=["6C"],
        discard=["5D"],
    )
    # Every player may try on every card of theirs (right or wrong: listing only right ones would leak).
    for p in range(3):
        assert matches_listed(g, p) == {MatchAction(p, (k,)) for k in range(4)}
    # p1, out of turn while p0 has not drawn yet, throws two 5s at once...
    assert kinds(g.apply(MatchAction(1, (0, 1)))) == ["matched", "matched"]
    assert g.view(2).discard == ["5D", "5S", "5H"]
    assert seen(g, 0, 1) == {2: None, 3: None}  # slots keep their numbers
    assert matches_listed(g, 1) == {MatchAction(1, (2,)), MatchAction(1, (3,))}
    # ... then a third one...
    assert kinds(g.apply(MatchAction(1, (2,)))) == ["matched"]
    assert g.layout(1) == [None, None, None, "KD"]
    # ... and no fourth card on the same 5D.
    assert matches_listed(g, 1) == set()
    assert_illegal(g, MatchAction(1, (3,)))
    assert g.current_player == 0 and g.phase == "draw"


def test_matching_goes_by_rank_not_by_points() -> None:
    """ "jeter une, deux ou trois cartes de même valeur que celle visible dans la défausse" — Decided:
    same rank. A jack (10 points) misses on a 10; a black king (15) hits on a red one (0)."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["JH", "KS", "3H", "4H"],  # p1 sees JH, KS
        ],
        stock=["6C", "5C", "KD"],
        discard=["10D"],
    )
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["missed", "penalty"]  # the JH on the 10D turned up
    quiet_turn(g)  # p0 throws the 5C
    draw_and_throw(g)  # p1 throws the KD
    assert kinds(g.apply(MatchAction(1, (1,)))) == ["matched"]
    assert g.view(0).discard[-2:] == ["KD", "KS"]


def test_matching_by_points_takes_a_card_of_another_rank_with_the_same_points() -> None:
    """``rules.matching.by = "value"``: in French a Jack and a Queen are both worth 10, so a Jack
    matches a Queen on the discard (by rank it would be a miss).
    Pinned by mutation testing (docs/mutation.md)."""
    d = tamalou.load_variant(FRENCH).model_dump(mode="json")
    d["rules"]["matching"]["by"] = "value"
    d["name"], d["aliases"] = "french-by-points", []
    g = scenario.deal(
        [["JS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]],
        stock=["5C", "6C"],
        discard=["QC"],
        variant=tamalou.variant_from_dict(d),
    )
    events = g.apply(MatchAction(0, (0,)))
    assert kinds(events) == ["matched"]
    assert g.view(1).discard == ["QC", "JS"]


ACES_MATCH_ANYTHING = """import tamalou

@tamalou.hookimpl
def tamalou_same_kind(variant, thrown, top):
    if thrown.rank == "A":
        return True
    if thrown.rank == "2":
        return 1  # not an answer the engine can use
    return None  # the ruleset's own comparison
"""


def test_a_same_kind_hook_decides_a_match_and_leaves_the_others_to_matching_by_points(tmp_path: Path) -> None:
    """A house rule over French matching by points (``tamalou_same_kind``): an Ace matches any card; for other
    cards the hook has no answer and the points decide (a Jack on a Queen, both 10); an answer that is not True
    or False is the plugin's error, named as such. Pinned by mutation testing (docs/mutation.md)."""
    (tmp_path / "aces_match_anything_mod.py").write_text(ACES_MATCH_ANYTHING, encoding="utf-8")
    path = tmp_path / "aces.toml"
    path.write_text(
        'extends = "french"\nplugins = ["aces_match_anything_mod"]\n[rules.matching]\nby = "value"\n',
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        variant = tamalou.load_variant(path)
        hands = [["JS", "AS", "2S", "3S"], ["AH", "2H", "3H", "4H"]]
        for slot, card, outcome in ((0, "JS", "matched"), (1, "AS", "matched"), (3, "3S", "missed")):
            g = scenario.deal(hands, stock=["5C", "6C", "6D"], discard=["QC"], variant=variant)
            events = g.apply(MatchAction(0, (slot,)))
            assert kinds(events)[0] == outcome and events[0]["card"] == card
        g = scenario.deal(hands, stock=["5C", "6C"], discard=["QC"], variant=variant)
        with pytest.raises(tamalou.PluginError, match="returned 1, expected True or False") as info:
            g.apply(MatchAction(0, (2,)))
        assert (info.value.plugin, info.value.hook) == ("aces_match_anything_mod", "tamalou_same_kind")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("aces_match_anything_mod", None)


def test_a_player_who_passed_in_the_closing_window_may_not_match_in_it_any_more() -> None:
    """The closing window of a called round gives each player one last chance: seat 0, who passed in it, may not
    match the last card afterwards, and is told so; the others still may. Pinned by mutation testing
    (docs/mutation.md)."""
    hands = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]]
    g = scenario.dealt(hands, stock=["5C", "6C", "5D", "6D"], discard=["9C"], variant=FRENCH)
    calling_turn(g)  # p0 calls
    draw_and_throw(g)  # p1
    draw_and_throw(g)  # p2: its 5D opens the closing window
    assert g.phase == "closing" and g.to_act == [0, 1, 2]
    g.apply(Pass(0))
    assert g.to_act == [1, 2]
    with pytest.raises(IllegalAction, match=r"^you have had your last chance to match in this round$"):
        g.apply(MatchAction(0, (0,)))


def test_one_success_per_window_slower_player_takes_card_back_without_penalty() -> None:
    """ "Si plusieurs joueurs ont une carte de même valeur à jeter, le plus rapide l’emporte ; le plus
    lent replace sa carte dans son jeu." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5S", "2H", "3H", "4H"],  # p1 sees its 5S
            ["5H", "2D", "3D", "4D"],  # p2 sees its 5H
        ],
        stock=["5D", "6C"],
        discard=["9C"],
    )
    draw_and_throw(g)  # p0 throws the 5D
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # p1 is faster
    assert matches_listed(g, 2) == set()
    events = g.apply(MatchAction(2, (0,)))  # p2 is late
    assert kinds(events) == ["late"]
    assert g.layout(2)[0] == "5H"
    assert all(seen(g, p, 2)[0] == "5H" for p in range(3))  # everybody saw it
    assert g.card_count(2) == 4 and g.view(2).stock_size == 1  # no penalty
    assert g.view(0).discard_top == "5S"


def test_missed_match_card_returns_seen_by_all_and_penalty_card_unseen_by_owner() -> None:
    """ "En cas d’erreur d’appariement, le joueur concerné pioche une nouvelle carte, qu’il ajoute à
    sa disposition." (Decided: the card returns to its slot, everyone saw it.)"""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5S", "2H", "9C", "4H"],  # p1 sees 5S, 2H; it believes slot 2 is a 5
        ],
        stock=["5D", "6C"],
        discard=["8D"],
    )
    draw_and_throw(g)  # p0 throws the 5D
    events = g.apply(MatchAction(1, (2,)))
    assert kinds(events) == ["missed", "penalty"]
    assert events[0]["card"] == "9C"
    assert g.layout(1) == ["5S", "2H", "9C", "4H", "6C"]  # back in its slot, penalty in slot 4
    assert events[1]["slot"] == 4 and "card" not in events[1].to_dict()
    for p in (0, 1):
        assert seen(g, p, 1)[2] == "9C"
        assert seen(g, p, 1)[4] is None  # the penalty card is known to nobody, owner included
    assert g.view(0).stock_size == 0 and g.view(0).discard_top == "5D"
    # The miss does not close the window: p1 may still throw its real 5.
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]


def test_caller_may_still_match() -> None:
    """ "il peut se défausser des cartes qu'il lui reste grâce à cette règle tant que le dernier tour
    n'est pas achevé." """
    g = deal(
        [
            ["4S", "AS", "KH", "KD"],  # p0 sees 4S, AS: 5 points
            ["9S", "9H", "9D", "9C"],
        ],
        stock=["4D", "2C"],
        discard=["6D"],
    )
    calling_turn(g)  # p0 throws the 4D and calls
    assert g.caller == 0 and g.current_player == 1
    assert MatchAction(0, (0,)) in matches_listed(g, 0)
    assert kinds(g.apply(MatchAction(0, (0,)))) == ["matched"]  # during p1's last turn
    play_out(g)
    assert g.result().totals == [1, 36]
    assert g.result().winners == [0]


# --------------------------------------------------------------------------------- the call


def test_call_only_during_ones_turn_after_playing() -> None:
    """ "le tamalou doit être annoncé pendant le tour, après avoir joué (et donc, avant que le joueur
    suivant ne joue à son tour)" """
    g = _two_seats(stock=["5C", "6C"])
    assert Call(0) not in turn_options(g, 0)
    assert_illegal(g, Call(0))  # before drawing
    g.apply(Draw(0, "stock"))
    assert_illegal(g, Call(0))  # holding the drawn card
    g.apply(Discard(0))
    assert g.phase == "call"
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    assert_illegal(g, Call(1))  # not p1's turn
    assert "called" in kinds(g.apply(Call(0)))
    assert g.caller == 0 and g.current_player == 1


@pytest.mark.parametrize(
    ("caller_hand", "winners"),
    [
        (["AS", "2S", "2H", "KH"], [0]),  # 5 points: the caller wins
        (["AS", "2S", "3H", "KH"], [1]),  # 6 points, still the lowest, but over 5: the caller loses
    ],
)
def test_call_threshold_is_five(caller_hand: list[str], winners: list[int]) -> None:
    """ "Dès lors qu’un joueur pense que la valeur additionnée de ses cartes est inférieure ou égale à
    5 points, il peut annoncer le Tamalou à son tour de jeu." """
    result = called_round(caller_hand, ["9S", "9H", "9D", "9C"])
    assert result.totals[1] == 36 and result.totals[0] < 36
    assert result.winners == winners


def test_wrong_call_allowed_caller_just_loses() -> None:
    """ "Dès lors qu’un joueur pense que [...]" — a call is not checked; Fabi: "l'annonceur totalise
    davantage de points que son adversaire, il perd donc la partie." """
    g = deal(
        [
            ["KS", "KC", "QS", "QH"],  # p0: 50 points
            ["9S", "9H", "9D", "9C"],  # p1: 36 points
        ],
        stock=["2C", "3C"],
        discard=["6D"],
    )
    draw_and_throw(g)
    assert Call(0) in turn_options(g, 0)  # offered whatever the hidden total
    g.apply(Call(0))
    # Not verified: no card shown, no penalty card.
    assert seen(g, 1, 0) == {k: None for k in range(4)}
    assert g.card_count(0) == 4 and g.view(1).stock_size == 1
    play_out(g)
    result = g.result()
    assert result.caller == 0 and result.winners == [1]
    assert result.totals == [50, 36]


def test_caller_not_protected_from_swaps() -> None:
    """ "un dernier tour s’engage entre les joueurs, excluant l’annonceur, tour pendant lequel les
    échanges de cartes sont encore possibles." """
    g = deal(
        [
            ["AS", "2S", "KH", "KD"],  # p0: 3 points
            ["9S", "9H", "9D", "9C"],  # p1 sees 9S, 9H
        ],
        stock=["2C", "QC"],
        discard=["6D"],
    )
    calling_turn(g)
    draw_and_throw(g)  # p1 throws the QC: blind swap
    swap = Power(1, slot=0, target=0, target_slot=0)
    assert swap in turn_options(g, 1)
    g.apply(swap)  # p1's 9S <-> the caller's AS
    assert g.layout(0)[0] == "9S" and g.layout(1)[0] == "AS"
    assert g.phase == "closing" and not g.is_over  # each player's last chance to match the QC
    close(g)
    assert g.is_over
    assert g.result().totals == [11, 28]
    assert g.result().winners == [1]


def _emptied_before_own_turn() -> Round:
    """p1 throws its 4 cards out of turn; then it is p1's turn, and nobody has called."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0: 10 points
            ["9S", "6D", "6H", "6C"],  # p1 sees 9S, 6D; its 6H, 6C are lucky guesses
        ],
        stock=["6S", "5D"],
        discard=["9D"],
    )
    g.apply(MatchAction(1, (0,)))  # the 9S on the 9D turned up at the start
    draw_and_throw(g)  # p0 throws the 6S
    assert kinds(g.apply(MatchAction(1, (1, 2, 3)))) == ["matched"] * 3
    assert g.card_count(1) == 0 and not g.is_over
    g.apply(Pass(0))  # p0 does not call
    assert g.current_player == 1
    return g


def test_empty_layout_at_turn_start_must_call_without_playing() -> None:
    """ "Si jamais un joueur n’a plus de cartes dans sa disposition lorsque vient son tour, il doit
    annoncer le Tamalou pour mettre fin à la partie, sans jouer." """
    g = _emptied_before_own_turn()
    assert g.legal_actions(1) == [Call(1)]
    assert_illegal(g, Draw(1, "stock"))
    assert_illegal(g, Draw(1, "discard"))
    assert_illegal(g, Pass(1))
    events = g.apply(Call(1))
    assert "drew" not in kinds(events)
    assert g.caller == 1 and g.current_player == 0  # the others play their last turn
    play_out(g)
    assert g.result().reason == "called"
    assert g.result().winners == [1]


def test_last_round_every_other_player_plays_exactly_one_more_turn() -> None:
    """ "À ce moment-là, un dernier tour s’engage entre les joueurs, excluant l’annonceur" """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "KH", "KD"],  # p1: 3 points
            ["9S", "9H", "9D", "9C"],
        ],
        stock=["2C", "3C", "5C", "6C", "2D"],
        discard=["6D"],
    )
    quiet_turn(g)
    after_call = calling_turn(g)  # p1 calls
    g.apply(Draw(2, "stock"))
    assert_illegal(g, Call(2))
    after_call += g.apply(Discard(2))
    # Once someone called, the turn ends right after playing: no second call.
    assert g.current_player == 0 and g.phase == "draw"
    assert_illegal(g, Call(0))
    after_call += quiet_turn(g)
    assert g.is_over and g.result().reason == "called"
    assert [e["player"] for e in of_kind(after_call, "turn")] == [2, 0]
    assert g.turn == 4


def test_winner_caller_at_most_five_and_strictly_lowest() -> None:
    """ "L’annonceur du Tamalou gagne s’il totalise un maximum de 5 points et s’il a moins de points
    que ses adversaires. Si l’une ou l’autre condition n’est pas remplie, c’est l’adversaire
    totalisant le moins de points qui remporte la partie." """
    won = called_round(
        ["AS", "2S", "KH", "KD"],  # caller: 3
        ["AH", "AD", "AC", "2H"],  # 5
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert won.totals == [3, 5, 36] and won.winners == [0]
    assert won.ranking == [[0], [1], [2]]
    lost = called_round(
        ["AS", "2S", "2H", "KH"],  # caller: 5, not the lowest
        ["AH", "AD", "AC", "KD"],  # 3
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert lost.totals == [5, 3, 36] and lost.winners == [1]
    assert lost.ranking[0] == [1]


def test_ties_the_caller_always_loses() -> None:
    """ "En cas d’égalité, l’annonceur est toujours perdant." """
    tie = called_round(
        ["AS", "AH", "2S", "KH"],  # caller: 4
        ["AD", "AC", "2H", "KD"],  # 4
        ["9S", "9H", "9D", "9C"],  # 36
    )
    assert tie.totals == [4, 4, 36] and tie.winners == [1]
    assert tie.ranking == [[1], [0], [2]]
    # When the caller loses, opponents tied at the lowest total share the win.
    shared = called_round(
        ["AS", "2S", "3S", "KH"],  # caller: 6
        ["4H", "4D", "2H", "AH"],  # 11
        ["4C", "4S", "2D", "AD"],  # 11
    )
    assert shared.totals == [6, 11, 11] and shared.winners == [1, 2]
    assert shared.ranking[0] == [1, 2]


# --------------------------------------------------------------------------------- the stock


def test_empty_stock_reshuffles_the_discard_but_its_top() -> None:
    """The sheet is silent ("pose la pioche au centre, face cachée"); Decided: the discard but its top
    is shuffled into a new stock."""
    g = _two_seats(stock=["5C", "6C"])
    quiet_turn(g)  # p0 throws the 5C
    quiet_turn(g)  # p1 throws the 6C
    assert g.view(0).stock_size == 0 and g.view(0).discard == ["9D", "5C", "6C"]
    assert Draw(0, "stock") in turn_options(g, 0)
    events = g.apply(Draw(0, "stock"))
    assert kinds(events) == ["reshuffled", "drew"]
    assert events[0]["stock_size"] == 2
    assert g.view(1).discard == ["6C"]  # the top stays
    assert g.view(0).held in {"9D", "5C"}
    assert events[1].for_player(1)["card"] is None  # face down again: p1 does not see which
    assert g.view(1).stock_size == 1
    # With only its top left, the discard cannot make a stock.
    g = _two_seats(stock=[], discard=["9D"])
    assert turn_options(g, 0) == {Draw(0, "discard")}
    assert_illegal(g, Draw(0, "stock"))


def test_round_ends_when_nothing_can_be_drawn() -> None:
    """The sheet is silent; Decided: when no card can be drawn at all, the round ends
    ("no_card_to_draw") and the lowest total wins."""
    g = _two_seats(stock=[], discard=[])
    assert g.is_over
    result = g.result()
    assert result.reason == "no_card_to_draw" and result.caller is None
    assert result.totals == [10, 10] and result.winners == [0, 1]
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []
    assert_illegal(g, Draw(0, "stock"))


# --------------------------------------------------------------------------------- rulings (the author's answers)


def test_ruling_01_call_after_playing_and_right_after_a_power() -> None:
    """Romain: "2) S'il y a eu utilisation du pouvoir d'une carte (7, 8, 9, 10, Valet, Dame ou Roi
    noir), il faut l'annoncer juste après." and "avant que le joueur suivant ne joue à son tour" """
    g = _two_seats(stock=["9C", "5C"])
    draw_and_throw(g)  # the 9C: peek at an opponent's card
    assert g.phase == "power"
    assert Call(0) not in turn_options(g, 0)
    assert_illegal(g, Call(0))  # not before the power
    g.apply(Power(0, target=1, target_slot=3))
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    late = g.copy()
    late.apply(Pass(0))  # the next player's turn: too late for p0, too early for p1
    assert_illegal(late, Call(0))
    assert_illegal(late, Call(1))
    g.apply(Call(0))
    assert g.caller == 0


def test_ruling_02_last_round_others_may_swap_with_the_caller() -> None:
    """Adèle: "Il est encore possible pendant ce dernier tour que les autres joueurs puissent
    échanger leurs cartes avec la personne qui a dit tamalou ?" — "Oui, c'est tout à fait ça !" """
    g = deal(
        [
            ["AS", "2S", "KH", "KD"],  # p0: 3 points
            ["9S", "9H", "9D", "9C"],  # p1 sees 9S, 9H
        ],
        stock=["2C", "KS"],
        discard=["6D"],
    )
    calling_turn(g)
    draw_and_throw(g)  # p1 throws the KS: look, then maybe swap
    assert {Power(1, target=0, target_slot=k) for k in range(4)} <= turn_options(g, 1)
    g.apply(Power(1, target=0, target_slot=0))
    assert Swap(1, 0) in turn_options(g, 1)
    g.apply(Swap(1, 0))  # p1's 9S <-> the caller's AS
    assert g.phase == "closing"  # each player's last chance to match the KS
    close(g)
    assert g.result().totals == [11, 28]
    assert g.result().caller == 0 and g.result().winners == [1]


def test_ruling_03_round_scores_caller_zero_if_won_total_plus_ten_if_lost() -> None:
    """Patrice (Variantes 3): "l’annonceur du Tamalou ne marque aucun point s’il est gagnant [...] et
    marque une pénalité de 10 points s’il est perdant." """
    won = called_round(["AS", "2S", "KH", "KD"], ["9S", "9H", "9D", "9C"])  # 3 vs 36
    assert won.winners == [0] and won.scores == [0, 36]
    lost = called_round(["AS", "2S", "3S", "KH"], ["9S", "9H", "9D", "9C"])  # 6 vs 36
    assert lost.winners == [1] and lost.scores == [16, 36]


def test_ruling_04_power_still_usable_after_a_match_on_top_of_it() -> None:
    """ "le fait qu’un adversaire se défausse d’une (ou plusieurs) carte(s) de même valeur sur la carte
    que vous avez jetée ne vous interdit pas – heureusement – d’utiliser le pouvoir de cette carte." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["7H", "2H", "3H", "4H"],  # p1 sees its 7H
        ],
        stock=["7C", "5C"],
        discard=["6D"],
    )
    draw_and_throw(g)  # p0 throws the 7C: peek at an own card
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]
    assert g.view(0).discard_top == "7H"
    assert g.phase == "power" and g.current_player == 0
    assert {Power(0, slot=k) for k in range(4)} <= turn_options(g, 0)
    (looked,) = g.apply(Power(0, slot=3))
    assert looked.for_player(0)["card"] == "4S"
    assert g.phase == "call"


def test_ruling_05_matched_card_or_card_from_discard_gives_no_power() -> None:
    """Marie: "Lorsqu'on se défausse d'une carte de son jeu, même avec la règle des cartes
    identiques, celle-ci n'a aucun "pouvoir"" — Jeff: "Une fois défaussée, la carte perd son
    pouvoir." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["8H", "8D", "3H", "4H"],  # p1 sees 8H, 8D
        ],
        stock=["9C", "5C"],
        discard=["6D"],
    )
    draw_and_throw(g)  # p0 throws the 9C and uses it
    g.apply(Power(0, target=1, target_slot=3))
    g.apply(Pass(0))
    g.apply(Draw(1, "discard"))  # Jeff: p1 takes the used 9C; it must go into the layout
    assert turn_options(g, 1) == {Replace(1, k) for k in range(4)}
    events = g.apply(Replace(1, 0))  # the 8H leaves p1's layout: no power
    assert "power_offered" not in kinds(events)
    events = g.apply(MatchAction(1, (1,)))  # Marie: p1 matches its 8D on it, in its own turn
    assert kinds(events) == ["matched"]
    assert g.phase == "call" and g.view(1).power is None
    assert turn_options(g, 1) == {Call(1), Pass(1)}


@pytest.mark.parametrize("drawn", ["JC", "QC"])
def test_ruling_06_jack_or_queen_may_be_thrown_without_swapping(drawn: str) -> None:
    """ "l'échange n'est pas obligatoire, il est simplement possible." """
    g = _power_table(drawn)
    layouts = [g.layout(p) for p in range(3)]
    draw_and_throw(g)
    assert g.phase == "power"
    events = g.apply(Pass(0))
    assert "swapped" not in kinds(events)
    assert [g.layout(p) for p in range(3)] == layouts
    assert g.phase == "call" and g.current_player == 0


def test_ruling_07_caller_may_match_until_the_last_round_ends() -> None:
    """Elissa: "il peut se défausser des cartes qu'il lui reste grâce à cette règle tant que le
    dernier tour n'est pas achevé." """
    g = deal(
        [
            ["5S", "AS", "2S", "KH"],  # p0 sees 5S, AS: 8 points
            ["QS", "QH", "JD", "JC"],
            ["10S", "10H", "10D", "10C"],
        ],
        stock=["3D", "5D", "3H"],
        discard=["9D"],
    )
    calling_turn(g)  # p0 throws the 3D and calls
    quiet_turn(g)  # p1 throws the 5D
    assert g.current_player == 2
    assert kinds(g.apply(MatchAction(0, (0,)))) == ["matched"]  # the caller, during p2's last turn
    quiet_turn(g)
    assert g.is_over
    assert g.result().totals[0] == 3
    # The last round is over: no more matching.
    assert g.legal_actions(0) == []
    assert_illegal(g, MatchAction(0, (1,)))


def test_ruling_08_nobody_has_to_call_at_five_or_less() -> None:
    """Gonthier: "Non, bien sûr, il n'est pas obligé de dire "Tamalou"" """
    g = deal(
        [
            ["AS", "2S", "KH", "KD"],  # p0: 3 points
            ["9S", "9H", "9D", "9C"],
        ],
        stock=["2C", "3C", "5C"],
        discard=["6D"],
    )
    draw_and_throw(g)
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    g.apply(Pass(0))
    assert g.caller is None and g.current_player == 1 and not g.is_over
    quiet_turn(g)
    assert g.current_player == 0 and g.phase == "draw"
    assert Draw(0, "stock") in turn_options(g, 0)


def test_ruling_09_no_swap_with_a_player_who_has_no_cards() -> None:
    """ "Un espace vide n'est pas "considéré" comme une carte !" — "le principe d'un échange, c'est
    justement d'échanger" """
    g = deal(
        [
            ["9S", "6D", "6H", "6C"],  # p0 sees 9S, 6D
            ["AH", "2H", "3H", "4H"],
            ["AC", "2C", "3C", "4C"],
        ],
        stock=["6S", "JS", "5D"],
        discard=["9D"],
    )
    g.apply(MatchAction(0, (0,)))  # the 9S on the 9D
    draw_and_throw(g)  # the 6S
    g.apply(MatchAction(0, (1, 2, 3)))
    assert g.card_count(0) == 0
    g.apply(Call(0))  # p0 calls with no card left
    draw_and_throw(g)  # p1 throws the JS: blind swap
    options = turn_options(g, 1)
    powers = [a for a in options if isinstance(a, Power)]
    assert powers and {a.target for a in powers} == {2}
    assert_illegal(g, Power(1, slot=0, target=0, target_slot=0))
    g.apply(Pass(1))
    play_out(g)
    assert g.result().winners == [0]


@pytest.mark.parametrize(
    ("p2_hand", "winners"),
    [
        (["AH", "AC", "3S", "2D"], [1, 2]),  # 7: the caller (6) loses to the two 7s
        (["AH", "KD", "3S", "2D"], [2]),  # 6: a tie with the caller, who loses it
    ],
)
def test_ruling_10_caller_over_five_loses_to_lowest_opponent(p2_hand: list[str], winners: list[int]) -> None:
    """ "L’annonceur du Tamalou gagne s’il totalise un maximum de 5 points et s’il a moins de points
    que ses adversaires. Si l’une ou l’autre condition n’est pas remplie, c’est l’adversaire
    totalisant le moins de points qui remporte la partie." — Thomas: "s'il y a égalité de points
    entre l'annonceur et un autre joueur, quel qu'il soit, l'annonceur est toujours perdant."

    Thomas's game: the caller called with an ace, someone swapped it for a 6; 6, 7, 7, 9. (The author's
    reply says "dans le 1er cas, l'annonceur gagne"; the engine follows the rule text instead: a caller
    over 5 loses, see docs/rules/french.md, decided points.)"""
    g = deal(
        [
            ["AS", "4S", "4H", "4D"],  # p0 sees AS, 4S; its 4H, 4D are lucky guesses
            ["6H", "2H", "2C", "2S"],  # p1 sees its 6H: 12 points
            p2_hand,
            ["KH", "AD", "3H", "5S"],  # 9 points
        ],
        stock=["5D", "JS", "5H", "5C"],
        discard=["4C"],
    )
    g.apply(MatchAction(0, (1, 2, 3)))  # p0 keeps its ace alone
    calling_turn(g)  # p0 throws the 5D and calls with 1 point
    draw_and_throw(g)  # p1 throws the JS: blind swap
    g.apply(Power(1, slot=0, target=0, target_slot=0))  # p1's 6H <-> the caller's AS
    play_out(g)
    result = g.result()
    assert result.totals[0] == 6 and result.totals[1] == 7 and result.totals[3] == 9
    assert result.caller == 0
    assert result.winners == winners
    assert result.ranking[0] == winners


def test_ruling_11_caller_with_a_red_king_ties_an_emptied_opponent_and_loses() -> None:
    """Félix: "Oui, car en cas d'égalité entre l'annonceur et un autre joueur, l'annonceur est
    toujours perdant." """
    g = deal(
        [
            ["KH", "5S", "5H", "5C"],  # p0 sees KH, 5S; its 5H, 5C are lucky guesses
            ["9S", "6D", "6H", "6C"],  # p1 sees 9S, 6D
        ],
        stock=["5D", "2S", "6S", "3S"],
        discard=["9D"],
    )
    g.apply(MatchAction(1, (0,)))  # p1's 9S on the 9D
    draw_and_throw(g)  # p0 throws the 5D...
    g.apply(MatchAction(0, (1, 2, 3)))  # ... and its three 5s: only the red king is left
    g.apply(Pass(0))
    quiet_turn(g)  # p1 throws the 2S
    calling_turn(g)  # p0 throws the 6S and calls with 0 points
    g.apply(MatchAction(1, (1, 2, 3)))  # p1's last turn: its three 6s on the 6S
    assert g.card_count(1) == 0
    quiet_turn(g)
    result = g.result()
    assert result.totals == [0, 0] and result.card_counts == [1, 0]
    assert result.caller == 0 and result.winners == [1]
    assert result.ranking == [[1], [0]]


def test_ruling_12_matching_does_not_change_whose_turn_it_is() -> None:
    """Valeriane: "C'est "au joueur qui suit celui qui a posé la carte d'origine". Cette règle de
    défausse particulière n'a aucune influence sur le tour de jeu." """
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["AH", "2H", "3H", "4H"],
            ["5S", "2D", "3D", "4D"],  # p2 sees its 5S
        ],
        stock=["5D", "6C"],
        discard=["6D"],
    )
    draw_and_throw(g)  # p0 throws the 5D
    g.apply(MatchAction(2, (0,)))  # p2 throws its 5S on it
    assert g.current_player == 0 and g.phase == "call"
    events = g.apply(Pass(0))
    assert [e["player"] for e in of_kind(events, "turn")] == [1]  # not p0, who follows p2
    assert g.current_player == 1 and g.turn == 1


def test_ruling_13_player_whose_turn_it_is_may_match_drawn_and_known_card() -> None:
    """Clara: "n'importe quel joueur avait la possibilité de jeter une (ou plusieurs) carte(s) de même
    valeur que celle présente dans la défausse, y compris le joueur dont c'était le tour" """
    g = deal(
        [
            ["4H", "2S", "3S", "5S"],  # p0 sees its 4H
            ["AH", "2H", "3H", "KD"],
        ],
        stock=["4S", "6C"],
        discard=["6D"],
    )
    g.apply(Draw(0, "stock"))
    assert g.view(0).held == "4S"
    g.apply(Discard(0))
    assert MatchAction(0, (0,)) in g.legal_actions(0)
    assert kinds(g.apply(MatchAction(0, (0,)))) == ["matched"]
    assert g.view(1).discard[-2:] == ["4S", "4H"]
    assert g.layout(0)[0] is None
    assert g.current_player == 0 and g.phase == "call"


def _emptied_after_a_call() -> Round:
    """p0 calls; during p1's last turn p2 throws its last cards. Stops before p1 ends its turn."""
    g = deal(
        [
            ["AS", "AH", "2S", "KH"],  # p0: 4 points
            ["QS", "QH", "JD", "JC"],  # 40 points
            ["9S", "7D", "7H", "7C"],  # p2 sees 9S, 7D; its 7H, 7C are lucky guesses
        ],
        stock=["3D", "7S"],
        discard=["9D"],
    )
    g.apply(MatchAction(2, (0,)))  # p2's 9S on the 9D
    calling_turn(g)  # p0 throws the 3D and calls
    draw_and_throw(g)  # p1 throws the 7S (peek at an own card on offer)
    assert kinds(g.apply(MatchAction(2, (1, 2, 3)))) == ["matched"] * 3
    assert g.card_count(2) == 0
    return g


def test_ruling_14_emptied_layout_calls_on_own_turn_unless_someone_already_called() -> None:
    """Cathy: "le "Tamalou" doit toujours être annoncé pendant son tour de jeu" [...] "il doit
    impérativement annoncer le "Tamalou" à son tour de jeu, sauf si l'un de ses adversaires l'a
    déjà annoncé avant lui !" [...] "le joueur ayant annoncé le "Tamalou" aura nécessairement perdu
    la partie." """
    g = _emptied_after_a_call()
    # Emptied out of turn: the game goes on, and no call out of one's turn.
    assert not g.is_over and g.current_player == 1 and g.phase == "power"
    assert_illegal(g, Call(2))
    events = g.apply(Pass(1))
    # p2's turn comes: someone already called, so p2 neither calls nor plays.
    assert [e["player"] for e in of_kind(events, "skipped")] == [2]
    assert "called" not in kinds(events)
    result = g.result()
    assert result.reason == "called" and result.caller == 0
    assert result.totals == [4, 40, 0]
    assert result.winners == [2]


@pytest.mark.parametrize("emptied_player_called", [True, False])
def test_ruling_15_player_without_cards_wins_with_fewest_points_call_or_not(
    emptied_player_called: bool,
) -> None:
    """Eliot: "que ce joueur ait ou non annoncé le "Tamalou", il est déclaré gagnant s'il totalise
    moins de points que ses adversaires." """
    if emptied_player_called:
        g = _emptied_before_own_turn()
        g.apply(Call(1))  # the only thing p1 may do
        empty = 1
    else:
        g = _emptied_after_a_call()
        empty = 2
    play_out(g)
    result = g.result()
    assert result.card_counts[empty] == 0 and result.totals[empty] == 0
    assert all(t > 0 for p, t in enumerate(result.totals) if p != empty)
    assert (result.caller == empty) is emptied_player_called
    assert result.winners == [empty]


def test_ruling_16_wrongly_thrown_opponent_card_goes_back_thrower_takes_penalty() -> None:
    """Élodie (opponent-matching): "le joueur s'étant trompé doit replacer au bon endroit la carte
    chipée à son adversaire et se rajouter une nouvelle carte à gérer (une pénalité, donc). Et puis,
    oui, tout le monde connaît la carte dont il a voulu se défausser !" """
    variant = tamalou.load_variant([FRENCH, "opponent-matching"])
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5H", "6H", "7H", "8H"],  # p0 believes p1's slot 2 is a 5
        ],
        stock=["9C", "10C"],
        discard=["5D"],
        variant=variant,
    )
    steal = MatchAction(0, (2,), owner=1)
    assert steal in g.legal_actions(0)
    events = g.apply(steal)
    missed = of_kind(events, "missed")
    assert len(missed) == 1 and missed[0]["card"] == "7H" and missed[0]["owner"] == 1
    assert [e["player"] for e in of_kind(events, "penalty")] == [0]
    # The card is back in its place, and everybody (its owner included) has seen it.
    assert g.layout(1) == ["5H", "6H", "7H", "8H"]
    assert seen(g, 0, 1)[2] == "7H" and seen(g, 1, 1)[2] == "7H"
    # The thrower takes the penalty card, unseen, in a new slot; nothing to give.
    assert g.layout(0) == ["AS", "2S", "3S", "4S", "9C"]
    assert seen(g, 0, 0)[4] is None and seen(g, 1, 0)[4] is None
    assert g.card_count(1) == 4
    assert not any(isinstance(a, Give) for a in g.legal_actions(0))
    assert_illegal(g, Give(0, 0))
    assert g.current_player == 0 and g.phase == "draw"


# --------------------------------------------------------------------------------- decided points


def test_decided_last_card_of_the_round_can_be_matched_in_the_closing_window() -> None:
    """ "La manche se termine quand le dernier joueur a jeté sa carte (ou, éventuellement, après un
    échange ou un appariement)" — Decided: when a called round's last turn
    ends, every player allowed to match gets one chance on the card that turn threw; the round ends
    once that chance is taken (a match wins the window: nobody else can match) or passed."""
    g = deal(
        [
            ["AS", "AH", "2S", "KH"],  # p0: 4 points
            ["6H", "9H", "9D", "9C"],  # p1 sees its 6H: 33 points
            ["10S", "10H", "10D", "10C"],  # p2: 40 points
        ],
        stock=["3D", "5C", "6C"],
        discard=["2D"],
    )
    calling_turn(g)  # p0 throws the 3D and calls
    quiet_turn(g)  # p1's last turn: the 5C
    assert g.current_player == 2 and not g.is_over
    events = draw_and_throw(g)  # p2's last turn, the last of the round: the 6C
    assert g.phase == "closing" and not g.is_over
    assert [e["players"] for e in of_kind(events, "closing")] == [[0, 1, 2]]
    assert g.current_player == 0  # the next seat still waiting
    assert {MatchAction(1, (0,)), Pass(1)} <= set(g.legal_actions(1))
    events = g.apply(MatchAction(1, (0,)))  # p1's 6H on the 6C: the window is won, nobody can match more
    assert kinds(events) == ["matched", "round_over"] and events[0]["card"] == "6H"
    assert g.is_over and g.result().reason == "called"
    assert of_kind(events, "round_over")[0]["totals"] == g.result().totals
    assert g.layout(1) == [None, "9H", "9D", "9C"]  # the 6H is gone from p1's layout
    assert g.view(0).discard_top == "6H"
    assert g.result().totals == [4, 27, 40] and g.result().winners == [0]


def test_decided_wrong_card_on_a_won_window_is_a_miss() -> None:
    """ "Si plusieurs joueurs ont une carte de même valeur à jeter, le plus rapide l’emporte ; le plus
    lent replace sa carte dans son jeu." — Decided: only a card *of the same
    rank* thrown on a window someone already won is taken back without penalty ("late"); a wrong card
    is a miss, with its penalty, whenever it is thrown."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5S", "2H", "3H", "4H"],  # p1 (A) sees its 5S
            ["2D", "3D", "9H", "4D"],  # p2 (B) has never seen its slot 2 and hopes it is a 5
            ["5H", "2C", "3C", "4C"],  # p3 (C) sees its 5H
        ],
        stock=["5D", "6C", "6H"],
        discard=["9C"],
    )
    draw_and_throw(g)  # p0 throws the 5D
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # A is right, and first: the window is won
    assert matches_listed(g, 2) == set() and matches_listed(g, 3) == set()
    # B throws a card of another rank on the won window: a miss, whose penalty card is the 6C.
    events = g.apply(MatchAction(2, (2,)))
    assert kinds(events) == ["missed", "penalty"]
    assert events[0]["card"] == "9H" and events[1]["player"] == 2
    assert g.layout(2) == ["2D", "3D", "9H", "4D", "6C"]  # back in its slot, penalty card in slot 4
    assert all(seen(g, p, 2)[2] == "9H" for p in range(4))  # everybody saw it
    assert g.card_count(2) == 5 and g.view(0).stock_size == 1
    # C throws a card of the same rank, late: it goes back, no penalty.
    events = g.apply(MatchAction(3, (0,)))
    assert kinds(events) == ["late"]
    assert events[0]["card"] == "5H"
    assert g.layout(3) == ["5H", "2C", "3C", "4C"]
    assert g.card_count(3) == 4 and g.view(0).stock_size == 1  # no penalty
    assert g.view(0).discard_top == "5S"


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(FRENCH, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
