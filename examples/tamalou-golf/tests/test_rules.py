"""Golf's rules, one stacked-deal scenario per sentence of the rules (README.md), the sentence quoted.

A deal: ``hands`` per seat (slot 0 first; slots are numbered row by row), ``stock`` top first, ``discard``
bottom first; seat 0 plays first. ``new_round`` (``new_game`` without the facade) lets a test read the
table: the layouts, who knows which card. A match stacks its first holes the same way
(``new_match(..., deals=[...])``, one deal a round).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
import tamalou
from tamalou import Call, Discard, Draw, Event, Flip, IllegalAction, MatchAction, PeekAction, Replace, Round
from tamalou.engine import new_round

from tamalou_golf import VARIANTS

RULESETS = ("golf-4", "golf-6", "golf-9", "golf-6-knock")
#: The stock of a deal, top first, less the cards the hands and the discard hold.
STOCK = ["4C", "6C", "8C", "10C", "4D", "6D", "8D", "10D", "4H", "6H", "8H", "10H", "3D", "5D", "7D", "9H", "JD", "KH"]


def deal(
    variant: str | tamalou.Variant,
    hands: Sequence[str],
    stock: Sequence[str] | None = None,
    discard: Sequence[str] = ("QS",),
) -> Round:
    """A round on a stacked deal; each hand is written as its cards, row by row, separated by spaces. The
    stock is ``STOCK`` without the cards the hands and the discard hold, unless given."""
    layouts = [h.split() for h in hands]
    if stock is None:
        used = {c for hand in layouts for c in hand} | set(discard)
        stock = [c for c in STOCK if c not in used]
    spec = {"hands": layouts, "stock": list(stock), "discard": list(discard)}
    return new_round(variant, players=len(hands), deal=spec, first_player=0, seed=1)


def opened(g: Round, *slots: tuple[int, ...]) -> Round:
    """golf-6, golf-9: each player turns up ``slots[p]`` (the public opening peek); the first turn starts."""
    for p, chosen in enumerate(slots):
        g.apply(PeekAction(p, chosen))
    assert g.phase == "draw" and g.current_player == 0
    return g


def facts(events: Sequence[Event]) -> list[tuple[str, dict[str, object]]]:
    return [(e.type, e.data) for e in events]


def face_up(g: Round, seat: int = 0) -> list[list[int]]:
    """Each player's face-up slots, as ``seat`` is shown them (each slot's ``face_up`` in the view), checked
    against the round's own state (``g.is_up``)."""
    shown = [[s.slot for s in hand if s.face_up] for hand in g.view(seat).hands]
    assert shown == [[s for s in g.occupied(p) if g.is_up(p, s)] for p in range(g.players)]
    return shown


def known_by(g: Round, text: str) -> set[int]:
    """The seats that know the card ``text`` (one card of that face in the deal)."""
    card = g.text.index(text)
    return {p for p in range(g.players) if g.knows(p, card)}


def flip_turn(g: Round, slot: int) -> list[Event]:
    """golf-6, golf-9: the player to move draws from the stock, discards it and flips ``slot``."""
    p = g.current_player
    return g.apply(Draw(p, "stock")) + g.apply(Discard(p)) + g.apply(Flip(p, slot))


def pass_turn(g: Round) -> list[Event]:
    """golf-4: the player to move draws from the stock and discards it."""
    p = g.current_player
    return g.apply(Draw(p, "stock")) + g.apply(Discard(p))


def assert_refused(g: Round, action: object, why: str) -> None:
    """Refused with ``why`` in the message, the game exactly as before."""
    before = g.to_json()
    with pytest.raises(IllegalAction, match=why):
        g.apply(action)  # type: ignore[call-overload]
    assert g.to_json() == before


# A golf-6 table: player 0 has two pairs in columns (7s, then 2s), player 1 a pair in a row (5s).
#   P0:  7S 2C 9D      P1:  5S 5H QD
#        7H 2D KC           3C 8S JC
G6 = ["7S 2C 9D 7H 2D KC", "5S 5H QD 3C 8S JC"]


# ----------------------------------------------------------------------------- the deck


#: A table of 5 to 8 at golf-4 or golf-9 (README.md): a ruleset of its own extends it with golf-6's deck key.
BIG_TABLE = """
name = "{name}-big"
extends = "{name}"

[rules.deck]
copies = {{ 2 = 1, 5 = 2 }}   # two decks shuffled together from 5 players

[rules.players]
max = 8
"""


def test_one_deck_and_two_decks_for_five_players_or_more(tmp_path: Path) -> None:
    """Rule: "One 52-card deck (two decks for 5 players or more)."

    golf-6 (and golf-6-knock, which extends it) is played by 2 to 8 players: one deck up to 4, two from 5
    (``rules.deck.copies = {2 = 1, 5 = 2}``); golf-4 and golf-9 by 2 to 4, and a larger table extends them with
    the same key (``BIG_TABLE``, the file the README shows). A stacked deal of 5 players may hold two 7H."""
    hands = ["7H 2C 9D 4S 5D KC", "7H 3C 9H 4C 5H KD", "AS 3S 9S 4D 5S KS", "AC 3D 9C 4H 5C KH", "6S 6H 6D 6C JS JH"]
    for name in ("golf-4", "golf-6", "golf-9", "golf-6-knock"):
        one = 54 if name == "golf-6-knock" else 52
        assert len(new_round(name, players=4, seed=1).cards) == one
        if name in ("golf-6", "golf-6-knock"):
            variant = tamalou.load_variant(name)
        else:
            with pytest.raises(tamalou.SetupError, match="played by 2 to 4 players"):
                new_round(name, players=5, seed=1)
            big = tmp_path / f"{name}-big.toml"
            big.write_text(BIG_TABLE.format(name=name))
            variant = tamalou.load_variant(str(big))
            assert len(new_round(variant, players=4, seed=1).cards) == one
        assert len(new_round(variant, players=5, seed=1).cards) == len(new_round(variant, players=8, seed=1).cards)
        assert len(new_round(variant, players=8, seed=1).cards) == 2 * one
    g = deal("golf-6", hands, stock=["10S", "10H"])
    assert g.players == 5 and g.layout(0)[0] == g.layout(1)[0] == "7H"  # two 7H: two decks
    with pytest.raises(tamalou.SetupError, match="does not fit the variant's deck"):
        deal("golf-6", hands[:4], stock=["10S", "10H"])  # four players, one deck: one 7H


# ----------------------------------------------------------------------------- winning


def test_lowest_total_wins_and_ties_share_a_place() -> None:
    """Rule: "Lowest total wins; ... ties share a place."

    golf-4, three players: player 0 knocks at once; players 1 and 2 draw and discard in their last turns.
    Player 0 has 1 + 3 + 4 + 0 = 8; players 1 and 2 have 23 each: they share the second place."""
    g = deal("golf-4", ["AS 3H 4C KD", "2S 9H QC 6D", "5S JH 10C 2D"], stock=["9C", "9S"], discard=["3C"])
    g.apply(Call(0))
    pass_turn(g)
    pass_turn(g)
    r = g.result()
    assert r.totals == [8, 23, 23]
    assert r.ranking == [[0], [1, 2]]
    assert r.winners == [0]
    assert r.scores == [8, 23, 23]


#: golf-4, the first three holes of a match, stacked (``new_match(..., deals=...)``): seat 0's hand, then seat 1's.
HOLES = [
    (["AS 3H 4C KD", "2S 9H QC 6D"], [1 + 3 + 4 + 0, -2 + 9 + 10 + 6]),  # 8 and 23
    (["8S 3H 8C KD", "5S 5H 10C 2D"], [3 + 0, 5 + 5 + 10 - 2]),  # the 8s of a column count 0: 3; 18 (a row)
    (["JS QH 10D 9C", "KS 2H AC 2C"], [10 + 10 + 10 + 9, 0 + 1]),  # 39; the 2s of a column count 0 (not -4): 1
]


def knocked_hole(game: tamalou.Game) -> None:
    """golf-4: whoever begins knocks at once; the other draws from the stock and discards in their last turn
    (no flip in golf-4): nobody's cards change, each scores the layout they were dealt."""
    game.apply(Call(game.current_player))
    p = game.current_player
    game.apply(Draw(p, "stock"))
    game.apply(Discard(p))
    assert game.is_over


def test_a_match_is_nine_holes_and_totals_are_added() -> None:
    """Rule: "a match is 9 rounds ("holes"), totals added".

    golf-4, two players: the first three holes are stacked (``HOLES``), each knocked at once, so each player
    scores the layout they were dealt; the totals add up hole by hole (8 and 23, then 11 and 41, then 50 and
    42). The other six holes are dealt from the match's seed (tamalou deals the rounds past the last stacked
    deal as a seeded match does) and knocked the same way. The match ends after the 9th hole; each total is
    the sum of the player's 9 scores, and the lowest total wins."""
    deals = [{"hands": [h.split() for h in hands], "stock": ["9S"], "discard": ["3C"]} for hands, _ in HOLES]
    match = tamalou.new_match("golf-4", players=2, seed=7, deals=deals)
    assert match.firsts == [0]  # seed 7 draws seat 0 to begin; then one seat on each hole
    totals = [0, 0]
    for hands, scores in HOLES:
        assert [tamalou.round_of(match.game).layout(p) for p in (0, 1)] == [h.split() for h in hands]
        knocked_hole(match.game)
        match.next_round()
        assert match.scores[-1] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert match.totals() == totals
    assert match.totals() == [50, 42] and match.firsts == [0, 1, 0, 1]
    while not match.is_over:  # holes 4 to 9, from the seed
        knocked_hole(match.game)
        match.next_round()
    r = match.result()
    assert len(r.rounds) == 9 and r.rounds[:3] == [scores for _, scores in HOLES]
    assert r.totals == [sum(scores[p] for scores in r.rounds) for p in range(2)]
    assert r.ranking[0] == r.winners == [p for p in range(2) if r.totals[p] == min(r.totals)]


# ----------------------------------------------------------------------------- values


def test_card_values() -> None:
    """Rule: "Values: A = 1, 2 = −2, 3–10 face value, J = Q = 10, K = 0."

    golf-6: player 1 goes out with A 2 3 / 10 J Q (a total of 32), player 0 keeps 4 5 6 / 7 8 K (30); no
    column holds a pair."""
    expected = {"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10}
    for name in RULESETS:
        for rank, points in {**expected, "K": 0}.items():
            assert tamalou.card_value(name, f"{rank}S") == points
    g = opened(deal("golf-6", ["4S 5S 6S 7S 8S KS", "AH 2H 3H 10H JH QH"]), (0, 1), (0, 1))
    for slot in (2, 3, 4, 5):
        flip_turn(g, slot)  # player 0
        flip_turn(g, slot)  # player 1
    assert g.is_over
    assert g.result().totals == [30, 32]


# ----------------------------------------------------------------------------- layouts


@pytest.mark.parametrize(("name", "rows", "columns"), [("golf-4", 2, 2), ("golf-6", 2, 3), ("golf-9", 3, 3)])
def test_layouts_are_grids_and_start_face_down(name: str, rows: int, columns: int) -> None:
    """Rule: "Layouts are grids (slot numbers row by row): golf-4 2×2, golf-6 2 rows × 3 columns, golf-9 3×3.
    Cards start face down."

    The grid's shape is the ruleset's (``rules.deal.grid``) and in every seat's view (tamalou's ``view.grid``);
    at the deal no card is face up (tamalou's ``face_up``, each slot's in the views), and a seat sees none of
    another's cards (in golf-4 a player has peeked at their own bottom row: their own secret)."""
    cards = [f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    n = rows * columns
    g = deal(name, [" ".join(cards[:n]), " ".join(cards[n : 2 * n])], stock=cards[2 * n : 2 * n + 5], discard=["KC"])
    assert g.variant.rules.deal.grid == (rows, columns)
    assert g.face_up == 0
    for seat in (0, 1):
        view = g.view(seat)
        assert view.grid == [rows, columns]
        assert face_up(g, seat) == [[], []]
        assert not any(s.face_up for hand in view.hands for s in hand)
        assert [s.slot for s in view.hands[seat]] == list(range(n))
        assert all(s.card is None for s in view.hands[1 - seat])


# ----------------------------------------------------------------------------- the opening


def test_golf_4_opening_each_player_looks_at_their_bottom_row() -> None:
    """Rule: "Opening: golf-4: each player looks at their bottom row (private, as Tamalou's opening peek)."

    Slots 2 and 3 are the bottom row of the 2×2 layout: each player sees their own, nobody else does, and
    they stay face down."""
    g = deal("golf-4", ["AS 3H 4C KD", "2S 9H QC 6D"])
    peeks = [e for e in g.events_so_far() if e.type == "peeked"]
    assert [(e.data, e.secret, e.seen_by) for e in peeks] == [
        ({"player": 0, "slots": [2, 3]}, {"cards": ["4C", "KD"]}, 0b01),
        ({"player": 1, "slots": [2, 3]}, {"cards": ["QC", "6D"]}, 0b10),
    ]
    assert known_by(g, "4C") == known_by(g, "KD") == {0}
    assert known_by(g, "AS") == set()
    assert [s.card for s in g.view(0).hands[0]] == [None, None, "4C", "KD"]
    assert face_up(g) == face_up(g, 1) == [[], []]  # seen by their owner, and face down
    assert "turned_up" not in [e.type for e in g.events_so_far()]
    peek = g.variant.rules.peek  # tamalou's fixed peek, private
    assert (peek.mode, peek.slots, peek.public) == ("fixed", (2, 3), False)
    assert g.phase == "draw"  # nothing to choose: the first turn starts


def test_golf_6_opening_each_player_turns_two_cards_face_up() -> None:
    """Rule: "golf-6: each player turns two of their cards face up (their choice, public)."

    tamalou's chosen opening peek, made public (``rules.peek``: ``mode = "choose"``, ``count = 2``, ``public``).
    Before the first turn (phase ``peek``) every player, in any order, chooses two of their slots: the cards
    go face up, every seat sees them (one public ``turned_up`` event a card)."""
    peek = tamalou.load_variant("golf-6").rules.peek
    assert (peek.mode, peek.count, peek.public) == ("choose", 2, True)
    g = deal("golf-6", G6)
    assert g.phase == "peek" and g.to_act == [0, 1]
    assert {a.slots for a in g.legal_actions(1)} == {(a, b) for a in range(6) for b in range(a + 1, 6)}
    assert_refused(g, Draw(0, "stock"), "not possible in phase 'peek'")  # no turn before the opening
    events = g.apply(PeekAction(1, (0, 4)))  # player 1 first: any order
    assert facts(events) == [
        ("turned_up", {"player": 1, "slot": 0, "card": "5S"}),
        ("turned_up", {"player": 1, "slot": 4, "card": "8S"}),
    ]
    assert all(e.for_player(0).to_dict() == e.to_dict() for e in events)  # public: nothing hidden from seat 0
    assert known_by(g, "5S") == known_by(g, "8S") == {0, 1}
    assert g.is_up(1, 0) and g.is_up(1, 4) and not g.is_up(1, 1)
    assert g.to_act == [0] and g.legal_actions(1) == []
    assert_refused(g, PeekAction(1, (2, 3)), "player 1 has already peeked")
    events = g.apply(PeekAction(0, (2, 3)))
    assert facts(events) == [
        ("turned_up", {"player": 0, "slot": 2, "card": "9D"}),
        ("turned_up", {"player": 0, "slot": 3, "card": "7H"}),
        ("turn", {"player": 0, "turn": 0}),
    ]
    assert g.phase == "draw"
    assert face_up(g, 1) == face_up(g, 0) == [[2, 3], [0, 4]]
    assert [s.card for s in g.view(1).hands[0]] == [None, None, "9D", "7H", None, None]


def test_golf_9_opening_turns_three_cards_face_up() -> None:
    """Rule: "golf-9: three." (each player turns three of their cards face up, their choice, public)"""
    peek = tamalou.load_variant("golf-9").rules.peek
    assert (peek.mode, peek.count, peek.public) == ("choose", 3, True)
    g = deal("golf-9", ["4S 9C QH 4H 9D AC 4D 3S KS", "AS 2S 3C 5S 6S 7S 8S 10S JS"])
    assert g.phase == "peek" and len(g.legal_actions(0)) == 84  # 9 choose 3
    assert_refused(g, PeekAction(0, (0, 1)), "choose 3 different slots of your own")
    assert [e.data["slot"] for e in g.apply(PeekAction(0, (0, 4, 8)))] == [0, 4, 8]
    g.apply(PeekAction(1, (6, 7, 8)))
    assert face_up(g, 1) == [[0, 4, 8], [6, 7, 8]]
    assert known_by(g, "KS") == {0, 1}
    assert g.phase == "draw" and g.current_player == 0


# ----------------------------------------------------------------------------- a turn


def test_a_turn_draws_from_the_stock_or_takes_the_discards_top() -> None:
    """Rule: "A turn: draw from the stock or take the discard's top."

    In golf-6 nothing else is offered: no knock, nothing out of turn."""
    g = opened(deal("golf-6", G6), (0, 1), (0, 1))
    assert g.legal_actions(0) == [Draw(0, "stock"), Draw(0, "discard")]
    assert g.legal_actions(1) == []  # nothing out of turn


def test_a_card_taken_from_the_discard_is_placed_face_up() -> None:
    """Rule: "Take the discard: you must place it in your layout, face up; the card it replaces goes to the
    discard face up."

    golf-6: player 0 takes the KH from the discard; only its placing is offered (tamalou's
    ``rules.draw.discard_must_replace``), and the card placed lies face up (``rules.draw.placed = "face_up"``)."""
    for name in RULESETS:
        draw = tamalou.load_variant(name).rules.draw
        assert (draw.discard_must_replace, draw.placed) == (True, "face_up")
    g = opened(deal("golf-6", G6, discard=["KH"]), (0, 1), (0, 1))
    g.apply(Draw(0, "discard"))
    assert g.legal_actions(0) == [Replace(0, s) for s in range(6)]  # no discard: it must be placed
    assert_refused(g, Discard(0), "must replace one of yours")
    events = g.apply(Replace(0, 4))  # the face-down 2D goes
    assert facts(events)[:2] == [
        ("replaced", {"player": 0, "slot": 4, "card": "2D"}),
        ("turned_up", {"player": 0, "slot": 4, "card": "KH"}),
    ]
    assert g.layout(0)[4] == "KH" and g.view(1).discard_top == "2D"
    assert known_by(g, "KH") == known_by(g, "2D") == {0, 1}
    assert g.is_up(0, 4) and g.view(1).hands[0][4].face_up
    assert face_up(g, 1)[0] == [0, 1, 4]


def test_a_card_drawn_from_the_stock_is_placed_face_up() -> None:
    """Rule: "Draw from the stock: place it as above" (face up; the card it replaces goes to the discard face up)."""
    g = opened(deal("golf-6", G6), (0, 1), (0, 1))
    drew = g.apply(Draw(0, "stock"))
    assert drew[0].for_player(1).to_dict()["card"] is None  # the others do not see what was drawn
    assert known_by(g, "4C") == {0}
    events = g.apply(Replace(0, 5))
    assert facts(events)[:2] == [
        ("replaced", {"player": 0, "slot": 5, "card": "KC"}),
        ("turned_up", {"player": 0, "slot": 5, "card": "4C"}),
    ]
    assert known_by(g, "4C") == known_by(g, "KC") == {0, 1}
    assert face_up(g, 1)[0] == [0, 1, 5]


def test_golf_6_a_stock_card_discarded_flips_a_face_down_card() -> None:
    """Rule: "or (golf-6, golf-9) discard it and turn one of your face-down cards face up ("flip")."

    After the discard, the player must flip (tamalou's ``rules.draw.discard_turns_up``, the phase ``flip``):
    only their face-down slots are offered, nothing else; a face-up slot is refused, the game unchanged."""
    assert tamalou.load_variant("golf-6").rules.draw.discard_turns_up
    g = opened(deal("golf-6", G6), (0, 1), (0, 1))
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))
    assert facts(events) == [("discarded", {"player": 0, "card": "4C"})]
    assert g.phase == "flip" and g.current_player == 0
    assert g.legal_actions(0) == [Flip(0, s) for s in (2, 3, 4, 5)] and g.legal_actions(1) == []
    assert_refused(g, Flip(0, 1), "slot 1 is face up already: flip one of your face-down cards")
    assert_refused(g, Flip(1, 2), "it is player 0's turn")
    assert_refused(g, Draw(0, "stock"), "not possible in phase 'flip'")
    events = g.apply(Flip(0, 3))
    assert facts(events) == [
        ("turned_up", {"player": 0, "slot": 3, "card": "7H"}),
        ("turn", {"player": 1, "turn": 1}),
    ]
    assert known_by(g, "7H") == {0, 1}
    assert g.is_up(0, 3) and face_up(g, 1)[0] == [0, 1, 3]


def test_golf_9_a_stock_card_discarded_flips_too() -> None:
    """Rule: "or (golf-6, golf-9) discard it and turn one of your face-down cards face up ("flip")."

    golf-9: the same, with the six face-down cards of a 3×3 layout offered."""
    assert tamalou.load_variant("golf-9").rules.draw.discard_turns_up
    g = opened(deal("golf-9", ["4S 9C QH 4H 9D AC 4D 3S KS", "AS 2S 3C 5S 6S 7S 8S 10S JS"]), (0, 1, 2), (0, 1, 2))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.legal_actions(0) == [Flip(0, s) for s in range(3, 9)]
    assert facts(g.apply(Flip(0, 8)))[0] == ("turned_up", {"player": 0, "slot": 8, "card": "KS"})
    assert face_up(g, 1)[0] == [0, 1, 2, 8]


def test_golf_4_a_stock_card_not_kept_is_simply_discarded() -> None:
    """Rule: "In golf-4 a stock card not kept is simply discarded." (no flip: the turn passes)"""
    assert not tamalou.load_variant("golf-4").rules.draw.discard_turns_up
    g = deal("golf-4", ["AS 3H 4C KD", "2S 9H QC 6D"])
    events = pass_turn(g)
    assert [e.type for e in events] == ["drew", "discarded", "turn"]
    assert g.phase == "draw" and g.current_player == 1
    assert face_up(g) == [[], []]


# ----------------------------------------------------------------------------- face up


def test_a_face_up_card_is_public_and_stays_face_up() -> None:
    """Rule: "A face-up card is public: every seat knows it. A card placed face up stays face up."

    Player 0 places a stock card in slot 5; turns later, after other cards moved, it is still face up in
    every seat's view, and replacing it again puts the new card face up in its place."""
    g = opened(deal("golf-6", G6), (0, 1), (0, 1))
    g.apply(Draw(0, "stock"))
    g.apply(Replace(0, 5))  # 4C, face up
    flip_turn(g, 2)  # player 1
    flip_turn(g, 3)  # player 0
    g.apply(Draw(1, "discard"))
    g.apply(Replace(1, 4))  # player 1 takes 8C
    for seat in (0, 1):
        assert g.view(seat).hands[0][5] == tamalou.SlotView(slot=5, card="4C", face_up=True)
        assert face_up(g, seat)[0] == [0, 1, 3, 5]
    assert known_by(g, "4C") == {0, 1}
    g.apply(Draw(0, "discard"))  # 8S, the card player 1 replaced
    g.apply(Replace(0, 5))
    assert g.view(1).hands[0][5] == tamalou.SlotView(slot=5, card="8S", face_up=True)
    assert face_up(g, 1)[0] == [0, 1, 3, 5]
    assert g.view(1).discard_top == "4C"


# ----------------------------------------------------------------------------- the end of a round


def test_golf_6_a_player_whose_cards_are_all_face_up_goes_out() -> None:
    """Rule: "End of a round: golf-6, golf-9: when all of a player's cards are face up, every other player has
    one last turn, then all cards are turned up and scored."

    Player 0 flips their last face-down card: they go out; player 1 plays one last turn, then the round is
    over (reason ``out``), every card face up. Player 0: 0 + 0 + 9 (two pairs cancel), player 1: 41."""
    g = opened(deal("golf-6", G6), (0, 1), (0, 1))
    for slot in (2, 3, 4):
        flip_turn(g, slot)
        flip_turn(g, slot)
    events = flip_turn(g, 5)  # player 0's last face-down card
    assert [e.type for e in events] == ["drew", "discarded", "turned_up", "last_lap", "turn"]
    assert g.last_lap == 0 and g.caller is None and g.current_player == 1  # going out is no call
    events = g.apply(Draw(1, "stock")) + g.apply(Replace(1, 5))  # player 1's last turn
    assert g.is_over and (g.result().reason, g.result().last_lap, g.result().caller) == ("out", 0, None)
    assert [e.type for e in events][-3:] == ["column_cancelled", "column_cancelled", "round_over"]
    assert all(known_by(g, text) == {0, 1} for hand in g.hands for text in (g.text[c] for c in hand if c >= 0))
    assert g.result().scores == [9, 5 + 5 + 10 + 3 + 8 + 10]  # player 1 put the 10D in place of the JC


def test_golf_9_going_out() -> None:
    """Rule: "golf-6, golf-9: when all of a player's cards are face up, every other player has one last turn"."""
    g = deal("golf-9", ["4S 9C QH 4H 9D AC 4D 3S KS", "AS 2S 3C 5S 6S 7S 8S 10S JS"])
    opened(g, (0, 1, 2), (0, 1, 2))
    for slot in range(3, 8):
        flip_turn(g, slot)
        flip_turn(g, slot)
    assert [e.type for e in flip_turn(g, 8)][-2:] == ["last_lap", "turn"]
    flip_turn(g, 8)  # player 1's last turn
    assert g.is_over and (g.result().reason, g.result().last_lap, g.result().caller) == ("out", 0, None)


def test_golf_4_a_player_may_knock_instead_of_drawing() -> None:
    """Rule: "golf-4: instead of drawing, a player may knock; every other player has one last turn."

    The knock is tamalou's ``call``, offered at the start of every turn. Player 1 knocks; player 0 plays
    one last turn; the round is over when the turn comes back to player 1."""
    g = deal("golf-4", ["AS 3H 4C KD", "2S 9H QC 6D"])
    assert g.legal_actions(0) == [Draw(0, "stock"), Draw(0, "discard"), Call(0)]
    pass_turn(g)
    assert facts(g.apply(Call(1))) == [("called", {"player": 1}), ("turn", {"player": 0, "turn": 2})]
    assert Call(0) not in g.legal_actions(0)  # one knock per round
    g.apply(Draw(0, "discard"))
    g.apply(Replace(0, 0))
    assert g.is_over and g.result().reason == "called" and g.result().caller == 1
    assert g.view(0).hands[1][0].card == "2S"  # every card turned up


# ----------------------------------------------------------------------------- columns


def test_golf_6_two_cards_of_a_rank_in_a_column_score_zero() -> None:
    """Rule: "Columns: in golf-4 and golf-6, two cards of the same rank in one column score 0 together (two 2s
    included: they cancel, they do not score −4)."

    Player 0's columns: 7S/7H cancel, 2C/2D cancel (0, not -4), 9D/KC count 9. Player 1's pair of 5s is in a
    row: it counts."""
    g = opened(deal("golf-6", G6), (0, 1), (0, 1))
    for slot in (2, 3, 4, 5):
        flip_turn(g, slot)
        flip_turn(g, slot)
    cancelled = [e.data for e in g.events_so_far() if e.type == "column_cancelled"]
    assert cancelled == [
        {"player": 0, "slots": [0, 3], "cards": ["7S", "7H"]},
        {"player": 0, "slots": [1, 4], "cards": ["2C", "2D"]},
    ]
    r = g.result()
    assert r.scores == [9, 5 + 5 + 10 + 3 + 8 + 10]  # Golf's scores (tamalou_round_scores, by position)
    assert r.totals == [7 - 2 + 9 + 7 - 2 + 0, 5 + 5 + 10 + 3 + 8 + 10]  # the cards' sums (a 2 is -2)
    assert r.ranking == [[0], [1]]  # ranked by Golf's scores (tamalou_rank)
    assert g.layout(0) == ["7S", "2C", "9D", "7H", "2D", "KC"]  # the cards stay where they lie


def test_golf_4_a_column_pair_scores_zero() -> None:
    """Rule: "in golf-4 and golf-6, two cards of the same rank in one column score 0 together"

    golf-4: slots 0 and 2 are a column (the 8s cancel); slots 0 and 1 are a row (the 9s of player 1 count)."""
    g = deal("golf-4", ["8S 3H 8C KD", "9S 9H QC 6D"])
    g.apply(Call(0))
    pass_turn(g)
    assert g.result().scores == [3, 9 + 9 + 10 + 6]


def test_golf_9_three_of_a_rank_in_a_column_score_zero() -> None:
    """Rule: "In golf-9, three of the same rank in a column score 0."

    Player 0's first column holds three 4s: 0. Their second holds two 9s and a 3: it counts 21 (two are
    not enough in golf-9). Third column: Q A K, 11."""
    g = deal("golf-9", ["4S 9C QH 4H 9D AC 4D 3S KS", "AS 2S 3C 5S 6S 7S 8S 10S JS"])
    opened(g, (0, 1, 2), (0, 1, 2))
    for slot in range(3, 9):
        flip_turn(g, slot)
        flip_turn(g, slot)
    assert [e.data for e in g.events_so_far() if e.type == "column_cancelled"] == [
        {"player": 0, "slots": [0, 3, 6], "cards": ["4S", "4H", "4D"]}
    ]
    assert g.result().scores[0] == 21 + 11


# ----------------------------------------------------------------------------- golf-6-knock


def test_golf_6_knock_knocking_from_the_second_turn_on() -> None:
    """Rule: "golf-6-knock (a house rule on golf-6, its own TOML that extends golf-6): knocking as in golf-4 is
    allowed from the second turn on".

    Nobody may knock in their first turn; from their second turn on, a player may knock instead of
    drawing. golf-6 itself never offers the knock."""
    with (VARIANTS / "golf-6-knock.toml").open("rb") as f:
        assert tomllib.load(f)["extends"] == "golf-6"
    call = tamalou.load_variant("golf-6-knock").rules.call  # keys, no code: the knock from one's second turn
    assert (call.enabled, call.from_turn, call.when) == (True, 2, "start_of_turn")
    assert not tamalou.load_variant("golf-6").rules.call.enabled
    g = opened(deal("golf-6-knock", G6), (0, 1), (0, 1))
    assert Call(0) not in g.legal_actions(0)
    assert_refused(g, Call(0), "a call is allowed from your turn 2 on")
    flip_turn(g, 2)
    assert Call(1) not in g.legal_actions(1)
    flip_turn(g, 2)
    assert Call(0) in g.legal_actions(0)  # player 0's second turn
    g.apply(Call(0))
    flip_turn(g, 3)  # player 1's last turn
    assert g.is_over and g.result().reason == "called" and g.result().caller == 0
    plain = opened(deal("golf-6", G6), (0, 1), (0, 1))
    for slot in (2, 3):
        flip_turn(plain, slot)
        assert all(not isinstance(a, Call) for a in plain.legal_actions(plain.current_player))


def test_golf_6_knock_two_jokers_worth_minus_two() -> None:
    """Rule: "two jokers join the deck, worth −2 each (a column of two jokers scores 0)."

    Player 0 holds both jokers in a column: they score 0. In a second round a single joker counts -2."""
    assert len(new_round("golf-6-knock", players=2, seed=1).cards) == 54
    assert tamalou.card_value("golf-6-knock", "JK1") == tamalou.card_value("golf-6-knock", "JK2") == -2
    g = opened(deal("golf-6-knock", ["JK1 5C 3D JK2 6H 7S", "5S 5H QD 3C 8S JC"]), (0, 1), (0, 1))
    flip_turn(g, 2)
    flip_turn(g, 2)
    g.apply(Call(0))
    flip_turn(g, 3)
    assert [e.data for e in g.events_so_far() if e.type == "column_cancelled"] == [
        {"player": 0, "slots": [0, 3], "cards": ["JK1", "JK2"]}
    ]
    assert g.result().scores[0] == 5 + 3 + 6 + 7
    g = opened(deal("golf-6-knock", ["JK1 5C 3D 4D 6H 7S", "5S 5H QD 3C 8S JC"]), (0, 1), (0, 1))
    flip_turn(g, 2)
    flip_turn(g, 2)
    g.apply(Call(0))
    flip_turn(g, 3)
    assert g.result().scores[0] == -2 + 5 + 3 + 4 + 6 + 7


# ----------------------------------------------------------------------------- no powers, no matching


def test_no_powers_no_matching() -> None:
    """Rule: "No powers, no matching."

    No card has a power; a card thrown on the discard is never offered to be matched, not even to a player
    holding a face-up card of its rank."""
    for name in RULESETS:
        g = new_round(name, players=2, seed=1)
        assert {tamalou.card_power(name, text) for text in set(g.text)} == {"none"}
    g = opened(deal("golf-6", G6, stock=["5C", "4C", "6C"]), (0, 1), (0, 1))  # player 1 shows 5S and 5H
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))  # a 5 on the discard; player 1's 5S is face up
    assert not any(isinstance(a, MatchAction) for p in (0, 1) for a in g.legal_actions(p))
    assert g.phase == "flip"  # the flip, not a power
