"""Scenario tests of the five card powers of the Cambia, Kaboo and Dutch rulesets (docs/rules/):
``look_both_and_swap`` (cambia K), ``swap_any_blind`` (kaboo and dutch J), ``swap_then_look`` (kaboo Q),
``look_any_two_and_swap`` (kaboo K) and ``give_stock_card`` (dutch A).

They are played on a small test ruleset: French with its powers remapped (7 ``swap_any_blind``,
8 ``swap_then_look``, 9 ``look_both_and_swap``, 10 ``look_any_two_and_swap``, J ``give_stock_card``;
no other card has a power). French deals 4 cards and each player knows their slots 0 and 1 from the
start. Hands are slot 0 first, the stock top first, the discard bottom first; seat 0 plays first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

import pytest

import scenario
import tamalou
from scenario import assert_illegal, draw_and_throw, kinds, of_kind, seen, turn_options
from tamalou import Discard, Draw, Event, IllegalAction, Pass, Power, Round, Swap
from tamalou.engine.rulebook import rulebook

POWERS = {
    "7": "swap_any_blind",
    "8": "swap_then_look",
    "9": "look_both_and_swap",
    "10": "look_any_two_and_swap",
    "J": "give_stock_card",
}


@cache
def family() -> tamalou.Variant:
    """The test ruleset, made at the first test that deals it, not when the file is collected: mutation testing
    (docs/mutation.md) forks each mutant from a process that has collected the tests, and a ruleset loaded there
    is built before any mutant is switched on, which hides the mutants of the code that builds it."""
    d = tamalou.load_variant("french").model_dump()
    d["name"] = "family-powers-test"
    d["aliases"] = []
    d["rules"]["powers"]["ranks"] = dict(POWERS)
    d["rules"]["powers"]["cards"] = {}
    return tamalou.variant_from_dict(d)


def deal(hands: Sequence[Sequence[str]], stock: Sequence[str], discard: Sequence[str] = ()) -> Round:
    """A stacked deal of the test ruleset (``scenario.deal``)."""
    return scenario.deal(hands, stock, discard, variant=family())


# Three seats of quiet cards (no power here); each knows slots 0 and 1 of their own.
HANDS = [["2C", "3C", "4C", "5C"], ["2D", "3D", "4D", "5D"], ["2H", "3H", "4H", "5H"]]


def thrown(card: str, hands: list[list[str]] = HANDS, discard: tuple[str, ...] = ("6S",)) -> Round:
    """Seat 0 has drawn ``card`` from the stock and thrown it: its power is on offer."""
    g = deal(hands, stock=[card, "6C", "6D", "6H"], discard=list(discard))
    draw_and_throw(g)
    assert g.phase == "power" and g.view(0).power == POWERS[card[:-1]]
    return g


def knowers(g: Round, owner: int, slot: int) -> set[int]:
    """The seats that know the card in ``owner``'s ``slot``."""
    c = g.card_at(owner, slot)
    return {p for p in range(g.players) if g.knows(p, c)}


def as_seen(events: list[Event], p: int) -> list[dict[str, object]]:
    return [e.for_player(p).to_dict() for e in events]


def powers_of(g: Round, p: int) -> set[Power]:
    return {a for a in turn_options(g, p) if isinstance(a, Power)}


def all_pairs(g: Round, layouts: list[int]) -> Iterator[Power]:
    for i, o1 in enumerate(layouts):
        for o2 in layouts[i + 1 :]:
            for s1 in g.occupied(o1):
                for s2 in g.occupied(o2):
                    yield Power(0, slot=s1, target=o2, target_slot=s2, owner=o1)


# --------------------------------------------------------------------------------- every power


@pytest.mark.parametrize("card", ["7S", "8S", "9S", "10S", "JS"])
def test_every_listed_use_is_accepted_and_nothing_else(card: str) -> None:
    """Each power lists its complete uses (targets included); each one is accepted as listed, and the
    second step of a two-step power too."""
    g = thrown(card)
    uses = powers_of(g, 0)
    assert uses and Pass(0) in turn_options(g, 0)
    for a in uses:
        trial = g.copy()
        trial.apply(a)
        if trial.phase == "swap":
            for b in turn_options(trial, 0):
                trial.copy().apply(b)
    # Nothing the listing leaves out is accepted: every Power with fields in range is tried.
    listed = {a for a in uses}
    for slot in (None, 0, 3, 4):
        for target in (None, 0, 1, 2, 3):
            for target_slot in (None, 0, 3):
                for owner in (None, 0, 1, 2):
                    a = Power(0, slot=slot, target=target, target_slot=target_slot, owner=owner)
                    if a not in listed:
                        assert_illegal(g, a)


# --------------------------------------------------------------------------------- swap_any_blind


def test_swap_any_blind_swaps_two_cards_of_two_other_players() -> None:
    """Kaboo (and the Dutch J): "J swap any two cards on the table, blind (any two players' cards, yours
    included or not, but not two of the same layout)" — every pair of cards of two different layouts is
    listed once (``owner`` < ``target``); everyone sees which places were swapped, nobody sees a card,
    each card keeps who knew it."""
    g = thrown("7S")
    assert powers_of(g, 0) == set(all_pairs(g, [0, 1, 2]))
    assert len(powers_of(g, 0)) == 3 * 16
    events = g.apply(Power(0, slot=0, target=2, target_slot=3, owner=1))
    assert g.layout(1) == ["5H", "3D", "4D", "5D"] and g.layout(2) == ["2H", "3H", "4H", "2D"]
    swapped = {"type": "swapped", "player": 0, "slot": 0, "target": 2, "target_slot": 3, "owner": 1}
    assert kinds(events)[0] == "swapped"
    for p in range(3):
        assert as_seen(events, p)[0] == swapped
    # p1 knew its 2D and sees where it went; nobody knows the 5H now in p1's slot 0.
    assert knowers(g, 2, 3) == {1} and seen(g, 1, 2)[3] == "2D"
    assert knowers(g, 1, 0) == set()
    assert seen(g, 1, 1) == {0: None, 1: "3D", 2: None, 3: None}
    assert seen(g, 0, 1) == dict.fromkeys(range(4)) and seen(g, 0, 2) == dict.fromkeys(range(4))
    assert g.phase == "call"  # the power is done: French's end-of-turn call


def test_swap_any_blind_with_own_card() -> None:
    """Kaboo: "yours included or not" — one of the two may be the player's own card; ``owner``
    is given even then."""
    g = thrown("7S")
    events = g.apply(Power(0, slot=0, target=1, target_slot=0, owner=0))
    assert g.layout(0)[0] == "2D" and g.layout(1)[0] == "2C"
    assert of_kind(events, "swapped")[0].to_dict() == {
        "type": "swapped",
        "player": 0,
        "slot": 0,
        "target": 1,
        "target_slot": 0,
    }
    assert knowers(g, 0, 0) == {1} and knowers(g, 1, 0) == {0}


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (Power(0, slot=0, target=1, target_slot=0, owner=2), "lower seat"),
        (Power(0, slot=0, target=1, target_slot=1, owner=1), "lower seat"),
        (Power(0, slot=0, target=1, target_slot=0), "picks two cards"),
        (Power(0, slot=0, target=1, target_slot=7, owner=0), "holds no card"),
        (Power(0, slot=0, target=3, target_slot=0, owner=0), "lower seat"),
    ],
)
def test_swap_any_blind_refusals_leave_the_game_untouched(action: Power, why: str) -> None:
    """Two cards of one layout, the pair named the other way round, a missing 'owner', an empty slot, a
    seat that does not exist: refused with a reason, the game unchanged."""
    g = thrown("7S")
    assert_illegal(g, action)
    with pytest.raises(tamalou.IllegalAction, match=why):
        g.apply(action)


def test_swap_any_blind_never_aims_at_a_locked_layout_or_a_player_out() -> None:
    """Targets are those of ``g.targets(p, exchanging=True)``: a locked layout (a protected caller) or a
    player out of the round is neither listed nor accepted."""
    g = thrown("7S")
    g.locked = 1 << 2
    assert powers_of(g, 0) == set(all_pairs(g, [0, 1]))
    assert_illegal(g, Power(0, slot=0, target=2, target_slot=0, owner=1))
    g = thrown("7S")
    g.left = 1 << 1
    assert powers_of(g, 0) == set(all_pairs(g, [0, 2]))
    g = thrown("7S")
    g.locked = 1 << 0  # the player's own layout locked: only the two others
    assert powers_of(g, 0) == set(all_pairs(g, [1, 2]))


def test_swap_any_blind_needs_two_layouts() -> None:
    """With two players and the other's layout locked, there are no two layouts: not offered."""
    g = deal(HANDS[:2], stock=["7S", "6C", "6D"], discard=["6S"])
    g.locked = 1 << 1
    events = draw_and_throw(g)
    assert "power_offered" not in kinds(events) and g.phase == "call"


# --------------------------------------------------------------------------------- swap_then_look


def test_swap_then_look_shows_the_card_received_to_the_player_alone() -> None:
    """Kaboo: "Q swap one of your cards with any other player's card, then look at the card you
    received" — the swap is public, the look is secret to the player."""
    g = thrown("8S")
    assert powers_of(g, 0) == {
        Power(0, slot=m, target=q, target_slot=s) for m in range(4) for q in (1, 2) for s in range(4)
    }
    events = g.apply(Power(0, slot=3, target=1, target_slot=0))
    assert g.layout(0)[3] == "2D" and g.layout(1)[0] == "5C"
    assert kinds(events)[:2] == ["swapped", "looked"]
    looked = {"type": "looked", "player": 0, "owner": 0, "slot": 3}
    assert as_seen(events, 0)[1] == {**looked, "card": "2D"}
    assert as_seen(events, 1)[1] == as_seen(events, 2)[1] == {**looked, "card": None}
    assert knowers(g, 0, 3) == {0, 1}  # p1 knew its 2D, p0 looked at it
    assert knowers(g, 1, 0) == set()  # the 5C p0 gave was unknown to all
    assert seen(g, 0, 0) == {0: "2C", 1: "3C", 2: None, 3: "2D"}
    assert seen(g, 2, 0) == dict.fromkeys(range(4))


def test_swap_then_look_refusals() -> None:
    """No own slot, an own card named as the target, a locked layout: refused, the game unchanged."""
    g = thrown("8S")
    assert_illegal(g, Power(0, target=1, target_slot=0))
    assert_illegal(g, Power(0, slot=0, target=0, target_slot=1))
    assert_illegal(g, Power(0, slot=0, target=1, target_slot=0, owner=1))
    g.locked = 1 << 1
    assert_illegal(g, Power(0, slot=0, target=1, target_slot=0))


# --------------------------------------------------------------------------------- look_both_and_swap


def test_a_refused_second_step_of_look_both_and_swap_says_which_slot_may_be_swapped() -> None:
    """The second step of ``look_both_and_swap`` refuses a swap of another slot than the one looked at, and says
    which. Pinned by mutation testing (docs/mutation.md)."""
    g = thrown("9S")
    g.apply(Power(0, slot=3, target=1, target_slot=0))
    with pytest.raises(IllegalAction, match=r"^only the card you looked at \(your slot 3\) may be swapped$"):
        g.apply(Swap(0, 2))


def test_look_both_and_swap_looks_at_both_then_swaps() -> None:
    """Cambia: "K (both colours) look at one of your cards and one of an opponent's, then choose
    whether to swap those two" — both looks are secret to the player, the places public; the second
    step is ``swap`` with the own slot looked at, and only that."""
    g = thrown("9S")
    events = g.apply(Power(0, slot=3, target=1, target_slot=0))
    assert kinds(events) == ["looked", "looked"]
    assert [e.to_dict() for e in events] == [
        {"type": "looked", "player": 0, "owner": 0, "slot": 3, "card": "5C"},
        {"type": "looked", "player": 0, "owner": 1, "slot": 0, "card": "2D"},
    ]
    assert [e["card"] for e in as_seen(events, 1)] == [None, None]
    assert knowers(g, 0, 3) == {0} and knowers(g, 1, 0) == {0, 1}
    assert g.phase == "swap" and turn_options(g, 0) == {Swap(0, 3), Pass(0)}
    assert_illegal(g, Swap(0, 2))
    assert_illegal(g, Power(0, slot=3, target=1, target_slot=0))
    events = g.apply(Swap(0, 3))
    assert g.layout(0)[3] == "2D" and g.layout(1)[0] == "5C"
    assert as_seen(events, 2)[0] == {"type": "swapped", "player": 0, "slot": 3, "target": 1, "target_slot": 0}
    assert knowers(g, 0, 3) == {0, 1} and knowers(g, 1, 0) == {0}
    assert g.phase == "call"


def test_look_both_and_swap_may_keep_both() -> None:
    """Cambia: "then choose whether to swap those two" — ``pass`` keeps them; the player still
    knows both."""
    g = thrown("9S")
    g.apply(Power(0, slot=2, target=2, target_slot=3))
    events = g.apply(Pass(0))
    assert kinds(events)[0] == "passed" and events[0]["phase"] == "swap"
    assert g.layout(0) == HANDS[0] and g.layout(2) == HANDS[2]
    assert seen(g, 0, 2)[3] == "5H" and seen(g, 0, 0)[2] == "4C"


def test_look_both_and_swap_second_step_gone_when_a_card_moved() -> None:
    """If one of the two cards left its place before the second step (a match in the swap phase), the
    swap is no longer offered: only ``pass``."""
    g = thrown("9S")
    g.apply(Power(0, slot=2, target=1, target_slot=0))
    g.hands[1][0], g.hands[1][3] = g.hands[1][3], g.hands[1][0]  # as if the 2D had moved
    assert turn_options(g, 0) == {Pass(0)}
    assert_illegal(g, Swap(0, 2))


# --------------------------------------------------------------------------------- look_any_two_and_swap


def test_look_any_two_and_swap_everyone_sees_which_two_and_the_swap() -> None:
    """Kaboo: "K pick any two cards on the table, look at both, then choose whether to swap them
    (everyone sees which two were picked and whether they were swapped)" — the second step is the same
    ``power`` action again."""
    g = thrown("10S")
    assert powers_of(g, 0) == set(all_pairs(g, [0, 1, 2]))
    pick = Power(0, slot=1, target=2, target_slot=3, owner=1)
    events = g.apply(pick)
    public = [
        {"type": "looked", "player": 0, "owner": 1, "slot": 1, "card": None},
        {"type": "looked", "player": 0, "owner": 2, "slot": 3, "card": None},
    ]
    assert as_seen(events, 1) == as_seen(events, 2) == public
    assert [e["card"] for e in as_seen(events, 0)] == ["3D", "5H"]
    assert g.phase == "swap" and turn_options(g, 0) == {pick, Pass(0)}
    assert_illegal(g, Swap(0, 0))
    assert_illegal(g, Power(0, slot=0, target=2, target_slot=3, owner=1))
    events = g.apply(pick)
    assert g.layout(1)[1] == "5H" and g.layout(2)[3] == "3D"
    swapped = {"type": "swapped", "player": 0, "slot": 1, "target": 2, "target_slot": 3, "owner": 1}
    assert as_seen(events, 2)[0] == swapped
    assert knowers(g, 1, 1) == {0} and knowers(g, 2, 3) == {0, 1}
    assert g.phase == "call"


def test_look_any_two_and_swap_may_keep_them() -> None:
    """Kaboo: "whether they were swapped" — a ``pass`` is public (``passed``, phase swap) and
    nothing moves."""
    g = thrown("10S")
    g.apply(Power(0, slot=3, target=2, target_slot=0, owner=0))
    events = g.apply(Pass(0))
    assert as_seen(events, 1)[0] == {"type": "passed", "player": 0, "phase": "swap"}
    assert g.layout(0) == HANDS[0] and g.layout(2) == HANDS[2]
    assert knowers(g, 0, 3) == {0} and knowers(g, 2, 0) == {0, 2}


# --------------------------------------------------------------------------------- give_stock_card


def test_give_stock_card_unseen_into_a_new_slot() -> None:
    """Dutch: "A give the top card of the stock, face down and unseen, to any other player (it
    joins their layout in a new slot; nobody knows it)" — the event says who got it and where, never
    the card."""
    g = thrown("JS")
    assert powers_of(g, 0) == {Power(0, target=1), Power(0, target=2)}
    stock = g.view(0).stock_size
    events = g.apply(Power(0, target=2))
    assert g.layout(2) == [*HANDS[2], "6C"]
    given = {"type": "given", "player": 2, "slot": 4, "by": 0}
    assert events[0].to_dict() == given
    for p in range(3):
        assert as_seen(events, p)[0] == given
        assert seen(g, p, 2)[4] is None
    assert knowers(g, 2, 4) == set()
    assert g.view(1).stock_size == stock - 1


def test_give_stock_card_reshuffles_when_the_stock_is_empty() -> None:
    """The stock's top card after a reshuffle, when the stock ran out: the reshuffled cards are known to
    nobody, so the card given is unknown too, though it was once face up."""
    g = deal(HANDS, stock=["JS"], discard=["6S"])
    draw_and_throw(g)
    assert g.phase == "power" and g.view(0).stock_size == 0
    events = g.apply(Power(0, target=1))
    assert kinds(events)[:2] == ["reshuffled", "given"]
    assert g.layout(1)[4] == "6S" and knowers(g, 1, 4) == set()


def test_give_stock_card_not_offered_without_a_card_to_give() -> None:
    """No stock and nothing to reshuffle (the thrown card alone on the discard): not offered."""
    g = deal(HANDS, stock=["JS"], discard=[])
    g.apply(Draw(0, "stock"))
    events = g.apply(Discard(0))
    assert "power_offered" not in kinds(events) and g.phase == "call"


def test_give_stock_card_refusals() -> None:
    """Oneself, a seat that does not exist, extra fields, a locked layout: refused, game unchanged."""
    g = thrown("JS")
    for a in (
        Power(0, target=0),
        Power(0, target=3),
        Power(0),
        Power(0, slot=0, target=1),
        Power(0, target=1, target_slot=0),
        Power(0, target=1, owner=1),
    ):
        assert_illegal(g, a)
    g.locked = 1 << 1
    assert powers_of(g, 0) == {Power(0, target=2)}
    with pytest.raises(tamalou.IllegalAction, match="cannot be given"):
        g.apply(Power(0, target=1))


# --------------------------------------------------------------------------------- registration


def test_the_five_powers_are_built_in() -> None:
    """Registered with the built-ins: any ruleset may name them in ``rules.powers``, no plugin needed."""
    rb = rulebook(tamalou.load_variant("french"))
    assert set(POWERS.values()) <= set(rb.powers)
