"""Scenario tests of the kaboo ruleset (docs/rules/kaboo.md), and of the two call keys it brought
(``call.protect_from``, ``call.empty_layout = "auto_call"``) and the core's sealed layout on their own.

One test per rule of Kaboo (as gathered from a widely shared Kaboo rules gist), named after it and
quoting it. Every scenario is a stacked
deal a reader can follow: ``hands`` per seat (slot 0 first; the opening peek shows each player slots 0
and 1), ``stock`` top first, the discard empty unless said (kaboo's discard starts empty), seat 0 plays
first.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

import scenario
import tamalou
from scenario import assert_illegal, kinds, of_kind, seen, turn_options
from tamalou import Call, Discard, Draw, Game, Give, MatchAction, Pass, Power, Replace, Round, SetupError, VariantError
from tamalou.engine import new_round

KABOO = "kaboo"
deal = partial(scenario.deal, variant=KABOO)

# Cards without a power in kaboo (7-10, J, Q, K have one), to fill stocks of quiet scenarios.
QUIET = ["5C", "6C", "2C", "3C", "4C", "6S", "5S"]


def kaboo_with(**changes: Any) -> tamalou.Variant:
    """kaboo with some keys changed: ``kaboo_with(deck={"jokers": 0})``."""
    d = tamalou.load_variant(KABOO).model_dump(mode="json")
    for table, keys in changes.items():
        d["rules"][table].update(keys)
    d["name"] = "kaboo-changed"
    return tamalou.variant_from_dict(d)


def french_with(**changes: Any) -> tamalou.Variant:
    """French Tamalou with some keys changed (to try a key of the format on its own)."""
    d = tamalou.load_variant("french").model_dump(mode="json")
    for table, keys in changes.items():
        d["rules"][table].update(keys)
    d["name"] = "french-changed"
    d["aliases"] = []
    return tamalou.variant_from_dict(d)


def quiet(g: Round) -> list[tamalou.Event]:
    """The player to move draws from the stock and throws it (a card without a power)."""
    p = g.current_player
    events = g.apply(Draw(p, "stock")) + g.apply(Discard(p))
    while not g.is_over and g.phase in ("power", "swap", "closing"):
        events += g.apply(Pass(g.current_player))
    return events


def start(hands: list[list[str]], stock: list[str], discard: tuple[str, ...] = ()) -> Round:
    g = deal(hands, stock, discard)
    assert g.phase == "draw" and g.current_player == 0
    return g


def to_dicts(events: list[tamalou.Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


# ===================================================================== the table


def test_two_to_eight_players() -> None:
    """Kaboo: "2–8 players" """
    for n in (2, 8):
        assert tamalou.new_game(KABOO, players=n, seed=3).players == n
    for n in (1, 9):
        with pytest.raises(SetupError):
            tamalou.new_game(KABOO, players=n, seed=3)


def test_52_cards_and_2_jokers_a_key_removes_them() -> None:
    """Kaboo: "52 cards + 2 jokers (**Decided:** jokers in; a key removes them)." """
    g = new_round(KABOO, players=2, seed=1)
    faces = sorted(g.text)
    assert len(faces) == 54 and faces.count("JK1") == 1 and faces.count("JK2") == 1
    assert len(set(faces)) == 54
    no_jokers = new_round(kaboo_with(deck={"jokers": 0}), players=2, seed=1)
    assert len(no_jokers.text) == 52 and not [c for c in no_jokers.text if c.startswith("JK")]


def test_values_ace_1_two_to_ten_face_jqk_10_red_king_minus_1_joker_0() -> None:
    """Kaboo: "Values: A 1, 2–10 face, J Q K 10, red K −1, joker 0." """
    g = new_round(KABOO, players=2, seed=1)
    expected = {"A": 1, "J": 10, "Q": 10, "KS": 10, "KC": 10, "KH": -1, "KD": -1, "JK1": 0, "JK2": 0}
    expected |= {str(n): n for n in range(2, 11)}
    for c, text in enumerate(g.text):
        key = text if text in expected else text[:-1]
        assert g.value[c] == expected[key], text
    # and in a round's result: 1 + 10 + (-1) + 0 = 10 ; 10 + 10 + 10 + 9 = 39
    g = start([["AS", "QH", "KD", "JK1"], ["JS", "KS", "KC", "9D"]], QUIET[:6])
    quiet(g)
    (called,) = of_kind(g.apply(Call(1)), "called")  # wrong (39 > 3): checked at once
    assert called["total"] == 39 and g.total(0) == 10


def test_four_cards_in_a_square_each_player_looks_at_their_two_nearest_once() -> None:
    """Kaboo: "4 cards in a 2×2 square; each player looks at their two nearest cards once." """
    v = tamalou.load_variant(KABOO)
    assert v.rules.deal.cards == 4 and v.rules.deal.layout == "square"
    g = start([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], QUIET[:4])
    assert seen(g, 0, 0) == {0: "AS", 1: "2S", 2: None, 3: None}
    assert seen(g, 1, 1) == {0: "AH", 1: "2H", 2: None, 3: None}
    assert seen(g, 0, 1) == {0: None, 1: None, 2: None, 3: None}
    assert not [a for a in g.legal_actions(0) if a.type == "peek"]  # once: no other look offered


def test_the_discard_starts_empty() -> None:
    """Kaboo: "The discard starts empty." """
    g = new_round(KABOO, players=4, seed=7)
    assert g.discard == [] and g.view(0).discard_top is None and len(g.stock) == 54 - 16
    assert Draw(0, "discard") not in g.legal_actions(g.current_player)


# ===================================================================== a turn


def test_a_turn_draws_from_the_stock_or_takes_the_discard_top() -> None:
    """Kaboo: "A turn: draw from the stock **or** take the discard top" """
    g = start([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], ["5C", "6C", "2D"])
    assert turn_options(g, 0) == {Draw(0, "stock"), Call(0)}  # nothing on the discard yet
    quiet(g)  # 5C on the discard
    assert turn_options(g, 1) == {Draw(1, "stock"), Draw(1, "discard"), Call(1)}
    (took,) = g.apply(Draw(1, "discard"))
    assert took.to_dict() == {"type": "drew", "player": 1, "source": "discard", "card": "5C"}
    assert g.discard == [] and g.phase == "hold"


def test_replace_puts_the_old_card_on_the_discard_unseen_first_face_up_for_all_after() -> None:
    """Kaboo: "then replace one of your cards (the old one goes to the discard unseen by you first,
    face up for all after)" """
    g = start([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], ["5C", "6C", "2D"])
    g.apply(Draw(0, "stock"))
    assert seen(g, 0, 0)[3] is None  # the card to replace is not shown before
    events = g.apply(Replace(0, 3))
    assert of_kind(events, "replaced")[0]["card"] == "4S"
    assert g.layout(0) == ["AS", "2S", "3S", "5C"] and g.discard_top == tamalou.parse_card("4S")
    assert all(g.knows(p, g.discard[-1]) for p in range(2))
    assert seen(g, 1, 0)[3] is None and seen(g, 0, 0)[3] == "5C"  # the new card: its drawer alone knows it


def test_or_throw_the_card_you_hold_even_one_taken_from_the_discard() -> None:
    """Kaboo: "or throw the card you hold." """
    g = start([["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], ["5C", "6C", "2D"])
    quiet(g)
    g.apply(Draw(1, "discard"))
    assert Discard(1) in g.legal_actions(1) and {Replace(1, s) for s in range(4)} <= set(g.legal_actions(1))
    events = g.apply(Discard(1))
    assert kinds(events)[:1] == ["discarded"] and "power_offered" not in kinds(events)
    assert g.discard == [g.text.index("5C")] and g.current_player == 0


def test_only_a_card_drawn_from_the_stock_and_thrown_gives_a_power() -> None:
    """Kaboo: "**Decided:** only a card drawn from the stock and thrown gives a power." """
    g = start([["7S", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], ["8C", "9C", "7D", "2D", "3D"])
    # drawn from the stock and thrown: the 8's power is offered
    events = g.apply(Draw(0, "stock")) + g.apply(Discard(0))
    assert of_kind(events, "power_offered")[0].to_dict() == {"type": "power_offered", "player": 0, "power": "peek_own"}
    g.apply(Pass(0))
    # taken from the discard and thrown back: no power
    g.apply(Draw(1, "discard"))
    assert "power_offered" not in kinds(g.apply(Discard(1)))
    # drawn from the stock, replacing a 7 of the layout: the 7 thrown out gives no power
    events = g.apply(Draw(0, "stock")) + g.apply(Replace(0, 0))
    assert "power_offered" not in kinds(events) and g.current_player == 1


# ===================================================================== powers


def power_turn(hands: list[list[str]], card: str) -> Round:
    """Seat 0 draws ``card`` from the stock and throws it: its power is on offer."""
    g = start(hands, [card, *QUIET[:4]])
    events = g.apply(Draw(0, "stock")) + g.apply(Discard(0))
    assert g.phase == "power" and of_kind(events, "power_offered")
    return g


THREE = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AD", "2D", "3D", "4D"]]


@pytest.mark.parametrize("card", ["7C", "8C"])
def test_seven_and_eight_look_at_one_of_your_own_cards(card: str) -> None:
    """Kaboo: "Powers: 7, 8 look at one of your own cards" """
    g = power_turn(THREE, card)
    uses = {a for a in g.legal_actions(0) if a.type == "power"}
    assert uses == {Power(0, slot=s) for s in range(4)}
    (looked,) = [e for e in g.apply(Power(0, slot=3)) if e.type == "looked"]
    assert looked.for_player(0)["card"] == "4S" and looked.for_player(1)["card"] is None
    assert g.knows(0, g.hands[0][3]) and not g.knows(1, g.hands[0][3])


@pytest.mark.parametrize("card", ["9C", "10C"])
def test_nine_and_ten_look_at_one_card_of_an_opponent(card: str) -> None:
    """Kaboo: "9, 10 look at one card of an opponent" """
    g = power_turn(THREE, card)
    uses = {a for a in g.legal_actions(0) if a.type == "power"}
    assert uses == {Power(0, target=q, target_slot=s) for q in (1, 2) for s in range(4)}
    g.apply(Power(0, target=2, target_slot=2))
    assert g.knows(0, g.hands[2][2]) and not g.knows(1, g.hands[2][2]) and not g.knows(2, g.hands[2][2])


def test_jack_swaps_any_two_cards_on_the_table_blind_never_two_of_one_layout() -> None:
    """Kaboo: "**J swap any two cards on the table, blind** (any two players' cards, yours included
    or not, but not two of the same layout)" """
    g = power_turn(THREE, "JC")
    uses = {a for a in g.legal_actions(0) if a.type == "power"}
    pairs = {(a.owner, a.target) for a in uses}
    assert pairs == {(0, 1), (0, 2), (1, 2)}  # any two layouts, one's own included or not; never one
    assert len(uses) == 3 * 16
    before = [list(h) for h in g.hands]
    knowers = list(g.knowers)
    events = g.apply(Power(0, slot=1, target=2, target_slot=3, owner=1))
    assert to_dicts(of_kind(events, "swapped")) == [
        {"type": "swapped", "player": 0, "owner": 1, "slot": 1, "target": 2, "target_slot": 3}
    ]
    assert g.layout(1)[1] == "4D" and g.layout(2)[3] == "2H" and g.hands[0] == before[0]
    assert g.knowers == knowers  # blind: nobody learns a card; player 1 still knows where their 2H went
    assert g.knows(1, g.hands[2][3]) and not g.knows(0, g.hands[2][3]) and not g.knows(0, g.hands[1][1])
    assert "looked" not in kinds(events)


def test_queen_swaps_one_of_yours_with_another_players_card_then_looks_at_the_card_received() -> None:
    """Kaboo: "**Q swap one of your cards with any other player's card, then look at the card you
    received**" """
    g = power_turn(THREE, "QC")
    uses = {a for a in g.legal_actions(0) if a.type == "power"}
    assert uses == {Power(0, slot=m, target=q, target_slot=s) for m in range(4) for q in (1, 2) for s in range(4)}
    events = g.apply(Power(0, slot=2, target=1, target_slot=0))
    assert g.layout(0)[2] == "AH" and g.layout(1)[0] == "3S"
    (looked,) = of_kind(events, "looked")
    assert looked.for_player(0)["card"] == "AH" and looked.for_player(1)["card"] is None
    assert looked.to_dict() | {"card": None} == {
        "type": "looked",
        "player": 0,
        "owner": 0,
        "slot": 2,
        "card": None,
    }
    assert g.knows(0, g.hands[0][2]) and not g.knows(2, g.hands[0][2])  # player 1 peeked at the AH: still knows it
    assert not g.knows(0, g.hands[1][0])  # the card given away is not shown
    assert kinds(events).index("swapped") < kinds(events).index("looked")


def test_king_looks_at_any_two_cards_then_chooses_whether_to_swap_them_in_everyones_sight() -> None:
    """Kaboo: "**K pick any two cards on the table, look at both, then choose whether to swap them**
    (everyone sees which two were picked and whether they were swapped)." """
    for swap in (True, False):
        g = power_turn(THREE, "KC")
        pick = Power(0, slot=3, target=2, target_slot=0, owner=1)
        assert pick in g.legal_actions(0)
        events = g.apply(pick)
        looked = of_kind(events, "looked")
        assert [(e["owner"], e["slot"]) for e in looked] == [(1, 3), (2, 0)]  # everyone sees which two
        assert [e.for_player(0)["card"] for e in looked] == ["4H", "AD"]
        assert [e.for_player(1)["card"] for e in looked] == [None, None]
        assert g.phase == "swap" and set(g.legal_actions(0)) >= {pick, Pass(0)}
        events = g.apply(pick if swap else Pass(0))
        if swap:
            assert to_dicts(of_kind(events, "swapped")) == [
                {"type": "swapped", "player": 0, "owner": 1, "slot": 3, "target": 2, "target_slot": 0}
            ]
            assert g.layout(1)[3] == "AD" and g.layout(2)[0] == "4H"
        else:
            assert of_kind(events, "passed")[0]["player"] == 0 and not of_kind(events, "swapped")
            assert g.layout(1)[3] == "4H" and g.layout(2)[0] == "AD"
        assert g.knows(0, g.hands[1][3]) and g.knows(0, g.hands[2][0])
        assert g.current_player == 1


def test_a_match_in_the_middle_of_the_kings_swap_owes_a_give_then_the_swap_goes_on() -> None:
    """Kaboo: "whenever the discard top matches a card on the table, anyone may throw a matching card"
    — also while the King's player decides whether to swap: p1 throws p2's KD on the thrown KC, owes p2
    a card, gives it; the swap is then still p0's to decide. A snapshot taken while the give is owed
    restores and plays on identically."""
    hands = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["KD", "2D", "3D", "4D"]]
    g = power_turn(hands, "KC")
    g.apply(Power(0, slot=3, target=2, target_slot=1, owner=1))  # p0 looks at p1's 4H and p2's 2D
    assert g.phase == "swap"
    g.apply(MatchAction(1, (0,), owner=2))
    assert g.phase == "give" and g.current_player == 1
    saved = g.to_json()
    again = Game.from_json(saved)
    assert again.to_json() == saved
    for game in (g, again):
        game.apply(Give(1, 0))
        assert game.phase == "swap" and game.current_player == 0
        assert Pass(0) in game.legal_actions(0)
        game.apply(Power(0, slot=3, target=2, target_slot=1, owner=1))
    assert again.to_json() == g.to_json() and g.layout(1)[3] == "2D" and g.layout(2)[1] == "4H"


def test_the_red_king_has_the_kings_power_too() -> None:
    """Kaboo: "K pick any two cards on the table ..." (every K, red ones included)."""
    g = start(THREE, ["KH", *QUIET[:4]])
    events = g.apply(Draw(0, "stock")) + g.apply(Discard(0))
    assert of_kind(events, "power_offered")[0]["power"] == "look_any_two_and_swap"


# ===================================================================== calling "Kaboo"


def test_call_kaboo_at_the_start_of_your_turn_instead_of_drawing() -> None:
    """Kaboo: "Calling "Kaboo": at the start of your turn, instead of drawing" """
    g = start([["AS", "2S", "3S", "4S"], ["AH", "AD", "JK1", "JK2"]], QUIET[:6])
    assert Call(0) in g.legal_actions(0)
    g.apply(Draw(0, "stock"))
    assert Call(0) not in g.legal_actions(0)  # not once drawn
    g.apply(Discard(0))
    assert g.phase == "draw" and g.current_player == 1  # no call at the end of a turn
    events = g.apply(Call(1))  # 1 + 1 + 0 + 0 = 2: right
    assert of_kind(events, "called")[0]["right"] is True
    assert "drew" not in kinds(events) and g.current_player == 0 and g.caller == 1


def test_the_call_is_offered_to_everyone_whatever_their_total() -> None:
    """Kaboo: "**Decided:** the engine offers the call to everyone at the start of the turn
    (offering it only at a low total would tell everyone the caller's total)" """
    g = start([["KS", "QS", "JS", "10S"], ["AH", "AD", "JK1", "JK2"]], QUIET[:6])
    assert Call(0) in g.legal_actions(0)  # 40 points
    quiet(g)
    assert Call(1) in g.legal_actions(1)  # 2 points


def test_a_call_is_right_at_3_or_less_and_checked_at_once() -> None:
    """Kaboo: "when your total is 3 or less ... and checks it at once" """
    for hand, right in ((["AS", "2S", "KH", "JK1"], True), (["AS", "3S", "JK1", "JK2"], False)):
        g = start([hand, ["5H", "6H", "5D", "6D"]], QUIET[:6])
        (called,) = of_kind(g.apply(Call(0)), "called")
        assert called["right"] is right and called["total"] == (2 if right else 4)
        assert (g.caller == 0) is right


def test_a_wrong_call_shows_the_callers_cards_costs_one_penalty_and_play_goes_on() -> None:
    """Kaboo: "a wrong call turns the caller's cards face up for everyone, costs one penalty card,
    and play goes on (as tamalou-fun's verified call)." """
    g = start([["AS", "3S", "JK1", "JK2"], ["5H", "6H", "5D", "6D"]], QUIET[:6])
    events = g.apply(Call(0))
    assert to_dicts(events) == [
        {
            "type": "called",
            "player": 0,
            "right": False,
            "total": 4,
            "slots": [0, 1, 2, 3],
            "cards": ["AS", "3S", "JK1", "JK2"],
        },
        {"type": "penalty", "player": 0, "slot": 4},
        {"type": "turn", "player": 1, "turn": 1},
    ]
    assert seen(g, 1, 0) == {0: "AS", 1: "3S", 2: "JK1", 3: "JK2", 4: None}
    assert g.caller is None and g.sealed == 0 and g.locked == 0 and not g.is_over
    assert Call(1) in g.legal_actions(1)  # play goes on: the call is still open to all


def test_a_right_call_starts_the_last_round() -> None:
    """Kaboo: "A right call starts the last round" """
    g = start([["5H", "6H", "5D", "6D"], ["AS", "2S", "JK1", "JK2"], ["7H", "7D", "8H", "8D"]], QUIET[:6])
    quiet(g)
    g.apply(Call(1))
    assert g.caller == 1
    quiet(g)  # player 2's last turn
    assert not g.is_over
    events = quiet(g)  # player 0's last turn; then the closing window, and the end
    assert g.is_over and g.result().reason == "called"
    assert of_kind(events, "round_over")[0]["totals"] == [22, 3, 30]


def test_a_right_call_seals_the_callers_cards() -> None:
    """Kaboo: "the caller's cards can no longer be touched." (no power looks at them or swaps
    them, nobody matches from them or gives into them; the caller matches no more)"""
    hands = [
        ["5H", "6H", "5D", "6D"],
        ["AS", "2S", "JK1", "JK2"],
        ["7H", "7D", "8H", "8D"],
        ["9H", "9D", "10H", "10D"],
        ["JH", "JD", "QH", "QD"],
    ]
    g = start(hands, ["4C", "9C", "JC", "QC", "KC", "5C", "6C"])
    quiet(g)  # 4C
    events = g.apply(Call(1))
    assert of_kind(events, "called")[0]["right"] is True and g.sealed == 1 << 1
    for p, card in ((2, "9C"), (3, "JC"), (4, "QC"), (0, "KC")):  # every power of the last round
        assert g.current_player == p
        assert MatchAction(1, (0,)) not in g.legal_actions(1)  # the caller matches no more
        g.apply(Draw(p, "stock"))
        g.apply(Discard(p))
        assert g.phase == "power", card
        uses = [a for a in g.legal_actions(p) if a.type == "power"]
        assert uses and all(1 not in (a.owner, a.target) for a in uses), card
        assert_illegal(g, Power(p, target=1, target_slot=0) if card == "9C" else Power(p, 0, 1, 0))
        assert_illegal(g, Power(p, slot=0, target=1, target_slot=0, owner=0))
        # nobody matches from the caller's layout while the thrown card's window is open
        listed = [a for q in range(5) for a in g.legal_actions(q) if isinstance(a, MatchAction) and a.owner == 1]
        assert listed == []
        assert_illegal(g, MatchAction((p + 1) % 5, (0,), owner=1))
        g.apply(Pass(p))
    assert g.phase == "closing"
    scenario.close(g)
    assert g.is_over and g.layout(1) == ["AS", "2S", "JK1", "JK2"]


def test_a_player_whose_layout_is_emptied_calls_automatically_at_the_start_of_their_next_turn() -> None:
    """Kaboo: "A player whose layout is emptied calls automatically at the start of their next
    turn." """
    g = start([["5H"], ["9S", "9H", "6D", "6C"], ["7H", "7D", "8H", "8D"]], ["5C", "2D", "3D", "4D", "2S"])
    quiet(g)  # player 0 throws 5C
    events = g.apply(MatchAction(0, (0,)))  # and matches their last card with it
    assert of_kind(events, "matched")[0]["card"] == "5H" and g.empty(0)
    quiet(g)  # player 1
    events = quiet(g)  # player 2; then player 0's turn starts: the automatic call
    assert to_dicts(events)[-2:] == [
        {"type": "skipped", "player": 0, "reason": "called"},
        {"type": "turn", "player": 1, "turn": 4},
    ]
    assert g.caller == 0 and g.sealed == 1
    quiet(g)
    quiet(g)
    assert g.is_over and g.result().reason == "called" and g.result().winners == [0]


# ===================================================================== matching


def matching_deal() -> Round:
    """Seat 0 draws the 5C and throws it; seats 1 and 2 hold 5s."""
    g = start(
        [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H", "8H"], ["AD", "5D", "3D", "4D"]],
        ["5C", "2C", "3C", "4C", "6C", "2H", "3H"],
    )
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    return g


def test_whenever_the_discard_top_matches_anyone_may_throw_a_matching_card() -> None:
    """Kaboo: "Matching: whenever the discard top matches a card on the table, anyone may throw a
    matching card" """
    g = matching_deal()
    for p in range(3):  # offered to all, on every slot (offering only right ones would leak cards)
        assert {MatchAction(p, (s,)) for s in range(4)} <= set(g.legal_actions(p))
    events = g.apply(MatchAction(1, (0,)))
    assert to_dicts(events) == [{"type": "matched", "player": 1, "owner": 1, "slot": 0, "card": "5H"}]
    assert g.layout(1)[0] is None and g.discard_top == tamalou.parse_card("5H")


def test_from_any_players_layout() -> None:
    """Kaboo: "anyone may throw a matching card from **any** player's layout." """
    g = matching_deal()
    assert {MatchAction(0, (s,), owner=q) for q in (1, 2) for s in range(4)} <= set(g.legal_actions(0))
    assert {MatchAction(1, (s,), owner=q) for q in (0, 2) for s in range(4)} <= set(g.legal_actions(1))
    events = g.apply(MatchAction(0, (1,), owner=2))
    assert of_kind(events, "matched")[0].to_dict() == {
        "type": "matched",
        "player": 0,
        "owner": 2,
        "slot": 1,
        "card": "5D",
    }
    assert g.layout(2)[1] is None


def test_after_throwing_another_players_card_the_thrower_may_fill_the_slot_with_one_of_theirs_unseen() -> None:
    """Kaboo: "After throwing another player's card, the thrower **may** (not must) fill the empty
    slot with one of their own cards, chosen without looking." """
    for give in (True, False):
        g = matching_deal()
        g.apply(MatchAction(0, (1,), owner=2))
        assert g.phase == "give" and set(g.legal_actions(0)) == {*(Give(0, s) for s in range(4)), Pass(0)}
        assert g.legal_actions(1) == [] and g.legal_actions(2) == []
        if give:
            events = g.apply(Give(0, 3))
            assert of_kind(events, "gave")[0].to_dict() == {
                "type": "gave",
                "player": 0,
                "slot": 3,
                "target": 2,
                "target_slot": 1,
            }
            assert g.layout(2)[1] == "4S" and g.layout(0)[3] is None
            assert not any(g.knows(p, g.hands[2][1]) for p in range(3))  # chosen without looking: nobody knows it
        else:
            g.apply(Pass(0))
            assert g.layout(2)[1] is None and g.layout(0) == ["AS", "2S", "3S", "4S"]
        assert g.phase == "draw" and g.current_player == 1


def test_a_wrong_card_goes_back_face_up_and_the_thrower_takes_one_penalty_card() -> None:
    """Kaboo: "A wrong card goes back face up for all to see, and the thrower takes one penalty
    card." """
    for owner in (None, 2):
        g = matching_deal()
        events = g.apply(MatchAction(1, (3,), owner=owner))
        where = 1 if owner is None else 2
        card = g.hands[where][3]
        assert of_kind(events, "missed")[0]["card"] == g.text[card]
        assert of_kind(events, "penalty")[0].to_dict() == {"type": "penalty", "player": 1, "slot": 4}
        assert g.hands[where][3] == card and all(g.knows(p, card) for p in range(3))
        assert g.card_count(1) == 5 and g.phase == "draw"


def test_only_the_first_right_throw_of_a_thrown_card_counts() -> None:
    """Kaboo: "Only the first right throw of a thrown card counts." """
    g = matching_deal()
    g.apply(MatchAction(1, (0,)))  # first: counts
    events = g.apply(MatchAction(2, (1,)))  # second right one: taken back, no penalty
    assert kinds(events) == ["late"] and g.layout(2)[1] == "5D" and g.card_count(2) == 4
    assert g.discard_top == tamalou.parse_card("5H")


# ===================================================================== who wins


def test_lowest_total_wins() -> None:
    """Kaboo: "Result: lowest total wins" """
    g = start([["5H", "6H", "5D", "6D"], ["AS", "2S", "JK1", "JK2"], ["AH", "AD", "KH", "3H"]], QUIET[:8])
    quiet(g)
    g.apply(Call(1))  # 3: right
    quiet(g)
    quiet(g)
    r = g.result()
    assert r.totals == [22, 3, 4] and r.winners == [1] and r.ranking == [[1], [2], [0]]


def test_ties_go_against_the_caller() -> None:
    """Kaboo: "**Decided:** ties go against the caller." """
    g = start([["5H", "6H", "5D", "6D"], ["AS", "2S", "JK1", "JK2"], ["AH", "AD", "KH", "2H"]], QUIET[:8])
    quiet(g)
    g.apply(Call(1))  # 3: right; player 2 also has 3
    quiet(g)
    quiet(g)
    r = g.result()
    assert r.totals == [22, 3, 3] and r.winners == [2] and r.ranking == [[2], [1], [0]]


# ===================================================================== the call keys on their own


def test_protect_from_defaults_to_exchanges_so_existing_rulesets_are_unchanged() -> None:
    """``call.protect_from`` defaults to "exchanges" (a protected caller is locked, not sealed)."""
    for name in ("french", "tamalou-fun", "gabo", "cartalogue"):
        assert tamalou.load_variant(name).rules.call.protect_from == "exchanges"
    assert tamalou.load_variant("kaboo").rules.call.protect_from == "everything"


def test_protect_from_everything_seals_the_callers_layout() -> None:
    """``call.protect_from = "everything"`` (with ``protect_caller``): the caller's layout is sealed: no
    power looks at it (not even a peek) and the caller matches no more; "exchanges" only keeps exchanges
    (swaps, matches from it) away."""
    for protect_from, sealed in (("exchanges", False), ("everything", True)):
        v = french_with(
            call={"protect_caller": True, "protect_from": protect_from, "when": "start_of_turn"},
            matching={"opponents": True},
        )
        g = new_round(
            v,
            players=3,
            deal={"hands": THREE, "stock": ["2C", "9C", *QUIET[4:8]], "discard": ["3C"]},
            first_player=0,
            seed=1,
        )
        g.apply(Call(0))  # French calls are not verified: the call is taken
        assert g.caller == 0
        assert (g.sealed == 1) is sealed and g.locked == 1
        g.apply(Draw(1, "stock"))  # the 2C
        g.apply(Discard(1))
        # matching an opponent's card exchanges cards: a locked caller is already out of reach
        assert not [a for a in g.legal_actions(2) if isinstance(a, MatchAction) and a.owner == 0]
        assert_illegal(g, MatchAction(2, (1,), owner=0))
        # French lets the caller match; a sealed caller matches no more (their 2S on the 2C)
        assert (MatchAction(0, (1,)) in g.legal_actions(0)) is not sealed
        if sealed:
            assert_illegal(g, MatchAction(0, (1,)))
        g.apply(Draw(2, "stock"))  # the 9C: a peek at another player's card
        g.apply(Discard(2))
        peeks = {a.target for a in g.legal_actions(2) if a.type == "power"}
        assert peeks == ({1} if sealed else {0, 1})


def test_protect_from_everything_needs_protect_caller() -> None:
    """A sealed caller is a protected caller: the key alone is an error that names it."""
    with pytest.raises(VariantError, match="protect_from"):
        french_with(call={"protect_from": "everything"})


def test_empty_layout_auto_call_on_french() -> None:
    """``call.empty_layout = "auto_call"`` on its own: the emptied player calls at their next turn, with
    no action of theirs; once somebody called, an empty layout is just skipped."""
    v = french_with(call={"empty_layout": "auto_call"})
    g = new_round(
        v,
        players=3,
        deal={"hands": [["5H"], ["9S", "9H"], ["6H", "6D"]], "stock": QUIET[:6], "discard": ["5D"]},
        first_player=0,
        seed=1,
    )
    g.apply(MatchAction(0, (0,)))
    assert g.empty(0) and g.caller is None and g.phase == "draw" and g.current_player == 0
    events: list[tamalou.Event] = []
    for _ in range(3):
        p = g.current_player
        events += g.apply(Draw(p, "stock")) + g.apply(Discard(p))
        while g.phase in ("power", "call"):
            events += g.apply(Pass(g.current_player))
    assert to_dicts(events)[-2:] == [
        {"type": "skipped", "player": 0, "reason": "called"},
        {"type": "turn", "player": 1, "turn": 4},
    ]
    assert g.caller == 0 and g.sealed == 0 and g.locked == 0  # French: no protection at all


# ===================================================================== the sealed layout (core)


def test_targets_always_skip_a_sealed_layout() -> None:
    """``g.sealed``: a sealed layout is never a target, whether cards are exchanged or not; a locked one
    only when they are."""
    g = new_round("french", players=4, seed=2)
    assert g.targets(0) == [1, 2, 3] and g.targets(0, True) == [1, 2, 3]
    g.locked = 1 << 2
    assert g.targets(0) == [1, 2, 3] and g.targets(0, True) == [1, 3]
    g.sealed = 1 << 3
    assert g.targets(0) == [1, 2] and g.targets(0, True) == [1]
    assert g.targets(3) == [0, 1, 2]  # the sealed player still aims at others


def test_sealed_is_saved_and_restored_and_an_older_snapshot_restores_unsealed() -> None:
    """Snapshots keep ``sealed``; a snapshot of one's own written before the field existed restores (trusted)
    with none sealed, while a checked restore replays it and finds it is not its game; a mask naming a seat
    that is not at the table is refused."""
    g = start([["AS", "2S", "JK1", "JK2"], ["5H", "6H", "5D", "6D"]], QUIET[:6])
    g.apply(Call(0))
    assert g.sealed == 1
    data = json.loads(g.to_json())
    assert data["sealed"] == 1
    back = Game.from_json(g.to_json())
    assert tamalou.round_of(back).sealed == 1 and back.to_json() == g.to_json()
    del data["sealed"]
    assert tamalou.round_of(Game.from_json(json.dumps(data), trusted=True)).sealed == 0
    with pytest.raises(tamalou.SnapshotError, match="not the game its seed and actions make"):
        Game.from_json(json.dumps(data))
    data["sealed"] = 1 << 5
    with pytest.raises(tamalou.SnapshotError, match="masks"):
        Game.from_json(json.dumps(data), trusted=True)
    fresh = new_round(KABOO, players=2, seed=4)
    assert fresh.sealed == 0 and tamalou.round_of(Game.from_json(fresh.to_json())).sealed == 0


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(KABOO, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
