"""Scenario tests of the ``opponent-matching`` modifier (docs/rules/opponent-matching.md; a miss
follows the sheet author's answer to Élodie).

The rule is the French rule sheet "Le Tamalou", Variantes 2: "à tout moment, un joueur peut jeter une ou
plusieurs cartes issues des dispositions de ses adversaires si celles-ci sont de même valeur que celle
visible dans la défausse. Le joueur en question doit ensuite remplacer les cartes défaussées dans les
jeux des autres joueurs par des cartes de son propre jeu ; mais attention, il n'a pas le droit de
regarder les cartes de remplacement." (added for Xavier and Kowari), with the answer to Élodie on a
miss.

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first; from the
French opening peek each player knows its slots 0 and 1), ``stock`` top first, ``discard`` bottom
first, and seat 0 plays first.
"""

from __future__ import annotations

from functools import partial

import pytest

import scenario
import tamalou
from scenario import assert_illegal, draw_and_throw, kinds, matches_listed, play_out, seen
from tamalou import (
    Action,
    Call,
    Discard,
    Draw,
    Give,
    IllegalAction,
    MatchAction,
    Pass,
    PeekAction,
    Power,
    Round,
    Swap,
    Tick,
)

OPPONENT_MATCHING = "opponent-matching"  # loaded alone, a modifier applies to French


# --------------------------------------------------------------------------------- helpers

deal = partial(scenario.deal, variant=OPPONENT_MATCHING)


def own_and_opponents(g: Round, p: int) -> set[Action]:
    """Every one-card match ``p`` could try: on each occupied slot of theirs and of every opponent."""
    out: set[Action] = {MatchAction(p, (s,)) for s in g.occupied(p)}
    for q in range(g.players):
        if q != p:
            out |= {MatchAction(p, (s,), owner=q) for s in g.occupied(q)}
    return out


def _three_seats() -> Round:
    """The discard turned up at the deal is a 5D: its window is open from the start."""
    return deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["6H", "7H", "5H", "8H"],  # p1 sees 6H, 7H; its 5H is what p0 is after
            ["9D", "2D", "3D", "4D"],  # p2 sees 9D, 2D
        ],
        stock=["6C", "2C", "3C"],
        discard=["5D"],
    )


# --------------------------------------------------------------------------------- the variant


def test_modifier_alone_is_french_with_opponent_matching() -> None:
    """ "Règle supplémentaire" (Variantes 2): added to the French rules, nothing else changes."""
    french = tamalou.load_variant("french")
    alone = tamalou.load_variant(OPPONENT_MATCHING)
    composed = tamalou.load_variant(["french", OPPONENT_MATCHING])
    assert alone.rules == composed.rules
    assert alone.rules.matching.opponents is True and french.rules.matching.opponents is False
    assert alone.rules.model_dump(exclude={"matching"}) == french.rules.model_dump(exclude={"matching"})
    assert alone.rules.matching.model_dump(exclude={"opponents"}) == french.rules.matching.model_dump(
        exclude={"opponents"}
    )
    assert alone.plugins == french.plugins  # French's caller rule comes along
    assert tamalou.load_variant("cabo-matching").rules == alone.rules


# --------------------------------------------------------------------------------- taking and giving


def test_opponents_card_of_the_tops_rank_is_thrown_then_own_card_given_into_its_slot() -> None:
    """ "un joueur peut jeter une ou plusieurs cartes issues des dispositions de ses adversaires si
    celles-ci sont de même valeur que celle visible dans la défausse. Le joueur en question doit
    ensuite remplacer les cartes défaussées dans les jeux des autres joueurs par des cartes de son
    propre jeu" — Xavier: "je défausse le 4 de mon adversaire et le remplace par une de mes cartes." """
    g = _three_seats()
    # Every player may try every card of the table (listing only right ones would leak).
    for p in range(3):
        assert matches_listed(g, p) == own_and_opponents(g, p)
    events = g.apply(MatchAction(0, (2,), owner=1))  # p0 throws p1's 5H on the 5D, out of nowhere
    assert kinds(events) == ["matched", "give_owed"]
    assert events[0]["owner"] == 1 and events[0]["card"] == "5H"
    assert events[1]["player"] == 0 and events[1]["owner"] == 1 and events[1]["count"] == 1
    assert g.view(2).discard == ["5D", "5H"]
    assert g.layout(1)[2] is None
    # Now p0 owes a card: only a give, of any card of theirs, is possible.
    assert g.phase == "give"
    assert all(g.view(p).giver == 0 for p in range(3))
    assert g.legal_actions(0) == [Give(0, s) for s in range(4)]
    (gave,) = g.apply(Give(0, 3))
    assert gave.type == "gave"
    assert (gave["player"], gave["slot"], gave["target"], gave["target_slot"]) == (0, 3, 1, 2)
    # The 4S goes into p1's emptied slot, with the same number; p0's slot 3 is left empty.
    assert g.layout(1) == ["6H", "7H", "4S", "8H"]
    assert g.layout(0) == ["AS", "2S", "3S", None]
    assert g.card_count(0) == 3 and g.card_count(1) == 4
    # The game goes on where it was: p0, who had not drawn yet, draws.
    assert g.phase == "draw" and g.current_player == 0
    assert all(g.view(p).giver is None for p in range(3))
    assert Draw(0, "stock") in g.legal_actions(0)


def test_given_card_is_chosen_without_looking() -> None:
    """ "mais attention, il n'a pas le droit de regarder les cartes de remplacement." — the giver
    knows the card they give only if they knew it before; its new owner is not shown it."""
    g = _three_seats()
    g.apply(MatchAction(0, (2,), owner=1))
    unknown = g.copy()
    (gave,) = unknown.apply(Give(0, 3))  # p0 never saw its 4S
    for p in range(3):
        assert gave.for_player(p).get("card") is None
        assert seen(unknown, p, 1)[2] is None
    known = g.copy()
    known.apply(Give(0, 0))  # p0's AS, seen at the opening peek
    assert known.layout(1)[2] == "AS"
    assert seen(known, 0, 1)[2] == "AS"  # the giver still knows it, now in p1's slot 2
    assert seen(known, 1, 1)[2] is None  # its new owner does not
    assert seen(known, 2, 1)[2] is None


def test_knowledge_follows_the_given_card() -> None:
    """The give is made in everyone's sight (a player who knows a card keeps knowing where it is when it
    moves in a way everyone sees): a player who knew the given card knows it at its new place, and nobody
    learns it there who did not know it."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["5H", "6H", "7H", "8H"],  # p1 sees 5H, 6H; it never saw its 8H
            ["9H", "2D", "3D", "4D"],  # p2 sees 9H, 2D
        ],
        stock=["9C", "6C", "2C"],
        discard=["KD"],
    )
    draw_and_throw(g)  # p0 throws the 9C: peek at an opponent's card
    g.apply(Power(0, target=1, target_slot=3))  # p0 looks at p1's 8H
    assert seen(g, 0, 1)[3] == "8H" and seen(g, 1, 1)[3] is None
    events = g.apply(MatchAction(1, (0,), owner=2))  # p1 throws p2's 9H on the 9C
    assert kinds(events) == ["matched", "give_owed"]
    g.apply(Give(1, 3))  # ... and gives its 8H, unseen by p1
    assert g.layout(2)[0] == "8H" and g.layout(1)[3] is None
    assert seen(g, 0, 2)[0] == "8H"  # p0 looked at that card: it knows where it went
    assert seen(g, 1, 2)[0] is None  # the giver never saw it
    assert seen(g, 2, 2)[0] is None  # p2 knew its 9H in slot 0, not the card now there
    assert g.phase == "call" and g.current_player == 0


def test_several_opponent_cards_one_give_for_each_into_its_own_slot() -> None:
    """ "une ou plusieurs cartes [...] remplacer les cartes défaussées dans les jeux des autres joueurs
    par des cartes de son propre jeu" — one card given for each card taken, slot for slot."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5H", "6H", "5C", "8H"],  # p0 believes p1's slots 0 and 2 are 5s
        ],
        stock=["6C", "2C"],
        discard=["5D"],
    )
    events = g.apply(MatchAction(0, (0, 2), owner=1))
    assert kinds(events) == ["matched", "matched", "give_owed"]
    assert events[-1]["count"] == 2
    g.apply(Give(0, 3))  # the first give fills slot 0, the second slot 2
    assert g.phase == "give" and g.view(1).giver == 0
    assert g.legal_actions(0) == [Give(0, s) for s in range(3)]
    g.apply(Give(0, 1))
    assert g.layout(1) == ["4S", "6H", "2S", "8H"]
    assert g.layout(0) == ["AS", None, "3S", None]
    assert g.phase == "draw" and g.view(1).giver is None
    # A player may not take more cards than they could give back.
    g2 = deal(
        [
            ["AS", "2S"],  # p0 has two cards
            ["5H", "5C", "5S", "8H"],
        ],
        stock=["6C"],
        discard=["5D"],
    )
    assert g2.view(0).discard_top == "5D"
    assert_illegal(g2, MatchAction(0, (0, 1, 3), owner=1))


def test_while_a_give_is_pending_nobody_else_can_act() -> None:
    """The card is owed at once ("doit ensuite remplacer"): until it is given, nothing else happens —
    no other player acts, and the giver does nothing but give."""
    g = _three_seats()
    g.apply(MatchAction(2, (2,), owner=1))  # p2 throws p1's 5H before p0 has drawn
    # During the give the giver is the player to move; the turn goes back to p0 once it is done.
    assert g.phase == "give" and g.current_player == 2
    assert g.to_act == [2]
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []
    assert g.legal_actions(2) == [Give(2, s) for s in range(4)]
    for action in (
        Draw(0, "stock"),  # the player to move
        Draw(0, "discard"),
        Pass(0),
        Call(0),
        MatchAction(0, (0,)),  # a match of one's own card
        MatchAction(1, (1,)),  # the owner of the emptied slot
        MatchAction(0, (1,), owner=2),  # an opponent's card
        Give(0, 0),  # a give by somebody who owes nothing
        Give(1, 0),
        MatchAction(2, (1,)),  # the giver: nothing but the give
        MatchAction(2, (0,), owner=0),
        Draw(2, "stock"),
        Give(2, 7),  # not a slot of theirs
    ):
        assert_illegal(g, action)
    g.apply(Give(2, 3))
    assert g.phase == "draw" and g.current_player == 0
    assert Draw(0, "stock") in g.legal_actions(0)
    assert_illegal(g, Give(2, 0))  # nothing is owed any more


def test_window_is_owned_by_whoever_took_an_opponents_card_first() -> None:
    """ "Si plusieurs joueurs ont une carte de même valeur à jeter, le plus rapide l’emporte ; le plus
    lent replace sa carte dans son jeu." — the same for a card taken from an opponent."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["6H", "7H", "5H", "8H"],
            ["5C", "2D", "3D", "4D"],  # p2 sees its 5C
        ],
        stock=["6C", "2C"],
        discard=["5D"],
    )
    g.apply(MatchAction(0, (2,), owner=1))
    g.apply(Give(0, 3))
    assert matches_listed(g, 2) == set() and matches_listed(g, 1) == set()
    events = g.apply(MatchAction(2, (0,)))  # p2 is late with its own 5C
    assert kinds(events) == ["late"]
    assert g.layout(2)[0] == "5C" and g.card_count(2) == 4  # taken back, no penalty (French)
    assert g.view(0).discard_top == "5H"


# --------------------------------------------------------------------------------- a miss


def test_ruling_16_missed_opponent_card_goes_back_seen_by_all_thrower_takes_penalty() -> None:
    """Élodie: "le joueur s'étant trompé doit replacer au bon endroit la carte chipée à son adversaire
    et se rajouter une nouvelle carte à gérer (une pénalité, donc). Et puis, oui, tout le monde connaît
    la carte dont il a voulu se défausser !" """
    g = _three_seats()
    draw_and_throw(g)  # p0 throws the 6C
    g.apply(Pass(0))
    assert g.current_player == 1
    events = g.apply(MatchAction(2, (3,), owner=1))  # p2 believes p1's slot 3 is a 6: it is the 8H
    assert kinds(events) == ["missed", "penalty"]
    assert events[0]["owner"] == 1 and events[0]["card"] == "8H"
    assert events[1]["player"] == 2 and events[1]["slot"] == 4
    # The card is back in its place, and every view shows it, its owner's included.
    assert g.layout(1) == ["6H", "7H", "5H", "8H"]
    for p in range(3):
        assert seen(g, p, 1)[3] == "8H"
    # The thrower takes the penalty card, face down and unseen, in a new slot: nothing to give.
    assert g.layout(2) == ["9D", "2D", "3D", "4D", "2C"]
    for p in range(3):
        assert seen(g, p, 2)[4] is None
    assert g.phase == "draw" and g.current_player == 1
    assert all(g.view(p).giver is None for p in range(3))
    assert not any(isinstance(a, Give) for p in range(3) for a in g.legal_actions(p))
    assert g.view(0).discard_top == "6C"
    # The miss does not close the window: p1 may still throw its own 6H on the 6C.
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]


# --------------------------------------------------------------------------------- no card to give


def _p0_emptied() -> Round:
    """p0 throws its four cards on two windows (9S, then three 6s); then p1 throws a 5C and p0 has
    no card left to give."""
    g = deal(
        [
            ["9S", "6D", "6H", "6C"],  # p0 sees 9S, 6D; its 6H, 6C are lucky guesses
            ["5H", "2H", "3H", "4H"],  # p1 sees its 5H
            ["5S", "2D", "3D", "4D"],
        ],
        stock=["6S", "5C", "2C"],
        discard=["9D"],
    )
    g.apply(MatchAction(0, (0,)))  # the 9S on the 9D turned up at the deal
    draw_and_throw(g)  # p0 throws the 6S...
    assert kinds(g.apply(MatchAction(0, (1, 2, 3)))) == ["matched"] * 3  # ... and its three 6s
    assert g.card_count(0) == 0
    g.apply(Pass(0))
    draw_and_throw(g)  # p1 throws the 5C
    return g


def test_player_with_no_card_to_give_cannot_match_an_opponents_card() -> None:
    """Decided: a player with no card to give cannot match an opponent's card — the replacement
    must come "de son propre jeu"."""
    g = _p0_emptied()
    assert g.view(0).discard_top == "5C"
    assert matches_listed(g, 0) == set()
    assert_illegal(g, MatchAction(0, (0,), owner=1))  # p1's 5H: right, but nothing to give for it
    assert_illegal(g, MatchAction(0, (0,), owner=2))
    # The others, who have cards, may.
    assert matches_listed(g, 2) == own_and_opponents(g, 2)
    assert MatchAction(2, (0,), owner=1) in g.legal_actions(2)


def test_a_player_may_not_take_more_opponent_cards_than_they_have_cards_to_give() -> None:
    """Each card taken from an opponent is paid for with one of your own; a player with one card left
    may not take two (the refusal carries the action).
    Pinned by mutation testing (docs/mutation.md)."""
    g = deal(
        [["AS"], ["5H", "5S", "6H", "7H"], ["5C", "2D", "3D", "4D"]],
        stock=["6C", "2C", "3C"],
        discard=["5D"],
    )
    take_two = MatchAction(0, (0, 1), owner=1)
    with pytest.raises(IllegalAction, match="a card of your own to give for each card you take") as info:
        g.apply(take_two)
    assert info.value.action == take_two


def test_own_matching_still_works() -> None:
    """Variantes 2 is a "Règle supplémentaire": one's own cards are matched as before, with nothing
    to give."""
    g = _three_seats()
    assert MatchAction(1, (2,)) in g.legal_actions(1)
    events = g.apply(MatchAction(1, (2,)))  # p1 throws its own 5H
    assert kinds(events) == ["matched"]
    assert g.layout(1) == ["6H", "7H", None, "8H"]
    assert g.phase == "draw" and g.view(1).giver is None
    assert not any(isinstance(a, Give) for p in range(3) for a in g.legal_actions(p))
    # A miss on one's own card is French too: the card returns, a penalty card.
    draw_and_throw(g)  # p0 throws the 6C
    assert kinds(g.apply(MatchAction(2, (3,)))) == ["missed", "penalty"]
    assert g.card_count(2) == 5


# --------------------------------------------------------------------------------- compositions


def test_composes_over_cartalogue_one_card_per_thrown_card() -> None:
    """Composed over Cartalogue, the modifier adds only its key: Cartalogue's peek phase, values and
    "celui-ci peut immédiatement se défausser de cette carte" (one card per thrown card) stay."""
    cartalogue = tamalou.load_variant("cartalogue")
    v = tamalou.load_variant(["cartalogue", OPPONENT_MATCHING])
    assert v.rules.matching.opponents is True
    assert v.rules.model_dump(exclude={"matching"}) == cartalogue.rules.model_dump(exclude={"matching"})
    assert v.rules.matching.model_dump(exclude={"opponents"}) == cartalogue.rules.matching.model_dump(
        exclude={"opponents"}
    )
    assert v.plugins == cartalogue.plugins  # no French caller rule slipped in
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["6H", "7H", "5H", "8H"],
            ["5C", "2D", "3D", "4D"],
        ],
        stock=["6C", "2C"],
        discard=["5D"],
        variant=v,
    )
    assert g.phase == "peek"
    assert not any(isinstance(a, MatchAction) for a in g.legal_actions(0))
    for p in range(3):
        g.apply(PeekAction(p, (0, 1)))
    assert g.phase == "draw"
    assert matches_listed(g, 0) == own_and_opponents(g, 0)
    assert_illegal(g, MatchAction(2, (0, 1)))  # two cards at once
    events = g.apply(MatchAction(0, (2,), owner=1))
    assert kinds(events) == ["matched", "give_owed"]
    g.apply(Give(0, 3))
    assert g.layout(1)[2] == "4S"
    # One card per thrown card: p0 has used its one.
    assert matches_listed(g, 0) == set()
    assert_illegal(g, MatchAction(0, (0,)))
    assert_illegal(g, MatchAction(0, (0,), owner=2))


def test_composes_over_cartalogue_miss_and_values() -> None:
    """Cartalogue + opponent matching: a miss on an opponent's card costs "une carte de pénalité", and
    the card values are Cartalogue's ("Le "10" vaut 0 points")."""
    v = tamalou.load_variant(["cartalogue", OPPONENT_MATCHING])
    g = deal(
        [
            ["10S", "2S", "3S", "4S"],  # 0 + 2 + 3 + 4 = 9
            ["KH", "7H", "5H", "8H"],  # 10 + 7 + 5 + 8 = 30
        ],
        stock=["6C", "2C", "3C"],
        discard=["9D"],
        variant=v,
    )
    for p in range(2):
        g.apply(PeekAction(p, (0, 1)))
    events = g.apply(MatchAction(1, (0,), owner=0))  # the 10S is not a 9
    assert kinds(events) == ["missed", "penalty"]
    assert all(seen(g, p, 0)[0] == "10S" for p in range(2))
    assert g.layout(1) == ["KH", "7H", "5H", "8H", "6C"]
    assert g.total(0) == 9 and g.total(1) == 36


def test_composes_over_french_with_the_french_caller_rule() -> None:
    """Over French, the round still ends as French does: "En cas d’égalité, l’annonceur est toujours
    perdant." And a matched card's power stays with the player who threw it (the author: "le fait qu'un
    adversaire se défausse ... sur la carte que vous avez jetée ne vous interdit pas ... d'utiliser le
    pouvoir de cette carte")."""
    g = deal(
        [
            ["AS", "2S", "KH", "7D"],  # p0: 10 points; it never saw its 7D
            ["7S", "AH", "2H", "KD"],  # p1 sees 7S, AH; it guesses that p0's slot 3 is a 7
        ],
        stock=["7C", "3C", "5C"],
        discard=["6D"],
        variant=["french", OPPONENT_MATCHING],
    )
    draw_and_throw(g)  # p0 throws the 7C: peek at an own card on offer
    assert g.phase == "power"
    events = g.apply(MatchAction(1, (3,), owner=0))  # p1 throws p0's 7D on the 7C
    assert kinds(events) == ["matched", "give_owed"]
    g.apply(Give(1, 3))  # p1 gives its KD (0 points) into p0's slot 3
    assert kinds(g.apply(MatchAction(1, (0,)))) == ["matched"]  # and throws its own 7S too
    assert g.layout(0) == ["AS", "2S", "KH", "KD"] and g.total(0) == 3
    assert g.layout(1) == [None, "AH", "2H", None] and g.total(1) == 3
    assert g.phase == "power" and g.current_player == 0  # the 7C's power is still on offer
    g.apply(Pass(0))
    g.apply(Call(0))
    play_out(g)
    result = g.result()
    assert result.caller == 0 and result.totals == [3, 3]
    assert result.winners == [1]  # a tie: the caller loses it


# --------------------------------------------------------------------------------- emptied by giving


def test_giving_ones_last_card_empties_the_layout_must_call_on_next_turn() -> None:
    """Cathy: "lorsqu'un joueur se débarrasse de toutes ses cartes, il doit impérativement annoncer le
    "Tamalou" à son tour de jeu" — here the last card went to an opponent as the replacement."""
    g = deal(
        [
            ["AS", "2S", "3S", "6C"],  # p0: its 6C is what p1 is after
            ["9S", "6D", "6H", "4C"],  # p1 sees 9S, 6D; its 6H is a lucky guess
        ],
        stock=["6S", "5C", "2C"],
        discard=["9D"],
    )
    g.apply(MatchAction(1, (0,)))  # the 9S on the 9D turned up at the deal
    draw_and_throw(g)  # p0 throws the 6S
    assert kinds(g.apply(MatchAction(1, (1, 2)))) == ["matched", "matched"]
    assert g.layout(1) == [None, None, None, "4C"]
    assert MatchAction(1, (3,), owner=0) in g.legal_actions(1)  # one card left: one to give
    assert kinds(g.apply(MatchAction(1, (3,), owner=0))) == ["matched", "give_owed"]
    assert g.legal_actions(1) == [Give(1, 3)]
    g.apply(Give(1, 3))  # the last card goes into p0's slot 3
    assert g.card_count(1) == 0 and g.layout(0) == ["AS", "2S", "3S", "4C"]
    assert not g.is_over and g.phase == "call" and g.current_player == 0
    g.apply(Pass(0))
    # p1's turn: with no card, the call is the only thing it may do, without playing.
    assert g.current_player == 1
    assert g.legal_actions(1) == [Call(1)]
    assert_illegal(g, Draw(1, "stock"))
    assert_illegal(g, Draw(1, "discard"))
    events = g.apply(Call(1))
    assert "drew" not in kinds(events) and g.caller == 1
    play_out(g)
    result = g.result()
    assert result.reason == "called" and result.card_counts[1] == 0
    assert result.totals == [10, 0] and result.winners == [1]


# --------------------------------------------------------------------------------- with powers


def test_look_and_swap_does_not_swap_a_card_that_replaced_the_looked_at_one() -> None:
    """ "le joueur peut échanger une carte de son jeu avec une carte du jeu d’un adversaire qu’il a la
    possibilité de regarder" (Decided: look at an opponent's card, then swap it with one of yours, or
    not). If that very card is thrown by a third player before the swap, the card given in its place
    is not the one looked at: the swap is no longer on offer (as when the slot is left empty)."""
    g = deal(
        [
            ["AS", "2S", "3S", "4S"],
            ["5H", "6H", "KH", "8H"],
            ["9H", "2D", "3D", "QD"],  # p2 believes p1's slot 2 is a king
        ],
        stock=["KS", "6C", "7C"],
        discard=["5D"],
    )
    draw_and_throw(g)  # p0 throws the KS: look, then maybe swap
    g.apply(Power(0, target=1, target_slot=2))  # p0 looks at p1's KH (0 points) and wants it
    assert g.phase == "swap"
    g.apply(MatchAction(2, (2,), owner=1))  # p2 throws that KH on the KS...
    g.apply(Give(2, 3))  # ... and gives its QD (10 points) into the same slot
    assert g.layout(1)[2] == "QD"
    assert seen(g, 0, 1)[2] is None  # p0 never looked at the QD
    assert not any(isinstance(a, Swap) for a in g.legal_actions(0))
    assert_illegal(g, Swap(0, 0))
    assert Pass(0) in g.legal_actions(0)


def test_in_tamalou_fun_a_layout_emptied_by_an_opponents_match_waits_for_the_card_given_back() -> None:
    """Over tamalou.fun, where a layout left with no card ends the round at once: seat 0 matches seat 1's last
    card, the 5H, on its own 5C. The round does not end: it waits for seat 0's give, which fills seat 1's layout
    again, and goes on. Pinned by mutation testing (docs/mutation.md)."""
    g = scenario.deal(
        [["AS", "2S", "3S", "4S"], ["5H"]],
        stock=["5C", "6C", "7C"],
        discard=["3C"],
        variant=["tamalou-fun", OPPONENT_MATCHING],
    )
    g.apply(Tick(at=5))  # the opening ends
    g.apply(Draw(0, "stock", at=6))
    g.apply(Discard(0, at=6))
    events = g.apply(MatchAction(0, (0,), owner=1, at=7))
    assert kinds(events) == ["matched", "give_owed"]
    assert g.phase == "give" and not g.is_over
    g.apply(Give(0, 3, at=8))
    assert g.layout(1) == ["4S"] and g.phase == "draw" and not g.is_over


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    hands = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]]
    g = scenario.no_penalty_card_left(OPPONENT_MATCHING, hands, "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
