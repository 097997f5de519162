"""Scenario tests of Cartalogue's "Partie rapide" (docs/rules/cartalogue-rapide.md): a second draw a turn.

Cartalogue rapide is Cartalogue with ``rules.draw.per_turn = 2``: once the first card is resolved
(replaced or thrown, and its power used or declined), the player may draw one more card and resolve
it the same way, or pass; then comes the call. Everything else is Cartalogue (``test_cartalogue.py``).

Every scenario is a stacked deal a reader can follow: ``hands`` per seat (slot 0 first), ``stock``
top first, ``discard`` bottom first, seat 0 plays first, and everybody peeks at slots 0 and 1.
Docstrings quote the "Cartalogue" rules page.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

import pytest

import scenario
import tamalou
from scenario import assert_illegal, close, draw_and_throw, kinds, turn_options
from scenario import random_game_and_events as random_game
from tamalou import (
    Action,
    Call,
    Discard,
    Draw,
    Event,
    MatchAction,
    Pass,
    Power,
    Replace,
    Round,
    Swap,
)

RAPIDE = "cartalogue-rapide"


# --------------------------------------------------------------------------------- helpers

dealt = partial(scenario.dealt, variant=RAPIDE)


def two_seats(stock: Sequence[str], discard: Sequence[str] = ("9D",), variant: str | tamalou.Variant = RAPIDE) -> Round:
    return dealt(
        [
            ["AS", "2S", "3S", "4S"],  # p0 sees AS, 2S
            ["AH", "2H", "3H", "4H"],  # p1 sees AH, 2H
        ],
        stock,
        discard,
        variant=variant,
    )


def second_draw(p: int) -> set[Action]:
    """The offer once the first card is resolved, while both piles can give a card."""
    return {Draw(p, "stock"), Draw(p, "discard"), Pass(p)}


# --------------------------------------------------------------------------------- the second draw


@pytest.mark.parametrize("first", ["thrown", "replaced"])
def test_second_draw_offered_once_the_first_card_is_resolved(first: str) -> None:
    """ "Partie rapide : Chaque joueur peut piocher deux cartes à chaque tour pour accélérer le jeu."
    — Decided: after resolving the first card the player may draw and resolve one more."""
    g = two_seats(stock=["5C", "6C", "2D"])
    plain = two_seats(stock=["5C", "6C", "2D"], variant="cartalogue")

    def play_first_card(game: Round) -> list[Event]:
        drew = game.apply(Draw(0, "stock"))  # the 5C
        return drew + (game.apply(Discard(0)) if first == "thrown" else game.apply(Replace(0, 3)))

    play_first_card(plain)
    events = play_first_card(g)
    # Plain Cartalogue: the turn is played, the call is next.
    assert plain.phase == "call" and turn_options(plain, 0) == {Call(0), Pass(0)}
    # Rapide: a second draw (or a pass), still in p0's turn; no call yet.
    assert kinds(events)[-1] == "draw_offered" and events[-1]["player"] == 0
    assert g.phase == "draw" and g.current_player == 0 and g.turn == 0
    assert turn_options(g, 0) == second_draw(0)
    assert g.view(1).held is None and g.view(0).held is None
    assert_illegal(g, Call(0))
    assert_illegal(g, Discard(0))
    assert_illegal(g, Draw(1, "stock"))


@pytest.mark.parametrize("use", ["used", "declined"])
@pytest.mark.parametrize("drawn", ["7C", "9C", "QC", "KS"])
def test_second_draw_offered_after_the_power_of_the_first_card(drawn: str, use: str) -> None:
    """ "Chaque joueur peut piocher deux cartes à chaque tour" — the power of the first card is part of
    resolving it: the second draw comes after it, used or declined."""
    g = two_seats(stock=[drawn, "6C", "2D"])
    assert kinds(draw_and_throw(g))[-1] == "power_offered"
    assert g.phase == "power"
    assert_illegal(g, Draw(0, "stock"))  # not before the power is resolved
    if use == "declined":
        events = g.apply(Pass(0))
    else:
        power = {
            "7C": Power(0, slot=2),
            "9C": Power(0, target=1, target_slot=2),
            "QC": Power(0, slot=3, target=1, target_slot=2),
            "KS": Power(0, target=1, target_slot=2),
        }[drawn]
        events = g.apply(power)
        if drawn == "KS":  # look, then the swap step
            assert g.phase == "swap" and "draw_offered" not in kinds(events)
            events = g.apply(Swap(0, 3))
    assert kinds(events)[-1] == "draw_offered"
    assert g.phase == "draw" and g.current_player == 0
    assert turn_options(g, 0) == second_draw(0)


def test_second_card_resolved_like_the_first_replace_or_throw() -> None:
    """ "Le joueur peut soit : - Remplacer une carte [...] - Défausser" — for the second card too.
    The page does not say whether the second draw may take back the card just thrown (the discard top);
    the engine lets it, under the rule of any card taken from the discard: it must replace a slot."""
    g = two_seats(stock=["5C", "6C", "2D"])
    draw_and_throw(g)  # the 5C
    # From the stock: replace a slot or throw it.
    s = g.copy()
    s.apply(Draw(0, "stock"))
    assert s.view(0).held == "6C"
    assert turn_options(s, 0) == {Replace(0, k) for k in range(4)} | {Discard(0)}
    replaced = s.copy()
    assert kinds(replaced.apply(Replace(0, 1))) == ["replaced"]
    assert replaced.layout(0) == ["AS", "6C", "3S", "4S"] and replaced.view(1).discard[-1] == "2S"
    assert replaced.phase == "call"
    assert kinds(s.apply(Discard(0))) == ["discarded"]
    assert s.view(1).discard[-2:] == ["5C", "6C"] and s.phase == "call"
    # The thrown 6C opens a matching window as the first card did.
    assert {MatchAction(1, (k,)) for k in range(4)} <= set(s.legal_actions(1))
    # From the discard: its top (the 5C just thrown) must replace a slot, as a first draw would.
    events = g.apply(Draw(0, "discard"))
    assert events[0]["card"] == "5C"
    assert turn_options(g, 0) == {Replace(0, k) for k in range(4)}
    assert_illegal(g, Discard(0))
    g.apply(Replace(0, 3))
    assert g.layout(0) == ["AS", "2S", "3S", "5C"] and g.view(1).discard[-1] == "4S"
    assert g.phase == "call"


@pytest.mark.parametrize(("drawn", "power"), [("8C", "peek_own"), ("10C", "peek_opponent"), ("KH", "look_and_swap")])
def test_second_card_thrown_from_the_stock_gives_its_power(drawn: str, power: str) -> None:
    """ "En piochant une carte spéciale, le joueur peut réaliser une action spécifique" — the second
    card drawn from the stock and thrown has its power, as the first; then the call."""
    g = two_seats(stock=["5C", drawn, "2D"])
    draw_and_throw(g)
    events = draw_and_throw(g)
    assert kinds(events)[-1] == "power_offered" and events[-1]["power"] == power
    assert g.phase == "power"
    g.apply(Pass(0))
    assert g.phase == "call" and turn_options(g, 0) == {Call(0), Pass(0)}


def test_passing_the_second_draw_goes_to_the_call_phase() -> None:
    """ "Chaque joueur peut piocher deux cartes" — may, not must: passing ends the play of the turn."""
    g = two_seats(stock=["5C", "6C", "2D", "3D"])
    draw_and_throw(g)
    events = g.apply(Pass(0))
    assert kinds(events) == ["passed"]
    assert g.phase == "call" and g.current_player == 0 and g.view(0).stock_size == 3
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    g.apply(Call(0))
    # The last turn of p1 has its second draw too; after the call, passing it ends the turn: the round
    # ends once everybody has had a last chance to match the 6C, the last thrown card (closing window).
    draw_and_throw(g)
    assert g.phase == "draw" and turn_options(g, 1) == second_draw(1)
    events = g.apply(Pass(1))
    assert g.phase == "closing" and not g.is_over
    assert [e["players"] for e in events if e.type == "closing"] == [[0, 1]]
    close(g)
    assert g.is_over and g.result().reason == "called"


def test_no_third_draw() -> None:
    """ "piocher deux cartes à chaque tour" — two, not three."""
    g = two_seats(stock=["5C", "6C", "2D", "3D"])
    draw_and_throw(g)
    events = draw_and_throw(g)
    assert "draw_offered" not in kinds(events)
    assert g.phase == "call"
    assert turn_options(g, 0) == {Call(0), Pass(0)}
    assert_illegal(g, Draw(0, "stock"))
    assert_illegal(g, Draw(0, "discard"))
    # Without a call, the next player's turn starts with one draw, then the second is offered again.
    g.apply(Pass(0))
    assert g.current_player == 1 and turn_options(g, 1) == {Draw(1, "stock"), Draw(1, "discard")}
    draw_and_throw(g)
    assert turn_options(g, 1) == second_draw(1)


def test_second_draw_not_offered_when_nothing_can_be_drawn() -> None:
    """The page is silent; Decided: after resolving the first card the player may draw and resolve one
    more — only when there is a card to draw.

    In Cartalogue rapide itself a card can always be drawn after a throw (the thrown card is on the
    discard), so this uses the same ruleset without draws from the discard: the stock's last card is
    thrown on an empty discard, which cannot be reshuffled."""
    data = tamalou.load_variant(RAPIDE).model_dump()
    data["rules"]["draw"]["from_discard"] = False
    no_discard_draw = tamalou.variant_from_dict(data)
    g = two_seats(stock=["5C"], discard=[], variant=no_discard_draw)
    events = draw_and_throw(g)
    assert "draw_offered" not in kinds(events)
    assert g.phase == "call" and turn_options(g, 0) == {Call(0), Pass(0)}
    assert_illegal(g, Draw(0, "stock"))
    # With a card left to reshuffle (the 9D under the thrown 5C), the second draw is offered.
    g = two_seats(stock=["5C"], discard=["9D"], variant=no_discard_draw)
    events = draw_and_throw(g)
    assert kinds(events)[-1] == "draw_offered"
    assert turn_options(g, 0) == {Draw(0, "stock"), Pass(0)}
    assert kinds(g.apply(Draw(0, "stock"))) == ["reshuffled", "drew"]
    assert g.view(0).held == "9D"


# --------------------------------------------------------------------------------- random games


def second_draws_taken(events: Sequence[Event]) -> int:
    """How many offered second draws were taken (a draw, not a pass, right after the offer)."""
    taken = 0
    for i, e in enumerate(events):
        if e.type == "draw_offered":
            answer = next(x for x in events[i + 1 :] if x.type in ("drew", "passed"))
            taken += answer.type == "drew"
    return taken


def test_random_games_end_without_error_and_keep_every_card() -> None:
    """30 seeded games of 2 to 6 players, random legal actions of any seat: each ends, no card lost,
    and second draws are offered and taken."""
    rng = random.Random(2)
    taken = 0
    for i in range(30):
        players = 2 + i % 5
        g, events = random_game(RAPIDE, players, seed=i, rng=rng, universe=52)
        taken += second_draws_taken(events)
        result = g.result()
        assert sorted(p for place in result.ranking for p in place) == list(range(players))
        assert all(result.totals[p] <= 5 for p in result.winners)
    assert taken > 0


def test_declining_the_second_draw_is_a_pass_in_the_draw_phase() -> None:
    """Declining the second draw is a ``pass`` that the event reports in the draw phase, where it was made; the
    turn then goes on to the call. Pinned by mutation testing (docs/mutation.md)."""
    g = two_seats(stock=["5C", "6C", "2D"])
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0))
    events = g.apply(Pass(0))
    assert [e.to_dict() for e in events] == [{"type": "passed", "player": 0, "phase": "draw"}]
    assert g.phase == "call" and g.current_player == 0


def test_decided_no_penalty_card_left_matching_is_closed() -> None:
    """Decided: "No penalty card left: matching is closed" — the stock empty and the discard holding only its top,
    no match is listed nor accepted (a wrong one would only show the card: a free look), with the same refusal
    whatever the card; once the discard holds a second card, matching opens again."""
    g = scenario.no_penalty_card_left(RAPIDE, [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"]], "9S", "5H")
    scenario.assert_matching_closed(g)
    scenario.assert_matching_reopens(g)
