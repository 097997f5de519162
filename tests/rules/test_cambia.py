"""Scenario tests of the ``cambia`` ruleset (docs/rules/cambia.md; the ``cambia-circuit`` modifier apart) and of
the matching and power keys it brought (``rules.matching.give``, ``race``, ``penalty_cap``, ``window``;
``rules.powers.replaced``), each also on its own over French.

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first; from the opening
peek each player knows its slots 0 and 1), ``stock`` top first, ``discard`` bottom first, and seat 0
plays first. A thrown card's snap window is the phase ``window``: it opens once the card's power is
resolved or declined, each player who may snap does so or passes, and it closes before the turn passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import pytest

import scenario
import tamalou
from scenario import FULL_DECK, assert_illegal, kinds, matches_listed, of_kind, seen, turn_options
from tamalou import (
    Call,
    Discard,
    Draw,
    Event,
    Give,
    MatchAction,
    Pass,
    Power,
    Replace,
    Result,
    Round,
    SetupError,
    Swap,
)
from tamalou.engine import new_round

CAMBIA = "cambia"

deal = partial(scenario.deal, variant=CAMBIA)

# Cards without a power in Cambia (7-10, J, Q, K have one), for quiet stocks and discards.
QUIET = [f"{r}{s}" for r in ("2", "3", "4", "5", "6") for s in "CDHS"]


# --------------------------------------------------------------------------------- helpers


def variant(base: str = CAMBIA, **sections: dict[str, Any]) -> tamalou.Variant:
    """``base`` with some keys changed: ``matching={"race": True}``..."""
    data = tamalou.load_variant(base).model_dump()
    for section, keys in sections.items():
        data["rules"][section].update(keys)
    return tamalou.variant_from_dict(data)


def close_window(g: Round) -> list[Event]:
    """Everyone the window waits for passes."""
    events: list[Event] = []
    while g.phase == "window":
        events += g.apply(Pass(g.current_player))
    return events


def quiet_turn(g: Round) -> list[Event]:
    """Draw from the stock, throw it, decline its power (or the swap), nobody snaps."""
    p = g.current_player
    events = g.apply(Draw(p, "stock")) + g.apply(Discard(p))
    while g.phase in ("power", "swap"):
        events += g.apply(Pass(p))
    return events + close_window(g)


def throw_and_open(g: Round, *, decline: bool = True) -> list[Event]:
    """Draw from the stock and throw it; decline its power: the snap window is open (if anyone may snap)."""
    p = g.current_player
    events = g.apply(Draw(p, "stock")) + g.apply(Discard(p))
    while decline and g.phase in ("power", "swap"):
        events += g.apply(Pass(p))
    return events


def called_at_once(*hands: Sequence[str], v: tamalou.Variant | str = CAMBIA) -> Result:
    """Seat 0 calls at the start of its first turn; everybody else plays a quiet final turn."""
    used = {c for h in hands for c in h}
    pool = [c for c in QUIET if c not in used]
    g = scenario.deal(hands, stock=pool[1 : len(hands)], discard=pool[:1], variant=v)
    g.apply(Call(0))
    while not g.is_over:
        quiet_turn(g)
    result = g.result()
    assert result.reason == "called" and result.caller == 0
    return result


def three_seats(stock: Sequence[str], discard: Sequence[str] = ("2D",), v: tamalou.Variant | str = CAMBIA) -> Round:
    return scenario.deal(
        [
            ["5S", "AS", "2S", "3S"],  # p0 sees 5S, AS
            ["5H", "AH", "2H", "3H"],  # p1 sees 5H, AH
            ["4C", "AC", "5C", "3C"],  # p2 sees 4C, AC; its 5C is unseen
        ],
        stock=stock,
        discard=discard,
        variant=v,
    )


def every_match(g: Round, p: int) -> set[MatchAction]:
    """Every one-card snap ``p`` could try: each occupied slot of theirs and of every other layout."""
    out = {MatchAction(p, (s,)) for s in g.occupied(p)}
    for q in range(g.players):
        if q != p:
            out |= {MatchAction(p, (s,), owner=q) for s in g.occupied(q)}
    return out


# --------------------------------------------------------------------------------- setup


def test_two_to_six_players_52_cards_and_two_jokers() -> None:
    """Cambia: "2–6 players; 52 cards + 2 jokers." """
    for n in range(2, 7):
        assert tamalou.new_game(CAMBIA, players=n, seed=n).players == n
    for n in (1, 7):
        with pytest.raises(SetupError, match=f"got {n}"):
            tamalou.new_game(CAMBIA, players=n, seed=1)
    g = new_round(CAMBIA, players=3, seed=7)
    faces = sorted(str(c) for c in g.cards)
    assert len(faces) == 54
    assert set(faces) == FULL_DECK | {"JK1", "JK2"}
    assert tamalou.load_variant("cambio").name == CAMBIA


def test_four_cards_in_a_square_and_the_two_nearest_seen_at_the_start() -> None:
    """Cambia: "4 cards face down in a 2×2 square; at the start only, each player looks at their two
    nearest cards (slots 0 and 1)." """
    assert tamalou.load_variant(CAMBIA).rules.deal.layout == "square"
    g = deal([["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"]], stock=["9C"], discard=["10D"])
    assert seen(g, 0, 0) == {0: "AS", 1: "2S", 2: None, 3: None}
    assert seen(g, 1, 1) == {0: "5H", 1: "6H", 2: None, 3: None}
    assert seen(g, 0, 1) == {k: None for k in range(4)} and seen(g, 1, 0) == {k: None for k in range(4)}
    assert g.phase == "draw"  # nothing more to look at: the first turn starts
    for n in range(2, 7):
        g = new_round(CAMBIA, players=n, seed=30 + n)
        for p in range(n):
            assert g.card_count(p) == 4
            for q in range(n):
                assert seen(g, p, q) == {s: (g.layout(q)[s] if p == q and s < 2 else None) for s in range(4)}


def test_the_top_of_the_stock_is_turned_up_to_start_the_discard() -> None:
    """Cambia: "The top of the stock is turned up to start the discard." (It was thrown by no turn:
    it opens no snap window.)"""
    for n in range(2, 7):
        g = tamalou.new_game(CAMBIA, players=n, seed=60 + n)
        views = [g.view(p) for p in range(n)]
        assert all(len(v.discard) == 1 and v.discard == views[0].discard for v in views)
        assert views[0].stock_size == 54 - 4 * n - 1
    g = three_seats(stock=["6C"], discard=["5D"])  # p0 and p1 know they hold a 5
    assert all(matches_listed(g, p) == set() for p in range(3))
    assert_illegal(g, MatchAction(1, (0,)))


def test_values_red_king_minus_one_joker_zero_black_king_thirteen() -> None:
    """Cambia: "Values: red K −1, joker 0, A 1, 2–10 face value, J 11, Q 12, black K 13." """
    result = called_at_once(
        ["KH", "KD", "JK1", "JK2"],  # -1 - 1 + 0 + 0 = -2
        ["KS", "KC", "QS", "JS"],  # 13 + 13 + 12 + 11 = 49
        ["AS", "2S", "3S", "4S"],  # 1 + 2 + 3 + 4 = 10
        ["5S", "6S", "7S", "8S"],  # 26
        ["9S", "10S", "QH", "JH"],  # 9 + 10 + 12 + 11 = 42
    )
    assert result.totals == [-2, 49, 10, 26, 42]


# --------------------------------------------------------------------------------- a turn


def test_stock_draw_then_replace_one_card_or_throw_the_drawn_card_with_its_power() -> None:
    """Cambia: "A turn is one of: draw from the stock, then replace one of your cards (the old one goes
    face up on the discard) or throw the drawn card (its power may be used)" """
    g = deal([["AS", "2S", "7S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["8C", "6C"], discard=["2D"])
    assert turn_options(g, 0) == {Draw(0, "stock"), Draw(0, "discard"), Call(0)}
    (drew,) = g.apply(Draw(0, "stock"))
    assert drew.for_player(0)["card"] == "8C" and drew.for_player(1)["card"] is None
    assert turn_options(g, 0) == {Replace(0, k) for k in range(4)} | {Discard(0)}
    kept = g.copy()
    # Replace: the old card (a 7, whose power is not given: house rule off) goes face up on the discard.
    events = kept.apply(Replace(0, 2))
    assert kinds(events)[:2] == ["replaced", "window"] and events[0]["card"] == "7S"
    assert kept.layout(0) == ["AS", "2S", "8C", "4S"] and kept.view(1).discard_top == "7S"
    assert seen(kept, 0, 0)[2] == "8C" and seen(kept, 1, 0)[2] is None
    assert "power_offered" not in kinds(events)
    # Throw: the drawn 8 offers its power (peek_own), which may be declined.
    events = g.apply(Discard(0))
    assert kinds(events) == ["discarded", "power_offered"] and events[1]["power"] == "peek_own"
    assert Pass(0) in turn_options(g, 0)


def test_discard_draw_must_replace_and_gives_no_power() -> None:
    """Cambia: "draw the discard top, then replace one of your cards (no power)"; Decided: "a card
    taken from the discard must replace one of yours (the page; the engine lets it be thrown back)" """
    g = deal([["AS", "2S", "9S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["6C"], discard=["7D"])
    g.apply(Draw(0, "discard"))
    assert turn_options(g, 0) == {Replace(0, k) for k in range(4)}
    assert_illegal(g, Discard(0))
    events = g.apply(Replace(0, 2))  # the 9S (a power card) leaves: no power either
    assert "power_offered" not in kinds(events)
    assert g.layout(0)[2] == "7D" and seen(g, 1, 0)[2] == "7D" and g.view(0).discard_top == "9S"


def test_call_instead_of_drawing_with_no_threshold() -> None:
    """Cambia: "or call "Cambia" instead of drawing (no threshold: anyone may call at the start of
    their turn)." """
    g = deal([["KS", "KC", "QS", "JS"], ["AH", "2H", "3H", "4H"]], stock=["6C", "5C"], discard=["2D"])
    assert Call(0) in turn_options(g, 0)  # 49 points, and unseen cards: still offered
    s = g.copy()
    s.apply(Draw(0, "stock"))
    assert Call(0) not in turn_options(s, 0)  # instead of drawing, not after
    (called,) = [e for e in g.apply(Call(0)) if e.type == "called"]
    assert called.data == {"player": 0}  # not checked: no total told
    assert g.caller == 0 and g.current_player == 1 and g.phase == "draw"
    assert Call(1) not in turn_options(g, 1)  # one call per round


def test_after_a_call_every_other_player_has_one_final_turn() -> None:
    """Cambia: "After a call every other player has one final turn." """
    g = three_seats(stock=["6C", "4D", "6D", "4H"])
    quiet_turn(g)  # p0
    g.apply(Call(1))
    assert g.caller == 1
    players = [g.current_player]
    quiet_turn(g)  # p2
    players.append(g.current_player)
    quiet_turn(g)  # p0
    assert players == [2, 0]
    assert g.is_over and g.result().reason == "called" and g.turn == 4


# --------------------------------------------------------------------------------- powers


def _power_table(drawn: str) -> Round:
    return three_seats(stock=[drawn, "6C", "6D"])


@pytest.mark.parametrize("drawn", ["7C", "8C"])
def test_power_7_8_look_at_one_of_your_own_cards(drawn: str) -> None:
    """Cambia: "Powers: 7, 8 look at one of your own cards" """
    g = _power_table(drawn)
    throw_and_open(g, decline=False)
    assert turn_options(g, 0) == {Power(0, slot=k) for k in range(4)} | {Pass(0)}
    events = g.apply(Power(0, slot=3))
    assert kinds(events) == ["looked", "window"]
    assert events[0].for_player(0)["card"] == "3S" and events[0].for_player(1)["card"] is None
    assert seen(g, 0, 0)[3] == "3S" and seen(g, 1, 0)[3] is None


@pytest.mark.parametrize("drawn", ["9C", "10C"])
def test_power_9_10_look_at_one_card_of_an_opponent(drawn: str) -> None:
    """Cambia: "9, 10 look at one card of an opponent" """
    g = _power_table(drawn)
    throw_and_open(g, decline=False)
    uses = {Power(0, target=q, target_slot=k) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == uses | {Pass(0)}
    g.apply(Power(0, target=2, target_slot=2))
    assert seen(g, 0, 2)[2] == "5C" and seen(g, 1, 2)[2] is None and seen(g, 2, 2)[2] is None


@pytest.mark.parametrize("drawn", ["JC", "QC"])
def test_power_jack_queen_blind_swap_with_an_opponent(drawn: str) -> None:
    """Cambia: "J, Q blind swap of one of your cards with one of an opponent's" """
    g = _power_table(drawn)
    throw_and_open(g, decline=False)
    uses = {Power(0, slot=m, target=q, target_slot=k) for m in range(4) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == uses | {Pass(0)}
    events = g.apply(Power(0, slot=0, target=2, target_slot=2))
    assert "looked" not in kinds(events)
    assert g.layout(0)[0] == "5C" and g.layout(2)[2] == "5S"
    assert seen(g, 0, 0)[0] is None  # blind: p0 does not know what it got
    assert seen(g, 0, 2)[2] == "5S"  # but knows where its 5S went


@pytest.mark.parametrize("drawn", ["KC", "KH"])
def test_power_king_of_either_colour_looks_at_both_then_swaps_or_not(drawn: str) -> None:
    """Cambia: "K (both colours) look at one of your cards and one of an opponent's, then choose
    whether to swap those two." """
    g = _power_table(drawn)
    offered = of_kind(throw_and_open(g, decline=False), "power_offered")
    assert [e["power"] for e in offered] == ["look_both_and_swap"]
    uses = {Power(0, slot=m, target=q, target_slot=k) for m in range(4) for q in (1, 2) for k in range(4)}
    assert turn_options(g, 0) == uses | {Pass(0)}
    looked = g.apply(Power(0, slot=3, target=2, target_slot=2))
    assert [e.for_player(0)["card"] for e in looked] == ["3S", "5C"]
    assert [e.for_player(1)["card"] for e in looked] == [None, None]
    assert g.phase == "swap" and turn_options(g, 0) == {Swap(0, 3), Pass(0)}
    kept = g.copy()
    g.apply(Swap(0, 3))
    assert g.layout(0)[3] == "5C" and g.layout(2)[2] == "3S"
    assert seen(g, 0, 0)[3] == "5C"
    kept.apply(Pass(0))
    assert kept.layout(0)[3] == "3S" and kept.layout(2)[2] == "5C"


# --------------------------------------------------------------------------------- snapping


def test_snap_own_or_opponents_card_then_give_one_of_yours_unseen() -> None:
    """Cambia: "when a card lands on the discard, anyone may throw a card of the same rank from their
    own layout or an opponent's; after throwing an opponent's card they must move one of their own cards
    into the empty slot (chosen without looking)" """
    g = three_seats(stock=["5D", "6C"])
    events = throw_and_open(g)  # p0 throws the 5D: no power, the window opens at once
    assert kinds(events)[-1] == "window" and events[-1]["players"] == [0, 1, 2]
    for p in range(3):
        assert matches_listed(g, p) == every_match(g, p)
    events = g.apply(MatchAction(1, (2,), owner=2))  # p1 snaps p2's unseen 5C
    assert kinds(events) == ["matched", "give_owed"]
    assert g.phase == "give" and g.to_act == [1]
    assert turn_options(g, 1) == {Give(1, k) for k in (0, 1, 2, 3)}  # no pass: the give is a must
    assert_illegal(g, Pass(1))
    assert g.legal_actions(0) == [] and g.legal_actions(2) == []
    events = g.apply(Give(1, 3))  # its 3H, which it never saw
    assert kinds(events) == ["gave"]
    assert g.layout(2)[2] == "3H" and g.layout(1)[3] is None
    assert all(seen(g, p, 2)[2] is None for p in range(3))  # nobody saw the card given
    assert g.phase == "window" and g.view(0).discard[-2:] == ["5D", "5C"]
    assert matches_listed(g, 1) == set()  # one card per player on each thrown card
    close_window(g)
    assert g.current_player == 1 and g.phase == "draw"


def test_the_window_asks_the_turns_player_first_then_the_next_seats_in_turn() -> None:
    """The snap window of a card thrown in seat 1's turn asks seat 1 first, then seats 2 and 0, in the order of
    play from the turn's player (not from seat 0). Pinned by mutation testing (docs/mutation.md)."""
    g = three_seats(stock=["6D", "6C", "6H", "6S"])
    quiet_turn(g)  # p0
    events = throw_and_open(g)  # p1 throws the 6C
    assert kinds(events)[-1] == "window" and events[-1]["players"] == [0, 1, 2]
    asked = []
    while g.phase == "window":
        asked.append(g.current_player)
        g.apply(Pass(g.current_player))
    assert asked == [1, 2, 0]
    assert g.current_player == 2 and g.phase == "draw"
    assert g.state_of("matching").waiting == 0  # the closed window waits for nobody (its snapshot says so)


def test_the_window_opens_after_the_power_and_closes_when_the_turn_passes() -> None:
    """Cambia: "The window of a thrown card opens after its power has been resolved or declined and
    closes when the turn passes." """
    g = three_seats(stock=["9D", "6C"])
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))  # the 9D: peek at an opponent's card
    assert g.phase == "power" and "window" not in kinds(events)
    assert all(matches_listed(g, p) == set() for p in range(3))  # not while the power is on offer
    assert_illegal(g, MatchAction(1, (0,)))
    declined = g.copy()
    events = g.apply(Power(0, target=1, target_slot=0))
    assert kinds(events) == ["looked", "window"] and g.phase == "window"
    assert matches_listed(g, 2) == every_match(g, 2)
    events = declined.apply(Pass(0))  # declined: the window opens just the same
    assert kinds(events) == ["passed", "window"]
    events = close_window(g)
    assert kinds(events) == ["passed", "passed", "passed", "window_closed", "turn"]
    assert g.phase == "draw" and g.current_player == 1
    assert all(matches_listed(g, p) == set() for p in range(3))  # closed: the 9D may no longer be snapped
    assert_illegal(g, MatchAction(0, (1,)))


def test_wrong_snap_costs_two_cards_but_never_past_six() -> None:
    """Cambia: "A wrong snap costs two penalty cards, but a penalty never takes a layout past six
    cards (a miss at five cards costs one, at six none)." """
    g = deal(
        [["AS", "2S", "3S", "4S"], ["5S", "5H", "2H", "3H"]],  # p1 sees 5S, 5H
        stock=["5D", "2C", "3C", "6C", "5C", "4C", "2D", "3D"],
        discard=["AD"],
    )
    throw_and_open(g)  # p0 throws the 5D
    events = g.apply(MatchAction(1, (2,)))  # the 2H: wrong
    assert kinds(events) == ["missed", "penalty", "penalty"]
    assert g.card_count(1) == 6 and seen(g, 0, 1)[2] == "2H"  # back in place, seen by all
    close_window(g)
    throw_and_open(g)  # p1 throws the 6C
    events = g.apply(MatchAction(1, (3,)))  # the 3H: wrong, at six cards: no penalty
    assert kinds(events) == ["missed", "penalty_capped"] and events[1]["spared"] == 2
    assert g.card_count(1) == 6
    close_window(g)
    throw_and_open(g)  # p0 throws the 5C
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # p1's 5S: five cards
    close_window(g)
    throw_and_open(g)  # p1 throws the 4C
    events = g.apply(MatchAction(1, (2,)))  # the 2H again: one card only
    assert kinds(events) == ["missed", "penalty_capped", "penalty"] and events[1]["spared"] == 1
    assert g.card_count(1) == 6 and g.view(0).stock_size == 1


def test_not_a_race_every_right_snap_of_the_window_counts() -> None:
    """Cambia: "By default snapping is not a race: every right snap of the window counts (several
    players may each throw a matching card)" """
    g = three_seats(stock=["5D", "6C"])
    throw_and_open(g)
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # p1's 5H
    assert matches_listed(g, 0) == every_match(g, 0)  # the window is still open to the others
    assert kinds(g.apply(MatchAction(0, (0,)))) == ["matched"]  # p0's 5S
    assert g.view(2).discard == ["2D", "5D", "5H", "5S"]
    assert g.phase == "window" and g.to_act == [2]
    close_window(g)
    assert g.card_count(0) == 3 and g.card_count(1) == 3


def test_race_key_only_the_first_right_snap_counts_a_later_one_goes_back() -> None:
    """Cambia: "with the race key on, only the first right snap counts and a later one takes its card
    back, no penalty." """
    race = variant(matching={"race": True})
    g = three_seats(stock=["5D", "6C"], v=race)
    throw_and_open(g)
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]
    assert g.to_act == [0, 2]  # the window stays open to the others...
    assert turn_options(g, 0) == {Pass(0)} and matches_listed(g, 0) == set()  # ... but it is won
    events = g.apply(MatchAction(0, (0,)))  # a later right snap: taken back, no penalty
    assert kinds(events) == ["late"]
    assert g.layout(0)[0] == "5S" and g.card_count(0) == 4 and seen(g, 2, 0)[0] == "5S"
    assert g.view(0).discard_top == "5H" and g.to_act == [2]


def test_caller_layout_is_locked_against_powers_snaps_and_gives() -> None:
    """Cambia: "The caller's layout is locked: nobody may swap with it, look at it with a power, snap
    from it, or give into it." """
    for drawn, power in (("9D", "peek_opponent"), ("JD", "blind_swap"), ("KD", "look_both_and_swap")):
        g = three_seats(stock=[drawn, "5D", "6D"])
        g.apply(Call(0))
        assert g.current_player == 1
        offered = of_kind(throw_and_open(g, decline=False), "power_offered")
        assert [e["power"] for e in offered] == [power]
        uses = [a for a in turn_options(g, 1) if isinstance(a, Power)]
        assert uses and all(a.target == 2 for a in uses)  # never the caller's cards
        assert_illegal(g, Power(1, slot=0, target=0, target_slot=0))
        assert_illegal(g, Power(1, target=0, target_slot=0))
        g.apply(Pass(1))
        close_window(g)
    # p2 throws the 5D: p0's 5S may not be snapped (nor could anything be given into its layout).
    throw_and_open(g)
    assert g.phase == "window" and 0 not in g.to_act
    assert matches_listed(g, 1) == every_match(g, 1) - {MatchAction(1, (s,), owner=0) for s in range(4)}
    assert_illegal(g, MatchAction(1, (0,), owner=0))
    assert g.layout(0) == ["5S", "AS", "2S", "3S"]


def test_the_caller_may_not_snap_even_with_the_lock_key_off() -> None:
    """Cambia: "The caller may not snap at all (even with the lock key off)." """
    unlocked = variant(call={"protect_caller": False, "protect_from": "exchanges"})
    for v in (CAMBIA, unlocked):
        g = three_seats(stock=["5D", "6C"], v=v)
        g.apply(Call(0))
        throw_and_open(g)  # p1 throws the 5D: p0 knows its 5S
        assert g.to_act == [1, 2]
        assert matches_listed(g, 0) == set()
        assert_illegal(g, MatchAction(0, (0,)))
    # With the lock off the caller's cards may be snapped by others (and given into).
    assert MatchAction(1, (0,), owner=0) in matches_listed(g, 1)


# --------------------------------------------------------------------------------- the end


def test_round_ends_after_the_final_turns_or_at_300_turns() -> None:
    """Cambia: "The round ends after the final turns or at the turn limit (300 turns)." """
    g = tamalou.new_game(CAMBIA, players=2, seed=11)
    while not g.is_over:
        quiet_turn(g)
    assert g.result().reason == "turn_limit" and g.turn == 300
    assert g.result().caller is None
    # The final turns: see test_after_a_call_every_other_player_has_one_final_turn.


def test_an_empty_stock_is_the_reshuffled_discard_and_no_card_to_draw_ends_the_round() -> None:
    """Cambia: "When the stock is empty the discard but its top is reshuffled into a new stock; the
    round ends when no card can be drawn at all." """
    g = deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["6C"], discard=["5D"])
    quiet_turn(g)  # p0 throws the 6C: the discard is 5D 6C, the stock empty
    events = g.apply(Draw(1, "stock"))
    assert kinds(events) == ["reshuffled", "drew"] and events[1].for_player(1)["card"] == "5D"
    assert g.view(0).discard == ["6C"] and g.view(0).stock_size == 0
    # Nothing to draw at all (no stock, one card on the discard, the discard not to be drawn: house rule).
    no_discard = variant(draw={"from_discard": False})
    g = scenario.deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], [], ["5D"], variant=no_discard)
    assert g.is_over and g.result().reason == "no_card_to_draw"


def test_lowest_total_wins_caller_wins_ties_a_caller_not_lowest_never_wins() -> None:
    """Cambia: "Result: lowest total wins. Ties for lowest: the caller wins if among them; otherwise
    the tied players all win. A caller without the lowest total never wins." """
    alone = called_at_once(["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "5H"], ["AC", "2C", "3C", "6C"])
    assert alone.totals == [10, 11, 12] and alone.winners == [0]
    tie_with_caller = called_at_once(["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "6C"])
    assert tie_with_caller.totals == [10, 10, 12] and tie_with_caller.winners == [0]
    tie_without = called_at_once(["AS", "2S", "3S", "6S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"])
    assert tie_without.totals == [12, 10, 10] and tie_without.winners == [1, 2]
    caller_behind = called_at_once(["AS", "2S", "3S", "5S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "6C"])
    assert caller_behind.winners == [1] and caller_behind.ranking[0] == [1]


# --------------------------------------------------------------------------------- Decided lines


def test_decided_window_offered_to_every_player_whether_or_not_anyone_holds_the_rank() -> None:
    """Cambia, decided: "the snap window is offered to every player whether or not anyone holds the
    rank (the engine opens it only when someone does, which tells everyone that someone does)" """
    listings = []
    for thrown in ("5D", "6D"):  # p0 and p1 hold a 5 (and p2 an unseen one); nobody holds a 6
        g = three_seats(stock=[thrown, "6C"])
        events = throw_and_open(g)
        assert events[-1].type == "window" and events[-1]["players"] == [0, 1, 2]
        listings.append([g.legal_actions(p) for p in range(3)])
    assert listings[0] == listings[1]


def test_decided_an_empty_layout_has_no_special_effect() -> None:
    """Cambia, decided: "an empty layout has no special effect" (a one-card deal, to empty it fast)."""
    one_card = variant(deal={"cards": 1}, peek={"slots": [0]})
    g = scenario.deal([["5S"], ["AH"]], stock=["5D", "6C", "2C"], discard=["2D"], variant=one_card)
    throw_and_open(g)
    g.apply(MatchAction(0, (0,)))  # p0 snaps its last card
    close_window(g)
    assert g.empty(0) and not g.is_over
    quiet_turn(g)  # p1
    assert g.current_player == 0 and not g.is_over
    assert turn_options(g, 0) == {Draw(0, "stock"), Call(0)}  # not forced to call; nothing to replace
    g.apply(Draw(0, "stock"))
    assert turn_options(g, 0) == {Discard(0)}


def test_decided_an_empty_layout_takes_its_last_turn_after_a_call() -> None:
    """Cambia, decided: "an empty layout has no special effect" — after a call too: a player whose layout is
    empty takes the last turn like anyone (``rules.call.empty_after_call = "plays"``; French skips it:
    "skipped"). An independent Cambia engine plays that turn; so does this one, and its log replays."""

    def emptied_then_called(v: tamalou.Variant) -> tuple[Round, list[Event]]:
        g = scenario.deal([["5S"], ["AH"]], stock=["5D", "6C", "2C"], discard=["2D"], variant=v)
        throw_and_open(g)
        g.apply(MatchAction(0, (0,)))  # p0 snaps its last card
        close_window(g)
        return g, g.apply(Call(1))  # p1 calls instead of drawing

    one_card = variant(deal={"cards": 1}, peek={"slots": [0]})
    assert one_card.rules.call.empty_after_call == "plays"
    g, called = emptied_then_called(one_card)
    assert kinds(called) == ["called", "turn"]
    assert g.empty(0) and not g.is_over and g.current_player == 0  # p0 has its last turn
    assert turn_options(g, 0) == {Draw(0, "stock")}  # someone called: no call; nothing to replace
    assert kinds(quiet_turn(g)) == ["drew", "discarded", "round_over"]  # p0 draws the 6C and throws it
    assert g.is_over and g.result().caller == 1 and g.discard[-1] == g.text.index("6C")
    again = tamalou.replay(one_card, 2, seed=1, actions=g.actions, deal=g.deal_spec, first_player=0)
    assert again.to_json() == g.to_json()

    french_way = variant(deal={"cards": 1}, peek={"slots": [0]}, call={"empty_after_call": "skipped"})
    skipped, called = emptied_then_called(french_way)
    assert kinds(called) == ["called", "skipped", "round_over"]  # p0's turn skipped: the round ends at once
    assert skipped.is_over and g.text.index("6C") in skipped.stock
    assert of_kind(called, "skipped")[0]["player"] == 0


# --------------------------------------------------------------------------------- house-rule keys


def test_house_rule_keys_each_a_key_with_the_pages_defaults() -> None:
    """Cambia: "House-rule keys the Cambia engine offers, each to be a key here: drawing from the
    discard allowed or not; powers also from a card replaced out of the layout after a stock draw ...; the
    caller's layout locked or not; snapping a race or not; jokers in the deck or not; and the penalty cap
    (6)." """
    r = tamalou.load_variant(CAMBIA).rules
    assert r.draw.from_discard is True
    assert r.powers.replaced is False
    assert (r.call.protect_caller, r.call.protect_from) == (True, "everything")
    assert r.matching.race is False
    assert r.deck.jokers == 2
    assert r.matching.penalty_cap == 6
    no_discard = variant(draw={"from_discard": False})
    g = scenario.deal([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], ["6C"], ["5D"], variant=no_discard)
    assert turn_options(g, 0) == {Draw(0, "stock"), Call(0)}
    no_jokers = new_round(variant(deck={"jokers": 0}), players=2, seed=3)
    assert len(no_jokers.cards) == 52
    no_cap = variant(matching={"penalty_cap": 0})
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["5S", "5H", "2H", "3H"]],
        stock=["5D", "2C", "3C", "6C", "4C", "2D", "3D"],
        discard=["AD"],
        variant=no_cap,
    )
    throw_and_open(g)
    g.apply(MatchAction(1, (2,)))
    close_window(g)
    throw_and_open(g)
    assert kinds(g.apply(MatchAction(1, (3,)))) == ["missed", "penalty", "penalty"]
    assert g.card_count(1) == 8


def test_house_rule_replaced_card_power_resolves_with_the_replace_and_cannot_be_declined() -> None:
    """Cambia: "powers also from a card replaced out of the layout after a stock draw (the power then
    resolves as part of the replace and cannot be declined)" """
    replaced = variant(powers={"replaced": True})
    g = three_seats(stock=["6C", "4D", "4H"], discard=["2D"], v=replaced)
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 1))  # the AS: no power
    assert "power_offered" not in kinds(events) and kinds(events)[-1] == "window"
    close_window(g)
    g = scenario.deal(
        [["5S", "9S", "2S", "3S"], ["5H", "AH", "2H", "3H"]], stock=["6C", "4D"], discard=["2D"], variant=replaced
    )
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 1))  # the 9S leaves: peek at an opponent's card, a must
    assert kinds(events) == ["replaced", "power_offered"] and events[1]["must"] is True
    assert turn_options(g, 0) == {Power(0, target=1, target_slot=k) for k in range(4)}
    assert_illegal(g, Pass(0))
    events = g.apply(Power(0, target=1, target_slot=3))
    assert kinds(events) == ["looked", "window"]  # then the window of the 9S
    # A drawn card thrown keeps its optional power; a card from the discard gives none.
    g = scenario.deal(
        [["5S", "9S", "2S", "3S"], ["5H", "AH", "2H", "3H"]], stock=["9C", "4D"], discard=["2D"], variant=replaced
    )
    throw_and_open(g, decline=False)
    assert Pass(0) in turn_options(g, 0)
    g = scenario.deal(
        [["5S", "9S", "2S", "3S"], ["5H", "AH", "2H", "3H"]], stock=["6C"], discard=["2D"], variant=replaced
    )
    g.apply(Draw(0, "discard"))
    assert "power_offered" not in kinds(g.apply(Replace(0, 1)))


# --------------------------------------------------------------------------------- the keys on their own


def test_key_defaults_keep_every_other_ruleset_as_it_was() -> None:
    """The new keys' defaults are today's behaviour: every other built-in ruleset leaves them so."""
    for name in tamalou.variant_names():
        if name in (CAMBIA, "kaboo", "cambia-circuit"):
            continue
        r = tamalou.load_variant(name).rules
        m = r.matching
        assert (m.give, m.race, m.penalty_cap, m.window, r.powers.replaced) == (
            "must",
            True,
            0,
            "at_throw",
            False,
        ), name


def test_key_give_may_lets_the_thrower_decline_the_give() -> None:
    """``matching.give = "may"``: after taking another player's card, the thrower may give one of theirs or
    decline (``pass``); the slot then stays empty."""
    may = variant("french", matching={"opponents": True, "give": "may"})
    g = scenario.deal([["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"]], stock=["6C"], discard=["5D"], variant=may)
    assert kinds(g.apply(MatchAction(0, (0,), owner=1))) == ["matched", "give_owed"]
    assert g.phase == "give" and turn_options(g, 0) == {Give(0, k) for k in range(4)} | {Pass(0)}
    events = g.apply(Pass(0))
    assert kinds(events) == ["passed"] and events[0].data == {
        "player": 0,
        "phase": "give",
        "target": 1,
        "target_slot": 0,
    }
    assert g.layout(1) == [None, "6H", "7H", "8H"] and g.card_count(0) == 4
    assert g.phase == "draw" and g.current_player == 0
    # With "must" (opponent-matching), no pass.
    must = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"]], stock=["6C"], discard=["5D"], variant="opponent-matching"
    )
    must.apply(MatchAction(0, (0,), owner=1))
    assert turn_options(must, 0) == {Give(0, k) for k in range(4)}
    assert_illegal(must, Pass(0))


def test_key_give_may_lets_a_player_with_no_card_take_one() -> None:
    """``matching.give = "may"``: a player with no card of their own may still throw an opponent's card,
    and then has only ``pass`` to offer."""
    may = variant("french", matching={"opponents": True, "give": "may"}, deal={"cards": 1}, peek={"slots": [0]})
    g = scenario.deal([["5S"], ["5H"]], stock=["6C", "2C"], discard=["5D"], variant=may)
    assert kinds(g.apply(MatchAction(0, (0,)))) == ["matched"]  # p0's own 5S: its layout is empty
    assert g.empty(0)
    assert matches_listed(g, 0) == {MatchAction(0, (0,), owner=1)}
    assert kinds(g.apply(MatchAction(0, (0,), owner=1))) == ["matched", "give_owed"]
    assert g.phase == "give" and turn_options(g, 0) == {Pass(0)}
    g.apply(Pass(0))
    assert g.empty(0) and g.empty(1) and g.view(0).discard == ["5D", "5S", "5H"]
    # With "must", a player with no card cannot take one.
    must = variant("french", matching={"opponents": True}, deal={"cards": 1}, peek={"slots": [0]})
    g = scenario.deal([["5S"], ["5H"]], stock=["6C", "2C"], discard=["5D"], variant=must)
    g.apply(MatchAction(0, (0,)))
    assert matches_listed(g, 0) == set()
    assert_illegal(g, MatchAction(0, (0,), owner=1))


def test_key_race_false_every_right_match_counts() -> None:
    """``matching.race = false``: several players may each throw a right card on the same thrown card."""
    hands = [["5S", "2S"], ["5H", "2H"], ["5C", "2C"]]
    g = scenario.deal(hands, ["6C"], ["5D"], variant=variant("french", matching={"race": False}, deal={"cards": 2}))
    for p in (2, 1, 0):
        assert kinds(g.apply(MatchAction(p, (0,)))) == ["matched"]
    assert g.view(0).discard == ["5D", "5C", "5H", "5S"]
    # The default race: the second right card is late, taken back.
    g = scenario.deal(hands, ["6C"], ["5D"], variant=variant("french", deal={"cards": 2}))
    assert kinds(g.apply(MatchAction(2, (0,)))) == ["matched"]
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["late"]


def test_key_penalty_cap_stops_penalties_at_the_cap() -> None:
    """``matching.penalty_cap``: a matching penalty never takes the layout past the cap (French, one card a
    miss, capped at 5)."""
    capped = variant("french", matching={"penalty_cap": 5})
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], stock=["6C", "2C", "3C"], discard=["5D"], variant=capped
    )
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["missed", "penalty"]
    assert g.card_count(1) == 5
    events = g.apply(MatchAction(1, (1,)))
    assert kinds(events) == ["missed", "penalty_capped"]
    assert events[1].data == {"player": 1, "cap": 5, "spared": 1}
    assert g.card_count(1) == 5 and g.view(0).stock_size == 2


def test_key_window_after_power_on_french() -> None:
    """``matching.window = "after_power"``: no match while the power is on offer; the window is a phase
    once it is resolved or declined, and closes before the turn goes on (French: to its end-of-turn call)."""
    after = variant("french", matching={"window": "after_power"})
    g = scenario.deal(
        [["9S", "2S", "3S", "4S"], ["9H", "2H", "3H", "4H"]], stock=["9C", "6C"], discard=["5D"], variant=after
    )
    assert matches_listed(g, 1) == {MatchAction(1, (k,)) for k in range(4)}  # the card turned up (French: yes)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "power" and matches_listed(g, 1) == set()
    events = g.apply(Pass(0))
    assert kinds(events) == ["passed", "window"] and g.to_act == [0, 1]
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # p1's 9H
    assert g.to_act == [0, 1] and matches_listed(g, 0) == set()  # French is a race: the window is won
    g.apply(Pass(1))
    events = g.apply(Pass(0))
    assert kinds(events) == ["passed", "window_closed"]
    assert g.phase == "call" and g.current_player == 0
    assert matches_listed(g, 0) == set() and matches_listed(g, 1) == set()


def test_key_powers_replaced_on_french() -> None:
    """``powers.replaced = true``: after a stock draw the replaced card's power is offered, without ``pass``."""
    replaced = variant("french", powers={"replaced": True})
    g = scenario.deal(
        [["7S", "2S", "3S", "4S"], ["9H", "2H", "3H", "4H"]], stock=["5C", "6C"], discard=["5D"], variant=replaced
    )
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 0))
    assert kinds(events) == ["replaced", "power_offered"] and events[1]["power"] == "peek_own"
    assert turn_options(g, 0) == {Power(0, slot=k) for k in range(4)}
    assert_illegal(g, Pass(0))
    (looked,) = g.apply(Power(0, slot=0))
    assert looked.for_player(0)["card"] == "5C" and g.phase == "call"


def test_decided_no_penalty_card_left_no_window_opens() -> None:
    """Decided: "No penalty card left: matching is closed" — p0 draws the stock's last card and throws it: the
    discard holds only it and the stock is empty, so a miss could not be given its penalty cards. No window opens
    (whatever the card: p1 holds a 5 here) and no snap is listed or accepted. With one more card in the stock,
    the same throw opens the window to everyone."""
    g = three_seats(stock=["5D"], discard=())
    events = throw_and_open(g)
    assert "window" not in kinds(events) and g.phase == "draw" and g.current_player == 1
    scenario.assert_matching_closed(g, reason="there is no thrown card to match on")
    g = three_seats(stock=["5D", "6C"], discard=())
    assert kinds(throw_and_open(g))[-1] == "window"
