"""Cards face up in a layout: the table's primitive ``turn_up`` (a card turned face up where it lies, for
everyone: known to every seat, marked in ``g.face_up``, shown as ``face_up`` in every view, kept in snapshots,
undo and a search's rebuilt games), and the two keys that use it: ``rules.peek.public`` (the opening turns the
cards face up for everyone) and ``rules.draw.placed = "face_up"`` (a drawn card put into one's layout lies face
up).

French deals (4 cards a seat, slot 0 first, seat 0 first; the stock's first card is drawn first)."""

from __future__ import annotations

import json
import random

import pytest

import scenario
import tamalou
from tamalou import Discard, Draw, Flip, PeekAction, Replace, Round, SnapshotError
from tamalou.bots.ismcts import Determinizer
from tamalou.engine import new_round
from tamalou.verify import InvariantViolation, check_knowledge, verify

HANDS = [["5S", "6S", "7S", "8S"], ["5H", "6H", "7H", "8H"]]
STOCK = ["2C", "3C", "4C", "9C"]
FACE_UP = tamalou.variant_from_toml(
    'name = "face-up"\nextends = "french"\n[rules.draw]\nplaced = "face_up"\n'
    '[rules.peek]\nmode = "choose"\ncount = 2\npublic = true\n'
)
FIXED_PUBLIC = tamalou.variant_from_toml('name = "fixed-public"\nextends = "french"\n[rules.peek]\npublic = true\n')


def test_turn_up_shows_the_card_to_everyone_where_it_lies() -> None:
    g = scenario.dealt(HANDS, STOCK, variant="french")
    events: list[tamalou.Event] = []
    assert g.turn_up(1, 2, events) == g.card_at(1, 2)
    (e,) = events
    assert e.to_dict() == {"type": "turned_up", "player": 1, "slot": 2, "card": "7H"}  # public: every seat gets it
    assert e.for_player(0).to_dict() == e.to_dict()
    assert e.describe() == "player 1 turns up slot 2: 7H"
    assert g.is_up(1, 2) and not g.is_up(1, 0) and g.knows(0, g.card_at(1, 2))
    for seat in (0, 1):
        shown = {s.slot: (s.card, s.face_up) for s in g.view(seat).hands[1]}
        assert shown[2] == ("7H", True)
        assert shown[0][1] is False  # seat 1 knows its peeked 5H, but it lies face down
        assert {s.slot: s.face_up for s in g.seat_view(seat).hands[1]}[2] is True
    assert g.view(0).model_dump(mode="json")["hands"][1][2] == {"slot": 2, "card": "7H", "face_up": True}
    by: list[tamalou.Event] = []
    g.turn_up(1, 3, by, by=0)
    assert by[0].describe() == "player 0 turns up player 1's slot 3: 8H"


def test_a_card_keeps_the_mark_as_it_moves_between_layouts_and_loses_it_on_the_discard() -> None:
    g = scenario.dealt(HANDS, STOCK, variant="french")
    g.turn_up(0, 1, [])
    six = g.card_at(0, 1)
    g.swap(0, (0, 1), (1, 3), [])  # the 6S goes to seat 1's slot 3, face up still
    assert g.card_at(1, 3) == six and g.is_up(1, 3) and not g.is_up(0, 1)
    g.throw_from(1, 3)
    assert g.face_up == 0 and g.discard[-1] == six


def test_snapshots_and_undo_keep_the_face_up_cards() -> None:
    g = scenario.dealt(HANDS, STOCK, variant="french")
    assert "face_up" not in json.loads(g.to_json())  # saved only when a card is face up: older snapshots stay valid
    g.turn_up(0, 3, [])
    saved = json.loads(g.to_json())
    assert saved["face_up"] == 1 << g.card_at(0, 3)
    again = Round.from_json(g.to_json(), g.variant, trusted=True)  # (turned up by hand: not a replayable game)
    assert again.is_up(0, 3) and again.view(1) == g.view(1)
    g.push(Draw(0, "stock"))
    g.apply(Replace(0, 3))  # the 8S, face up, goes to the discard
    assert g.face_up == 0
    assert g.pop() == Draw(0, "stock")  # the draw and the replace after it taken back
    assert g.is_up(0, 3)
    stock_card = g.stock[-1]
    with pytest.raises(SnapshotError, match="face_up marks a card that lies in no layout"):
        Round.from_json(json.dumps({**saved, "face_up": 1 << stock_card}), g.variant)
    unknown = json.loads(scenario.dealt(HANDS, STOCK, variant="french").to_json())
    with pytest.raises(SnapshotError, match="face up that a seat does not know"):
        Round.from_json(json.dumps({**unknown, "face_up": 1 << g.card_at(1, 3)}), g.variant)


def test_verify_s_knowledge_check_refuses_a_face_up_card_a_seat_does_not_know() -> None:
    g = scenario.dealt(HANDS, STOCK, variant="french")
    g.face_up = 1 << g.card_at(1, 3)  # marked face up without turn_up: seat 0 does not know it
    with pytest.raises(InvariantViolation, match="lies face up in a layout but is unknown to players"):
        check_knowledge(g)


def test_a_public_opening_turns_the_chosen_cards_face_up() -> None:
    """``rules.peek.public``: seat 0 chooses slots 0 and 2: both are turned face up for everyone, an event each."""
    g = scenario.deal(HANDS, STOCK, variant=FACE_UP)
    events = g.apply(PeekAction(0, (0, 2)))
    assert [e.to_dict() for e in events] == [
        {"type": "turned_up", "player": 0, "slot": 0, "card": "5S"},
        {"type": "turned_up", "player": 0, "slot": 2, "card": "7S"},
    ]
    assert scenario.seen(g, 1, 0) == {0: "5S", 1: None, 2: "7S", 3: None}
    assert [s.face_up for s in g.view(1).hands[0]] == [True, False, True, False]


def test_a_fixed_public_opening_turns_the_cards_up_at_the_deal() -> None:
    """French deals with slots 0 and 1 peeked: public, they are face up for everyone from the deal on."""
    g = new_round(FIXED_PUBLIC, players=2, deal={"hands": HANDS, "stock": STOCK}, first_player=0)
    events = g.events_so_far()
    assert scenario.kinds(events).count("turned_up") == 4 and "peeked" not in scenario.kinds(events)
    assert scenario.seen(g, 0, 1) == {0: "5H", 1: "6H", 2: None, 3: None}


def test_a_placed_card_lies_face_up_with_rules_draw_placed() -> None:
    """Seat 0 draws the 2C and puts it in slot 1: the 6S goes to the discard and the 2C lies face up, for seat 1
    too (by default it would be known to seat 0 alone)."""
    g = scenario.dealt(HANDS, STOCK, variant=FACE_UP)
    g.apply(Draw(0, "stock"))
    events = g.apply(Replace(0, 1))
    assert [e.to_dict() for e in events[:2]] == [
        {"type": "replaced", "player": 0, "slot": 1, "card": "6S"},
        {"type": "turned_up", "player": 0, "slot": 1, "card": "2C"},
    ]
    assert g.is_up(0, 1) and scenario.seen(g, 1, 0)[1] == "2C"
    plain = scenario.dealt(HANDS, STOCK, variant="french")
    plain.apply(Draw(0, "stock"))
    plain.apply(Replace(0, 1))
    assert not plain.is_up(0, 1) and scenario.seen(plain, 1, 0)[1] is None


def test_a_search_rebuilds_the_face_up_cards_as_known_to_every_seat() -> None:
    g = new_round(FACE_UP, players=3, seed=4)
    for p in range(3):
        g.apply(PeekAction(p, (0, 1)))
    me = (g.current_player + 1) % 3
    view = g.seat_view(me)
    rebuilt = Determinizer(view, g.legal_actions(me), g.variant, random.Random(1)).sample(random.Random(2))
    for p in range(3):
        for s in (0, 1):
            c = rebuilt.card_at(p, s)
            assert rebuilt.is_up(p, s) and rebuilt.knowers[c] == rebuilt.all_mask
            assert rebuilt.text[c] == g.text[g.card_at(p, s)]
        assert not rebuilt.is_up(p, 2)


def test_rulesets_with_face_up_cards_keep_every_invariant() -> None:
    """``tamalou verify``'s invariants (views, events, snapshots, replays, exchanges of unknown cards...) on random
    games of both keys."""
    for variant in (FACE_UP, FIXED_PUBLIC):
        report = verify(variant, games=6, workers=1)
        assert report.ok, report.failures[0].message if report.failures else report


# ----------------------------------------------------------------------------------- the flip

FLIP = tamalou.variant_from_toml(
    'name = "flip"\nextends = "french"\n[rules.draw]\ndiscard_turns_up = true\ndiscard_must_replace = false\n'
    "[rules.powers]\nranks = {}\n"
)


def test_a_stock_card_thrown_away_turns_a_face_down_card_up() -> None:
    """Seat 0 draws the 2C from the stock and throws it: the turn goes on in the phase ``flip``, where it may turn
    up any of its face-down cards (its slot 3 is face up already: not offered). It turns up slot 1, the 6S; the
    turn then ends as after any throw."""
    g = scenario.dealt(HANDS, STOCK, variant=FLIP)
    g.turn_up(0, 3, [])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase == "flip" and g.current_player == 0
    assert g.legal_actions(0) == [Flip(0, 0), Flip(0, 1), Flip(0, 2)] and g.legal_actions(1) == []
    scenario.assert_illegal(g, Flip(0, 3))  # face up already
    scenario.assert_illegal(g, Flip(1, 0))  # not seat 1's turn
    events = g.apply(Flip(0, 1))
    assert events[0].to_dict() == {"type": "turned_up", "player": 0, "slot": 1, "card": "6S"}
    assert g.is_up(0, 1) and scenario.seen(g, 1, 0)[1] == "6S"
    assert g.phase == "call" and g.current_player == 0  # French's end of a turn: the call, or not
    assert Flip(0, 1).to_dict() == {"type": "flip", "player": 0, "slot": 1}
    assert tamalou.parse_action({"type": "flip", "player": 0, "slot": 1}) == Flip(0, 1)


def test_no_flip_for_a_card_from_the_discard_or_without_a_face_down_card() -> None:
    """A card taken from the discard and thrown back turns nothing up; nor does a stock card thrown by a player
    whose cards are all face up."""
    g = scenario.dealt(HANDS, STOCK, ["KC"], variant=FLIP)
    g.apply(Draw(0, "discard"))
    g.apply(Discard(0))
    assert g.phase != "flip"
    g = scenario.dealt(HANDS, STOCK, variant=FLIP)
    for s in range(4):
        g.turn_up(0, s, [])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    assert g.phase != "flip"


def test_the_flip_keys_play_with_every_bot_and_keep_every_invariant() -> None:
    """The three keys together (a public opening of 2 chosen cards, cards placed face up, the flip), played out by
    the built-in bots (the flip is a phase they ask the mechanics' hints about, then play any), then checked by
    ``tamalou verify``."""
    from tamalou.bots import CautiousBot, GreedyBot, RandomBot, play_game

    variant = tamalou.variant_from_toml(
        'name = "all-up"\nextends = "french"\n[rules.draw]\ndiscard_turns_up = true\nplaced = "face_up"\n'
        '[rules.peek]\nmode = "choose"\ncount = 2\npublic = true\n'
    )
    for seed in range(3):
        game = tamalou.new_game(variant, players=3, seed=seed)
        result = play_game(game, [GreedyBot(seed), CautiousBot(seed), RandomBot(seed)])
        assert result.winners
        flips = [a for a in game.actions if isinstance(a, Flip)]
        assert flips, "no flip in a whole round"
    report = verify(variant, games=6, workers=1)
    assert report.ok, report.failures[0].message if report.failures else report
